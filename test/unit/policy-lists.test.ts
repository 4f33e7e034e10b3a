// Lists split as PVE::Tools::split_list (pve-common) splits them; the expected values follow the
// Perl source: NUL wins when present (no trimming, leading empty items kept, trailing ones
// dropped), otherwise ',' ';' and Perl whitespace separate and empty items vanish.
import { describe, expect, test } from "bun:test";
import { isTruthy, readGuestIds, readHaGuestIds, splitList } from "../../src/policy/lists.ts";

describe("splitList follows PVE::Tools::split_list", () => {
  test.each([
    ["", []],
    ["100", ["100"]],
    ["0", ["0"]], // `shift // ''`: a single 0 is an item (older versions used || and dropped it)
    ["100,101", ["100", "101"]],
    ["100;101", ["100", "101"]],
    ["100 101", ["100", "101"]],
    [" 100 , 101 ;; 102 ", ["100", "101", "102"]],
    [",100", ["100"]],
    ["100,,101", ["100", "101"]],
    ["100,", ["100"]],
    ["\t100\n101\r\f102\v103", ["100", "101", "102", "103"]],
    ["101\u0000100", ["101", "100"]],
    ["101\u0000 100", ["101", " 100"]],
    ["101,102\u0000100", ["101,102", "100"]],
    ["\u0000100", ["", "100"]],
    ["100\u0000\u0000", ["100"]],
    ["100\u0000\u0000101", ["100", "", "101"]],
    ["\u0000", []],
    ["101\u00a0100", ["101", "100"]],
    ["101\u0085100", ["101", "100"]],
    ["101\u2003100\u3000102", ["101", "100", "102"]],
    ["101\u200b100", ["101\u200b100"]], // a zero-width space is not whitespace to Perl
    ["101\ufeff100", ["101\ufeff100"]],
  ] as [string, string[]][])("%j -> %j", (text, expected) => {
    expect(splitList(text)).toEqual(expected);
  });
});

describe("readGuestIds", () => {
  test.each([
    ["101\u0000100", [101, 100], []],
    ["101\u0000 100", [101], [" 100"]],
    ["101,102\u0000100", [100], ["101,102"]],
    ["0100", [100], []],
    ["000000000100", [100], []],
    ["abc, 100", [100], ["abc"]],
    ["1e2", [], ["1e2"]],
    ["+100", [], ["+100"]],
    ["100.0", [], ["100.0"]],
    ["101\u200b100", [], ["101\u200b100"]],
    ["", [], []],
  ] as [string, number[], string[]][])("%j reads %j, cannot read %j", (value, found, unreadable) => {
    expect(readGuestIds(value)).toEqual({ found, unreadable });
  });

  test("arrays are read item by item, each split as a list", () => {
    expect(readGuestIds([101, "100\u0000102", true])).toEqual({ found: [101, 100, 102, 1], unreadable: [] });
  });
});

describe("readHaGuestIds", () => {
  test.each([
    ["vm:100,ct:101,102,other:103", [100, 101, 102], []],
    ["vm:101\u0000ct:100", [101, 100], []],
    ["vm:0100", [100], []],
    ["VM:100", [100], []],
    ["vm:abc", [], ["vm:abc"]],
    ["fence:x", [], []],
    ["vm:101\u0000 vm:100", [101, 100], []], // a malformed type with a numeric name counts, to fail closed
    ["vm:101\u0000 vm:x", [101], [" vm:x"]],
    ["v m:100", [], ["v"]], // split on the space: "v" is no id, "m:100" is another type
  ] as [string, number[], string[]][])("%j reads %j, cannot read %j", (value, found, unreadable) => {
    expect(readHaGuestIds(value)).toEqual({ found, unreadable });
  });
});

test("isTruthy treats anything but an explicit false as set", () => {
  for (const value of [1, "1", true, "yes", "on", [0, 1]]) expect(isTruthy(value)).toBe(true);
  for (const value of [0, "0", false, "", " off ", "no", "false", [0, "0"]]) expect(isTruthy(value)).toBe(false);
  expect(isTruthy(undefined)).toBe(false);
});
