// Issue 3: the schema is found and parsed as data, never executed.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { Catalog } from "../../src/catalog/catalog.ts";
import {
  extractSchemaJson,
  findArrayStart,
  matchBracket,
  parseSchemaText,
  SchemaParseError,
} from "../../src/catalog/parse.ts";
import { toFlag, toNumber } from "../../src/catalog/schema.ts";
import { apidata, MINI_API, schemaTree, VIEWER_CODE } from "../support/catalog.ts";
import { haveSharedData, SCHEMA_DIR, SCHEMA_FILES } from "../support/shared.ts";

const inline = { kind: "inline" as const, location: "test" };

function parseError(text: string): SchemaParseError {
  try {
    Catalog.fromText(text, inline);
  } catch (error) {
    if (error instanceof SchemaParseError) return error;
    throw error;
  }
  throw new Error("expected a SchemaParseError");
}

describe("the four real PVE schemas", () => {
  const present = haveSharedData("catalog parse tests", SCHEMA_DIR);
  for (const [version, { file, endpoints }] of Object.entries(SCHEMA_FILES)) {
    test.skipIf(!present)(`PVE ${version}: ${endpoints} endpoints, as data and with the viewer code appended`, () => {
      const data = readFileSync(file, "utf8");
      const plain = Catalog.fromText(data, inline);
      expect(plain.size).toBe(endpoints);
      expect(plain.skipped).toEqual([]);
      const published = Catalog.fromText(data + VIEWER_CODE, inline);
      expect(published.size).toBe(endpoints);
      // every path can be described, and no answer comes near the 512 KiB result cap
      let largest = 0;
      for (const path of plain.allPaths()) {
        const outcome = plain.describe(path);
        expect(outcome.found).toBe(true);
        largest = Math.max(largest, JSON.stringify(outcome).length);
      }
      expect(largest).toBeLessThan(256 * 1024);
    });
  }

  test.skipIf(!present)(
    "PVE 9.1 facts from SOURCE.md: 435 paths, 5 token-refusing endpoints, 3 downloads, one upload",
    () => {
      const catalog = Catalog.fromText(readFileSync(SCHEMA_FILES["9.1"].file, "utf8"), inline);
      expect(catalog.allPaths()).toHaveLength(435);
      expect(catalog.endpoints.filter((e) => !e.allowtoken)).toHaveLength(5);
      expect(catalog.endpoints.filter((e) => e.downloadAllowed)).toHaveLength(3);
      expect(catalog.endpoint("POST", "/nodes/{node}/storage/{storage}/upload")).toBeDefined();
    },
  );
});

describe("finding the array", () => {
  test.each([
    ["const apiSchema = [1]", 18],
    ["var pveapi = [1]", 13],
    ["let apiSchema=[1]", 14],
    ["[1]", 0],
    ["\ufeff  \n[1]", 4],
    ["// generated\nconst apiSchema = [1];", 31],
    ["\ufeffconst apiSchema = [1]", 19],
    ["// const apiSchema = [\r\nconst apiSchema = [1]\r\n;", 42],
    ['[{"text": "see var pveapi = [1] here"}]', 0],
  ])("%j opens at %d", (text, index) => {
    expect(findArrayStart(text)).toBe(index);
    expect(text[index]).toBe("[");
  });

  test.each([["window.foo = [1]"], ['{"a": 1}'], [""], ["apiSchema = [1]"], ['x = "const apiSchema = [1]"']])(
    "%j holds no schema",
    (text) => {
      expect(() => findArrayStart(text)).toThrow(SchemaParseError);
    },
  );

  test("bracket matching skips brackets, `];` and escaped quotes inside strings", () => {
    const text = String.raw`const apiSchema = [{"d": "a ] b [ c \" ]; d \\", "e": "\\\"]"}, ["]"]]; trailing ] code [`;
    const json = extractSchemaJson(text);
    expect(JSON.parse(json)).toEqual([{ d: 'a ] b [ c " ]; d \\', e: '\\"]' }, ["]"]]);
  });

  test("work stays linear on pathological strings (a backtracking matcher would hang here)", () => {
    const escapes = `["${'\\"'.repeat(2_000_000)}"] ]`;
    expect(matchBracket(escapes, 0)).toBe(escapes.length - 2);
    const long = `[{"a": "${"x".repeat(6_000_000)}"}]`;
    expect(matchBracket(long, 0)).toBe(long.length);
  });

  test.each([
    ['[1, "unterminated', "ends inside a string"],
    ["[1, [2, 3]", "never closed"],
    ["[1, {2]", "unbalanced"],
  ])("%j is refused: %s", (text, message) => {
    expect(() => matchBracket(text, 0)).toThrow(message);
  });
});

describe("never executing the file", () => {
  test("code after the array is ignored, not run", () => {
    const g = globalThis as { __catalogPwned?: unknown };
    delete g.__catalogPwned;
    const text = `${apidata(MINI_API)}globalThis.__catalogPwned = true;\nrequire("fs").writeFileSync("/tmp/x", "y");\n`;
    const catalog = Catalog.fromText(text, inline);
    expect(catalog.size).toBeGreaterThan(0);
    expect(g.__catalogPwned).toBeUndefined();
  });

  test("code inside the array is a parse error, not run", () => {
    const g = globalThis as { __catalogPwned?: unknown };
    delete g.__catalogPwned;
    const error = parseError(`const apiSchema = [ (globalThis.__catalogPwned = 1), {"path": "/x"} ];`);
    expect(error.message).toContain("not valid JSON");
    expect(g.__catalogPwned).toBeUndefined();
  });

  test("a string that looks like the end of the array and then code stays a string", () => {
    const g = globalThis as { __catalogPwned?: unknown };
    delete g.__catalogPwned;
    const nodes = [
      {
        path: "/x",
        info: { GET: { description: '"]; globalThis.__catalogPwned = 1; //', parameters: { properties: {} } } },
      },
    ];
    const catalog = Catalog.fromText(apidata(nodes) + VIEWER_CODE, inline);
    expect(catalog.endpoint("GET", "/x")?.description).toBe('"]; globalThis.__catalogPwned = 1; //');
    expect(g.__catalogPwned).toBeUndefined();
  });
});

