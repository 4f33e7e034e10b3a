import { afterAll, beforeAll, expect, test } from "bun:test";
import { toolPortabilityProblems, type ListedTool } from "../../scripts/portability.ts";
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
])("the %s tool list is portable across MCP clients", async (_mode, readOnly) => {
  const { tools } = (await listedTools(fake, { readOnly })).result;
  expect(tools.length).toBeGreaterThanOrEqual(readOnly ? 4 : 6);
  expect(toolPortabilityProblems(tools as ListedTool[])).toEqual([]);
});
