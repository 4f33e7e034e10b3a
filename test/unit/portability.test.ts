import { describe, expect, test } from "bun:test";
import { toolPortabilityProblems, type ListedTool } from "../../scripts/portability.ts";

const annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
const good: ListedTool = {
  name: "proxmox_get",
  title: "Read",
  description: "GET a path",
  inputSchema: {
    type: "object",
    properties: { path: { type: "string", description: "the path" } },
    required: ["path"],
  },
  annotations,
};

describe("toolPortabilityProblems", () => {
  test("a plain tool is portable", () => {
    expect(toolPortabilityProblems([good])).toEqual([]);
  });
  test.each([
    [{ ...good, name: "proxmox.get" }, "name must match"],
    [{ ...good, name: "x".repeat(65) }, "name must match"],
    [{ ...good, title: undefined }, "no title"],
    [{ ...good, description: "" }, "no description"],
    [{ ...good, description: "d".repeat(1025) }, "longer than 1024"],
    [{ ...good, inputSchema: { type: "string" } }, 'inputSchema.type must be "object"'],
    [
      { ...good, inputSchema: { type: "object", properties: {}, required: ["path"] } },
      "required 'path' is not a property",
    ],
    [
      {
        ...good,
        inputSchema: { type: "object", properties: { p: { anyOf: [{ type: "string" }], description: "p" } } },
      },
      "uses 'anyOf'",
    ],
    [
      {
        ...good,
        inputSchema: { type: "object", properties: { p: { type: "object", propertyNames: {}, description: "p" } } },
      },
      "uses 'propertyNames'",
    ],
    [{ ...good, inputSchema: { type: "object", properties: { p: { type: "string" } } } }, "p has no description"],
    [{ ...good, annotations: { readOnlyHint: true } }, "annotation destructiveHint missing"],
  ])("flags %#: %s", (tool, problem) => {
    expect(toolPortabilityProblems([tool as ListedTool]).join("\n")).toContain(problem);
  });
  test("a name listed twice", () => {
    expect(toolPortabilityProblems([good, good])).toEqual(['tool "proxmox_get": listed twice']);
  });
});