describe("forms of the file", () => {
  test.each([
    ["const apiSchema (PVE 7+)", apidata(MINI_API)],
    ["var pveapi (PVE 6)", apidata(MINI_API, "var pveapi")],
    ["a raw JSON array", JSON.stringify(schemaTree(MINI_API))],
    ["with the viewer code appended", apidata(MINI_API) + VIEWER_CODE],
  ])("%s", (_name, text) => {
    expect(Catalog.fromText(text, inline).size).toBe(21);
  });
});

describe("tolerated quirks", () => {
  const quirky = [
    {
      path: "/q",
      info: {
        GET: {
          method: "GET",
          name: "q",
          description: null,
          allowtoken: "0",
          protected: true,
          proxyto: null,
          download_allowed: "1",
          parameters: {
            additionalProperties: 0,
            properties: {
              a: { type: "integer", minimum: "0", maximum: "10", default: null, optional: "1" },
              b: {
                type: "string",
                pattern: "(?^i:[a-z]+)",
                enum: null,
                format: { key: { type: "string" } },
                "instance-types": ["x"],
              },
              c: { type: "string", format: "pve-node", "x-unknown": { deep: [1, 2] } },
            },
          },
          returns: { description: "no type" },
          permissions: null,
          "some-new-field": 42,
        },
        POST: { parameters: null, returns: null },
      },
    },
  ];

  test("flags, numbers as strings, nulls, object formats, Perl patterns and typeless returns all load", () => {
    const catalog = Catalog.fromText(apidata(quirky as never), inline);
    const get = catalog.endpoint("GET", "/q")!;
    expect(get.allowtoken).toBe(false);
    expect(get.protected).toBe(true);
    expect(get.downloadAllowed).toBe(true);
    expect(get.proxyto).toBeUndefined();
    expect(get.description).toBe("");
    expect(get.returns).toEqual({ description: "no type" });
    expect(get.info["some-new-field"]).toBe(42);
    expect(get.parameters.c?.["x-unknown"]).toEqual({ deep: [1, 2] });
    const post = catalog.endpoint("POST", "/q")!;
    expect(post.allowtoken).toBe(true);
    expect(post.parameters).toEqual({});
  });

  test("a malformed method is skipped and reported; the rest loads", () => {
    const nodes = [{ path: "/a", info: { GET: { parameters: { properties: {} } }, PUT: "not an object" } }];
    const catalog = Catalog.fromText(apidata(nodes as never), inline);
    expect(catalog.size).toBe(1);
    expect(catalog.skipped).toEqual([{ path: "/a", method: "PUT", reason: expect.any(String) }]);
  });

  test.each([
    ["an empty array", "const apiSchema = [];", "empty"],
    ["nodes without paths", 'const apiSchema = [{"text": "x"}];', "shape"],
    ["no endpoint at all", 'const apiSchema = [{"path": "/x"}];', "no usable endpoints"],
    ["a truncated file", apidata(MINI_API).slice(0, 5000), "truncated"],
  ])("%s is refused", (_name, text, message) => {
    expect(parseError(text).message).toContain(message);
  });

  test.each([
    [1, true],
    [0, false],
    ["1", true],
    ["0", false],
    [true, true],
    [false, false],
    [null, false],
    [undefined, false],
    ["", false],
    ["false", false],
  ])("toFlag(%j) = %j", (value, expected) => {
    expect(toFlag(value)).toBe(expected);
  });

  test.each([
    [5, 5],
    ["0", 0],
    ["1.5", 1.5],
    ["", undefined],
    ["x", undefined],
    [null, undefined],
    [Number.NaN, undefined],
  ])("toNumber(%j) = %j", (value, expected) => {
    expect(toNumber(value)).toBe(expected);
  });

  test("parseSchemaText only parses the slice", () => {
    expect(parseSchemaText('var pveapi = [{"path": "/"}]\n;\nvar x = [ ];')).toEqual([{ path: "/" }]);
  });

  // The first "]" at a line start is tried first; when it is not the array's end, bracket matching decides.
  test.each([
    [
      "a nested array closes at a line start",
      'const apiSchema = [{"a": [1,\n2\n]\n}, {"b": "]"}];\nx = [\n];',
      [{ a: [1, 2] }, { b: "]" }],
    ],
    [
      "only the code after a compact array has one",
      'const apiSchema = [{"path": "/x"}];\nvar a = [\n];',
      [{ path: "/x" }],
    ],
    ["the array is pretty-printed", 'const apiSchema = [\n   {"path": "/x"}\n]\n;\nvar a = [\n];', [{ path: "/x" }]],
  ])("parseSchemaText when %s", (_case, text, value) => {
    expect(parseSchemaText(text)).toEqual(value);
    expect(JSON.parse(extractSchemaJson(text))).toEqual(value);
  });
});
