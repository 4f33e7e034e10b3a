import { afterAll, beforeAll, expect, test } from "bun:test";
import { toolPortabilityProblems, type ListedTool } from "../../scripts/portability.ts";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { connectHarness } from "../support/mcp.ts";

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
  const h = await connectHarness(fake, { client: { readOnly }, deps: { readOnly } });
  try {
    const { tools } = await h.client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(readOnly ? 4 : 6);
    expect(toolPortabilityProblems(tools as ListedTool[])).toEqual([]);
  } finally {
    await h.close();
  }
});
