import { expect, test } from "bun:test";
import { fakeForFile } from "../support/fake.ts";
import { listedTools } from "../support/mcp.ts";

// The tool list is sent to the model in every conversation: every word in it is paid for
// again and again. The whole tools/list answer stays under 8 KiB.
const MAX_TOOL_LIST_BYTES = 8 * 1024;

const fake = await fakeForFile();

test.each([
  ["read-write", false, "stdio"],
  ["read-only", true, "stdio"],
  // over HTTP the file tools say whose machine their paths are on
  ["HTTP read-write", false, "http"],
] as const)("the %s tools/list answer stays under 8 KiB", async (_mode, readOnly, transport) => {
  const { line } = await listedTools(fake, { readOnly, transport });
  expect(Buffer.byteLength(line)).toBeLessThan(MAX_TOOL_LIST_BYTES);
});
