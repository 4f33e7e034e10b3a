// Single-host mode's tools/list is a contract: several hosts (PROXMOX_HOSTS) must not change a
// byte of it. After an intended change to a tool, update with `bun test --update-snapshots`.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { listedTools } from "../support/mcp.ts";

let fake: FakeProxmox;
beforeAll(async () => {
  fake = await FakeProxmox.start();
});
afterAll(async () => {
  await fake.stop();
});

test.each([
  ["read-write", false],
  ["read-only", true],
])("the single-host %s tools/list answer is unchanged, byte for byte", async (_mode, readOnly) => {
  expect((await listedTools(fake, { readOnly })).line).toMatchSnapshot();
});
