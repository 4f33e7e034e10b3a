import { expect, test } from "bun:test";
import { fakeForFile } from "../support/fake.ts";
import { toolPortabilityProblems, type ListedTool } from "../../scripts/portability.ts";
import { listedTools } from "../support/mcp.ts";

const fake = await fakeForFile();

test.each([
  ["read-write", false],
  ["read-only", true],
])("the %s tool list is portable across MCP clients", async (_mode, readOnly) => {
  const { tools } = (await listedTools(fake, { readOnly })).result;
  expect(tools.length).toBeGreaterThanOrEqual(readOnly ? 4 : 6);
  expect(toolPortabilityProblems(tools as ListedTool[])).toEqual([]);
});
