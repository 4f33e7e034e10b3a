// Issue 11: a parameter's run-together name spelled out by its own description.
import { describe, expect, test } from "bun:test";
import { spelledOut } from "../../src/catalog/search-params.ts";

describe("spelledOut: the words a run-together name abbreviates, as its description spells them", () => {
  test.each<[string, string, string[] | undefined]>([
    ["macaddr", "MAC address. That address must be unique within your network.", ["mac", "address"]],
    ["vmgenid", "Set VM Generation ID. Use '1' to autogenerate on create or update.", ["vm", "generation", "id"]],
    ["autostart", "Automatically start the guest.", ["automatically", "start"]],
    ["nodeid", "Node id for this node.", ["node", "id"]],
    // A leading piece must be long enough to stand for its word: "pa" + "th" is no "pass through".
    ["path", "Pass through the device.", undefined],
    // One word is no abbreviation of several; a name its description does not spell stays as it is.
    ["memory", "Memory properties.", undefined],
    ["onboot", "Specifies whether a VM will be started during system bootup.", undefined],
    // Only plain lower-case names.
    ["net[n]", "Specify network devices.", undefined],
  ])("%s, %j -> %j", (name, description, words) => {
    expect(spelledOut(name, description)).toEqual(words);
  });
});
