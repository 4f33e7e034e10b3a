// Issue 11: English from WordNet. Vague verbs for delete ("scrap", "ditch", "toss out"), filtered
// against the API's own words; the common verbs, which mark a request that sets something
// ("cap VM 122 at half a CPU"); and the committed table kept what the script writes.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { apiText, commonVerbs, lexiconWords, parseVerbData, parseVerbIndex, verbsOf } from "../../scripts/wordnet.ts";
import { Catalog } from "../../src/catalog/catalog.ts";
import { buildSearchIndex } from "../../src/catalog/search-index.ts";
import { opensWithEnglishVerb, tokenize } from "../../src/catalog/search-tokens.ts";
import { EQUIVALENT_GROUPS, HAND_GROUPS } from "../../src/catalog/synonyms.ts";
import { ENGLISH_VERBS, WORDNET_VERBS } from "../../src/catalog/wordnet-verbs.ts";
import { miniCatalog } from "../support/catalog.ts";
import { haveSharedData, SCHEMA_FILES } from "../support/shared.ts";

// Lines in WordNet's layout (offset lex_filenum ss_type w_cnt word lex_id ... p_cnt pointers | gloss),
// with made-up synsets: 100 "get rid of" has troponyms 200 and 300; 200 has troponym 400.
const DATA = [
  "  1 This licence header line starts with two spaces",
  "00000100 40 v 02 get_rid_of 0 remove 0 002 ~ 00000200 v 0000 ~ 00000300 v 0000 01 + 08 00 | dispose of",
  "00000200 40 v 03 discard 0 toss 0 Throw_Away 0 002 @ 00000100 v 0000 ~ 00000400 v 0000 01 + 08 00 | cast away",
  "00000300 40 v 01 scrap 0 001 @ 00000100 v 0000 01 + 08 00 | make into scrap",
  "00000400 40 v 01 junk 0 002 @ 00000200 v 0000 + 01234567 n 0101 01 + 08 00 | dispose of junk",
].join("\n");
const INDEX = ["  1 licence header", "remove v 2 2 @ ~ 2 1 00000900 00000100", "discard v 1 2 @ ~ 1 1 00000200"].join(
  "\n",
);

describe("reading WordNet's verb files", () => {
  const data = parseVerbData(DATA);
  const index = parseVerbIndex(INDEX);

  test("a synset's lemmas are plain lower-case words and its troponyms are the verb ~ pointers", () => {
    expect(data.get("00000200")).toEqual({ lemmas: ["discard", "toss", "throw away"], troponyms: ["00000400"] });
    expect(data.get("00000400")).toEqual({ lemmas: ["junk"], troponyms: [] });
    expect(data.size).toBe(4);
  });

  test("the index gives each lemma's synsets in sense order", () => {
    expect(index.get("remove")).toEqual(["00000900", "00000100"]);
    expect(index.get("discard")).toEqual(["00000200"]);
  });

  test.each([
    [0, ["get rid of", "remove"]],
    [1, ["discard", "get rid of", "remove", "scrap", "throw away", "toss"]],
    [2, ["discard", "get rid of", "junk", "remove", "scrap", "throw away", "toss"]],
  ])("troponyms down to depth %d", (depth, want) => {
    expect(verbsOf([{ lemma: "remove", sense: 2 }], index, data, depth)).toEqual(want);
  });

  test("a sense's own depth overrides the script's, and each synset is reached once across senses", () => {
    expect(verbsOf([{ lemma: "remove", sense: 2, depth: 0 }], index, data, 2)).toEqual(["get rid of", "remove"]);
    expect(
      verbsOf(
        [
          { lemma: "discard", sense: 1, depth: 0 },
          { lemma: "remove", sense: 2, depth: 2 },
        ],
        index,
        data,
        0,
      ),
    ).toEqual(["discard", "get rid of", "remove", "scrap", "throw away", "toss"]);
  });

  test("`mainly` keeps only the verbs whose first sense is among those reached", () => {
    // "remove"'s first sense is 00000900, which "get rid of" does not reach; "discard"'s is
    // 00000200, which it does; the other verbs are not in the index, so no first sense of theirs is.
    expect(verbsOf([{ lemma: "remove", sense: 2, depth: 1, mainly: true }], index, data, 2)).toEqual(["discard"]);
    expect(verbsOf([{ lemma: "remove", sense: 2, depth: 1 }], index, data, 2)).toContain("remove");
  });

  test("a sense WordNet does not have is an error, not an empty list", () => {
    expect(() => verbsOf([{ lemma: "remove", sense: 3 }], index, data, 1)).toThrow("remove#3");
    expect(() => verbsOf([{ lemma: "nuke", sense: 1 }], index, data, 1)).toThrow("nuke#1");
  });
});

