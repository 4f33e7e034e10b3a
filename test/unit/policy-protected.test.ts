import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadProtection, parseProtectedGuests } from "../../src/policy/protected.ts";

describe("parseProtectedGuests", () => {
  test("reads entries with an optional host", () => {
    const text = JSON.stringify({
      protected_vms: [
        { vmid: 100, name: "mcp-host", reason: "the VM this server runs in" },
        { vmid: "101", name: "dns", reason: "keep DNS up", host: "pve1" },
      ],
    });
    expect(parseProtectedGuests(text)).toEqual([
      { vmid: 100, name: "mcp-host", reason: "the VM this server runs in" },
      { vmid: 101, name: "dns", reason: "keep DNS up", host: "pve1" },
    ]);
  });

  test("an empty list is valid", () => {
    expect(parseProtectedGuests('{"protected_vms": []}')).toEqual([]);
  });

  const malformed: [string, string, RegExp][] = [
    ["not JSON", "{protected_vms: []}", /not valid JSON/],
    ["an array", "[]", /not a JSON object/],
    ["no list", '{"vms": []}', /no "protected_vms" array/],
    ["list is an object", '{"protected_vms": {"vmid": 100}}', /no "protected_vms" array/],
    ["entry not an object", '{"protected_vms": [100]}', /protected_vms\[0\] is not an object/],
    ["vmid missing", '{"protected_vms": [{"name": "a", "reason": "b"}]}', /protected_vms\[0\]\.vmid/],
    ["vmid below 100", '{"protected_vms": [{"vmid": 99, "name": "a", "reason": "b"}]}', /\.vmid must be a guest id/],
    [
      "vmid fractional",
      '{"protected_vms": [{"vmid": 100.5, "name": "a", "reason": "b"}]}',
      /\.vmid must be a guest id/,
    ],
    ["reason missing", '{"protected_vms": [{"vmid": 100, "name": "a"}]}', /\.reason must be a non-empty string/],
    [
      "name empty",
      '{"protected_vms": [{"vmid": 100, "name": " ", "reason": "b"}]}',
      /\.name must be a non-empty string/,
    ],
    [
      "typo in a key",
      '{"protected_vms": [{"vmid": 100, "name": "a", "reason": "b", "hots": "x"}]}',
      /unknown key\(s\) hots/,
    ],
    [
      "host not a string",
      '{"protected_vms": [{"vmid": 100, "name": "a", "reason": "b", "host": 1}]}',
      /\.host must be/,
    ],
    [
      "duplicate",
      '{"protected_vms": [{"vmid": 100, "name": "a", "reason": "b"}, {"vmid": "100", "name": "c", "reason": "d"}]}',
      /listed twice/,
    ],
  ];
  test.each(malformed)("%s is refused with a message saying what is wrong", (_label, text, message) => {
    expect(() => parseProtectedGuests(text)).toThrow(message);
  });
});

describe("loadProtection", () => {
  const dir = mkdtempSync(join(tmpdir(), "pve-mcp-protected-"));

  test("unset means no protection", () => {
    expect(loadProtection(undefined)).toEqual({ status: "none" });
  });

  test("a good file is read", () => {
    const file = join(dir, "ok.json");
    writeFileSync(file, '{"protected_vms": [{"vmid": 100, "name": "a", "reason": "b"}]}');
    expect(loadProtection(file)).toEqual({ status: "ok", file, guests: [{ vmid: 100, name: "a", reason: "b" }] });
  });

  test("a missing file fails closed with the error code", () => {
    const file = join(dir, "missing.json");
    expect(loadProtection(file)).toEqual({ status: "broken", file, problem: "it cannot be read (ENOENT)" });
  });

  test("a directory fails closed", () => {
    expect(loadProtection(dir)).toMatchObject({ status: "broken", problem: "it cannot be read (EISDIR)" });
  });

  test("a malformed file fails closed with the parse problem", () => {
    const file = join(dir, "bad.json");
    writeFileSync(file, '{"protected_vms": [{"vmid": 100}]}');
    expect(loadProtection(file)).toMatchObject({
      status: "broken",
      file,
      problem: expect.stringContaining(".name must be"),
    });
  });
});
