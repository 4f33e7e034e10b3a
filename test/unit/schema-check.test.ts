import { describe, expect, test } from "bun:test";
import { checkParameters, valueProblem } from "../../src/advice/schema-check.ts";
import type { ParameterInfo } from "../../src/catalog/schema.ts";

describe("valueProblem", () => {
  test.each<[ParameterInfo, string | number | boolean, string | undefined]>([
    [{ type: "integer" }, 5, undefined],
    [{ type: "integer" }, "5", undefined],
    [{ type: "integer" }, "5.5", "'5.5' is not an integer"],
    [{ type: "integer" }, "abc", "'abc' is not an integer"],
    [{ type: "integer", minimum: 1 }, 0, "0 is below the minimum 1"],
    [{ type: "integer", maximum: "10" }, 11, "11 is above the maximum 10"],
    [{ type: "number" }, "1.5", undefined],
    [{ type: "number" }, "x", "'x' is not a number"],
    [{ type: "boolean" }, true, undefined],
    [{ type: "boolean" }, "off", undefined],
    [{ type: "boolean" }, "maybe", "'maybe' is not a boolean (use 0 or 1)"],
    [{ type: "string", enum: ["snapshot", "suspend", "stop"] }, "stop", undefined],
    [{ type: "string", enum: ["snapshot", "suspend", "stop"] }, "live", "'live' is not one of snapshot, suspend, stop"],
    [{ type: "string" }, "anything", undefined],
    [{}, "untyped means string", undefined],
  ])("%j with %j", (info, value, problem) => {
    expect(valueProblem(info, value)).toBe(problem);
  });
});

describe("checkParameters", () => {
  const schema: Record<string, ParameterInfo> = {
    node: { type: "string" },
    vmid: { type: "integer", minimum: 100 },
    mode: { type: "string", enum: ["snapshot", "stop"], optional: 1 },
    remove: { type: "boolean", optional: 1 },
    storage: { type: "string" },
  };

  test("a correct call has no problems", () => {
    expect(checkParameters(schema, { storage: "local", mode: "stop" }, { node: "pve1", vmid: "100" })).toEqual([]);
  });

  test("unknown, wrong, listed and missing parameters, and bad path values", () => {
    expect(
      checkParameters(schema, { bogus: 1, mode: "live", remove: ["1", "0"] }, { node: "pve1", vmid: "99" }),
    ).toEqual([
      "bogus: not a parameter of this endpoint",
      "mode: 'live' is not one of snapshot, stop",
      "remove: takes one value, not a list",
      "vmid (in the path): 99 is below the minimum 100",
      "storage: required, but not given",
    ]);
  });

  test("a parameter given both in the path and as a parameter is not reported as unknown", () => {
    expect(checkParameters({ node: { type: "string" } }, { node: "pve1" }, { node: "pve1" })).toEqual([]);
  });
});