describe("which WordNet verbs may stand for the API's word", () => {
  test.each([
    ["scrap", "Destroy the VM and all used/owned volumes.", [], true],
    ["throw away", "Discard the pending changes.", [], true],
    // The API's own word keeps the API's meaning: "dump" is cloudinit/dump.
    ["dump", "Get automatically generated cloudinit config: dump it.", [], false],
    // A phrase counts as used only as a whole.
    ["throw away", "Do not throw error if node already exists.", [], true],
    ["throw away", "Will THROW AWAY the old state.", [], false],
    // The hand-written vocabulary already places it ("kill" is stop).
    ["kill", "", ["kill"], false],
    ["de-access", "", [], false],
  ])("%s (API text %j, hand words %j)", (verb, text, hand, kept) => {
    expect(lexiconWords([verb], apiText(text), new Set(hand))).toEqual(kept ? [verb] : []);
  });
});

describe("the committed table", () => {
  test("WordNet's delete verbs join the delete group, and no hand-written group loses a word", () => {
    const deleteGroup = EQUIVALENT_GROUPS.find((g) => g[0] === "delete")!;
    for (const verb of ["scrap", "ditch", "junk", "trash", "toss out"]) {
      expect(WORDNET_VERBS.delete).toContain(verb);
      expect(deleteGroup).toContain(verb);
    }
    HAND_GROUPS.forEach((group, i) => expect(EQUIVALENT_GROUPS[i]!.slice(0, group.length)).toEqual([...group]));
  });

  test("a vague verb says the method: scrap, ditch and toss out delete", () => {
    const catalog = miniCatalog();
    for (const query of ["scrap VM 100", "ditch the virtual machine", "toss out VM 100"]) {
      expect(catalog.search(query).hits[0]).toMatchObject({ method: "DELETE", path: "/nodes/{node}/qemu/{vmid}" });
    }
  });

  test("the ways to destroy that mostly mean it, and to expel, delete", () => {
    for (const verb of ["tear down", "dismantle", "demolish", "kick out", "oust"])
      expect(WORDNET_VERBS.delete).toContain(verb);
    // "take down" is mostly to lower, "wipe out" mostly to use up: neither mostly destroys.
    for (const verb of ["take down", "wipe out"]) expect(WORDNET_VERBS.delete).not.toContain(verb);
    const catalog = miniCatalog();
    expect(catalog.search("tear down VM 100").hits[0]).toMatchObject({
      method: "DELETE",
      path: "/nodes/{node}/qemu/{vmid}",
    });
  });

  test.skipIf(!haveSharedData("the WordNet table check"))(
    "is what scripts/wordnet-verbs.ts writes from WordNet and the API schemas",
    () => {
      const run = Bun.spawnSync(["bun", resolve(import.meta.dir, "../../scripts/wordnet-verbs.ts"), "--check"], {
        stderr: "pipe",
      });
      expect(run.stderr.toString()).toBe("");
      expect(run.exitCode).toBe(0);
    },
  );
});

describe("a request that opens with an English verb may set a parameter", () => {
  test("the common verbs are WordNet's one-word verbs that the sense-tagged corpus attests", () => {
    const index = [
      "  1 licence header",
      "cap v 2 2 @ ~ 2 2 00000001 00000002",
      "kern v 1 1 @ 1 0 00000003",
      "crank_up v 1 1 @ 1 1 00000004",
      "throttle v 2 2 @ ~ 2 1 00000005 00000006",
    ].join("\n");
    expect(commonVerbs(index)).toEqual(["cap", "throttle"]);
    for (const verb of ["cap", "throttle", "pin", "use", "limit", "tag"])
      expect(ENGLISH_VERBS.split(" ")).toContain(verb);
  });

  test.each([
    ["cap VM 122 at half a CPU", true],
    ["throttle replication job 305-0 to 20 MB/s", true],
    ["use SPICE as the default console viewer", true],
    ["raw usage numbers of storage local-zfs", false],
    ["USB devices plugged into the host", false],
    ["all replication jobs", false],
    ["list the VMs", false],
    ["which nodes are online", false],
    ["allow SSH into VM 100", true],
    // A noun that is also a verb: after a determiner or "every", before "of" or "number".
    ["every rule of the host firewall on pve2", false],
    ["log of the last replication run", false],
    ["rule number 4 of the host firewall", false],
    ["log outgoing traffic of VM 306 at level info", true],
    // A verb before "whether" or "if" asks.
    ["poll whether the task has finished", false],
    ["find out if pve2 is up", false],
    ["poll the task until it has finished", true],
  ])("%s: %p", (query, verb) => {
    expect(opensWithEnglishVerb(tokenize(buildSearchIndex([]), query).tokens)).toBe(verb);
  });

  describe.skipIf(!haveSharedData("English verbs on the PVE 9.1 schema"))("on the PVE 9.1 schema", () => {
    const catalog = Catalog.fromText(readFileSync(SCHEMA_FILES["9.1"].file, "utf8"), {
      kind: "inline",
      location: "9.1",
    });
    test.each([
      ["cap container 200 at two CPUs", "PUT /nodes/{node}/lxc/{vmid}/config"],
      ["pin container 120 to cores 0-3", "PUT /nodes/{node}/lxc/{vmid}/config"],
      ["throttle replication job 101-0 to 50 MB/s", "PUT /cluster/replication/{id}"],
      ["use SPICE as the default console viewer", "PUT /cluster/options"],
    ])("%s: %s", (query, want) => {
      const first = catalog.search(query).hits[0]!;
      expect(`${first.method} ${first.path}`).toBe(want);
    });
  });
});
