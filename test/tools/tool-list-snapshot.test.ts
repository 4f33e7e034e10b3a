// Single-host mode's tools/list is a contract: several hosts (PROXMOX_HOSTS) must not change a
// byte of it. After an intended change to a tool, update with `bun test --update-snapshots`.
import { expect, test } from "bun:test";
import { fakeForFile } from "../support/fake.ts";
import { listedTools } from "../support/mcp.ts";

const fake = await fakeForFile();

test.each([
  ["read-write", false],
  ["read-only", true],
])("the single-host %s tools/list answer is unchanged, byte for byte", async (_mode, readOnly) => {
  expect((await listedTools(fake, { readOnly })).line).toMatchSnapshot();
});
