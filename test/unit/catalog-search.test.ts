// Issue 3: ranked search in plain words, and the quality bar on the dev queries.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Catalog } from "../../src/catalog/catalog.ts";
import { evaluateSearch, parseEvalQueries } from "../../src/catalog/eval.ts";
import {
  buildSearchIndex,
  compoundsWith,
  diversify,
  enumSpanned,
  guestFacet,
  listsBetter,
  typedTerms,
  unitsMissed,
  splitCompound,
  statedMethod,
  subsystemsNamed,
  tokenize,
} from "../../src/catalog/search.ts";
import {
  numberedStorage,
  objectWords,
  opensQuestion,
  opensWithVerb,
  particleOfVerb,
  particlesSplit,
  statedMethodAt,
  queryChunks,
  verbAt,
  type GuestFacet,
  type Token,
} from "../../src/catalog/search-tokens.ts";
import { compoundsByEnd, Postings, respelled } from "../../src/catalog/search-terms.ts";
import {
  analyzeQuery,
  asksPossibility,
  listModifiers,
  namingFiles,
  outrightWords,
  phraseLeads,
  introducesNewObject,
  wantedOf,
  pathValues,
} from "../../src/catalog/search-query.ts";
import { hostsByName } from "../../src/catalog/search-scope.ts";
import { namesServerPort } from "../../src/catalog/search-values.ts";
import {
  createdOf,
  addsProperty,
  definiteOf,
  existingPlaceAt,
  guestsGoTo,
  ownersOf,
  placeMentions,
  holdersOf,
  possessors,
} from "../../src/catalog/search-objects.ts";
import { rareStems, type SearchIndex } from "../../src/catalog/search-index.ts";
import { guestsOfBothKinds } from "../../src/catalog/search-fields.ts";
import { collectionAliases, listsThrough, negatedFlags } from "../../src/catalog/search-index-facts.ts";
import {
  asksCause,
  asksDoer,
  leavesChangeToApply,
  markFraming,
  markSubordinate,
  markContext,
  markLightVerb,
  markInability,
  markAspect,
  markGuestsMoving,
  markMotion,
  markSaying,
  negatedActions,
  markPrevented,
  markSetUpState,
  saysOngoing,
  undoingActions,
} from "../../src/catalog/search-clauses.ts";
import {
  asksPermission,
  asksVmAddresses,
  seenFromInside,
  markBackFromBackup,
  markLoginNoun,
  markLoginSource,
  markLoginThrough,
  namesAffinity,
} from "../../src/catalog/search-intents.ts";
import { stem, StemCache } from "../../src/catalog/stem.ts";
import { MINI_APIDOC_JS } from "../fixtures/mini-schema.ts";
import { words } from "../../src/catalog/text.ts";
import { kindEnumsOf, type Endpoint } from "../../src/catalog/model.ts";
import {
  isNavigation,
  pathStems,
  phraseBoundWords,
  rootLists,
  subsystemLists,
  subsystemWords,
} from "../../src/catalog/search-facts.ts";
import { joinsPhrase, presentsOnly } from "../../src/catalog/search-words.ts";
import { describesNewGuest } from "../../src/catalog/search-params.ts";
import { miniCatalog } from "../support/catalog.ts";
import { DEV_QUERIES, DEV_QUERIES_2, DOCS_DIR, haveSharedData, SCHEMA_DIR, SCHEMA_FILES } from "../support/shared.ts";
import { realCatalogs } from "../support/real-catalog.ts";

/** An endpoint with only what the index reads of these tests: its method, path, description and parameters. */
const stubEndpoint = (method: string, path: string, description: string, parameters: Record<string, unknown> = {}) =>
  ({ method, path, name: "x", description, parameters }) as unknown as Endpoint;

const HELD_OUT_QUERIES = resolve(import.meta.dir, "../fixtures/search-heldout.json");

/** The PVE 9.1 catalog, and with `docs` a second one with the 9.1.3 docs attached as the server reads them (the same loader, from a local directory). */
/** The top five, as "METHOD /path". */
const ranked = (catalog: Catalog, query: string) =>
  catalog.search(query, { limit: 5 }).hits.map((h) => `${h.method} ${h.path}`);

/** The first hit, as "METHOD /path", and what the answer notes. */
function firstWithNotes(catalog: Catalog, query: string): { first: string | undefined; notes: string[] } {
  const page = catalog.search(query, { limit: 3 });
  const hit = page.hits[0];
  return { first: hit ? `${hit.method} ${hit.path}` : undefined, notes: page.notes ?? [] };
}

/** The search index a catalog builds, which the catalog keeps to itself. */
const searchIndexOf = (catalog: Catalog): SearchIndex => (catalog as unknown as { index: SearchIndex }).index;

/** The 9.1 schema's search index without docs, built once for the tables that need only an index. */
let real91: SearchIndex | undefined;
const real91Index = (): SearchIndex =>
  (real91 ??= buildSearchIndex(
    Catalog.fromText(readFileSync(SCHEMA_FILES["9.1"].file, "utf8"), { kind: "inline", location: "9.1" }).endpoints,
  ));
/** The subsystem words a query names, concept after concept (subsystemsNamed). */
const subsystemsOfQuery = (catalog: Catalog, query: string, described?: string): string[] => {
  const index = searchIndexOf(catalog);
  return subsystemsNamed(index, analyzeQuery(index, query, described)).flatMap((words) => [...words]);
};

const catalog = miniCatalog();
const top = (query: string, options = {}) => catalog.search(query, options).hits.map((h) => `${h.method} ${h.path}`);

describe("plain words find the endpoint", () => {
  test.each([
    ["power off the container", "POST /nodes/{node}/lxc/{vmid}/status/shutdown"],
    ["shut down the VM", "POST /nodes/{node}/qemu/{vmid}/status/shutdown"],
    ["pull the plug on a hung VM", "POST /nodes/{node}/qemu/{vmid}/status/stop"],
    ["roll back a VM to its snapshot", "POST /nodes/{node}/qemu/{vmid}/snapshot/{snapname}/rollback"],
    ["take a snapshot of VM 100", "POST /nodes/{node}/qemu/{vmid}/snapshot"],
    ["who has access to what", "GET /access/acl"],
    ["free space on storage", "GET /nodes/{node}/storage/{storage}/status"],
    ["is vm 100 running", "GET /nodes/{node}/qemu/{vmid}/status/current"],
    ["start the ct", "POST /nodes/{node}/lxc/{vmid}/status/start"],
    ["permanently delete a virtual machine", "DELETE /nodes/{node}/qemu/{vmid}"],
    ["log in with a password", "POST /access/ticket"],
    // A synonym of a verb asks for the verb's method; a phrasal verb is read whole.
    ["halt the VM", "POST /nodes/{node}/qemu/{vmid}/status/stop"],
    ["get rid of a snapshot", "DELETE /nodes/{node}/qemu/{vmid}/snapshot/{snapname}"],
    // "give" only says the method; the words of a path name no guest.
    ["give bob access to /vms", "PUT /access/acl"],
  ])("%s", (query, expected) => {
    expect(top(query)[0]).toBe(expected);
  });
});

describe("results", () => {
  test("each hit has method, path, a one-line description, and the token flag only when tokens are refused", () => {
    const [hit] = catalog.search("authentication ticket").hits;
    expect(hit).toMatchObject({
      method: "POST",
      path: "/access/ticket",
      description: "Create or verify authentication ticket.",
      refusesTokens: true,
    });
    const [other] = catalog.search("acl").hits;
    expect(other).not.toHaveProperty("refusesTokens");
  });

  test("method filter, limit and offset page through the same ranking", () => {
    const all = catalog.search("vm", { limit: 100 });
    expect(all.total).toBe(all.hits.length);
    const page = catalog.search("vm", { limit: 2, offset: 1 });
    expect(page.total).toBe(all.total);
    expect(page.hits.map((h) => h.path)).toEqual(all.hits.slice(1, 3).map((h) => h.path));
    const posts = catalog.search("vm", { method: "post", limit: 100 });
    expect(posts.hits.length).toBeGreaterThan(0);
    expect(posts.hits.every((h) => h.method === "POST")).toBe(true);
  });

  test("words that match nothing give nothing", () => {
    expect(catalog.search("zzzz qqqq")).toEqual({ total: 0, hits: [] });
    expect(catalog.search("   ")).toEqual({ total: 0, hits: [] });
    expect(catalog.search("100 200")).toEqual({ total: 0, hits: [] });
  });
});

describe("diversify", () => {
  test.each([
    // ids 0/1 and 2/3 are twins (the VM and the container variant of one endpoint).
    [
      [0, 1, 4, 5, 6, 7, 8],
      [0, 4, 5, 6, 7, 1, 8],
    ],
    [
      [0, 1, 2, 3, 4, 5],
      [0, 2, 4, 5, 1, 3],
    ],
    [
      [4, 0, 5, 6, 7, 1],
      [4, 0, 5, 6, 7, 1],
    ],
    [
      [0, 1],
      [0, 1],
    ],
  ])("%j -> %j: a twin already in the top five moves just below it", (order, expected) => {
    const families = Int32Array.from([0, 0, 1, 1, 2, 3, 4, 5, 6]);
    const results = order.map((id) => ({ id }));
    diversify(results, families);
    expect(results.map((r) => r.id)).toEqual(expected);
  });
});

describe("unitsMissed: the naming units no word of the query asks for", () => {
  const changelog = [["changelog", "chang", "log"]];
  test.each<[string, string[][], string[], string[], string | undefined, number]>([
    ["the word itself, typed", changelog, ["changelog"], ["changelog"], undefined, 0],
    ["the word itself, by a synonym", changelog, ["changelog"], [], undefined, 0],
    ["a part, typed", changelog, ["chang"], ["chang"], undefined, 0],
    // "pending": changes, a synonym, names no change log.
    ["a part, by a synonym only", changelog, ["chang"], [], undefined, 1],
    ["a kind of the list's items, typed", [["content", "backup", "iso"]], ["backup"], ["backup"], undefined, 0],
    ["nothing asked", [["updat"], ["changelog", "chang", "log"]], [], [], undefined, 2],
    ["one of two asked", [["updat"], ["changelog", "chang", "log"]], ["updat"], ["updat"], undefined, 1],
    // A DELETE asked says the verb of a DELETE that is no word for deleting.
    ["the DELETE's own verb", [["revert"]], [], [], "revert", 0],
  ])("%s", (_, units, asked, typed, deletes, missing) => {
    expect(unitsMissed(units, new Set(asked), new Set(typed), deletes)).toBe(missing);
  });
});

describe("typedTerms: the terms the words typed say themselves", () => {
  const concept = (primaries: string[], terms: [string, number][], names?: string) => ({
    primaries: new Set(primaries),
    terms: new Map(terms),
    ...(names ? { names } : {}),
  });
  test.each<[string, ReturnType<typeof concept>[], string[], string[]]>([
    ["a word's stem", [concept(["pend"], [["pend", 1]])], [], ["pend"]],
    // "pending": changes is a lesser synonym.
    [
      "not a lesser synonym",
      [
        concept(
          ["pend"],
          [
            ["pend", 1],
            ["chang", 0.8],
          ],
        ),
      ],
      [],
      ["pend"],
    ],
    // "get rid of": the API's word for it leads its group.
    [
      "the API's own word",
      [
        concept(
          [],
          [
            ["wipe", 1],
            ["destroi", 1],
            ["eras", 0.8],
          ],
        ),
      ],
      [],
      ["wipe", "destroi"],
    ],
    [
      "a part of a word typed",
      [
        concept(
          ["novnc"],
          [
            ["novnc", 1],
            ["vnc", 0.45],
          ],
        ),
      ],
      [],
      ["novnc", "vnc"],
    ],
    ["the kind a value names", [concept(["#user"], [["#user", 1]], "user")], [], ["#user", "user"]],
    ["a run-together name's parts", [], ["power", "dns"], ["power", "dns"]],
  ])("%s", (_, concepts, parts, typed) => {
    expect([...typedTerms(concepts, parts)].sort()).toEqual([...typed].sort());
  });
});

describe("listsBetter: a directory index behind a path it lists", () => {
  // Endpoint 0 is the index, 1 and 2 the paths it lists; bits are the concepts each matched.
  test.each<[string, number[], number[], boolean]>([
    ["a child covering more and a concept the index does not", [1, 2, 0], [0b01, 0b11, 0b01], true],
    ["a child covering more of the same concepts only", [1, 2, 0], [0b01, 0b01, 0b01], false],
    ["a child covering a concept of its own but less in all", [2, 1, 0], [0b01, 0b10, 0b00], false],
    ["no child matched", [1, 0, 0], [0b01, 0, 0], false],
  ])("%s: %p", (_, matched, concepts, expected) => {
    expect(listsBetter([1, 2], 0, matched, concepts)).toBe(expected);
  });
});

describe("a negative contraction leaves no word behind", () => {
  test.each(["VM 7 won't boot and doesn't answer", "the bridges aren't live, don't reboot", "I haven't got a key"])(
    "%s",
    (query) => {
      const index = buildSearchIndex([]);
      const words = analyzeQuery(index, query).concepts.flatMap((c) => [...c.primaries]);
      for (const left of ["won", "doesn", "aren", "don", "haven"]) expect(words).not.toContain(left);
    },
  );
});

describe("word handling", () => {
  test.each([
    ["replication", "replic"],
    ["replicate", "replic"],
    ["snapshots", "snapshot"],
    ["running", "run"],
    ["containers", "contain"],
    ["vm", "vm"],
    ["ipv6", "ipv6"],
  ])("stem(%j) = %j", (word, stemmed) => {
    expect(stem(word)).toBe(stemmed);
  });

  test("a StemCache keeps the index's own stems and forgets the words searched past its limit", () => {
    const cache = new StemCache(new Map([["snapshots", "snapshot"]]), 3);
    for (const w of ["replicating", "containers", "migrations"]) expect(stem(w, cache)).toBe(stem(w));
    expect(cache.recentSize).toBe(3);
    expect(cache.get("containers")).toBe("contain");
    // The fourth word searched makes room by forgetting the others; the index's own stay.
    expect(stem("firewalls", cache)).toBe("firewal");
    expect(cache.recentSize).toBe(1);
    expect(cache.get("containers")).toBeUndefined();
    expect(cache.get("snapshots")).toBe("snapshot");
    // Short words and words with digits are not stemmed, so not remembered.
    expect(stem("vm", cache)).toBe("vm");
    expect(stem("ipv6s", cache)).toBe("ipv6s");
    expect(cache.recentSize).toBe(1);
  });

  test("searching does not keep every word ever searched in the catalog's memory", () => {
    const catalog = Catalog.fromText(MINI_APIDOC_JS, { kind: "inline", location: "mini-schema" });
    const word = (i: number) => `zorblat${i.toString(36).replace(/\d/g, (d) => "abcdefghij"[Number(d)]!)}ing`;
    catalog.search(`list the ${word(0)} things`);
    const index = (catalog as unknown as { index: { stems: StemCache } }).index;
    expect(index.stems.get(word(0))).toBe(stem(word(0)));
    // Two words of each query are new; adjacent pairs are stemmed too ("IP sets": ipset).
    for (let i = 1; i <= 5000; i++) catalog.search(`list the ${word(i)} things`);
    expect(index.stems.get(word(0))).toBeUndefined();
    expect(index.stems.recentSize).toBeLessThanOrEqual(4096);
    expect(index.stems.get("nodes")).toBe("node");
  });

  const vocabulary = new Map([
    ["prune", 5],
    ["backups", 9],
    ["next", 4],
    ["vnc", 30],
    ["proxy", 20],
    ["vncproxy", 2],
    ["template", 29],
    ["temp", 1],
    ["late", 1],
  ]);
  test.each([
    ["trim", ["fstrim"]],
    ["freeze", ["fsfreeze"]],
    ["port", []],
    ["fs", []],
    // A word joined to a particle means something of its own: "load" is no download.
    ["load", ["loadavg"]],
    ["proxy", ["vncproxy"]],
    // A particle after the word keeps the phrasal verb the word's: "shut" in shutdown.
    ["shut", ["shutdown"]],
    // A particle is the end of its phrasal verbs, not the start of a word: "back" is in rollback, not backup.
    ["back", ["rollback"]],
  ])("compoundsWith(%j) finds the word inside run-together names", (word, found) => {
    const compounds = [
      "fstrim",
      "fsfreeze",
      "report",
      "download",
      "upload",
      "loadavg",
      "vncproxy",
      "shutdown",
      "backup",
      "rollback",
    ];
    const index = {
      compounds,
      compoundsByEnd: compoundsByEnd(compounds),
      vocabulary: new Map([
        ["re", 3],
        ["down", 1],
        ["up", 1],
        ["avg", 1],
        ["vnc", 1],
        ["roll", 1],
      ]),
    };
    expect(compoundsWith(index, word)).toEqual(found);
  });

  test.each([
    ["prunebackups", ["prune", "backups"]],
    ["nextid", ["next", "id"]],
    ["vncproxy", ["vnc", "proxy"]],
    ["template", undefined],
    ["abc", undefined],
    ["unlink", undefined],
  ])("splitCompound(%j)", (word, parts) => {
    expect(splitCompound(word, vocabulary)).toEqual(parts);
  });

  const known = new Map(
    ["certificate", "automatically", "container", "contain", "setting", "unlock", "slice", "across"].map((w) => [w, 1]),
  );
  test.each([
    // A letter left out, two letters swapped.
    ["certifcate", "certificate"],
    ["automaticaly", "automatically"],
    ["certificaet", "certificate"],
    // One known word that close only: "containr" is "container"; a letter added is never a typo here.
    ["containr", "container"],
    ["contaier", "container"],
    // A letter typed twice.
    ["containner", "container"],
    ["certifficate", "certificate"],
    // Any other letter changed or added makes other words ("getting", "unblock"); short words are names ("alice").
    ["getting", undefined],
    ["unblock", undefined],
    ["alice", undefined],
    ["certificate", undefined],
  ])("respelled(%j)", (word, fixed) => {
    expect(respelled(word, known)).toEqual(fixed);
  });

  test.each([
    ["The Let's Encrypt certificate", ["The", "lets", "Encrypt", "certificate"]],
    ["let's reboot pve1", ["lets", "reboot", "pve1"]],
    ["bob@pam's account", ["bob@pam", "account"]],
  ])("queryChunks(%j): 'let's' is 'let us', no possessive", (query, chunks) => {
    expect(queryChunks(query)).toEqual(chunks);
  });
});

describe("query rules", () => {
  const tokens = (text: string) => {
    let first = true;
    return text.split(" ").map((word) => {
      const clauseStart = first && !["the", "a", "please", "how", "to"].includes(word);
      if (clauseStart || word.endsWith(":")) first = word.endsWith(":");
      return { word: word.replace(/:$/, ""), weight: 1, clauseStart };
    });
  };
  test.each([
    ["delete the old snapshot", "DELETE"],
    ["list backup jobs", "GET"],
    ["backup vm 100 now", "POST"],
    ["cluster join information", undefined],
    ["join this node to a cluster", "POST"],
    ["guest agent: run a command", "POST"],
    ["set the timezone", "PUT"],
    ["schedule nightly backups", "POST"],
    ["free space on storage", undefined],
    ["get rid of old snapshots", "DELETE"],
    ["log in with a password", "POST"],
    ["set up a backup job", "POST"],
    ["halt the vm", "POST"],
    ["relocate the vm to another node", "POST"],
    ["the vm would not halt", undefined],
    ["discard the network changes", "DELETE"],
    // A verb of handing over with "me": the speaker receives, nothing is changed.
    ["give me the next free VMID", "GET"],
    ["give bob admin rights", "PUT"],
    // A verb of knowing before "whether" or "if" opens a question: what follows is asked.
    ["I want to know whether the vm would start", "GET"],
    ["determine if the node can be removed", "GET"],
    ["verify the certificate", "POST"],
    // "get" before a participle makes a passive, no GET.
    ["records get created automatically", undefined],
    ["so guest records get created by the job", undefined],
    // After its subject, "get" with a participle is a passive whatever follows.
    ["snapshots get created for VM 100 every night", undefined],
    ["my backups get deleted by vzdump after a week", undefined],
    ["get enabled and disabled repositories on pve1", "GET"],
    ["get logged in users", "GET"],
    ["get speed of the disk sdb", "GET"],
    // A name before "get" is no subject: "on pve1 get …" is an order.
    ["on pve1 get stopped containers", "GET"],
    ["on nodeA get stopped containers", "GET"],
    // Without a subject, a participle that ends its phrase makes the passive.
    ["backups of VM 100 get deleted", undefined],
    ["so they get deleted by the job", undefined],
    ["get stopped containers", "GET"],
  ])("%j asks for %j", (query, method) => {
    expect<string | undefined>(statedMethod(tokens(query))).toBe(method);
  });

  // What the verb acts on: the noun phrase after it, up to a preposition, a name or a number.
  test.each([
    ["reset the root password inside vm 155", ["root", "password"]],
    ["reboot the physical host pve2", ["physical", "host"]],
    ["turn the vm back on", ["vm"]],
    ["shut down all the guests", ["guests"]],
    ["restart vm 100", ["vm"]],
    ["kill it now", []],
    ["restart the services it runs", ["services"]],
    ["stop 100", []],
  ])("%j: the verb acts on %j", (query, object) => {
    expect(objectWords(tokens(query), 0)).toEqual(object);
  });

  test.each([
    ["vm 100", "qemu"],
    ["virtual machine", "qemu"],
    ["ct 201", "lxc"],
    ["guest firewall", "any"],
    ["vm and container", "any"],
    ["storage", "none"],
  ])("%j is about %j", (text, facet) => {
    expect<string>(guestFacet(text.split(" "))).toBe(facet);
  });
});

describe("the quality bar (issue 3: 80% first, 95% in the top five)", () => {
  const present =
    haveSharedData("catalog search quality", SCHEMA_DIR) && haveSharedData("catalog search quality", DEV_QUERIES);
  const real = present
    ? Catalog.fromText(readFileSync(SCHEMA_FILES["9.1"].file, "utf8"), { kind: "inline", location: "9.1" })
    : undefined;
  // Our own held-out queries, written without looking at the dev queries' misses: the bar must
  // hold on words the ranking was not tuned on, not only on the shared dev set.
  test.skipIf(!present).each([
    ["the shared dev queries", DEV_QUERIES],
    ["our held-out queries", HELD_OUT_QUERIES],
  ])("PVE 9.1, %s", (_name, file) => {
    const summary = evaluateSearch(real!, parseEvalQueries(JSON.parse(readFileSync(file, "utf8"))));
    const misses = summary.outcomes.filter((o) => o.rank !== 1).map((o) => `${o.rank ?? "-"} ${o.query}`);
    expect({ top1: summary.top1 >= 0.8, top5: summary.top5 >= 0.95, misses }).toEqual({
      top1: true,
      top5: true,
      misses,
    });
  });

  test("the held-out set is well formed: every answer is an endpoint of PVE 9.1", () => {
    const queries = parseEvalQueries(JSON.parse(readFileSync(HELD_OUT_QUERIES, "utf8")));
    expect(queries.length).toBeGreaterThanOrEqual(100);
    if (!real) return;
    const unknown = queries.flatMap((q) =>
      q.expect.filter((answer) => {
        const [method, path] = answer.split(" ");
        return !real.endpoint(method!, path!);
      }),
    );
    expect(unknown).toEqual([]);
  });
});

describe("the floor (issue 11): first and top five never fall below what the last change reached", async () => {
  const present =
    haveSharedData("catalog search floor", SCHEMA_DIR) &&
    haveSharedData("catalog search floor", DEV_QUERIES_2) &&
    haveSharedData("catalog search floor", DOCS_DIR);
  const { plain, withDocs } = present ? await realCatalogs(true) : {};
  // [set, with docs, first %, top five %, file]: the figures of the last change (scripts/search-eval.ts).
  test
    .skipIf(!present)
    .each<[string, boolean, number, number, string]>(
      FLOORS.map(([name, docs, first, five]) => [name, docs, first, five, querySetFile(name)]),
    )("%s, docs %p: first >= %d%, top five >= %d%", (_name, docs, first, five, file) => {
    const summary = evaluateSearch(
      (docs ? withDocs : plain)!,
      parseEvalQueries(JSON.parse(readFileSync(file, "utf8"))),
    );
    const misses = summary.outcomes.filter((o) => o.rank !== 1).map((o) => `${o.rank ?? "-"} ${o.query}`);
    expect({
      first: Math.round(summary.top1 * 1000) / 10 >= first,
      five: Math.round(summary.top5 * 1000) / 10 >= five,
      misses,
    }).toEqual({
      first: true,
      five: true,
      misses,
    });
  });

  test.each(FIXTURE_SETS.map((name) => [querySetFile(name)]))(
    "%s is well formed: every answer is an endpoint of PVE 9.1",
    (file) => {
      const queries = parseEvalQueries(JSON.parse(readFileSync(file, "utf8")));
      expect(queries.length).toBeGreaterThanOrEqual(60);
      if (!plain) return;
      const unknown = queries.flatMap((q) =>
        q.expect.filter((a) => !plain.endpoint(a.split(" ")[0]!, a.split(" ")[1]!)),
      );
      expect(unknown).toEqual([]);
    },
  );

  // The content types pvesm(1) defines under "content" are the values of the content listing's
  // `content`, whose format (pve-storage-content) the schema does not spell out.
  test.skipIf(!present)("with the docs, a content type names the storage content listing", () => {
    const under = (catalog: Catalog) =>
      catalog
        .search("snippets", { pathPrefix: "/nodes/{node}/storage/{storage}/content" })
        .hits.map((h) => `${h.method} ${h.path}`);
    // The listing first; its volumes are of those kinds too.
    const found = under(withDocs!);
    expect(found[0]).toBe("GET /nodes/{node}/storage/{storage}/content");
    expect(found.length).toBeGreaterThan(1);
    expect(found.slice(1).every((hit) => hit.includes("/content/{volume}"))).toBe(true);
    expect(under(plain!)).toEqual([]);
  });

  // The firewall macros pve-firewall(8) defines are the values of the rules' `macro`, which the
  // schema leaves open: with the docs, "HTTPS" finds the rules; without them, nothing there.
  test.skipIf(!present)("with the docs, a firewall macro names the rules it fits", () => {
    const under = (catalog: Catalog) =>
      catalog.search("HTTPS", { pathPrefix: "/nodes/{node}/firewall" }).hits.map((h) => `${h.method} ${h.path}`);
    expect(under(withDocs!)).toEqual(
      expect.arrayContaining(["POST /nodes/{node}/firewall/rules", "PUT /nodes/{node}/firewall/rules/{pos}"]),
    );
    expect(under(plain!)).toEqual([]);
  });
});

describe("the mechanisms of issue 11 from its second round on, on PVE 9.1", () => {
  const present = haveSharedData("catalog search mechanisms", SCHEMA_DIR);
  const real = present
    ? Catalog.fromText(readFileSync(SCHEMA_FILES["9.1"].file, "utf8"), { kind: "inline", location: "9.1" })
    : undefined;
  test.skipIf(!present).each([
    // The other methods of a resource lend it their words: the job list is the "backup schedule".
    ["delete a backup schedule", "DELETE /cluster/backup/{id}"],
    // A verb of no known method still asks for an action; a tie among methods keeps the schema's order.
    ["reserve a static IP for a MAC address in a vnet", "POST /cluster/sdn/vnets/{vnet}/ips"],
    // "mount point" is what mp[n] stands for (its own description says so), and a named
    // setting makes the settings endpoint what is asked for.
    ["add a mount point to container 220", "PUT /nodes/{node}/lxc/{vmid}/config"],
    // "turn on" a feature enables it; "turn off" a machine shuts it down.
    ["turn on the firewall for a single VM", "PUT /nodes/{node}/qemu/{vmid}/firewall/options"],
    ["turn off container 200", "POST /nodes/{node}/lxc/{vmid}/status/shutdown"],
    // A value says which endpoints take it: a full token ID, an HA resource.
    ["what can root@pam!ci do", "GET /access/permissions"],
    ["move vm:100 to pve2", "POST /cluster/ha/resources/{sid}/migrate"],
    // A boolean flag is set both ways: "disable" names `enable`.
    ["disable dave@pve's account so he cannot sign in", "PUT /access/users/{userid}"],
    // After a causative "make", the next verb is the state wanted, and "make" creates nothing.
    ["make container 240 start at boot", "PUT /nodes/{node}/lxc/{vmid}/config"],
    // ... and the action that verb names steps back: a behaviour is set, VM 118 is not started now.
    ["make VM 118 start automatically when the host boots", "POST /nodes/{node}/qemu/{vmid}/config"],
    // In a question, "up" says it runs.
    ["is VM 220 up?", "GET /nodes/{node}/qemu/{vmid}/status/current"],
    ["how long has node pve1 been up", "GET /nodes/{node}/status"],
    // ... and "run" after what runs: a state, not a command to run.
    ["which containers run on this node", "GET /nodes/{node}/lxc"],
    // The keys of a property string and their values name settings: `cache` of scsi[n], `nesting` of `features`.
    ["switch the disk of VM 120 to writeback cache", "POST /nodes/{node}/qemu/{vmid}/config"],
    ["enable nesting in container 140", "PUT /nodes/{node}/lxc/{vmid}/config"],
    // A volume's own name is a value that the volume endpoints take (pve-storage's archive names).
    [
      "remove vzdump-lxc-105-2025_03_01-02_00_00.tar.zst from storage backup-nfs",
      "DELETE /nodes/{node}/storage/{storage}/content/{volume}",
    ],
    [
      "remove the backup file vzdump-lxc-105-2025_03_01-02_00_00.tar.zst",
      "DELETE /nodes/{node}/storage/{storage}/content/{volume}",
    ],
    // The ipset something is added to exists.
    ["add 10.0.0.9 to the blacklist ipset", "POST /cluster/firewall/ipset/{name}"],
    // An address typed goes where a parameter takes one: into the set, not to the set's creation.
    ["add 203.0.113.7 to the cluster-wide blocklist IP set", "POST /cluster/firewall/ipset/{name}"],
    // A calendar event typed goes to what takes one, not to the next free VMID.
    [
      "when would the calendar event 'mon..fri 22:00' fire next? list the upcoming times",
      "GET /cluster/jobs/schedule-analyze",
    ],
    // What a request keeps from happening is set, not done: the container's protection, not its removal or stop.
    ["stop anyone from accidentally deleting container 310", "PUT /nodes/{node}/lxc/{vmid}/config"],
    // ... and "when its node boots" inside a request makes no question of it.
    ["stop container 118 from starting automatically when its node boots", "PUT /nodes/{node}/lxc/{vmid}/config"],
    // A run-together key its description spells out ("macaddr": "MAC address") is named by those words.
    ["give VM 109 a fixed MAC address", "PUT /nodes/{node}/qemu/{vmid}/config"],
    // Several guests are a list of guests: what takes one (an HA rule's resources, a pool's vms).
    ["HA: VM 100 and VM 101 must never run on the same node", "POST /cluster/ha/rules"],
    ["add VMs 200 and 201 to the prod pool", "PUT /pools"],
    // What is said aside names no guest: the node itself reboots.
    ["reboot the physical server node2 itself, not a guest", "POST /nodes/{node}/status"],
    // A list's noun in the plural asks for the list, not one item of it.
    ["which DNS challenge plugins are configured for ACME", "GET /cluster/acme/plugins"],
    // A picture only when one is asked for.
    ["usage history of storage local-zfs", "GET /nodes/{node}/storage/{storage}/rrddata"],
    ["CPU graph of node pve2 as a PNG image", "GET /nodes/{node}/rrd"],
    // A node's settings, when the node is named and no guest: not a guest's parameter of that name.
    ["set the search domain and DNS servers of node pve4", "PUT /nodes/{node}/dns"],
    // A light verb's object is the action; a clause of time says when, not what.
    [
      "take a snapshot of VM 42 with its memory state before the kernel update",
      "POST /nodes/{node}/qemu/{vmid}/snapshot",
    ],
    ["make VM 77 come back up automatically whenever the node reboots", "POST /nodes/{node}/qemu/{vmid}/config"],
    // A frame around a request: the delete, not a read of the snapshots; "to reboot node pve1" names the node itself.
    ["how do I delete snapshot pre-upgrade of VM 100", "DELETE /nodes/{node}/qemu/{vmid}/snapshot/{snapname}"],
    ["is there a way to delete snapshot pre-upgrade of VM 100", "DELETE /nodes/{node}/qemu/{vmid}/snapshot/{snapname}"],
    ["which endpoint do I use to change the DNS servers of node pve1", "PUT /nodes/{node}/dns"],
    ["I want to reboot node pve1", "POST /nodes/{node}/status"],
    ["what is the API call to create a backup job", "POST /cluster/backup"],
    ["how can I throttle replication job 101-0", "PUT /cluster/replication/{id}"],
    // A verb that only presents says nothing of what is read: not the one status whose description opens with "Show".
    ["show the cluster status", "GET /cluster/status"],
    ["show the status of node pve3", "GET /nodes/{node}/status"],
    // A plural after a collection's noun asks for the list; a guest's kind and number may run together.
    ["list the backup jobs", "GET /cluster/backup"],
    ["stop vm105", "POST /nodes/{node}/qemu/{vmid}/status/stop"],
    ["show the firewall rules of ct200", "GET /nodes/{node}/lxc/{vmid}/firewall/rules"],
    // A collection's run-together noun typed apart, in the plural, asks for the list.
    ["show me every IP set of the datacenter", "GET /cluster/firewall/ipset"],
    ["what IP sets are there", "GET /cluster/firewall/ipset"],
    // A host named by its name alone is a node: its own firewall, not the cluster's.
    ["add a firewall rule on pve7 only", "POST /nodes/{node}/firewall/rules"],
    // "across all nodes" says where it applies: the cluster's, not a node's.
    ["add a firewall rule across all nodes", "POST /cluster/firewall/rules"],
    // A schedule in words is a calendar event: what takes one (a replication job), not a one-off action.
    ["keep VM 230 mirrored to node hv2 every 10 minutes", "POST /cluster/replication"],
    ["sync the users of realm corp every night", "POST /cluster/jobs/realm-sync/{id}"],
    // A network device's name is what the node's interface endpoints take: not an IP set entry.
    ["change the IP address of vmbr3 on node pve2", "PUT /nodes/{node}/network/{iface}"],
    // A guest taken out of something stays: "remove VM 100 from HA" deletes no VM.
    ["remove VM 100 from HA", "DELETE /cluster/ha/resources/{sid}"],
    // A port is what a firewall rule takes: not the guest's config.
    ["let port 9100 through to VM 77", "POST /nodes/{node}/qemu/{vmid}/firewall/rules"],
    // A compound that opens a request and ends with a verb of change is that verb.
    ["live-migrate VM 77 to pve4", "POST /nodes/{node}/qemu/{vmid}/migrate"],
    // A noun phrase that names its guest first reads; "exist" says nothing.
    ["VM 100 config", "GET /nodes/{node}/qemu/{vmid}/config"],
    ["which users exist", "GET /access/users"],
    // Tasks in the plural: the list, not the status of one task.
    ["show all tasks that are running on the cluster at the moment", "GET /cluster/tasks"],
    // A relative clause says what the new role is: it reboots nothing.
    ["create a custom role that may only reboot and shut down VMs", "POST /access/roles"],
    // A request that opens with an English verb of no known method asks for an action, not a read.
    ["allow RDP into VM 240 with a firewall rule", "POST /nodes/{node}/qemu/{vmid}/firewall/rules"],
  ])("%s", (query, expected) => {
    expect(real!.search(query, { limit: 5 }).hits.map((h) => `${h.method} ${h.path}`)[0]).toBe(expected);
  });

  // Taking something out of a guest, or a guest out of something, never offers to delete the guest first,
  // nor a user or a storage taken out of a group or a pool.
  test.skipIf(!present).each([
    ["remove the CD-ROM from VM 100", "DELETE /nodes/{node}/qemu/{vmid}"],
    ["remove the second network card from VM 100", "DELETE /nodes/{node}/qemu/{vmid}"],
    ["remove the tag prod from VM 100", "DELETE /nodes/{node}/qemu/{vmid}"],
    ["remove VM 100 from HA", "DELETE /nodes/{node}/qemu/{vmid}"],
    ["remove user bob@pve from group admins", "DELETE /access/users/{userid}"],
    ["remove storage nfs1 from pool dev", "DELETE /storage/{storage}"],
  ])("%s: not %s first", (query, deletion) => {
    expect(real!.search(query, { limit: 1 }).hits.map((h) => `${h.method} ${h.path}`)[0]).not.toBe(deletion);
  });

  // A node something goes to is what a migration's target takes: "hand over" is no word the API knows.
  test.skipIf(!present)("hand VM 137 over to pve3 without downtime: the migration in the top five", () => {
    const top = real!
      .search("hand VM 137 over to pve3 without downtime", { limit: 5 })
      .hits.map((h) => `${h.method} ${h.path}`);
    expect(top).toContain("POST /nodes/{node}/qemu/{vmid}/migrate");
  });
});

describe("the seventh round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, seventh round", SCHEMA_DIR);
  const docsPresent = present && haveSharedData("catalog search, seventh round", DOCS_DIR);
  const { plain: real, withDocs } = present ? await realCatalogs(docsPresent) : {};

  test.skipIf(!present).each([
    // A flag is set both ways in either tense: "switch off" sets the repository's `enabled`.
    ["switch off the enterprise repo", "POST /nodes/{node}/apt/repositories"],
    // A retired parameter ("mailto: Deprecated, use notification targets/matchers") no longer makes the backup job a mail target.
    [
      "how can I verify that the mail notification target actually delivers something?",
      "POST /cluster/notifications/targets/{name}/test",
    ],
    // All of something across the cluster: one node's endpoints step further back.
    ["start every VM and container in the whole cluster at once", "POST /cluster/bulk-action/guest/start"],
    // What comes along is said aside: "including", "together with", a closing "disks included".
    ["Delete VM 707 entirely, disks included.", "DELETE /nodes/{node}/qemu/{vmid}"],
    ["take a snapshot of VM 88 including its memory state", "POST /nodes/{node}/qemu/{vmid}/snapshot"],
    ["take a snapshot of container 61 including its RAM state", "POST /nodes/{node}/lxc/{vmid}/snapshot"],
    // A word one letter short of the API's, or with two letters swapped, is that word.
    ["stop containr 105", "POST /nodes/{node}/lxc/{vmid}/status/stop"],
    ["shut down the containr 230 gracefully", "POST /nodes/{node}/lxc/{vmid}/status/shutdown"],
  ])("%s: first %s", (query, expected) => {
    expect(ranked(real!, query)[0]).toBe(expected);
  });

  test.skipIf(!present).each([
    // A PCI address is what the PCI endpoints take.
    [
      "which vGPU profiles does the card at 0000:41:00.0 on gpu02 support",
      "GET /nodes/{node}/hardware/pci/{pci-id-or-mapping}/mdev",
    ],
    // What a list returns says what it lists: the items of /cluster/resources are of type qemu and lxc.
    ["List every VM and container in the cluster with its current CPU and memory usage", "GET /cluster/resources"],
    // A cluster-wide mapping takes the words of the guest setting that uses it (virtiofs).
    ["share a host directory with VMs via virtiofs, defined once for every node", "POST /cluster/mapping/dir"],
  ])("%s: %s in the top five", (query, expected) => {
    expect(ranked(real!, query)).toContain(expected);
  });

  // A guest is created only when creating is said, whatever settings the creation takes.
  test
    .skipIf(!present)
    .each([
      ["pass a GPU through to a VM on any node"],
      ["share host folder /srv/shared with VMs via virtiofs on every node"],
      ["give VMs access to the GPU on whichever node they run"],
    ])("%s: not the creation of a VM first", (query) => {
    expect(ranked(real!, query)[0]).not.toBe("POST /nodes/{node}/qemu");
  });

  // A guest named by its number exists: what it would be given when created (`ha-managed`) is not asked.
  test.skipIf(!present).each([
    ["place VM 812 under high availability management", "POST /nodes/{node}/qemu"],
    ["make VM 640 highly available", "POST /nodes/{node}/qemu"],
    ["keep container 300 highly available", "POST /nodes/{node}/lxc"],
  ])("%s: not %s first", (query, creation) => {
    expect(ranked(real!, query)[0]).not.toBe(creation);
  });

  // A CLI-only command is sought first where its tool's other commands live, but a much better
  // match elsewhere still shows: pvecm's other commands are under /cluster/config.
  test.skipIf(!docsPresent)("pvecm status: the cluster status in the top five", () => {
    expect(ranked(withDocs!, "pvecm status")).toContain("GET /cluster/status");
  });
});

describe("the eighth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, eighth round", SCHEMA_DIR);
  const docsPresent = present && haveSharedData("catalog search, eighth round", DOCS_DIR);
  const { plain: real, withDocs } = present ? await realCatalogs(docsPresent) : {};

  test.skipIf(!present).each([
    // "named" only says that a name follows: the object's key takes it, whatever the API calls it.
    ["create a resource pool named qa-team", "POST /pools"],
    // noVNC is the HTML5 VNC viewer (the `console` option of /cluster/options), not any console.
    ["open a noVNC console for VM 4410", "POST /nodes/{node}/qemu/{vmid}/vncproxy"],
    ["noVNC session for container 318", "POST /nodes/{node}/lxc/{vmid}/vncproxy"],
    // A guest's power action is no answer when the verb acts on something else.
    [
      "reset the root password inside VM 301 via the guest agent",
      "POST /nodes/{node}/qemu/{vmid}/agent/set-user-password",
    ],
    ["I want to reboot the host machine pve5, not a VM", "POST /nodes/{node}/status"],
    // An address with its port is no volume ID.
    [
      "set up an smtp notification target through the relay smtp.example.net:587 with username/password auth",
      "POST /cluster/notifications/endpoints/smtp",
    ],
    // A letter typed twice is a typo of the word with it once.
    ["remove the snapshoot 'before-upgrade' of VM 4410", "DELETE /nodes/{node}/qemu/{vmid}/snapshot/{snapname}"],
    // "know whether …" asks: the migration's preconditions, not the migration.
    [
      "I want to know whether VM 230 can be migrated to pve3 with its local disks",
      "GET /nodes/{node}/qemu/{vmid}/migrate",
    ],
    ["before migrating VM 88 I need to know if anything would block it", "GET /nodes/{node}/qemu/{vmid}/migrate"],
  ])("%s: first %s", (query, expected) => {
    expect(ranked(real!, query)[0]).toBe(expected);
  });

  // Both kinds of guest named: an endpoint of one kind answers half ("their" is no word of the query).
  test.skipIf(!present)("all VMs and containers of the cluster: the cluster's resources in the top five", () => {
    expect(ranked(real!, "list all VMs and containers in the cluster with their memory use")).toContain(
      "GET /cluster/resources",
    );
  });

  // A command with no API twin stands for the GET that returns what its examples print.
  test.skipIf(!docsPresent)("pvecm status: the cluster status first, saying why", () => {
    expect(firstWithNotes(withDocs!, "pvecm status")).toEqual({
      first: "GET /cluster/status",
      notes: [
        "pvecm status is a CLI-only command with no API endpoint of its own (Displays the local view of the cluster status.); GET /cluster/status returns what it prints (Name, Nodes, Node ID, Quorate), then the nearest endpoints",
      ],
    });
  });

  // So does a shell command: `zpool status` prints a pool's state, scan and errors.
  test.skipIf(!docsPresent)("zpool status tank: the pool's details first", () => {
    expect(firstWithNotes(withDocs!, "zpool status tank")).toEqual({
      first: "GET /nodes/{node}/disks/zfs/{name}",
      notes: [
        expect.stringContaining("GET /nodes/{node}/disks/zfs/{name} returns what it prints (state, scan, errors)"),
      ],
    });
  });

  // A service the API names, with the action after it in the path, spells the API call.
  test.skipIf(!docsPresent)("systemctl restart pveproxy: the service's restart first", () => {
    expect(ranked(withDocs!, "systemctl restart pveproxy on node hv2")[0]).toBe(
      "POST /nodes/{node}/services/{service}/restart",
    );
  });

  // An option the command's endpoint takes is its own parameter, not another method's handler.
  test.skipIf(!docsPresent)("pvesm set local --delete content: the PUT, not the DELETE", () => {
    expect(firstWithNotes(withDocs!, "pvesm set local --delete content")).toEqual({
      first: "PUT /storage/{storage}",
      notes: ["pvesm set calls PUT /storage/{storage} (from the pvesm man page)"],
    });
  });

  // "them" after "turn … off" is a machine: it is shut down, not a feature disabled.
  test("the VMs on pve2 are idle, turn them off: no sense of disabling", () => {
    const stems = analyzeQuery(buildSearchIndex([]), "the VMs on pve2 are idle, turn them off").concepts.flatMap(
      (c) => [...c.terms.keys()],
    );
    expect(stems).toContain("shutdown");
    expect(stems).not.toContain("disabl");
  });
  // "the server 101" may be a guest, so its reboot is no power action on something else.
  test.skipIf(!present)("reboot the server 101: the VM's reboot first", () => {
    expect(ranked(real!, "reboot the server 101")[0]).toBe("POST /nodes/{node}/qemu/{vmid}/status/reboot");
  });

  // pve-storage's pvesm calls the GET `dryrun` for prune-backups --dry-run, the DELETE without it.
  test.skipIf(!docsPresent).each([
    ["pvesm prune-backups nfs-store --keep-weekly 2 --dry-run", "GET", "pvesm prune-backups --dry-run calls"],
    ["pvesm prune-backups nfs-store --keep-weekly 2", "DELETE", "pvesm prune-backups calls"],
  ])("%s: the %s first", (query, method, note) => {
    expect(firstWithNotes(withDocs!, query)).toEqual({
      first: `${method} /nodes/{node}/storage/{storage}/prunebackups`,
      notes: [`${note} ${method} /nodes/{node}/storage/{storage}/prunebackups (from the pvesm man page)`],
    });
  });
});

describe("the ninth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, ninth round", SCHEMA_DIR);
  const docsPresent = present && haveSharedData("catalog search, ninth round", DOCS_DIR);
  const { plain: real, withDocs } = present ? await realCatalogs(docsPresent) : {};

  // Several values of one enum of kinds named together: the `type` of /cluster/resources' items
  // is qemu, lxc, storage, node..., so the one list of all of them.
  test.skipIf(!present)("VMs, containers and storages of the cluster: the cluster's resources first", () => {
    expect(ranked(real!, "list all virtual machines, containers and storages of the cluster")[0]).toBe(
      "GET /cluster/resources",
    );
  });
  test.skipIf(!docsPresent)("every VM, container, node and storage: the cluster's resources in the top five", () => {
    expect(ranked(withDocs!, "one overview of every VM, container, node and storage with their status")).toContain(
      "GET /cluster/resources",
    );
  });

  // The values pve-firewall(8) defines for `macro` (SSH, HTTPS...) name that parameter of a rule.
  test.skipIf(!docsPresent).each([
    ["permit ssh to container 412 only from 192.0.2.0/24", "POST /nodes/{node}/lxc/{vmid}/firewall/rules"],
    [
      "allow SSH from the office network to every host at the datacenter firewall level",
      "POST /cluster/firewall/rules",
    ],
  ])("%s: first %s", (query, expected) => {
    expect(ranked(withDocs!, query)[0]).toBe(expected);
  });

  // A question of cause asks for the log.
  test.skipIf(!present).each([
    ["the replication job of container 210 keeps failing, why?", "GET /nodes/{node}/replication/{id}/log"],
    ["what went wrong with replication job 105-0", "GET /nodes/{node}/replication/{id}/log"],
  ])("%s: first %s", (query, expected) => {
    expect(ranked(real!, query)[0]).toBe(expected);
  });

  // A change said done whose effect is denied asks to apply it.
  test.skipIf(!present)("SDN edited, nothing changed on the hosts: the SDN apply first", () => {
    expect(ranked(real!, "I edited the SDN zones yesterday but nothing changed on the hosts")[0]).toBe(
      "PUT /cluster/sdn",
    );
  });

  // What has been running for a while is a task: stopping it is the task's DELETE.
  test
    .skipIf(!present)
    .each([
      ["the vzdump job on hv2 has been running for five hours now, abort it"],
      ["a backup of container 301 has been hanging for hours, get rid of it"],
    ])("%s: the task's stop first", (query) => {
    expect(ranked(real!, query)[0]).toBe("DELETE /nodes/{node}/tasks/{upid}");
  });

  // A word in quotes is a name given: "'backup-old'" is no backup.
  test.skipIf(!present)("remove the storage entry 'backup-old': the storage's DELETE first", () => {
    expect(ranked(real!, "remove the storage entry 'backup-old' from the cluster config")[0]).toBe(
      "DELETE /storage/{storage}",
    );
  });

  // The event a question of cause asks about is no request.
  test.skipIf(!present)("the node rebooted on its own, what happened: its log first", () => {
    const first = ranked(real!, "the node pve2 rebooted on its own at 3am, what happened right before that")[0];
    expect(["GET /nodes/{node}/syslog", "GET /nodes/{node}/journal"]).toContain(first ?? "");
  });
  // A state undone only by an action on what the query names: a VM has no unlock of its own.
  test.skipIf(!present)("VM 100 is locked: no user's TFA unlock in the top five", () => {
    expect(ranked(real!, "VM 100 is locked after a failed backup")).not.toContain(
      "PUT /access/users/{userid}/unlock-tfa",
    );
  });

  // The verb after a negated auxiliary is what fails, no request.
  test.skipIf(!present)("pve3 died and now we can't start anything, is it quorate: the cluster's status first", () => {
    expect(ranked(real!, "pve3 died and now we can't start anything anymore, is the cluster still quorate?")[0]).toBe(
      "GET /cluster/status",
    );
  });

  // A state said asks for the API's action that undoes it.
  test.skipIf(!present)("locked out after bad TOTP codes: the TFA unlock first", () => {
    expect(ranked(real!, "carol@pve is locked out after too many bad TOTP attempts")[0]).toBe(
      "PUT /access/users/{userid}/unlock-tfa",
    );
  });

  // "monitoring" stems to the API's monitor (QEMU's, Ceph's): it is no equal of metrics.
  test.skipIf(!present)("statistics for the monitoring: the metric server first, no QEMU monitor", () => {
    const hits = ranked(real!, "send node and guest statistics to our monitoring graphite server");
    expect(hits[0]).toBe("POST /cluster/metrics/server/{id}");
    expect(hits).not.toContain("POST /nodes/{node}/qemu/{vmid}/monitor");
  });
  test.skipIf(!present).each([
    ["run a command on the QEMU monitor of VM 100", "POST /nodes/{node}/qemu/{vmid}/monitor"],
    ["list ceph monitors", "GET /nodes/{node}/ceph/mon"],
  ])("%s: still %s", (query, expected) => {
    expect(ranked(real!, query)[0]).toBe(expected);
  });
});

describe("the tenth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, tenth round", SCHEMA_DIR);
  const { plain: real } = present ? await realCatalogs(false) : {};
  const index = () => searchIndexOf(real!);

  // "keep" before a gerund says something recurs; it keeps nothing (no prune), and the plural
  // noun before it is no verb of a request.
  test.skipIf(!present)("backups keep failing: the keep counts little, and it is a read", () => {
    const analysis = analyzeQuery(index(), "backups keep failing every night, where can I see why");
    expect(analysis.method).toBe("GET");
    const keep = analysis.concepts.find((c) => c.terms.has("keep"));
    expect(keep).toBeDefined();
    expect(keep!.weight).toBeLessThanOrEqual(0.2);
  });

  // An ACL path names what GET /access/permissions dumps and PUT /access/acl sets.
  test
    .skipIf(!present)
    .each([["what may dave@pve do on /pool/prod"], ["erin@pve asks what she is allowed to do on /vms/204"]])(
    "%s: the effective permissions first",
    (query) => {
      expect(ranked(real!, query)[0]).toBe("GET /access/permissions");
    },
  );

  // A verb that carries guests off a node, or onto other nodes, moves them: migrate.
  test.skipIf(!present)("get all the containers off node4: the node's migrate-all first", () => {
    expect(ranked(real!, "get all the containers off node4 before the reboot")[0]).toBe(
      "POST /nodes/{node}/migrateall",
    );
  });
  test.skipIf(!present)(
    "pve5 needs new disks, get every guest off it: a migration of all guests in the top three",
    () => {
      const hits = ranked(real!, "pve5 needs new disks tomorrow, get every guest off it first").slice(0, 3);
      expect(
        hits.some((h) => h === "POST /nodes/{node}/migrateall" || h === "POST /cluster/bulk-action/guest/migrate"),
      ).toBe(true);
    },
  );
  test.skipIf(!present).each([
    ["take an OSD out of the cluster", "POST /nodes/{node}/ceph/osd/{osdid}/out"],
    ["get the config of VM 100", "GET /nodes/{node}/qemu/{vmid}/config"],
    ["get the syslog out of pve3", "GET /nodes/{node}/syslog"],
    ["get the task log off node2", "GET /nodes/{node}/tasks/{upid}/log"],
    ["get the container list off node2", "GET /nodes/{node}/lxc"],
  ])("%s: still %s", (query, expected) => {
    expect(ranked(real!, query)[0]).toBe(expected);
  });

  // Flags named "no" and an action their description says is off: keeping that action from
  // happening is setting the flag, whatever the occasion.
  test.skipIf(!present)("the flags that turn an action off, read from the schema", () => {
    const flags = negatedFlags((real as unknown as { endpoints: Parameters<typeof negatedFlags>[0] }).endpoints);
    expect([...flags.values()].map((f) => f.flag)).toEqual(
      expect.arrayContaining(["noout", stem("norebalance"), stem("noscrub"), stem("nobackfill")]),
    );
    // "nodes" and "notes" say no action; nocow's and nosmurfs' descriptions do not say it is off.
    const names = [...flags.values()].map((f) => f.flag);
    expect(names).not.toContain(stem("nocow"));
    expect(names).not.toContain(stem("nosmurfs"));
    expect(flags.has(stem("des"))).toBe(false);
  });
  test
    .skipIf(!present)
    .each([
      ["keep Ceph from rebalancing while I patch pve2"],
      ["before I reboot the storage host, stop Ceph from marking its OSDs out"],
      ["we patch one ceph node at a time and don't want the cluster to start rebalancing meanwhile"],
    ])("%s: a Ceph flag's PUT first", (query) => {
    expect(["PUT /cluster/ceph/flags", "PUT /cluster/ceph/flags/{flag}"]).toContain(ranked(real!, query)[0] ?? "");
  });
  // A verb of saying tells where the answer comes from: "report" is no node's system report there.
  test.skipIf(!present)("which addresses does VM 207 report through the guest agent: the agent first", () => {
    const hits = ranked(real!, "which addresses does VM 207 report through the guest agent");
    expect(hits[0]).toMatch(/^(GET|POST) \/nodes\/\{node\}\/qemu\/\{vmid\}\/agent/);
    expect(hits.slice(0, 3)).toContain("GET /nodes/{node}/qemu/{vmid}/agent/network-get-interfaces");
  });
  // A verb and its particle with the object between them open the request as the phrase would.
  test.skipIf(!present).each([
    ["I messed up the bond settings on hv3, throw those edits away", "DELETE"],
    ["shut container 240 down cleanly", "POST"],
  ])("%s: %s", (query, method) => {
    expect(analyzeQuery(index(), query).method).toBe(method as never);
  });
  // "to" between opens another verb: "close … out" is no phrase there, and no DELETE.
  test.skipIf(!present)("are we close to running out of RAM on the cluster?: no DELETE", () => {
    expect(analyzeQuery(index(), "are we close to running out of RAM on the cluster?").method).not.toBe("DELETE");
  });

  // A parameter named `port` takes a server's port ("mail.corp.lan port 587"); a firewall's port stays the rules'.
  test.skipIf(!present).each([
    ["allow tcp 22 to VM 100", "POST /nodes/{node}/qemu/{vmid}/firewall/rules"],
    ["allow port 3306 from the app server to ct 200", "POST /nodes/{node}/lxc/{vmid}/firewall/rules"],
  ])("%s: first %s", (query, expected) => {
    expect(ranked(real!, query)[0]).toBe(expected);
  });
  test.each([
    ["mail.corp.lan port 587", true],
    ["our smtp relay on port 587", true],
    ["allow tcp 22 to VM 100", false],
    ["allow port 3306 from the app server", false],
  ])("%s: a server's port %p", (query, expected) => {
    expect(namesServerPort(query)).toBe(expected);
  });
  test.skipIf(!present)("mails via mail.corp.lan port 587: the SMTP target first, no firewall rule", () => {
    const hits = ranked(real!, "mails should go out via mail.corp.lan port 587 with a username and password");
    expect(hits[0]).toBe("POST /cluster/notifications/endpoints/smtp");
  });

  // "comes back up" is no backup; "check" only asks when it opens the query; a particle before a noun is a preposition.
  test.skipIf(!present)("VM 500 comes back up on another host: no backup in the request", () => {
    const analysis = analyzeQuery(index(), "make sure VM 500 comes back up on another host by itself");
    expect(analysis.concepts.some((c) => c.verb && c.primaries.has(stem("backup")))).toBe(false);
  });
  test.skipIf(!present)("prevent rebalancing during the reboot and check ceph health afterwards: PUT", () => {
    expect(analyzeQuery(index(), "prevent rebalancing during the reboot and check ceph health afterwards").method).toBe(
      "PUT",
    );
  });
  test.skipIf(!present)("switch ports on vmbr0: no PUT from switch … on", () => {
    expect(analyzeQuery(index(), "switch ports on vmbr0").method).not.toBe("PUT");
  });

  // A name built with a kind of storage (POST /storage's `type`) is a storage's name.
  test.skipIf(!present)("the kinds of storage, read from POST /storage's type", () => {
    const kinds = (real as unknown as { index: { storageTypes: Set<string> } }).index.storageTypes;
    expect([...kinds]).toEqual(expect.arrayContaining(["zfspool", "lvmthin", "nfs", "pbs", "zfs", "lvm"]));
  });
  test.skipIf(!present).each([
    ["free space on local-zfs", true],
    ["which backups are on pbs-main", true],
    ["free space on tank-nvme", false],
    ["live-migrate VM 330 to pve2", false],
    ["the backup-nfs storage is full", true],
    // A service's name: not where something is stored.
    ["is rbd-mirror running on pve1", false],
    ["is the zfs-zed service running on pve1", false],
    ["how full is local-zfs", true],
    ["check the state of zfs-import-cache on pve1", false],
  ])("%s: names a storage %p", (query, storage) => {
    expect(tokenize(index(), query).namesStorage).toBe(storage);
  });
  test.skipIf(!present)("how much room is left on local-lvm on hv9: the storage's status first", () => {
    expect(ranked(real!, "how much room is left on local-lvm on hv9")[0]).toBe(
      "GET /nodes/{node}/storage/{storage}/status",
    );
  });

  // A node named by its name, no guest said: the guests' endpoints step back (nodeNotGuest 0.5).
  test.skipIf(!present)("the status of zone1: an SDN zone's name, no host", () => {
    expect(hostsByName("what is the status of zone1", index()).any).toBe(false);
    expect(hostsByName("what is the status of node4", index()).any).toBe(true);
  });
  test.skipIf(!present)("current cpu load, ram and uptime of hv7: the node's status first", () => {
    expect(ranked(real!, "current cpu load, ram and uptime of hv7?")[0]).toBe("GET /nodes/{node}/status");
  });
  test.skipIf(!present)("generate a system report for pve1: still the node's report", () => {
    expect(ranked(real!, "generate a system report for pve1")[0]).toBe("GET /nodes/{node}/report");
  });
  // A word that only starts like a flag's action is not it; a question about it sets nothing.
  test
    .skipIf(!present)
    .each([["stop VM 100 from downgrading qemu"], ["avoid writing to the disk while backing up VM 100"]])(
    "%s: no flag in the top three",
    (query) => {
      const hits = ranked(real!, query).slice(0, 3);
      expect(hits.filter((h) => h.startsWith("PUT /cluster/ceph/flags") || h === "PUT /storage/{storage}")).toEqual([]);
    },
  );
  test.skipIf(!present)("why did ceph stop rebalancing: no PUT", () => {
    expect(analyzeQuery(index(), "why did ceph stop rebalancing").method).not.toBe("PUT");
  });
  test.skipIf(!present)(
    "I don't want to shut down the node, just reboot it: no Ceph flag (shut down is no marking down)",
    () => {
      expect(ranked(real!, "I don't want to shut down the node, just reboot it")).not.toContain(
        "PUT /cluster/ceph/flags",
      );
    },
  );
});

describe("the eleventh round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, eleventh round", SCHEMA_DIR);
  const { plain: real, withDocs } = present ? await realCatalogs(true) : {};
  const index = () => searchIndexOf(real!);

  // A path in a file system beside a guest is the guest's file (agent file-read/-write) or one
  // shared with it; on a node, the path's own words say which of Proxmox's files it is.
  test
    .skipIf(!present)
    .each([
      ["read /etc/resolv.conf from inside VM 120 without logging in"],
      ["show me the contents of /etc/fstab inside VM 131 without logging into it"],
    ])("%s: the agent's file-read first", (query) => {
    expect(ranked(real!, query)[0]).toBe("GET /nodes/{node}/qemu/{vmid}/agent/file-read");
  });
  // A path need not be taken: the request's own endpoint still comes first.
  test.skipIf(!present).each([
    ["snapshot vm 100 before editing /etc/fstab", "POST /nodes/{node}/qemu/{vmid}/snapshot"],
    ["start container 101 with entrypoint /sbin/init", "POST /nodes/{node}/lxc/{vmid}/status/start"],
  ])("%s: still %s", (query, expected) => {
    expect(ranked(real!, query)[0]).toBe(expected);
  });
  test.skipIf(!present)("exclude /var/cache from the backup of container 101: a backup first", () => {
    const first = ranked(real!, "exclude /var/cache from the backup of container 101")[0];
    expect(["POST /cluster/backup", "PUT /cluster/backup/{id}", "POST /nodes/{node}/vzdump"]).toContain(first ?? "");
  });
  // A disk image by its path is what a disk is imported from.
  test.skipIf(!present)("a disk image named in passing need not be imported: the template first", () => {
    expect(ranked(real!, "convert VM 100 to a template, its disk is /var/lib/vz/images/100/base.qcow2")[0]).toBe(
      "POST /nodes/{node}/qemu/{vmid}/template",
    );
  });
  test.skipIf(!present)("attach /root/images/win.qcow2 to VM 100 as scsi1: the VM's config first", () => {
    expect(ranked(real!, "attach /root/images/win.qcow2 to VM 100 as scsi1")[0]).toMatch(
      /^(PUT|POST) \/nodes\/\{node\}\/qemu\/\{vmid\}\/config$/,
    );
  });
  test.skipIf(!present).each([
    ["cat /etc/hosts on pve2", "GET /nodes/{node}/hosts"],
    ["cat /etc/network/interfaces", "GET /nodes/{node}/network"],
  ])("%s: still %s", (query, expected) => {
    expect(ranked(real!, query)[0]).toBe(expected);
    expect(analyzeQuery(index(), query).concepts.some((c) => c.terms.has("#file"))).toBe(false);
  });

  // "configure" with an object not yet known brings a new one into being: the creation.
  test.skipIf(!present).each([
    ["configure an InfluxDB metric server to push stats to", "POST /cluster/metrics/server/{id}"],
    [
      "configure an authenticated SMTP relay on port 587 for notification mails",
      "POST /cluster/notifications/endpoints/smtp",
    ],
    ["configure the InfluxDB metric server influx1 to use port 8089", "PUT /cluster/metrics/server/{id}"],
    // A setting of something that exists, whatever its article.
    ["configure a bandwidth limit for the datacenter", "PUT /cluster/options"],
    ["configure a schedule for backup job backup-5a3c", "PUT /cluster/backup/{id}"],
    ["configure an existing backup job to run daily", "PUT /cluster/backup/{id}"],
    // What follows the object's phrase says whose it is: the object is still new.
    ["configure a firewall rule for VM 100 that allows ssh", "POST /nodes/{node}/qemu/{vmid}/firewall/rules"],
  ])("%s: %s first", (query, expected) => {
    expect(ranked(real!, query)[0]).toBe(expected);
  });

  // "load" is no word of "download" or "upload".
  test.skipIf(!present)("what was the load like on pve2: no download or upload in the top three", () => {
    const hits = ranked(real!, "pve2 felt sluggish around lunchtime, what was the load like").slice(0, 3);
    expect(hits.filter((h) => /download|upload/.test(h))).toEqual([]);
  });

  // "X needs …, where do I …": a first clause saying what something needs sets the scene.
  test.skipIf(!present)(
    "new box needs to join the cluster, where do I get the join info: the join info's GET first",
    () => {
      const query = "new box needs to become part of the cluster - where do I get the join info and fingerprint";
      expect(ranked(real!, query)[0]).toBe("GET /cluster/config/join");
    },
  );

  // A preposition names nothing, unless the API uses it, it makes a phrasal verb or it negates.
  test.skipIf(!present)("prepositions: no weight, but for the API's own, particles and negations", () => {
    const weightOf = (query: string, term: string) =>
      analyzeQuery(index(), query).concepts.find((c) => c.primaries.has(term))?.weight;
    expect(weightOf("show every VM across the whole cluster", "across")).toBe(0);
    expect(weightOf("allow ssh into container 250 through its firewall", "through")).toBe(0);
    // The task list's "since": a parameter's name.
    expect(weightOf("tasks since monday", stem("since"))).toBeGreaterThan(0);
    expect(weightOf("show the backups except the weekly ones", "except")).toBeGreaterThan(0);
  });
  test.skipIf(!present)("my cluster lost quorum after the switch rebooted: the cluster's status first", () => {
    expect(ranked(real!, "my cluster lost quorum after the switch rebooted")[0]).toBe("GET /cluster/status");
  });

  // "get" before a participle is a passive: it asks for no GET.
  test.skipIf(!present)("so guest records get created: no GET stated", () => {
    const analysis = analyzeQuery(
      index(),
      "connect SDN to our PowerDNS server so guest records get created automatically",
    );
    expect(analysis.methodStated).toBe(false);
    expect(ranked(real!, "get the config of VM 100")[0]).toBe("GET /nodes/{node}/qemu/{vmid}/config");
  });

  // A run-together name says what its parts name: "PowerDNS" a DNS plugin of the SDN.
  test.skipIf(!present)("add a PowerDNS server to the SDN: the SDN's DNS plugins first", () => {
    expect(ranked(real!, "add a PowerDNS server to the SDN")[0]).toBe("POST /cluster/sdn/dns");
  });

  // A kind of an item names it as its list's noun would: a backup is a volume of a storage's
  // content, a DNS challenge plugin one of the ACME plugins. Guest types name any guest.
  test.skipIf(!present)("an item's kinds complete its identity; the guest types do not", () => {
    const identity = (catalog: Catalog, method: string, path: string) => {
      const idx = searchIndexOf(catalog);
      return idx.identity[idx.endpoints.findIndex((e) => e.method === method && e.path === path)]!;
    };
    // The schema's enum of plugin types; the content types the docs define (pvesm's "content").
    expect(identity(real!, "PUT", "/cluster/acme/plugins/{id}")[0]).toEqual(["plugin", "dns", "standalon"]);
    expect(identity(withDocs!, "PUT", "/nodes/{node}/storage/{storage}/content/{volume}")[0]).toEqual(
      expect.arrayContaining(["content", "backup", "iso"]),
    );
    expect(identity(real!, "PUT", "/cluster/ha/resources/{sid}").flat()).not.toContain("vm");
    // The list that filters by those kinds is named by them too.
    expect(identity(real!, "GET", "/cluster/acme/plugins")[0]).toEqual(["plugin", "dns", "standalon"]);
  });
  test.skipIf(!present)("configure a cloudflare DNS challenge plugin: the plugins' POST first", () => {
    expect(ranked(real!, "configure a cloudflare DNS challenge plugin for lets encrypt")[0]).toBe(
      "POST /cluster/acme/plugins",
    );
  });
  test.skipIf(!present)("protect a backup from deletion: the volume's attributes first, with docs", () => {
    const query = "protect backup vzdump-qemu-5120-2025_01_10-01_00_00.vma.zst on nas-backup from deletion";
    expect(ranked(withDocs!, query)[0]).toBe("PUT /nodes/{node}/storage/{storage}/content/{volume}");
  });
});

describe("the twelfth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, twelfth round", SCHEMA_DIR);
  const { withDocs } = present ? await realCatalogs(true) : {};

  // What is not cared about is done without.
  test.skipIf(!present).each([
    ["stop VM 100 now, I don't care about a clean shutdown", "POST /nodes/{node}/qemu/{vmid}/status/stop"],
    [
      "hit the reset button of VM 212, I do not care about a clean OS shutdown",
      "POST /nodes/{node}/qemu/{vmid}/status/reset",
    ],
  ])("%s: %s first", (query, expected) => {
    expect(ranked(withDocs!, query)[0]).toBe(expected);
  });

  // A DELETE asked says what a DELETE does: revert the network changes, release the lock.
  test
    .skipIf(!present)
    .each([["I messed up the bridge edits on pve1, throw them away"], ["scrap the staged interface edits on pve3"]])(
    "%s: the revert of the network changes first",
    (query) => {
      expect(ranked(withDocs!, query)[0]).toBe("DELETE /nodes/{node}/network");
    },
  );
  test.skipIf(!present)("the verb of each DELETE that is no word for deleting", () => {
    const index = (
      withDocs as unknown as {
        index: { endpoints: { method: string; path: string }[]; deleteVerb: (string | undefined)[] };
      }
    ).index;
    const verbOf = (path: string) =>
      index.deleteVerb[index.endpoints.findIndex((e) => e.method === "DELETE" && e.path === path)];
    expect(verbOf("/nodes/{node}/network")).toBe("revert");
    expect(verbOf("/cluster/sdn/lock")).toBe("releas");
    expect(verbOf("/nodes/{node}/tasks/{upid}")).toBe("stop");
    // A read has none.
    expect(
      index.deleteVerb[index.endpoints.findIndex((e) => e.method === "GET" && e.path === "/nodes/{node}/network")],
    ).toBeUndefined();
  });

  // A host's name that opens the request or follows its first word names a node, as if "node" were said.
  test.skipIf(!present).each([
    ["reboot hv3", "POST /nodes/{node}/status"],
    ["hv2 needs new RAM tomorrow, get all its guests onto other hosts first", "POST /nodes/{node}/migrateall"],
  ])("%s: %s first", (query, expected) => {
    expect(ranked(withDocs!, query)[0]).toBe(expected);
  });

  // Whether an action can be done is asked of the API's check of it, unless someone is asked to act.
  test.skipIf(!present).each([
    ["can VM 412 be live-migrated, or would its local disks block it?", "GET /nodes/{node}/qemu/{vmid}/migrate"],
    ["can I stop OSD 3 safely right now?", "GET /nodes/{node}/ceph/cmd-safety"],
    ["can you stop VM 100?", "POST /nodes/{node}/qemu/{vmid}/status/stop"],
    ["could someone tell me how to stop VM 100", "POST /nodes/{node}/qemu/{vmid}/status/stop"],
  ])("%s: %s first", (query, expected) => {
    expect(ranked(withDocs!, query)[0]).toBe(expected);
  });

  // "get" with its object done, moved or made to act states no read.
  test.skipIf(!present).each<[string, string | undefined]>([
    ["get every guest on pve2 powered down", undefined],
    ["get my ISO file onto storage local", undefined],
    ["get the guest to give the free blocks back", undefined],
    // Its phrase says the action itself.
    ["get every guest off pve2", "POST"],
    ["get the fingerprint and join information I need to add another node", "GET"],
    ["get stopped containers on pve1", "GET"],
    ["get the status of VM 100", "GET"],
    // A place after the participle, a file the object goes into, a purpose of a read.
    ["get the VMs stopped on pve1", "GET"],
    ["get the config of VM 100 into a file", "GET"],
    ["get the join information to add pve4 to the cluster", "GET"],
    ["get VM 100 to release the memory", undefined],
    ["get the VM config to compare it with VM 101", "GET"],
    ["get proxmox stats pushed into influxdb", undefined],
  ])("%s: states %p", (query, method) => {
    const index = searchIndexOf(withDocs!);
    const analysis = analyzeQuery(index, query);
    expect<string | undefined>(analysis.methodStated ? analysis.method : undefined).toBe(method);
  });

  // The reverse of the verb asked ("un" and the verb) steps back.
  test.skipIf(!present).each([
    ["lock out the account of dave@pve but keep it for the audit", "PUT /access/users/{userid}"],
    ["unlock the TOTP of dave@pve", "PUT /access/users/{userid}/unlock-tfa"],
  ])("%s: %s first", (query, expected) => {
    expect(ranked(withDocs!, query)[0]).toBe(expected);
  });

  // An acronym's plural is a word, not a CamelCase name.
  test.skipIf(!present).each<[string, boolean]>([
    ["list the OSDs of the cluster", false],
    ["which IPs does the container have", false],
    ["show the VMs", false],
    ["list the PVEs", false],
    ["start PVEAuditor", true],
    ["show the config of VMs1", true],
  ])("%s: names a value: %p", (query, named) => {
    const index = (withDocs as unknown as { index: Parameters<typeof tokenize>[0] }).index;
    expect(tokenize(index, query).namesValue).toBe(named);
  });
  test.skipIf(!present)("api to get the IPs a running container has: its interfaces first", () => {
    expect(ranked(withDocs!, "api to get the IPs a running container has")[0]).toBe(
      "GET /nodes/{node}/lxc/{vmid}/interfaces",
    );
  });

  // A path's word that the descriptions use in another form names its endpoint; one unit per word.
  test.skipIf(!present)("the identity of the APT repositories and the security groups", () => {
    const idx = (
      withDocs as unknown as { index: { endpoints: { method: string; path: string }[]; identity: string[][][] } }
    ).index;
    const identity = (method: string, path: string) =>
      idx.identity[idx.endpoints.findIndex((e) => e.method === method && e.path === path)]!;
    // One naming unit; the rare words of "Repositories are a collection of software packages"
    // stand in for it (seventeenth round), not the packages other endpoints are named by.
    expect(identity("GET", "/nodes/{node}/apt/repositories")).toEqual([["repositori", "collect", "softwar"]]);
    expect(identity("POST", "/cluster/firewall/groups")).toEqual([["group"], ["secur"]]);
    // A handler's word counts only as the descriptions write it ("precondition"; they say "preconditions"),
    // and a path's only in its plural ("arm" of arm-ha is no "re-arming").
    expect(identity("POST", "/cluster/ha/status/arm-ha")).toEqual([["ha"]]);
    expect(identity("GET", "/nodes/{node}/qemu/{vmid}/migrate")).toEqual([["migrat"]]);
  });
  test.skipIf(!present)("are there any pending package updates on node hv4?: the updates first", () => {
    expect(ranked(withDocs!, "are there any pending package updates on node hv4?")[0]).toBe(
      "GET /nodes/{node}/apt/update",
    );
  });

  // A word before the phrase's noun modifies it: no name ("the USB dongle mappings").
  test.skipIf(!present).each<[string, boolean]>([
    ["which USB dongle mappings exist in the datacenter", false],
    ["list the USB dongle mappings.", false],
    // What an item has is no noun its collection is filed under: the name stays.
    ["show user alice tfa", true],
    ["show the members of group webteam", true],
    ["which IPs has the IPAM handed out", true],
  ])("%s: names a value: %p", (query, named) => {
    const index = (withDocs as unknown as { index: Parameters<typeof tokenize>[0] }).index;
    expect(tokenize(index, query).namesValue).toBe(named);
  });
  test.skipIf(!present)("which USB dongle mappings exist in the datacenter: the list first", () => {
    expect(ranked(withDocs!, "which USB dongle mappings exist in the datacenter")[0]).toBe("GET /cluster/mapping/usb");
  });

  // A directory index steps back behind a path it lists that covers more of the query.
  test.skipIf(!present)("which IP addresses does VM 412 have? ask the guest agent: its command first", () => {
    expect(ranked(withDocs!, "which IP addresses does VM 412 have? ask the guest agent")[0]).toBe(
      "GET /nodes/{node}/qemu/{vmid}/agent/network-get-interfaces",
    );
  });
  test.skipIf(!present)("list the guest agent commands of VM 412: still the index first", () => {
    expect(ranked(withDocs!, "list the guest agent commands of VM 412")[0]).toBe("GET /nodes/{node}/qemu/{vmid}/agent");
  });

  // Only an action the API can check is asked of its check; other "can" questions ask for the action.
  test.skipIf(!present).each([
    ["can pve2 be removed from the cluster", ["DELETE /cluster/config/nodes/{node}"]],
    // A disk is added by setting it, with either of the config's writes.
    [
      "can I add a second disk to VM 100?",
      ["POST /nodes/{node}/qemu/{vmid}/config", "PUT /nodes/{node}/qemu/{vmid}/config"],
    ],
  ])("%s: still the action first", (query, expected) => {
    expect(expected).toContain(ranked(withDocs!, query)[0]!);
  });
  test.skipIf(!present)("the actions the API checks before they are done, and what for", () => {
    const index = (withDocs as unknown as { index: { checks: { actions: Set<string>; objects: Set<string> }[] } })
      .index;
    const checks = index.checks.map((c) => ({ actions: [...c.actions].sort(), objects: [...c.objects].sort() }));
    expect(checks).toContainEqual({ actions: ["clone", "copi", "snapshot"], objects: [] });
    expect(checks).toContainEqual({ actions: ["migrat"], objects: [] });
    expect(checks).toContainEqual({ actions: ["destroi", "stop"], objects: ["mds", "mon", "osd"] });
  });
  // Stopping is checked for a Ceph service, not for a guest; in the passive the participle is the action.
  test.skipIf(!present).each([
    ["can I stop VM 100 safely", "POST /nodes/{node}/qemu/{vmid}/status/stop"],
    ["can VM 100 be started from the clone", "POST /nodes/{node}/qemu/{vmid}/status/start"],
    ["can I stop the ceph monitor on pve2 safely", "GET /nodes/{node}/ceph/cmd-safety"],
    // Every passive's participle is an action asked about.
    ["can VM 100 be stopped and then be migrated", "GET /nodes/{node}/qemu/{vmid}/migrate"],
  ])("%s: %s first", (query, expected) => {
    expect(ranked(withDocs!, query)[0]).toBe(expected);
  });

  // After a light verb its noun is the action asked about, whatever stands before the verb.
  test.skipIf(!present)("can I safely take a snapshot of container 200: the feature check in the top three", () => {
    expect(ranked(withDocs!, "can I safely take a snapshot of container 200").slice(0, 3)).toContain(
      "GET /nodes/{node}/lxc/{vmid}/feature",
    );
  });

  // "so" right after a request opens its purpose, to the clause's end; not before an order.
  test.skipIf(!present).each<[string, string[]]>([
    ["put VM 100 under HA so it gets restarted elsewhere", ["it", "gets", "restarted", "elsewhere"]],
    ["freeze it so the snapshot is consistent, and thaw it afterwards", ["the", "snapshot", "is", "consistent"]],
    ["container 200 hangs so stop it", []],
    // A noun that is also a verb, with no object after it, is the purpose's subject.
    ["enable the guest agent on VM 100 so shutdown works cleanly", ["shutdown", "works", "cleanly"]],
    ["the URL changed, so update the webhook target", []],
  ])("%s: purpose %j", (query, words) => {
    const index = (withDocs as unknown as { index: Parameters<typeof tokenize>[0] }).index;
    expect(
      tokenize(index, query)
        .tokens.filter((t) => t.purpose)
        .map((t) => t.word),
    ).toEqual(words);
  });
  // What a clause of purpose says is what the request is for, not what it does.
  test.skipIf(!present)("put VM 300 under HA so it gets restarted if its node dies: the HA resource first", () => {
    expect(ranked(withDocs!, "put VM 300 under HA so it gets restarted if its node dies")[0]).toBe(
      "POST /cluster/ha/resources",
    );
  });

  // A container's DNS server takes an address (PVE::LXC::Config::verify_ip_with_ll_iface).
  test.skipIf(!present)("point container 240 at 9.9.9.9 for name resolution: its config first", () => {
    expect(ranked(withDocs!, "point container 240 at 9.9.9.9 for name resolution")[0]).toBe(
      "PUT /nodes/{node}/lxc/{vmid}/config",
    );
  });

  // The docs define QDevice as "Corosync Quorum Device (QDevice)": the starts of the words run together.
  test.skipIf(!present)("is the external quorum device connected: the QDevice's status first", () => {
    expect(ranked(withDocs!, "is the external quorum device connected")[0]).toBe("GET /cluster/config/qdevice");
  });
});

describe("the thirteenth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, thirteenth round", SCHEMA_DIR);
  const { withDocs } = present ? await realCatalogs(true) : {};

  // Who did something is asked of the task list, which keeps who started each task.
  test
    .skipIf(!present)
    .each([
      ["somebody removed VM 210 yesterday, who did it?"],
      ["someone deleted a container last week and nobody admits it"],
    ])("%s: the task list first", (query) => {
    expect(["GET /cluster/tasks", "GET /nodes/{node}/tasks"]).toContain(ranked(withDocs!, query)[0]!);
  });

  // The guest named is the object of an endpoint that takes it by its ID (an HA resource's `sid`).
  test.skipIf(!present).each([["make VM 512 highly available"], ["make container 233 highly available"]])(
    "%s: the HA resource's creation first",
    (query) => {
      expect(ranked(withDocs!, query)[0]).toBe("POST /cluster/ha/resources");
    },
  );

  // A VM agent's network-get-interfaces returns what its container twin's summary says: IP addresses.
  test.skipIf(!present)("get VM 150's IP addresses from the guest agent: the agent's interfaces first", () => {
    expect(ranked(withDocs!, "get VM 150's IP addresses from the guest agent")[0]).toBe(
      "GET /nodes/{node}/qemu/{vmid}/agent/network-get-interfaces",
    );
  });

  // A part of a run-together name is asked only by a word typed: "pending" may mean changes, it names no changelog.
  test
    .skipIf(!present)
    .each([["are any package updates pending for node hv5"], ["is there any pending package update on hv3"]])(
    "%s: the list of updates first",
    (query) => {
      expect(ranked(withDocs!, query)[0]).toBe("GET /nodes/{node}/apt/update");
    },
  );
});

describe("the thirty-seventh round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, thirty-seventh round", SCHEMA_DIR);
  const { withDocs } = present ? await realCatalogs(true) : {};

  // Each query's first answer, by the rule it tests:
  // - one backup that was made is a storage's volume;
  // - a URL typed is what URL parameters take;
  // - "set up" after a form of "be" is what is configured;
  // - a name after a kind's word is an item of the collection before it ("backup job backup-…");
  // - power down is a shutdown;
  // - a kind's word that names a collection's items names one ("realm corp-ad1": /access/domains);
  // - WordNet's ways to register create;
  // - an "Index of" that only links its children is navigation;
  // - an item of what is created does not exist yet, and what lives below a guest has its own POST;
  // - an endpoint with no place for a storage named by its name steps back;
  // - what is seen from inside a VM, and the addresses it got, are what its guest agent reports.
  test.skipIf(!present).each([
    ["add a comment to a backup file", "PUT /nodes/{node}/storage/{storage}/content/{volume}"],
    [
      "how large is https://cdimage.debian.org/debian-12.iso and what would the file be named",
      "GET /nodes/{node}/query-url-metadata",
    ],
    ["has the firewall been set up on pve1", "GET /nodes/{node}/firewall/options"],
    ["tell me how VM 205 is set up", "GET /nodes/{node}/qemu/{vmid}/config"],
    ["move backup job backup-9f8e7d to Sundays 05:00", "PUT /cluster/backup/{id}"],
    ["flag PCI mapping gpu-a40 as mdev capable", "PUT /cluster/mapping/pci/{id}"],
    ["power down all guests of node pve6 for the move", "POST /nodes/{node}/stopall"],
    ["the realm corp-ad1 should be the default on the login screen", "PUT /access/domains/{realm}"],
    ["enroll a webauthn key for root@pam", "POST /access/tfa/{userid}"],
    [
      "what vGPU types can the GPU at 0000:65:00.0 be split into",
      "GET /nodes/{node}/hardware/pci/{pci-id-or-mapping}/mdev",
    ],
    ["create a user alice@pve", "POST /access/users"],
    ["create a new snapshot of VM 100", "POST /nodes/{node}/qemu/{vmid}/snapshot"],
    ["list all backups on storage pbs01", "GET /nodes/{node}/storage/{storage}/content"],
    ["which addresses does VM 230 see from the inside", "GET /nodes/{node}/qemu/{vmid}/agent/network-get-interfaces"],
    ["list the users logged in inside VM 160", "GET /nodes/{node}/qemu/{vmid}/agent/get-users"],
    ["what is the IPv4 address of VM 201", "GET /nodes/{node}/qemu/{vmid}/agent/network-get-interfaces"],
  ])("%s: %s first", (query, endpoint) => {
    expect(ranked(withDocs!, query)[0]).toBe(endpoint);
  });

  // One backup said in words lifts the volume into the first five.
  test.skipIf(!present)("protect this one backup of container 118: the volume in the first five", () => {
    expect(
      ranked(withDocs!, "protect this one backup of container 118 so retention never removes it").slice(0, 5),
    ).toContain("PUT /nodes/{node}/storage/{storage}/content/{volume}");
  });

  // What the rules leave alone: an order to set something up, a backup to make, a URL to download
  // from, a user added to a group, a shutdown said the usual way.
  test.skipIf(!present).each([
    ["set up a container", "POST /nodes/{node}/lxc"],
    ["back up container 200 now", "POST /nodes/{node}/vzdump"],
    ["download https://example.com/debian.iso to local", "POST /nodes/{node}/storage/{storage}/download-url"],
    [
      "add the repository http://download.proxmox.com/debian/pve trixie pve-no-subscription on pve1",
      "PUT /nodes/{node}/apt/repositories",
    ],
    ["add user erin@pve to group admins", "PUT /access/users/{userid}"],
    ["power off VM 100", "POST /nodes/{node}/qemu/{vmid}/status/shutdown"],
    ["take a snapshot of VM 100", "POST /nodes/{node}/qemu/{vmid}/snapshot"],
  ])("%s: still %s first", (query, endpoint) => {
    expect(ranked(withDocs!, query)[0]).toBe(endpoint);
  });
});

describe("the thirty-sixth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, thirty-sixth round", SCHEMA_DIR);
  const { withDocs } = present ? await realCatalogs(true) : {};

  // Each query's first answer, by the rule it tests:
  // - a path an ACL shares with the API is the ACL's in a query about access;
  // - keys pressed together are what sendkey takes;
  // - "from pve2 to pve3": a move between two hosts of one series names its target node;
  // - WordNet's ways to destroy (once removed, mostly meaning it) and to expel delete;
  // - what provides logins is a realm;
  // - an English verb before "whether" asks;
  // - a file called by its name is the path an endpoint's description says;
  // - back from a backup is a restore;
  // - a built-in role is granted, never made, changed or deleted;
  // - a time zone is what the node's timezone takes;
  // - what an account is allowed to do is its permissions;
  // - one object's item steps back when all of them are asked for ("which users": not {userid}'s).
  test.skipIf(!present).each([
    ["revoke carol@pve's access to /nodes/pve2", "PUT /access/acl"],
    ["take away alice's permission on /storage/nfs1", "PUT /access/acl"],
    ["hit ctrl+alt+del inside vm 310", "PUT /nodes/{node}/qemu/{vmid}/sendkey"],
    ["press alt-f4 in vm 130", "PUT /nodes/{node}/qemu/{vmid}/sendkey"],
    ["drain all guests from node-a1 to node-a2", "POST /nodes/{node}/migrateall"],
    ["dismantle container 512 and its disks", "DELETE /nodes/{node}/lxc/{vmid}"],
    ["demolish VM 999 together with all volumes", "DELETE /nodes/{node}/qemu/{vmid}"],
    ["kick pve5 out of the cluster for good", "DELETE /cluster/config/nodes/{node}"],
    ["list the login providers", "GET /access/domains"],
    ["which authentication backends exist besides pam and pve", "GET /access/domains"],
    [
      "find out whether task UPID:pve1:00001:00002:5F:qmstart:100:root@pam: is done",
      "GET /nodes/{node}/tasks/{upid}/log",
    ],
    ["add 10.0.0.5 db01 to the hosts file on pve2", "POST /nodes/{node}/hosts"],
    ["get container 205 back from yesterday's vzdump archive", "POST /nodes/{node}/lxc"],
    ["hand the auditors group PVEAuditor on the whole datacenter", "PUT /access/acl"],
    ["switch pve1 to Europe/Berlin", "PUT /nodes/{node}/time"],
    ["what is svc-backup@pve allowed to do on /storage/nas", "GET /access/permissions"],
    ["list which users have a second factor set up", "GET /access/tfa"],
  ])("%s: %s first", (query, endpoint) => {
    expect(ranked(withDocs!, query)[0]).toBe(endpoint);
  });

  // The key freeze-fs says what fsfreeze-freeze does ("for consistent disk state on operations
  // such as snapshots"): an unknown verb for it still finds it among the first five.
  test.skipIf(!present)(
    "quiesce VM 140's filesystems so a storage snapshot is consistent: the freeze in the first five",
    () => {
      expect(
        ranked(withDocs!, "quiesce VM 140's filesystems so a storage snapshot is consistent").slice(0, 5),
      ).toContain("POST /nodes/{node}/qemu/{vmid}/agent/fsfreeze-freeze");
    },
  );

  // What the rules leave alone: a path called, a custom role, a time told in UTC or asked in it,
  // a disk or VLAN moved between numbered names, the second verb of two, a backup made.
  test.skipIf(!present).each([
    ["what does /nodes/pve1 return, I keep getting permission denied", "GET /nodes/{node}"],
    ["list /access/groups, who can access them", "GET /access/groups"],
    ["create a custom role like PVEVMAdmin but without VM.Console", "POST /access/roles"],
    ["rename my role PVEAdminCustom", "PUT /access/roles/{roleid}"],
    ["run replication at 22:00 UTC every night", "POST /cluster/replication"],
    ["what time is it on pve1 in UTC", "GET /nodes/{node}/time"],
    ["move disk scsi0 of vm 100 from nfs1 to nfs2", "POST /nodes/{node}/qemu/{vmid}/move_disk"],
    ["change the vlan of net0 from vlan10 to vlan20", "POST /nodes/{node}/network"],
    ["review and apply the pending network changes on pve1", "PUT /nodes/{node}/network"],
    ["I need to back up vm 100 from pve1 to the backup storage pbs", "POST /nodes/{node}/vzdump"],
    ["restart PVEProxy on /nodes/pve1", "GET /nodes/{node}"],
    ["which privileges does PVEVMUser have", "GET /access/roles/{roleid}"],
  ])("%s: still %s first", (query, endpoint) => {
    expect(ranked(withDocs!, query)[0]).toBe(endpoint);
  });

  // A path typed with its method is the API's, whatever the query says of access.
  test.skipIf(!present)("GET /storage/local with the permissions it needs is the API's path", () => {
    expect(ranked(withDocs!, "GET /storage/local and which permission it needs")[0]).toBe("GET /storage/{storage}");
  });
});

describe("the thirty-fifth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, thirty-fifth round", SCHEMA_DIR);
  const { withDocs } = present ? await realCatalogs(true) : {};

  // Each query's first answer, by the rule it tests:
  // - the subject of an asked verb of saying is the source, not what is asked for;
  // - what a thing ignores steps back when the request says what to do instead;
  // - what one logs in through, when no credential, is a realm;
  // - guests kept on the same node or on separate ones name the HA rules' affinity.
  test.skipIf(!present).each([
    ["what hostname does the guest OS in VM 101 report?", "GET /nodes/{node}/qemu/{vmid}/agent/get-host-name"],
    ["kill container 188, it ignores shutdown", "POST /nodes/{node}/lxc/{vmid}/status/stop"],
    ["VM 300 ignores the shutdown request, just kill it", "POST /nodes/{node}/qemu/{vmid}/status/stop"],
    ["container 210 ignores shutdown, kill it", "POST /nodes/{node}/lxc/{vmid}/status/stop"],
    ["We want staff to sign into the Proxmox UI with their Keycloak accounts.", "POST /access/domains"],
    ["people should log in with their accounts from our OpenLDAP directory", "POST /access/domains"],
    ["log in with username and password to get a ticket", "POST /access/ticket"],
    // Guests kept together or apart: the HA rules' affinity.
    ["VMs 210 and 211 must never run on the same hypervisor", "POST /cluster/ha/rules"],
    ["keep container 120 and container 121 on different hosts", "POST /cluster/ha/rules"],
  ])("%s: %s first", (query, endpoint) => {
    expect(ranked(withDocs!, query)[0]).toBe(endpoint);
  });
});

describe("the thirty-fourth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, thirty-fourth round", SCHEMA_DIR);
  const { withDocs } = present ? await realCatalogs(true) : {};

  // "a login" as the head of its phrase is the account, which the API calls a user: not the ticket.
  test.skipIf(!present).each([
    ["create a login for carol", "POST /access/users"],
    ["our new intern needs a login", "POST /access/users"],
    ["disable his login but keep his VMs", "PUT /access/users/{userid}"],
  ])("%s: %s first", (query, endpoint) => {
    expect(ranked(withDocs!, query)[0]).toBe(endpoint);
  });
});

describe("the seventeenth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, seventeenth round", SCHEMA_DIR);
  const { withDocs } = present ? await realCatalogs(true) : {};

  // Each query's first answer, by the rule it tests:
  // - the docs define notification matchers as what routes notifications to targets: routing
  //   names them, though no query says "matcher";
  // - "logged into VM 230" is "logged in to VM 230": a login, not a log;
  // - "format … and mount it": the second verb states the method the first does not; the mount
  //   is made, not undone.
  test.skipIf(!present).each([
    [
      "set up routing so that backup errors go to a separate notification target",
      "POST /cluster/notifications/matchers",
    ],
    ["list the accounts logged into VM 230", "GET /nodes/{node}/qemu/{vmid}/agent/get-users"],
    ["format the second SSD as ext4 and mount it as a directory storage on pve2", "POST /nodes/{node}/disks/directory"],
  ])("%s: %s", (query, expected) => {
    expect(ranked(withDocs!, query)[0]).toBe(expected);
  });

  // The realm exists: a place something is added to, also where English reads the name before "in" as a verb.
  test.skipIf(!present).each(["create user bob in the pve realm", "add user jdoe in the pve realm"])(
    "%s: the realms are a place",
    (query) => {
      expect([...analyzeQuery(searchIndexOf(withDocs!), query).places!]).toEqual(["domain"]);
    },
  );

  // particlesSplit: "into" parts only where the verb before makes a phrase with "in"; "onto" never.
  test.each<[string[], string[]]>([
    [
      ["logged", "into", "VM"],
      ["logged", "in", "to", "VM"],
    ],
    [
      ["(logged", "INTO,", "VM"],
      ["(logged", "in", "to,", "VM"],
    ],
    [
      ["switch", "onto", "storage"],
      ["switch", "onto", "storage"],
    ],
    [
      ["turn", "VM", "into", "a", "template"],
      ["turn", "VM", "into", "a", "template"],
    ],
    [
      ["into", "VM"],
      ["into", "VM"],
    ],
  ])("particlesSplit(%p)", (chunks, expected) => {
    // "switch" takes "in" here too, yet "onto" stays whole.
    expect(particlesSplit(chunks, (verb) => verb === "logged" || verb === "switch")).toEqual(expected);
  });

  // rareStems: each stem once, those at most `most` endpoints use.
  test.each<[string[], number, string[]]>([
    [["route", "routes", "targets"], 5, ["rout"]],
    [["route", "targets"], 60, ["rout", "target"]],
    [["targets"], 0, []],
  ])("rareStems(%p, at most %d)", (words, most, expected) => {
    const df = new Map([
      ["rout", 5],
      ["target", 53],
    ]);
    expect(rareStems(words, new Map(), (s) => df.get(s) ?? 0, most)).toEqual(expected);
  });

  // A rare word of a definition stands for the name; a common one, or one of a sentence that
  // defines nothing, does not.
  test.skipIf(!present).each([
    ["POST /cluster/notifications/matchers", "route", true],
    ["PUT /cluster/notifications/matchers/{name}", "route", true],
    ["POST /cluster/notifications/endpoints/gotify", "push", true],
    // "Repositories are a collection of software packages, … get new security updates": other
    // endpoints are named by packages and updates.
    ["GET /nodes/{node}/apt/repositories", "packages", false],
    ["GET /nodes/{node}/apt/repositories", "updates", false],
    // "We highly recommend to use a hardware RAID controller" defines no hardware.
    ["GET /nodes/{node}/hardware", "raid", false],
  ])("%s: %s stands for its name: %p", (endpoint, word, stands) => {
    const index = searchIndexOf(withDocs!);
    const id = index.endpoints.findIndex((e) => `${e.method} ${e.path}` === endpoint);
    const s = stem(word as string, index.stems);
    expect(index.identity[id]!.some((unit) => unit.includes(s))).toBe(stands as boolean);
  });
});

describe("the eighteenth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, eighteenth round", SCHEMA_DIR);
  const { withDocs } = present ? await realCatalogs(true) : {};
  const NOT_BACKED_UP = "GET /cluster/backup-info/not-backed-up";

  // "not" and "up" name the guests without a backup job only together with "backed": the "not"
  // of "not sure" and the "up" of "stay up" reach it no more, nor does a verb that only presents
  // ("showing", of the rule below).
  test
    .skipIf(!present)
    .each([
      "not sure the webhook target works at all",
      "the cluster has to stay up while pve2 gets new RAM",
      "the node summary is showing a high IO delay",
    ])("%s: not the guests without backup", (query) => {
    expect(ranked(withDocs!, query)).not.toContain(NOT_BACKED_UP);
  });

  // The phrase itself still names it, with a word between ("not yet backed up"), in any order, or
  // once of two occurrences; so does "backed" alone, no particle.
  test
    .skipIf(!present)
    .each([
      "which containers are not backed up by any job",
      "list the VMs not yet backed up",
      "I'm not sure which VMs are backed up and which are not",
      "backed",
    ])("%s: the guests without backup", (query) => {
    expect(ranked(withDocs!, query)[0]).toBe(NOT_BACKED_UP);
  });

  // A verb that only presents says nothing of what is read, wherever it stands: the pools are
  // asked, not the one endpoint whose summary says "Show".
  test.skipIf(!present)("my ceph pools aren't showing up in the storage list: the pools", () => {
    expect(ranked(withDocs!, "my ceph pools aren't showing up in the storage list")[0]).toBe(
      "GET /nodes/{node}/ceph/pool",
    );
  });

  // joinsPhrase on the real index: whether a negation or particle completes its name's phrase.
  test.skipIf(!present).each([
    ["which guests are not backed up", 3, true],
    ["which guests are not backed up", 5, true],
    ["list the VMs not yet backed up", 3, true],
    ["guests whose backup is not configured", 4, true],
    ["not sure the mail setup works", 0, false],
    // Three content words away is too far.
    ["not sure mail backup works", 0, false],
    ["the guests must stay up", 4, false],
    // A particle that "backed" is a form of: "back" of "one file back from last night's backup".
    ["one file back from last night's backup", 2, false],
    // No phrase holds it, or it is no negation or particle.
    ["turn it off", 2, undefined],
    ["which guests are not backed up", 4, undefined],
  ])("%s: word %d completes the phrase: %p", (query, at, joins) => {
    expect(joinsPhrase(searchIndexOf(withDocs!), words(query as string), at as number)).toBe(
      joins as boolean | undefined,
    );
  });
});

describe("the nineteenth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, nineteenth round", SCHEMA_DIR);
  const { plain, withDocs } = present ? await realCatalogs(true) : {};

  // A word that names a subsystem asks within it: the Ceph cluster's health is its status, not a
  // disk's SMART health.
  test.skipIf(!present).each([
    ["ceph health summary please", "GET /cluster/ceph/status"],
    ["tell me about the health of the Ceph cluster", "GET /cluster/ceph/status"],
    ["how is ceph's health looking today", "GET /cluster/ceph/status"],
    ["ceph health please", "GET /cluster/ceph/status"],
  ])("%s: %s", (query, expected) => {
    expect(ranked(withDocs!, query)[0]).toBe(expected);
  });

  // Outside the subsystem, a parameter that mentions it (the backup job's notification-mode) does
  // not keep an endpoint up: notifications about backups are the notification system's.
  test
    .skipIf(!present)
    .each([
      "backup failure notifications should go only to the ops webhook",
      "failed backup notifications must reach the pager target and nothing else",
    ])("%s: the first three are the notification system's", (query) => {
    for (const hit of ranked(withDocs!, query).slice(0, 3)) expect(hit).toContain(" /cluster/notifications/");
  });

  // A storage named like a subsystem is the storage.
  test.skipIf(!present)("delete storage ceph: the storage", () => {
    expect(ranked(withDocs!, "delete storage ceph")[0]).toBe("DELETE /storage/{storage}");
  });

  // Without the subsystem's word, the disk's own health is still the SMART read.
  test.skipIf(!present)("is the disk /dev/sdb on node pve2 healthy: SMART", () => {
    expect(ranked(withDocs!, "is the disk /dev/sdb on node pve2 healthy")[0]).toBe("GET /nodes/{node}/disks/smart");
  });

  // The subsystems of 9.1, read from its paths and words alone (docs or not). Words are stems here
  // (stem.ts): "firewal", "acm", "notif".
  test.skipIf(!present)("the words that name a subsystem", () => {
    for (const catalog of [plain!, withDocs!]) {
      const { subsystems } = searchIndexOf(catalog);
      for (const word of ["ceph", "sdn", "firewal", "acm", "apt", "notif", "scan", "bulk", "agent", "metric", "ha"]) {
        expect(subsystems).toContain(word);
      }
      // A list of objects, a root, or a word most endpoints saying it use elsewhere.
      for (const word of [
        "qemu",
        "lxc",
        "node",
        "cluster",
        "access",
        "storag",
        "disk",
        "vnet",
        "pool",
        "openid",
        "statu",
      ]) {
        expect(subsystems).not.toContain(word);
      }
    }
  });

  // A CLI-only command's description is what was asked in other words: its "firewall" names no
  // subsystem, and the service's stop stays first.
  test.skipIf(!present)("pve-firewall stop: the description's words name no subsystem", () => {
    const described = "Stop firewall. This removes all Proxmox VE related iptable rules.";
    expect(subsystemsOfQuery(withDocs!, "pve-firewall stop", described)).toEqual([]);
    expect(ranked(withDocs!, "pve-firewall stop")[0]).toBe("POST /nodes/{node}/services/{service}/stop");
  });

  // Where each endpoint lies: a parameter that mentions notifications (the backup job's
  // notification-mode) puts no endpoint in the notifications subsystem.
  test.skipIf(!present).each([
    ["GET", "/cluster/ceph/status", ["ceph"]],
    ["POST", "/cluster/notifications/matchers", ["notif"]],
    ["POST", "/cluster/backup", []],
    ["GET", "/nodes/{node}/disks/smart", []],
    ["PUT", "/cluster/sdn/vnets/{vnet}/firewall/options", ["sdn", "firewal"]],
  ])("%s %s lies in %p", (method, path, expected) => {
    const index = searchIndexOf(withDocs!);
    const id = index.endpoints.findIndex((e) => e.method === method && e.path === path);
    expect(index.subsystemsOf[id]).toEqual(expected as string[]);
  });

  // Which of the query's words name a subsystem: a word said outright, not a verb, a name's part or
  // a quoted value.
  test.skipIf(!present).each([
    ["what's the health of my Ceph cluster?", ["ceph"]],
    ["drop all incoming traffic at the datacenter firewall", ["firewal"]],
    ["make sure the 'ops-gotify' target delivers messages", []],
    ["snapshot VM 105 with the description 'before apt upgrade'", []],
    ["list the disks of node pve1", []],
    // A verb, an aside, a synonym ("alert" is the notifications' word, not their name), a name.
    ["scan the nfs server for exports", []],
    ["restore the VM config, not the firewall", []],
    ["alert the on-call team when ceph degrades", []],
    ["delete storage ceph", []],
    ["vzdump 100 --storage ceph", []],
    // A top-level list's kind: a storage, not Ceph; but Ceph's own list, and a node of Ceph.
    ["how full is the ceph storage", []],
    ["list the ceph pools", ["ceph"]],
    ["reboot a ceph node for a kernel update", ["ceph"]],
    // Two subsystems; a host's firewall.
    ["show the sdn zones and the ceph pools", ["sdn", "ceph"]],
    ["enable the node firewall", ["firewal"]],
  ])("%s: %p", (query, expected) => {
    expect(subsystemsOfQuery(withDocs!, query as string)).toEqual(expected as string[]);
  });
});

describe("the twentieth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, twentieth round", SCHEMA_DIR);
  const { withDocs } = present ? await realCatalogs(true) : {};

  // HA is a subsystem now that the share is back to more than half: a request that names it
  // asks within /cluster/ha, not for the datacenter's options or a backup.
  test
    .skipIf(!present)
    .each([
      "keep HA from fencing any node during the switch upgrade",
      "make HA stop fencing nodes while we rewire the network",
    ])("%s: the first is HA's own", (query) => {
    expect(ranked(withDocs!, query)[0]).toStartWith("POST /cluster/ha/");
  });

  // The subsystems of each version, from its schema alone. Three paths below are needed: 6.4's
  // backupinfo and the metric servers of 6.4 and 7.4 (/cluster/metrics/server and its items)
  // name none; the share lets hardware, certificates and 8.4's ceph cfg in.
  test.skipIf(!present).each([
    ["6.4", "acm agent apt ceph certif firewal ha hardwar scan sdn"],
    ["7.4", "acm agent apt capabl ceph firewal ha hardwar scan sdn"],
    ["8.4", "acm agent apt capabl ceph cfg firewal ha metric notif scan sdn"],
    ["9.1", "acm agent apt bulk capabl ceph firewal ha metric notif scan sdn"],
  ] as const)("the subsystems of PVE %s", (version, expected) => {
    const catalog = Catalog.fromText(readFileSync(SCHEMA_FILES[version].file, "utf8"), {
      kind: "inline",
      location: version,
    });
    expect([...searchIndexOf(catalog).subsystems].sort().join(" ")).toBe(expected);
  });

  // Two paths below /access/openid are a pair of actions, no subsystem: an OpenID realm is a realm.
  test.skipIf(!present)("list the openid realms: the realms", () => {
    expect(ranked(withDocs!, "list the openid realms")[0]).toBe("GET /access/domains");
  });

  // A phrase the synonym groups equate with a subsystem's word names the subsystem too: its
  // concept keeps no typed word of its own, so "the guest agent" named no subsystem before.
  test.skipIf(!present)("let the guest agent power VM 330 off: the agent's shutdown", () => {
    expect(ranked(withDocs!, "let the guest agent in VM 330 power the OS off instead of an ACPI request")[0]).toBe(
      "POST /nodes/{node}/qemu/{vmid}/agent/shutdown",
    );
  });

  test.skipIf(!present).each([
    ["keep HA from fencing any node during the switch upgrade", ["ha"]],
    ["add an openid realm for keycloak", []],
    ["keep VM 100 highly available", ["ha"]],
    ["reset the root password of VM 120 through the guest agent", ["agent"]],
    ["set up software defined networking for the lab", ["sdn"]],
    // Said twice, as its word and as its phrase: asked within once.
    ["put VM 100 under HA, high availability for the database", ["ha"]],
    // Under the rules of a word typed: said aside, as a participle's agent, or before a
    // top-level list's noun, the phrase names nothing.
    ["shut VM 120 down cleanly, not through the guest agent", []],
    ["which VMs are managed by high availability", []],
    ["add a high availability storage", []],
  ])("%s: %p", (query, expected) => {
    expect(subsystemsOfQuery(withDocs!, query as string)).toEqual(expected as string[]);
  });
});

describe("the twenty-first round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, twenty-first round", SCHEMA_DIR);
  const catalogs = present ? await realCatalogs(true) : undefined;

  // A host's name is a value: the cluster's bulk start takes none, so "on host hv3" asks for the
  // node's own. With the cluster named, the cluster's bulk action stays first.
  test.skipIf(!present).each(["plain", "withDocs"] as const)(
    "%s: a host named by its name, a node's endpoint",
    (which) => {
      const catalog = catalogs![which]!;
      expect(ranked(catalog, "start all guests on host hv3")[0]).toBe("POST /nodes/{node}/startall");
      expect(ranked(catalog, "gracefully power down all the guests in the cluster")[0]).toBe(
        "POST /cluster/bulk-action/guest/shutdown",
      );
    },
  );

  // A directory index is half as likely the answer as what it lists: apt's index steps back
  // behind its list of updates. The agent's command index stays first where its commands are asked.
  test.skipIf(!present).each(["plain", "withDocs"] as const)("%s: the list of updates, not apt's index", (which) => {
    const catalog = catalogs![which]!;
    expect(ranked(catalog, "any package upgrades waiting on hv7?")[0]).toBe("GET /nodes/{node}/apt/update");
    expect(ranked(catalog, "list upgradable packages on pve8")[0]).toBe("GET /nodes/{node}/apt/update");
  });
});

describe("the twenty-second round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, twenty-second round", SCHEMA_DIR);
  const catalogs = present ? await realCatalogs(true) : undefined;

  // An endpoint below one backup job is that job's: a query that speaks of no backup job asks
  // the cluster's resources, not the included volumes, whatever fields the two return. A service
  // is spoken of by its own name, which its placeholder enumerates.
  test.skipIf(!present).each(["plain", "withDocs"] as const)("%s: an item the query never speaks of", (which) => {
    const catalog = catalogs![which]!;
    expect(ranked(catalog, "all VMs and containers of the cluster, with the node each is on and its state")[0]).toBe(
      "GET /cluster/resources",
    );
    expect(ranked(catalog, "systemctl restart chrony on pve3")[0]).toBe(
      "POST /nodes/{node}/services/{service}/restart",
    );
    // A phrase's term ("acme account") holds the list's word: the account is spoken of.
    expect(ranked(catalog, "update the contact email of the default acme account")[0]).toBe(
      "PUT /cluster/acme/account/{name}",
    );
  });

  // Reading a list says no item is added to it; words the schema says rarely count from the docs.
  test.skipIf(!present).each(["plain", "withDocs"] as const)("%s: the list read, not one more made", (which) => {
    const catalog = catalogs![which]!;
    expect(ranked(catalog, "display each snapshot of CT 240")[0]).toBe("GET /nodes/{node}/lxc/{vmid}/snapshot");
  });
  test.skipIf(!present)("withDocs: NFS exports offered by a filer", () => {
    expect(ranked(catalogs!.withDocs!, "what NFS exports does the filer at 192.168.1.20 offer")[0]).toBe(
      "GET /nodes/{node}/scan/nfs",
    );
  });
});

describe("the twenty-third round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, twenty-third round", SCHEMA_DIR);
  const catalogs = present ? await realCatalogs(true) : undefined;

  // Guests that exist, added to a pool that exists: the pool changes (PUT), no guest is cloned into
  // it. Added to replication, a job is created.
  test.skipIf(!present).each(["plain", "withDocs"] as const)("%s: guests added to an existing pool", (which) => {
    const first = ranked(catalogs![which]!, "add VMs 210 through 214 to the staging pool")[0];
    expect(["PUT /pools", "PUT /pools/{poolid}"]).toContain(first!);
    expect(analyzeQuery(searchIndexOf(catalogs![which]!), "add VM 310 to replication").method).toBe("POST");
  });

  // "when" that opens a clause of condition asks nothing: the request is the verb before it.
  test.skipIf(!present).each(["plain", "withDocs"] as const)("%s: a clause of condition states no read", (which) => {
    expect(ranked(catalogs![which]!, "alert our chat webhook when a replication job fails")[0]).toBe(
      "POST /cluster/notifications/endpoints/webhook",
    );
  });
});

describe("the twenty-fourth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, twenty-fourth round", SCHEMA_DIR);
  const catalogs = present ? await realCatalogs(true) : undefined;

  // An amount of space by itself is what resize's `size` takes; one that says what a new
  // volume has is not.
  test.skipIf(!present).each(["plain", "withDocs"] as const)("%s: a disk grown by an amount", (which) => {
    expect(ranked(catalogs![which]!, "add 15 GB to the virtio0 disk of VM 212")[0]).toBe(
      "PUT /nodes/{node}/qemu/{vmid}/resize",
    );
    expect(ranked(catalogs![which]!, "make the rootfs of container 412 6G larger")[0]).toBe(
      "PUT /nodes/{node}/lxc/{vmid}/resize",
    );
    expect(ranked(catalogs![which]!, "mount a 64G volume from ceph-rbd into CT 140")[0]).not.toContain("/resize");
  });

  // The files of a guest's backup are that guest's: single-file restore rises among them.
  test.skipIf(!present).each(["plain", "withDocs"] as const)("%s: a file out of a guest's backup", (which) => {
    expect(ranked(catalogs![which]!, "get back one file from the PBS backup of VM 233").slice(0, 3)).toContain(
      "GET /nodes/{node}/storage/{storage}/file-restore/list",
    );
  });

  // "mark X as <state>" sets an attribute of X.
  test.skipIf(!present)("marking states a change of settings", () => {
    const index = searchIndexOf(catalogs!.plain!);
    expect(analyzeQuery(index, "mark storage nfs2 as shared across the cluster").method).toBe("PUT");
    expect(analyzeQuery(index, "mark backup vzdump-lxc-207-2025_02_02-00_00_00.tar.zst as protected").method).toBe(
      "PUT",
    );
  });

  // The file the schema says an endpoint writes is that endpoint's object, a backup server named or not.
  test.skipIf(!present).each(["plain", "withDocs"] as const)("%s: a file the schema names", (which) => {
    expect(ranked(catalogs![which]!, "put a line for the backup box nas02 into /etc/hosts on pve7")[0]).toBe(
      "POST /nodes/{node}/hosts",
    );
  });
});

describe("the twenty-fifth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, twenty-fifth round", SCHEMA_DIR);
  const catalogs = present ? await realCatalogs(true) : undefined;

  // The node's stopall runs a shutdown per guest, as the cluster's bulk shutdown does: the node
  // named, it is the one.
  test.skipIf(!present).each(["plain", "withDocs"] as const)("%s: every guest of one node powered off", (which) => {
    for (const query of [
      "shut down all the guests on host pve6 cleanly",
      "power off each guest on hv7 before the UPS runs dry",
    ])
      expect(ranked(catalogs![which]!, query)[0]).toBe("POST /nodes/{node}/stopall");
    expect(ranked(catalogs![which]!, "shut down every guest in the whole cluster")[0]).toBe(
      "POST /cluster/bulk-action/guest/shutdown",
    );
    expect(ranked(catalogs![which]!, "shut down VM 4410 cleanly")[0]).toBe(
      "POST /nodes/{node}/qemu/{vmid}/status/shutdown",
    );
  });
});

describe("the twenty-sixth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, twenty-sixth round", SCHEMA_DIR);
  const catalogs = present ? await realCatalogs(true) : undefined;

  // "login" as a noun names the account and its password: the password change, not a ticket.
  test.skipIf(!present).each(["plain", "withDocs"] as const)("%s: a login's password is the user's", (which) => {
    for (const query of ["update the password of my own login", "set a new login password for myself"])
      expect(ranked(catalogs![which]!, query)[0]).toBe("PUT /access/password");
    expect(ranked(catalogs![which]!, "login with a username and password to get a ticket")[0]).toBe(
      "POST /access/ticket",
    );
  });
});

describe("the twenty-seventh round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, twenty-seventh round", SCHEMA_DIR);
  const catalogs = present ? await realCatalogs(true) : undefined;

  // What is asked for lies in an object of some kind: that kind's list is not what is listed.
  test.skipIf(!present).each(["plain", "withDocs"] as const)(
    "%s: the things inside, not the list of places",
    (which) => {
      expect(ranked(catalogs![which]!, "list the guests in the dev pool")[0]).toBe("GET /pools/{poolid}");
      expect(ranked(catalogs![which]!, "list the addresses handed out in the pve ipam")[0]).toBe(
        "GET /cluster/sdn/ipams/{ipam}/status",
      );
      // Every storage is no place: the storages are what is asked about.
      expect(ranked(catalogs![which]!, "how much room is left on every storage of node pve3")[0]).toBe(
        "GET /nodes/{node}/storage",
      );
    },
  );
});

describe("the twenty-eighth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, twenty-eighth round", SCHEMA_DIR);
  const catalogs = present ? await realCatalogs(true) : undefined;

  // A service the schema enumerates and its action, typed as a command line, name the call.
  test.skipIf(!present).each(["plain", "withDocs"] as const)("%s: a service and its action", (which) => {
    const services = "/nodes/{node}/services/{service}";
    expect(ranked(catalogs![which]!, "restart the proxmox-firewall service on pve4")[0]).toBe(
      `POST ${services}/restart`,
    );
    expect(ranked(catalogs![which]!, "what is the API call behind systemctl reload pve-firewall")[0]).toBe(
      `POST ${services}/reload`,
    );
  });

  // Words joined by a slash are words of the request, not a value.
  test.skipIf(!present).each(["plain", "withDocs"] as const)("%s: words joined by slashes", (which) => {
    expect(ranked(catalogs![which]!, "reload/activate the pending interface edits on node pve6")[0]).toBe(
      "PUT /nodes/{node}/network",
    );
  });
});

describe("the twenty-ninth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, twenty-ninth round", SCHEMA_DIR);
  const catalogs = present ? await realCatalogs(true) : undefined;

  // systemd's "status" asks what the API calls a service's state.
  test.skipIf(!present).each(["plain", "withDocs"] as const)("%s: a service's status", (which) => {
    const state = "GET /nodes/{node}/services/{service}/state";
    expect(ranked(catalogs![which]!, "systemctl status pve-ha-lrm")[0]).toBe(state);
    expect(ranked(catalogs![which]!, "what does systemctl status pve-ha-crm map to in the API")[0]).toBe(state);
  });

  // A property added to something that exists is set on it.
  test.skipIf(!present).each(["plain", "withDocs"] as const)("%s: what is added to something", (which) => {
    expect(ranked(catalogs![which]!, "add a description to container 310")[0]).toBe(
      "PUT /nodes/{node}/lxc/{vmid}/config",
    );
    expect(ranked(catalogs![which]!, "add a note to backup job weekly-full")[0]).toBe("PUT /cluster/backup/{id}");
  });
});

describe("the thirty-second round of issue 11: the noun before a preposition, the place after inside", () => {
  // Between a determiner and a preposition stands the noun itself, not a word that qualifies the
  // next; after "inside" or "within" comes the place holding what is asked, which counts less.
  test.each<[string, string, number]>([
    ["browse the files inside a PBS backup", "file", 1],
    ["browse the files inside a PBS backup", "backup", 0.6],
    ["list the disks within VM 100", "disk", 1],
    ["list the disks within VM 100", "vm", 0.6],
    ["what is the API behind pveum", "api", 1],
    // A particle may follow its verb's object: the word before it still qualifies nothing more.
    ["shut the OS down", "os", 0.6],
    ["pause a running VM", "run", 0.6],
    ["clone VM 100 from a template", "templat", 0.6],
  ])("%s: %s weighs %d", (query, primary, weight) => {
    const concept = analyzeQuery(buildSearchIndex([]), query).concepts.find((c) => c.primaries.has(primary));
    expect(concept?.weight).toBeCloseTo(weight, 5);
  });

  // A text naming both kinds of guest names guests: "Migrate all VMs and Containers." answers
  // "move all its guests" as "Bulk migrate all guests" does.
  test.each<[string, boolean]>([
    ["Migrate all VMs and Containers.", true],
    ["Start all VMs and containers located on this node.", true],
    ["Suspend all QEMU guests and LXC cts", true],
    ["Virtual machine index (per node).", false],
    ["LXC container index (per node).", false],
    ["Create or restore a container.", false],
  ])("%s names guests: %p", (text, named) => {
    const postings = new Postings();
    const termsOf = (t: string) => words(t).map((w) => postings.intern(stem(w)));
    const guest = postings.intern(stem("guest"));
    const said = termsOf(text);
    const found = guestsOfBothKinds(postings, (w) => stem(w))(said);
    expect(found.filter((t) => t === guest).length).toBe(named || said.includes(guest) ? 1 : 0);
    expect(found.slice(0, said.length)).toEqual(said);
  });

  // Only what an endpoint says of itself: a parameter's "vm:100 / ct:100" names no guests' action.
  test("an endpoint's own text naming VMs and containers names guests, a parameter's does not", () => {
    const endpoint = (path: string, description: string, parameters = {}) =>
      stubEndpoint("POST", path, description, parameters);
    const index = buildSearchIndex([
      endpoint("/nodes/{node}/migrateall", "Migrate all VMs and Containers."),
      endpoint("/cluster/ha/resources", "Create a new HA resource.", {
        sid: { type: "string", description: "HA resource ID, for example vm:100 for VMs or ct:100 for containers." },
      }),
    ]);
    expect(index.postings.get(stem("guest"))?.ids).toEqual([0]);
  });

  // A setting of the guest a clone makes is not asked of a guest named by its number.
  test.each<[string | undefined, boolean]>([
    ["Add the new VM to the specified pool.", true],
    ["Set a hostname for the new CT.", true],
    ["Description for the new VM.", true],
    ["The new password.", false],
    ["The new size. With the '+' sign the value is added to the actual size of the volume.", false],
    ["Add the VM to the specified pool.", false],
    [undefined, false],
  ])("%s is for the new guest: %p", (description, forNew) => {
    expect(describesNewGuest(description)).toBe(forNew);
  });

  // What runs on a node is its guests; guests that go elsewhere are moved.
  test.each<[string, string]>([
    [
      "pve3 needs new RAM, everything running on it has to go elsewhere first",
      "pve3 needs new ram guests running on it has to move elsewhere first",
    ],
    [
      "the VMs on pve3 need to go somewhere else before the reboot",
      "the vms on pve3 need to move somewhere else before the reboot",
    ],
    ["get everything running on it moved off first", "get guests running on it moved off first"],
    // What moves nothing, or is no guest, stays as typed.
    ["list everything running on pve1", "list everything running on pve1"],
    ["make the stopped VMs on pve2 go away", "make the stopped vms on pve2 go away"],
    [
      "everything running on pve1 is slow, go elsewhere for the logs",
      "everything running on pve1 is slow go elsewhere for the logs",
    ],
    ["the backup job has to go elsewhere", "the backup job has to go elsewhere"],
    // The guests open the verb's clause: not the ISO or the backups of one, nor one in an earlier clause.
    ["the ISO mounted in VM 101 should go elsewhere", "the iso mounted in vm 101 should go elsewhere"],
    ["backups of all VMs should go elsewhere", "backups of all vms should go elsewhere"],
    ["VM 100 is fine but the backups have to go elsewhere", "vm 100 is fine but the backups have to go elsewhere"],
    // A question moves nothing, nor does a verb or a place typed as a name.
    ["did the VM go elsewhere after the HA failover", "did the vm go elsewhere after the ha failover"],
    ["is VM 118 still running or did it go elsewhere", "is vm 118 still running or did it go elsewhere"],
    ["can the VMs on pve2 go elsewhere tonight?", "can the vms on pve2 go elsewhere tonight"],
    ["the VMs should 'go' elsewhere", "the vms should go elsewhere"],
    ["the VMs must go 'elsewhere'", "the vms must go elsewhere"],
    // "anything" stands for guests as "everything" does, in any of their states.
    ["anything paused on pve1 must be moved off", "guests paused on pve1 must be moved off"],
    ["everything on pve3 has to go elsewhere", "everything on pve3 has to move elsewhere"],
  ])("%s", (query, marked) => {
    expect(markedTokens(query, markGuestsMoving)(() => true).join(" ")).toBe(marked);
  });

  test.skipIf(!haveSharedData("catalog search, thirty-second round", SCHEMA_DIR)).each(["plain", "withDocs"] as const)(
    "%s: the files inside a PBS backup are listed by file-restore",
    async (which) => {
      const catalog = (await realCatalogs(true))[which]!;
      const list = "GET /nodes/{node}/storage/{storage}/file-restore/list";
      expect(ranked(catalog, "list the files inside a Proxmox Backup Server backup")[0]).toBe(list);
      expect(ranked(catalog, "browse the files within a PBS snapshot")[0]).toBe(list);
      // VM 300 exists: the pool takes it, not a clone's `pool`; copying it still makes a clone.
      expect(["PUT /pools", "PUT /pools/{poolid}"]).toContain(ranked(catalog, "put VM 300 into the pool web")[0]!);
      expect(ranked(catalog, "copy VM 100 into pool dev")[0]).toBe("POST /nodes/{node}/qemu/{vmid}/clone");
      // Guests that go elsewhere are moved: every one of the node's.
      const migrateAll = "POST /nodes/{node}/migrateall";
      expect(ranked(catalog, "the VMs on pve3 need to go somewhere else before the reboot")[0]).toBe(migrateAll);
      expect(ranked(catalog, "all containers on node2 must go elsewhere tonight")[0]).toBe(migrateAll);
      expect(ranked(catalog, "list everything running on pve1")[0]).toBe("GET /cluster/resources");
    },
  );
});

describe("docs words: those the schema lacks or says of at most two endpoints", () => {
  const endpoint = (path: string, description: string) => stubEndpoint("GET", path, description);
  const endpoints = [
    endpoint("/a", "Show the fencing state and the backup."),
    endpoint("/b", "List the backup jobs."),
    endpoint("/c", "Read the backup log."),
    endpoint("/d", "Read the quorum votes."),
  ];
  // The docs speak of /d with a word the schema lacks, one it says once, and one it says thrice.
  const index = buildSearchIndex(endpoints, { texts: [[], [], [], ["widgets, fencing and the backup"]] });
  const holds = (word: string) => index.postings.get(stem(word))?.ids.includes(3) ?? false;

  test.each([
    ["a word the schema lacks", "widgets", true],
    ["a word the schema says of one endpoint", "fencing", true],
    ["a word the schema says of three", "backup", false],
  ])("%s: %s", (_name, word, expected) => {
    expect(holds(word)).toBe(expected);
  });

  // The docs speaking of /a with a word the schema gives /a: one entry, the docs' field added.
  test("a word the endpoint has already: one entry, weighing more", () => {
    const plain = buildSearchIndex(endpoints).postings.get(stem("fencing"))!;
    const withDocs = buildSearchIndex(endpoints, { texts: [["fencing"], [], [], []] }).postings.get(stem("fencing"))!;
    expect(withDocs.ids).toEqual([0]);
    expect(withDocs.weights[0]!).toBeGreaterThan(plain.weights[0]!);
  });
});

describe("what a query says of creating and of machines", () => {
  const index = buildSearchIndex([]);
  test.each([
    ["reboot the server 101", true],
    ["restart the mail server", false],
    ["add an SMTP server for notifications", false],
    ["power off machine 230", true],
  ])("%s: a machine named by a number (%p)", (query, expected) => {
    expect(analyzeQuery(index, query).machineByNumber).toBe(expected);
  });
  test.each([
    ["show me how to create new users", true],
    ["show me every user", false],
  ])("%s: creating said (%p)", (query, expected) => {
    expect(analyzeQuery(index, query).createSaid).toBe(expected);
  });
});

describe("pathStems: the words of a path", () => {
  test.each([
    ["/nodes/{node}/qemu/{vmid}/move_disk", ["nodes", "qemu", "move", "disk"]],
    ["/cluster/backup-info/not-backed-up", ["cluster", "backup", "info", "not", "backed", "up"]],
    ["/version", ["version"]],
    ["/", []],
  ])("%s: %p", (path, expected) => {
    expect(pathStems(path, (w) => w)).toEqual(expected);
  });
});

describe("subsystemWords: the words that name a part of the API", () => {
  const paths = [
    "/cluster/ceph/status",
    "/nodes/{node}/ceph/osd",
    "/nodes/{node}/ceph/pool/{name}",
    "/nodes/{node}/qemu/{vmid}/config",
    "/nodes/{node}/disks/list",
    "/nodes/{node}/disks/smart",
    "/storage/{storage}",
    "/nodes/{node}/qemu/{vmid}/move_disk",
    "/cluster/backup-info/not-backed-up",
    "/nodes/{node}/status",
    "/version",
    "/nodes/{node}/version/detail",
    "/cluster/ha/groups",
    "/cluster/ha/status/current",
    "/cluster/ha/resources",
    "/nodes/{node}/disks/zfs",
    "/access/openid/login",
    "/access/openid/auth-url",
    "/nodes/{node}/ceph/mon",
  ];
  // Which endpoints (by index) say each word.
  const users: Record<string, number[]> = {
    ceph: [0, 1, 2, 18, 3, 6, 7],
    qemu: [3, 7],
    disk: [0, 1, 3, 4, 5, 7, 9, 15],
    pool: [2],
    backup: [8],
    info: [8],
    node: [0, 1, 2, 3, 4, 5, 7, 9],
    cluster: [0, 8, 12, 13],
    status: [0, 3, 4, 9, 13],
    ha: [3, 6, 12, 13, 14],
    smart: [5],
    version: [10, 11],
    openid: [16, 17],
  };
  const found = subsystemWords(
    paths,
    (w) => users[w] ?? [],
    (w) => w.replace(/s$/, ""),
  );
  test.each([
    // Below the root, four paths below it, four of the seven saying it inside (0.57).
    ["ceph", true],
    // Three paths below, three of five inside (0.6).
    ["ha", true],
    // Three paths below, but four of eight saying it inside (0.5, move_disk among them).
    ["disk", false],
    // All who say it are inside, but two paths are a pair of actions, not a part of the API.
    ["openid", false],
    // A split segment's parts: one path below.
    ["backup", false],
    ["info", false],
    // One path below (/cluster/ha/status/current), and three of five saying it inside.
    ["status", false],
    // Followed by an object's placeholder: a list of objects.
    ["qemu", false],
    ["pool", false],
    // Roots, though all who say them are inside; /version is one too, whatever lies below another path.
    ["node", false],
    ["cluster", false],
    ["version", false],
    // Only ever a last segment.
    ["smart", false],
  ])("%s: %p", (word, named) => {
    expect(found.has(word as string)).toBe(named as boolean);
  });
});

describe("subsystemLists and rootLists: the lists below a subsystem, and at the top", () => {
  const paths = [
    "/cluster/ceph/flags/{flag}",
    "/nodes/{node}/ceph/pool/{name}",
    "/nodes/{node}/ceph/osd/{osdid}/in",
    "/cluster/sdn/vnets/{vnet}/subnets/{subnet}",
    "/storage/{storage}",
    "/pools/{poolid}",
    "/version",
    "/cluster/ha/resources/{sid}",
  ];
  const stemOf = (w: string) => w.replace(/s$/, "");
  test("the lists below each subsystem, the nearest and the deeper ones", () => {
    const lists = subsystemLists(paths, new Set(["ceph", "sdn"]), stemOf);
    expect([...lists].map(([word, held]) => [word, [...held]])).toEqual([
      ["ceph", ["flag", "pool", "osd"]],
      ["sdn", ["vnet", "subnet"]],
    ]);
  });
  test("the lists of the top level: a root followed by a placeholder", () => {
    expect([...rootLists(paths, stemOf)]).toEqual(["node", "storage", "pool"]);
  });
});

describe("listModifiers: a word right before a top-level list's noun", () => {
  const index = { rootLists: new Set(["storag", "pool", "node"]), stems: new Map<string, string>() };
  const tokens = (text: string) => text.split(" ").map((word) => ({ word }));
  test.each<[string, [string, string][]]>([
    ["how full is the ceph storage", [["ceph", "storag"]]],
    ["add the ceph pool", [["ceph", "pool"]]],
    // A host's noun: a node of the Ceph cluster, no kind of node.
    ["reboot a ceph node", []],
    // Any word before the noun; only a subsystem's word is read from it.
    ["the storage ceph", [["the", "storag"]]],
  ])("%s", (text, expected) => {
    expect([...listModifiers(tokens(text), index)]).toEqual(expected);
  });
});

describe("outrightWords: the words a query says outright", () => {
  const index = { collectionStems: new Set(["storag", "node", "pool"]), stems: new Map<string, string>() };
  const tokens = (text: string, weights: Record<string, number> = {}) =>
    text.split(" ").map((word) => ({ word, weight: weights[word] ?? 1 }));
  test.each<[string, Record<string, number>, string[]]>([
    ["delete storage ceph", {}, ["delet", "storag"]],
    // Not where it ends the phrase: a word after the list's noun that qualifies another.
    ["storage ceph pools", {}, ["storag", "ceph", "pool"]],
    ["storage ceph is full", {}, ["storag", "is", "full"]],
    // A plural is the phrase's head.
    ["failed backup notifications must arrive", {}, ["fail", "backup", "notif", "must", "arriv"]],
    // The agent of a participle qualifies a noun.
    ["the proxy used by apt", {}, ["the", "proxi", "us", "by"]],
    // After a host's noun a word is no name.
    ["enable the node firewall", {}, ["enabl", "the", "node", "firewal"]],
    // An aside's weight or less.
    ["restore the config not the firewall", { firewall: 0.5, not: 0.5, the: 1 }, ["restor", "the", "config"]],
  ])("%s", (text, weights, expected) => {
    expect([...outrightWords(tokens(text, weights), index)]).toEqual(expected);
  });
});

describe("phraseLeads: a phrase typed outright stands for its group's word", () => {
  // "keep VM 100 highly available": stems by position; the phrase takes "highli avail" (2, 3).
  const stems = ["keep", "vm", "100", "highli", "avail", "storag"];
  const phrase = { at: 3, span: 2, leadStems: new Set(["ha"]) };
  const all = new Set(stems);
  test.each<
    [string, Parameters<typeof phraseLeads>[0], Set<string>, Map<string, string>, string[], [string, string][]]
  >([
    ["every word outright: its group's word too", [phrase], all, new Map(), [...stems, "ha"], []],
    // "managed by high availability", "(not) through the guest agent": one word not outright.
    [
      "a word not outright: nothing added",
      [phrase],
      new Set(["keep", "vm", "100", "avail"]),
      new Map(),
      ["keep", "vm", "100", "avail"],
      [],
    ],
    // "a high availability storage": the phrase qualifies a top-level list's noun.
    [
      "before a list's noun: its group's word modifies it too",
      [phrase],
      all,
      new Map([["avail", "storag"]]),
      [...stems, "ha"],
      [
        ["avail", "storag"],
        ["ha", "storag"],
      ],
    ],
    // A phrase of a command's description lies past the words typed.
    ["past the words typed: nothing", [{ at: 5, span: 2, leadStems: new Set(["ha"]) }], all, new Map(), stems, []],
    // A word's concept, no phrase.
    ["no phrase: nothing", [{ at: 3 }], all, new Map(), stems, []],
  ])("%s", (_, concepts, outright, modifiers, expected, expectedModifiers) => {
    const got = phraseLeads(concepts, stems, outright, modifiers);
    expect([...got.outright]).toEqual(expected);
    expect([...got.listModifiers]).toEqual(expectedModifiers);
  });
});

describe("presentsOnly: a verb that only presents", () => {
  const stemOf = (w: string) => stem(w, new Map());
  test.each([
    ["shows", false, true],
    ["showing", false, true],
    ["shown", false, true],
    ["seen", false, true],
    ["display", false, true],
    // It brings something, maybe from elsewhere (a download).
    ["fetch", false, false],
    ["get", false, false],
    // An API that names something by it.
    ["view", true, false],
  ])("%s (named by the API: %p): %p", (word, named, presents) => {
    expect(presentsOnly(word as string, stemOf, () => named as boolean)).toBe(presents as boolean);
  });
});

describe("phraseBoundWords: a negation or particle that names only with its neighbours", () => {
  // "backed" is a form of the particle "back", as a stem would have it.
  const closed = (w: string) => ["not", "up", "out", "back", "backed"].includes(w);
  test.each<[string, string[][][], [string, string[], number[]][]]>([
    [
      "inside a name of several words, with its neighbours, stopwords skipped",
      [
        [
          ["not", "backed", "up"],
          ["get", "guests", "not", "in", "backup"],
        ],
        [["status"]],
      ],
      [
        ["not", ["backed", "guests", "backup"], [0]],
        ["backed", ["not", "up"], [0]],
        ["up", ["backed"], [0]],
      ],
    ],
    ["a name by itself is no phrase's part", [[["out"]], [["mark", "out"]]], []],
    ["no closed word, nothing", [[["start"]], [["vm", "status"]]], []],
  ])("%s", (_, names, expected) => {
    const bound = phraseBoundWords(names, closed, (w) => w);
    expect([...bound].map(([w, b]) => [w, [...b.neighbours], [...b.ids]])).toEqual(expected);
  });
});

describe("the sixteenth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, sixteenth round", SCHEMA_DIR);
  const { plain, withDocs } = present ? await realCatalogs(true) : {};

  // "any node" and "whichever node", like "every node", take in all of them: the cluster's task list.
  test
    .skipIf(!present)
    .each([
      "list the tasks on any node",
      "which tasks failed on any node",
      "list the tasks from whichever node ran them",
    ])("%s: the cluster-wide list", (query) => {
    expect(ranked(withDocs!, query)[0]).toBe("GET /cluster/tasks");
    expect(ranked(plain!, query)[0]).toBe("GET /cluster/tasks");
  });

  // One kind of guest read whole across the cluster: the cluster-wide list filtered by kind, as
  // for two kinds named ("every VM and container").
  test.skipIf(!present).each(["all VMs cluster-wide", "which containers are there across all nodes"])(
    "%s: the cluster's resources",
    (query) => {
      expect(ranked(withDocs!, query)[0]).toBe("GET /cluster/resources");
      expect(ranked(plain!, query)[0]).toBe("GET /cluster/resources");
    },
  );

  // Which endpoints a one-kind read of the whole cluster reaches, concept by concept.
  test.skipIf(!present).each([
    // [query, the concept's word, endpoint, reached]
    ["show every VM in the datacenter", "vm", "GET /cluster/resources", true],
    ["which VMs are running on all nodes", "vms", "GET /cluster/resources", true],
    // One backup job's volumes are no read of the whole cluster (a placeholder in the path).
    ["which VMs are running on all nodes", "vms", "GET /cluster/backup/{id}/included_volumes", false],
    // The word that says the cluster is no kind, though /cluster/status lists items of type cluster.
    ["show every VM in the datacenter", "datacenter", "GET /cluster/status", false],
    // Only reads list: adding an HA resource takes a kind too.
    ["show every VM in the datacenter", "vm", "POST /cluster/ha/resources", false],
    // A write, one node, one guest: no read of the whole cluster.
    ["start all VMs cluster-wide", "vms", "GET /cluster/resources", false],
    ["list all VMs on node pve2", "vms", "GET /cluster/resources", false],
    ["show the status of VM 100 in the cluster", "vm", "GET /cluster/resources", false],
  ])("%s: %s reaches %s: %p", (query, word, endpoint, reached) => {
    const index = searchIndexOf(withDocs!);
    const analysis = analyzeQuery(index, query);
    const c = analysis.concepts.findIndex((concept) => concept.primaries.has(stem(word as string, index.stems)));
    expect(c).toBeGreaterThanOrEqual(0);
    const id = index.endpoints.findIndex((e) => `${e.method} ${e.path}` === endpoint);
    expect(enumSpanned(index, analysis)[c]!.has(id)).toBe(reached as boolean);
  });

  // The node's word is no object where it takes in every node, but stays one where something
  // goes to one, whichever.
  test.skipIf(!present).each([
    ["list the tasks on any node", false],
    ["show the firewall log on every node", false],
    ["migrate VM 100 to any node", true],
    ["move container 200 onto whichever host has room", true],
  ])("%s: a concept of the node's word %p", (query, kept) => {
    const index = searchIndexOf(withDocs!);
    const nodeStem = stem("node", index.stems);
    const hostStem = stem("host", index.stems);
    const concepts = analyzeQuery(index, query).concepts;
    expect(concepts.some((c) => c.primaries.has(nodeStem) || c.primaries.has(hostStem))).toBe(kept as boolean);
  });
});

describe("the fifteenth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, fifteenth round", SCHEMA_DIR);
  const { plain, withDocs } = present ? await realCatalogs(true) : {};

  // "in" before a collection's noun says where something goes, or how: the zone exists, and a
  // backup in snapshot mode makes no snapshot.
  test.skipIf(!present).each([
    ["add a vnet named web7 in the simple zone with tag 77", "POST /cluster/sdn/vnets"],
    ["take a backup of vm 310 in snapshot mode", "POST /nodes/{node}/vzdump"],
  ])("%s: %s", (query, expected) => {
    expect(ranked(withDocs!, query)[0]).toBe(expected);
    expect(ranked(plain!, query)[0]).toBe(expected);
  });

  // So does "on": the storage a backup is on exists.
  test.skipIf(!present)("mark a backup on storage pbs1 as protected: the volume's attributes, no new storage", () => {
    const query = "mark backup vzdump-lxc-300-2025_06_01-01_00_00.tar.zst on storage pbs1 as protected";
    expect(ranked(withDocs!, query)[0]).toBe("PUT /nodes/{node}/storage/{storage}/content/{volume}");
  });
});

describe("the fourteenth round of issue 11, on PVE 9.1", async () => {
  const present = haveSharedData("catalog search, fourteenth round", SCHEMA_DIR);
  const { withDocs } = present ? await realCatalogs(true) : {};
  const rankOf = (query: string, answer: string) => ranked(withDocs!, query).indexOf(answer);

  // A verb of creation and the object it names: the parameters of what exists are not asked.
  test.skipIf(!present)("create a resource pool 'sandbox' for the intern VMs: the creation before the update", () => {
    const query = "create a resource pool 'sandbox' for the intern VMs";
    expect(rankOf(query, "POST /pools")).toBeGreaterThanOrEqual(0);
    expect(rankOf(query, "POST /pools")).toBeLessThan(rankOf(query, "PUT /pools") >>> 0);
  });

  // A definite noun phrase names an item that exists: it is changed, not created.
  test.skipIf(!present).each([
    ["exclude VM 210 from the weekly backup job", "PUT /cluster/backup/{id}"],
    ["the weekly backup job should skip container 305 from now on", "PUT /cluster/backup/{id}"],
  ])("%s: %s", (query, expected) => {
    expect(ranked(withDocs!, query)[0]).toBe(expected);
  });

  // A setting of an item named after "of" is that item's, not its guest's.
  test.skipIf(!present)("change the description of snapshot before-patch on VM 712: the snapshot's", () => {
    expect(ranked(withDocs!, "change the description of snapshot before-patch on VM 712")[0]).toBe(
      "PUT /nodes/{node}/qemu/{vmid}/snapshot/{snapname}/config",
    );
  });

  // The summary of a guest endpoint's twin of the other kind weighs as its own.
  test.skipIf(!present)("VM 88 has the guest agent running; show me its IP addresses: the agent's interfaces", () => {
    expect(ranked(withDocs!, "VM 88 has the guest agent running; show me its IP addresses")[0]).toBe(
      "GET /nodes/{node}/qemu/{vmid}/agent/network-get-interfaces",
    );
  });

  // A modal of what should be, of a subject that is no speaker, asks for a behaviour to set.
  test.skipIf(!present).each([
    ["container 333 should start second, 30 seconds after the previous one", "PUT /nodes/{node}/lxc/{vmid}/config"],
    ["VM 412 has to boot on its own whenever the host comes up", "POST /nodes/{node}/qemu/{vmid}/config"],
  ])("%s: %s", (query, expected) => {
    expect(ranked(withDocs!, query)[0]).toBe(expected);
  });

  // What a read requires is what it reads: schedule-analyze's `schedule`, file-restore's backup `volume`.
  test.skipIf(!present).each([
    ["when does the calendar event 'sat 03:15' fire next", "GET /cluster/jobs/schedule-analyze"],
    [
      "list what is inside the PBS backup of VM 90 without restoring it",
      "GET /nodes/{node}/storage/{storage}/file-restore/list",
    ],
  ])("%s: %s", (query, expected) => {
    expect(ranked(withDocs!, query)[0]).toBe(expected);
  });

  // A shell command quoted in a sentence is read as the command line.
  test.skipIf(!present)("what is the API way to run `ceph osd set noscrub`?: the cluster's OSD flags", () => {
    const { first, notes } = firstWithNotes(withDocs!, "what is the API way to run `ceph osd set noscrub`?");
    expect(["PUT /cluster/ceph/flags", "PUT /cluster/ceph/flags/{flag}"]).toContain(first ?? "");
    expect(notes.join(" ")).toContain("ceph is a shell command on the node");
  });
});

describe("stem: an inflected form stems as its base does", () => {
  test.each([
    ["added", "add"],
    ["adding", "add"],
    ["stopped", "stop"],
    ["getting", "get"],
    ["installed", "install"],
    // A two-letter acronym in the plural.
    ["ips", "ip"],
    ["ids", "id"],
    ["pgs", "pg"],
  ])("%s as %s", (form, base) => {
    expect(stem(form)).toBe(stem(base));
  });

  test.each(["bus", "has", "its", "vms", "ups"])("%s stays as it is", (word) => {
    expect(stem(word)).toBe(word);
  });
});

describe("a verb of saying with its subject names no endpoint", () => {
  test.each<[string, string[]]>([
    ["what IP addresses does the guest agent report for vm 105", ["agent", "report"]],
    ["the addresses the agent reports for VM 318", ["reports"]],
    ["show the IP of VM 5120 reported by the qemu guest agent", ["reported"]],
    // An imperative, or a noun after a determiner, keeps its word.
    ["show the IPs of VM 105", []],
    ["generate a system report for pve1", []],
    ["does pve1 have a report of its packages", []],
    // Asked, its subject is whose word the answer is; the guest it speaks of, its number and a
    // name keep theirs. A long subject still reaches back to the auxiliary.
    ["what hostname does the guest OS in VM 101 report?", ["os", "report"]],
    ["which IP addresses does the OS inside VM 4312 think it has?", ["os", "inside", "think"]],
    ["what IPs does the guest agent report for vm 105", ["agent", "report"]],
    // Without a noun asked for before the auxiliary, the subject is what is asked about; nor does
    // a subject run across "and" into another clause.
    ["what does the task log say for the failed backup of VM 101", ["say"]],
    ["why does the ceph pool show HEALTH_WARN", ["show"]],
    ["I did reboot pve1 and the disks report errors", []],
  ])("%s: %j", (query, saying) => {
    expect(markedTokens(query, markSaying)((t) => t.context)).toEqual(saying);
  });
});

describe("what a thing ignores was tried, and steps back when the request says what to do", () => {
  const aside = (query: string) =>
    tokenize(buildSearchIndex([]), query)
      .tokens.filter((t) => t.aside)
      .map((t) => t.word);
  test.each<[string, string[]]>([
    ["kill container 188, it ignores shutdown", ["shutdown"]],
    ["vm 105 is totally frozen and ignores the shutdown button, just kill it", ["the", "shutdown", "button"]],
    // Up to the clause's end only: the request after the comma keeps its words.
    ["VM 133 ignores ACPI, power-cycle it hard", ["acpi"]],
    // Alone it is all the query says of what is wanted.
    ["the Windows box is completely frozen and ignores the power button", []],
    ["kill container 188", []],
    // An action word in the same clause is its subject, no request.
    ["the backup ignores the second disk of VM 100", []],
  ])("%s: %j", (query, expected) => {
    expect(aside(query)).toEqual(expected);
  });
});

describe("a file's path that an endpoint's description says", () => {
  const endpoint = (path: string, description: string) => stubEndpoint("POST", path, description);
  const index = buildSearchIndex([
    endpoint("/nodes/{node}/hosts", "Write /etc/hosts."),
    endpoint("/nodes/{node}/dns", "Write DNS settings."),
  ]);
  const weightOf = (query: string, word: string) => tokenize(index, query).tokens.find((t) => t.word === word)?.weight;
  // The path the schema says is the request's object and counts in full; another path is a value.
  test.each<[string, string, number]>([
    ["append nas02 to /etc/hosts on pve7", "hosts", 1],
    ["append nas02 to /etc/hosts, then reload", "hosts", 1],
    ["append nas02 to /etc/resolv.conf on pve7", "resolv", 0.3],
    ["append nas02 to /etc/hosts.allow on pve7", "allow", 0.3],
    // Inside a guest the path is the guest's own file.
    ["append nas02 to /etc/hosts inside VM 105 through the agent", "hosts", 0.3],
  ])("%s: %s weighs %d", (query, word, weight) => {
    expect(weightOf(query, word)).toBe(weight);
  });
});

describe("words joined by slashes", () => {
  const endpoint = (path: string, description: string) => stubEndpoint("PUT", path, description);
  const index = buildSearchIndex([
    endpoint("/nodes/{node}/network", "Reload network configuration"),
    endpoint("/nodes/{node}/time", "Set time zone."),
  ]);
  const weightOf = (query: string, word: string) => tokenize(index, query).tokens.find((t) => t.word === word)?.weight;
  // Each is a word of the request, one or the other; names, time zones and paths stay values.
  test.each<[string, string, number]>([
    ["Reload/apply the network changes on pve1", "reload", 1],
    ["reload/apply the network changes on pve1", "apply", 1],
    ["which OSDs are up/in on ceph1", "up", 1],
    ["disks used by LVM/ZFS/Ceph", "zfs", 0.3],
    ["set the time zone to Europe/Vienna", "vienna", 0.3],
    ["set the time zone to europe/vienna", "vienna", 0.3],
    ["pvesm add zfspool tank-vm --pool tank/vmdata", "vmdata", 0.3],
  ])("%s: %s weighs %d", (query, word, weight) => {
    expect(weightOf(query, word)).toBe(weight);
  });
});

describe("endpoints that take one guest", () => {
  const endpoint = (path: string, parameters: Record<string, unknown>) =>
    ({ method: "GET", path, name: "x", description: "Read it.", parameters }) as unknown as Endpoint;
  // A backup is one guest's: an endpoint that takes one by its volume speaks of that guest.
  test.each<[string, Record<string, unknown>, number]>([
    ["a backup's volume", { volume: { type: "string", description: "Backup volume ID or name." } }, 1],
    ["a guest's ID as a filter", { vmid: { type: "integer", format: "pve-vmid", optional: 1 } }, 1],
    ["any volume", { volume: { type: "string", description: "Volume identifier" } }, 0],
    ["a backup job's ID", { id: { type: "string", description: "The backup job ID." } }, 0],
  ])("%s", (_name, parameters, expected) => {
    expect(buildSearchIndex([endpoint("/x", parameters)]).takesGuests[0]).toBe(expected);
  });
});

describe("the actions a request does not want to happen", () => {
  const negated = (query: string) => {
    const tokens = tokenize(buildSearchIndex([]), query).tokens;
    markPrevented(tokens);
    return negatedActions(tokens);
  };
  test.each<[string, { action: string; particle?: string }[]]>([
    ["keep Ceph from rebalancing data", [{ action: "rebalancing" }]],
    ["stop the cluster from marking OSDs out", [{ action: "marking", particle: "out" }]],
    ["I don't want the cluster to start rebalancing", [{ action: "rebalancing" }]],
    ["we do not want VMs to fail back", [{ action: "fail" }]],
    ["avoid scrubbing during business hours", [{ action: "scrubbing" }]],
    ["no rebalancing while I patch", [{ action: "rebalancing" }]],
    // "down" right after "shut" is the verb's own; what is wanted is no action kept from happening.
    ["I don't want to shut down the node", [{ action: "shut" }]],
    ["rebalance the pool now", []],
    ["keep everything for 30 days", []],
  ])("%s", (query, expected) => {
    expect(negated(query)).toEqual(expected);
  });
});

describe("keep before a gerund says that something recurs", () => {
  test.each<[string, string[]]>([
    ["backups keep failing every night", ["keep"]],
    ["the thin pool keeps filling up", ["keeps"]],
    ["HA kept bouncing my VM between nodes", ["kept"]],
    // "keep" with an object keeps it.
    ["keep the last 3 backups", []],
    ["keep VM 100 running", []],
    // Words in -ing that are no gerund.
    ["keep everything for 30 days", []],
    ["keep pending changes", []],
  ])("%s: %j", (query, recurring) => {
    expect(markedTokens(query, markAspect)((t) => t.context)).toEqual(recurring);
  });
});

describe("a verb that carries its object off a node moves it", () => {
  const opening = (query: string) => markedTokens(query, markMotion)((t) => t.clauseStart);
  test.each<[string, string[]]>([
    ["pve3 needs a kernel update, get every guest off it first", ["pve3", "move"]],
    ["get all its workloads onto other hosts", ["move"]],
    ["take the VMs off node2 tonight", ["move"]],
    ["take VM 100 off node2", ["move"]],
    ["get container 200 off pve3 before the reboot", ["move"]],
    // No node to leave or reach: an OSD out, a download, a read.
    ["take an OSD out of the cluster", ["take"]],
    ["get the debian image onto the local storage", ["debian"]],
    ["get the config of VM 100", ["config"]],
    // What is carried is no guest, or where it goes is no node.
    ["get the syslog out of pve3", ["syslog"]],
    ["get the container list off node2", ["container"]],
    ["take VM 100 out of pool dev2", ["take"]],
    ["take ens18 out of bond0", ["take"]],
  ])("%s: %j", (query, expected) => {
    expect(opening(query)).toEqual(expected);
  });
});

describe("the plural of a verb's noun is no verb of a request", () => {
  const verbOf = (query: string) => verbAt(tokenize(buildSearchIndex([]), query).tokens, 0);
  test.each([
    ["backups keep failing", undefined],
    ["snapshots of VM 100", undefined],
    ["backup VM 100 now", "POST"],
    ["snapshot container 200", "POST"],
    ["list the VMs", "GET"],
  ])("%s: %p", (query, method) => {
    expect(verbOf(query)).toBe(method as never);
  });
});

describe('a word as often a noun is a verb after "and" or "then" before its object', () => {
  const statedOf = (query: string) => statedMethodAt(tokenize(buildSearchIndex([]), query).tokens);
  test.each<[string, { method: string; at: number } | undefined]>([
    ["format a disk as ext4 and mount it as directory storage", { method: "POST", at: 6 }],
    ["format the spare disk then mount it", { method: "POST", at: 5 }],
    // Not before an object, not after a coordinator: a noun ("mount options", "the mount").
    ["format a disk and mount options", undefined],
    // Before a number, a noun with its name.
    ["compare snapshot 1 and snapshot 2 of VM 170", undefined],
    ["format the disk mount it", undefined],
  ])("%s: %j", (query, stated) => {
    expect(statedOf(query)).toEqual(stated as never);
  });
});

describe("asksDoer: a question of who did something", () => {
  test.each<[string, boolean]>([
    ["somebody deleted VM 310 last night, who did it?", true],
    ["who removed container 412", true],
    ["how do I find out which account did it", true],
    ["changed by whom?", true],
    ["somebody removed a container on Friday and nobody admits it", true],
    ["Who shut down VM 100?", true],
    ["I want to see who did what", true],
    ["which user deleted VM 210", true],
    ["find who deleted container 300", true],
    ["the audit log of who did what", true],
    ["VM 100 stopped overnight — who stopped it?", true],
    ["who set VM 100 to protected", true],
    ["someone deleted VM 104 and nobody admitted it", true],
    ["VM 100 is gone, who deleted it, and when?", true],
    ["do you know who deleted VM 100", true],
    ["but who started it", true],
    ['"Who removed the backup job?"', true],
    ["which users changed the firewall", true],
    ["someone accidentally deleted VM 120 and nobody owns up", true],
    // Who holds a right or is logged in now asks of no deed.
    ["who has access to what", false],
    ["who is currently logged in inside VM 140", false],
    ["who's online in the cluster", false],
    // A relative clause: "who" after its noun.
    ["delete the users who expired last month", false],
    ["add the users who joined the ops team to group ops", false],
    ["the admin who created pool dev left, delete the pool", false],
    ["give read access on /vms to the auditors who need it", false],
    ["which user did I give the PVEAdmin role to?", false],
    ["the admin, who created pool dev, left the company", false],
    ["which user exceed the quota", false],
    ["the users who need a password reset", false],
    ["I know who deleted it, now restore VM 100", false],
    // A deed told by someone, with a request of its own.
    ["someone deleted /etc/hosts inside VM 120; I only need that one file back", false],
    ["new users don't appear until someone clicked sync", false],
    ["somebody locked VM 150 and now nobody can start it, unlock it", false],
  ])("%s: %p", (query, asks) => {
    expect(asksDoer(query)).toBe(asks);
  });
  test("a read of the task list, said", () => {
    const analysis = analyzeQuery(buildSearchIndex([]), "did somebody stop VM 100? who did it");
    expect([analysis.method, analysis.methodStated]).toEqual(["GET", true]);
    expect(analysis.concepts.some((c) => c.primaries.has("task"))).toBe(true);
  });
});

describe("asksCause: a question of cause", () => {
  test.each<[string, boolean]>([
    ["replication keeps failing and I have no idea why", true],
    ["what happened before the node rebooted", true],
    ["what went wrong with the last backup", true],
    ["where do I see the actual error?", true],
    ["what caused the fencing", true],
    ["show the replication jobs", false],
    ["errors of the last backup", false],
    ["whyte-list", false],
    // "the error" or "the reason" is asked for only after a verb of seeing or finding.
    ["set the reason for the maintenance", false],
    ["clear the error state of HA resource vm:100", false],
    ["show me the actual error of the last replication", true],
  ])("%s: %p", (query, asks) => {
    expect(asksCause(query)).toBe(asks);
  });
  // The event told in the past is no request: the question is answered by reading.
  test.each([["the VM got deleted yesterday, why?"], ["pve4 rebooted by itself overnight, what happened before that"]])(
    "%s: a read of the log, said",
    (query) => {
      const analysis = analyzeQuery(buildSearchIndex([]), query);
      expect([analysis.method, analysis.methodStated]).toEqual(["GET", true]);
      expect(analysis.concepts.some((c) => c.primaries.has("log"))).toBe(true);
    },
  );
  // A request beside the question stays the request.
  test("the backup job keeps failing, no idea why, just delete the job: the DELETE", () => {
    expect(
      analyzeQuery(buildSearchIndex([]), "the backup job keeps failing, no idea why, just delete the job").method,
    ).toBe("DELETE");
  });
});

describe("leavesChangeToApply: a change said done whose effect is then denied", () => {
  const changes = (verb: string) => ["change", "edit", "create", "add", "make"].includes(verb);
  test.each<[string, boolean]>([
    ["I changed the SDN vnets but the nodes still don't have the new bridges", true],
    ["I created a vnet but it doesn\u2019t exist on any of the nodes", true],
    ["I changed the network settings but nothing is different on the host yet", true],
    ["I added a vnet but the nodes don't have it", true],
    // A change to make, not one made.
    ["change the network settings, they are not right", false],
    // A change made, nothing denied after it.
    ["I created a vnet, now list the vnets", false],
    ["I created VM 100 and still need to add a disk", false],
    ["delete the snapshots created before yesterday that are not needed", false],
    // A past tense that is no change.
    ["the node rebooted but nothing is running", false],
  ])("%s: %p", (query, leaves) => {
    expect(leavesChangeToApply(query, changes)).toBe(leaves);
  });
  // Wired to the verb groups of the search: "added" is "add", of the group of creating.
  test("through analyzeQuery: the apply concept", () => {
    const stems = (query: string) =>
      analyzeQuery(buildSearchIndex([]), query).concepts.flatMap((c) => [...c.terms.keys()]);
    expect(stems("I added a vnet but the nodes don't have it")).toContain(stem("apply"));
    expect(stems("I added a vnet and the nodes have it")).not.toContain(stem("apply"));
  });
});

describe("saysOngoing: a job going on for a while", () => {
  test.each<[string, boolean]>([
    ["a backup has been hanging for hours, kill it", true],
    ["the backup on pve5 has been running for six hours, abort it", true],
    ["the migration is stuck since this morning", true],
    ["a task has been running for an hour", true],
    ["the restore is hanging for the last two hours", true],
    // Running says so only of a job: a guest or a node running for days is its uptime.
    ["VM 100 has been running for 30 days, show its uptime", false],
    ["the node has been running for days without a reboot", false],
    ["keep the VM running for the demo", false],
    ["start the VM and keep it running", false],
    ["back up every 6 hours", false],
  ])("%s: %p", (query, ongoing) => {
    expect(saysOngoing(query)).toBe(ongoing);
  });
});

describe("a question after a clause that sets the scene, and the noun after what or which", () => {
  const index = buildSearchIndex([]);
  test.each<[string, boolean]>([
    ["the storage is 98% full, what backups are on it?", true],
    ["local storage is at 98%, what backups and images are taking the space?", true],
    ["which backups failed last night", true],
    // "how do I …" asks for a way to act, not what is.
    ["a task has been hanging for an hour, how do I abort it?", false],
    ["the node is down, restart it", false],
    // A relative "which" goes on about the clause before it.
    ["VM 100 is stopped, which is fine, now delete it", false],
  ])("%s: a question %p", (query, question) => {
    expect(analyzeQuery(index, query).question).toBe(question);
  });
  // "what backups": the noun asked about, no verb of backing up.
  test.each<[string, string]>([
    ["the storage is 98% full, what backups are on it?", "GET"],
    ["what backups does storage nas01 hold", "GET"],
    ["the node is down, restart it", "POST"],
  ])("%s: %s", (query, method) => {
    expect(analyzeQuery(index, query).method as string | undefined).toBe(method);
  });
});

describe("a word in quotes is a name given", () => {
  const index = buildSearchIndex([]);
  const weights = (query: string) =>
    Object.fromEntries(tokenize(index, query).tokens.map((t) => [t.word, [t.weight, t.literal]]));
  test.each<[string, string, [number, boolean]]>([
    ["make sure the 'ops-gotify' target delivers", "gotify", [0.3, true]],
    ["storage \u201cmedia\u201d on pve2", "media", [0.3, true]],
    ['the "old" snapshot of VM 100', "old", [0.3, true]],
    ["make sure the target delivers", "target", [1, false]],
  ])("%s: %s", (query, word, expected) => {
    expect(weights(query)[word]).toEqual(expected);
  });
});

describe("undoingActions: a state said, and the API's action that undoes it", () => {
  const isAction = (word: string) => ["unlock", "unlink"].includes(word);
  test.each<[string, string[]]>([
    ["a user is locked out after too many wrong codes", ["unlock"]],
    ["user got locked out after typing the wrong 2fa code", ["unlock"]],
    // No verb of being before it, or a noun or "to" after it: a kind, not a state.
    ["turn VM 300 into a golden image I can make linked clones from", []],
    ["how do I get linked clones instead of full clones", []],
    ["the disk is linked to template 9000, delete the VM", []],
    ["a user is locked after a failed login", ["unlock"]],
    // A state the API has no undoing action for.
    ["the VM is stopped", []],
  ])("%s: %j", (query, actions) => {
    expect(undoingActions(words(query), isAction)).toEqual(actions);
  });
});

describe("kindEnumsOf: the enums that say what kind of thing an item is", () => {
  const endpoint = (parameters: Record<string, unknown>, returns: unknown = {}) =>
    ({ method: "GET", path: "/x", name: "x", description: "", parameters, returns, allowtoken: true }) as never;
  test.each([
    ["a parameter named type", endpoint({ type: { enum: ["vm", "storage", "node"] } }), [["vm", "storage", "node"]]],
    ["a parameter named content", endpoint({ content: { enum: ["iso", "vztmpl"] } }), [["iso", "vztmpl"]]],
    ["another parameter's enum", endpoint({ mode: { enum: ["snapshot", "stop"] } }), []],
    ["a single value", endpoint({ type: { enum: ["vm"] } }), []],
    [
      "a returned item's type",
      endpoint(
        {},
        { type: "array", items: { type: "object", properties: { type: { enum: ["qemu", "lxc", "node"] } } } },
      ),
      [["qemu", "lxc", "node"]],
    ],
    ["numbers only", endpoint({ type: { enum: [0, 1] } }), []],
  ])("%s", (_name, e, expected) => {
    expect(kindEnumsOf(e)).toEqual(expected);
  });
});

describe('a name after "named" or "called"', () => {
  const index = buildSearchIndex([]);
  test.each([["a pool named lab"], ["a guest called web1"]])(
    "%s: the word that introduces the name is no word of the query",
    (query) => {
      const words = tokenize(index, query).tokens.map((t) => t.word);
      expect(words).not.toContain("named");
      expect(words).not.toContain("called");
      expect(words).toHaveLength(query.split(" ").length - 1);
    },
  );

  // The word that makes no token is no word of a first clause either: "delete" stays the request's verb.
  test.each([
    ["the pool named lab is empty, delete it", "DELETE"],
    ["the snapshot called pre-upgrade is stale, remove it", "DELETE"],
  ])("%s: %s", (query, method) => {
    expect<string | undefined>(analyzeQuery(index, query).method).toBe(method);
  });
});

describe("words said aside", () => {
  const index = buildSearchIndex([]);
  test.each([
    ["shut VM 610 down through the agent rather than by ACPI", "acpi"],
    ["browse the files of a PBS backup so I can restore one file", "restor"],
    ["kill off VM 133 now, don't wait for the guest to shut down", "wait"],
    ["reboot the physical server itself, not a guest", "guest"],
  ])("%s: %s counts half", (query, word) => {
    const tokens = tokenize(index, query).tokens;
    const aside = tokens.find((t) => stem(t.word) === word)!;
    expect(aside.weight).toBe(0.5);
    expect(aside.aside).toBe(true);
    expect(tokens[0]!.weight).toBe(1);
    expect(tokens[0]!.aside).toBeUndefined();
  });
});

describe("a word the API does not know, after one of its collections' nouns, is a name", () => {
  const present = haveSharedData("names after collections", SCHEMA_DIR);
  const index = present ? real91Index() : undefined;
  test.skipIf(!present).each([
    ["what is in pool staging", "staging", true],
    ["show the rules of security group webservers", "webservers", true],
    ["add a new user dave in the pve realm", "dave", true],
    // A hyphenated name may be run together from words the API knows.
    ["restrict storage fast-nfs to two nodes", "fast", true],
    // A word the API knows, a compound it knows, an adverb, a preposition: no name.
    ["show the qemu cloud-init settings of VM 100", "cloud", false],
    ["disable a storage temporarily", "temporarily", false],
    ["recent tasks across the whole cluster", "across", false],
    ["list the storage content", "content", false],
  ])("%s: %s %p", (query, word, isName) => {
    const token = tokenize(index!, query).tokens.find((t) => t.word === word)!;
    expect(token.literal).toBe(isName);
  });
});

/** The query's tokens after `mark`, and a reader of the words it flagged. */
function markedTokens(query: string, mark: (tokens: Token[], query: string) => void) {
  const tokens = tokenize(buildSearchIndex([]), query).tokens;
  mark(tokens, query);
  return (flagged: (t: Token) => unknown) => tokens.filter(flagged).map((t) => t.word);
}

describe("what fails, after a negated auxiliary, is no request", () => {
  test.each<[string, string[]]>([
    ["one node died and now I can't start anything, is the cluster still quorate?", ["start"]],
    ["VM 120 won't start after the update", ["start"]],
    ["I cannot log in to the web UI", ["log"]],
    ["the guest doesn't react to the shutdown button", ["react"]],
    ["my colleague is unable to reach the node", ["reach"]],
    ["start VM 120 and check the cluster", []],
  ])("%s: %j", (query, failing) => {
    expect(markedTokens(query, markInability)((t) => t.context)).toEqual(failing);
  });
});

describe("what one logs in through, when no credential, is a realm", () => {
  const marked = (query: string) => {
    const tokens = tokenize(buildSearchIndex([]), query).tokens;
    markLoginNoun(tokens);
    const through = markLoginThrough(tokens);
    return { through, passing: tokens.filter((t) => t.context).map((t) => t.word) };
  };
  test.each<[string, boolean, string[]]>([
    ["set up login through Keycloak with OpenID Connect", true, ["login"]],
    ["let users log in with their company's single sign-on", true, ["log", "in", "sign", "on"]],
    ["staff should log in to the web UI with their Active Directory accounts", true, ["log", "in"]],
    ["we want staff to sign into the UI with their Keycloak accounts", true, ["sign", "in"]],
    // A credential is what the ticket takes: logging in stays the act.
    ["log in with username and password and get a ticket", false, []],
    ["login with an API token", false, []],
    // Named in passing, or with nothing after the preposition, it goes through nothing.
    ["one IP keeps hammering our login page with failed attempts", false, ["login"]],
    ["log in with", false, []],
    ["log in to the web UI", false, []],
    // A client or an account's name is how or as whom; a log is no logging on; another verb ends
    // the reach.
    ["log in through the web UI", false, []],
    ["login via the API with curl", false, []],
    ["log in with root", false, []],
    ["show the log on pve1 with the errors from last night", false, []],
    ["after I log in the dashboard shows VMs with errors", false, []],
  ])("%s: %p %j", (query, through, passing) => {
    expect(marked(query)).toEqual({ through, passing });
  });
});

describe("what provides logins is a realm", () => {
  test.each<[string, boolean, string[]]>([
    ["which login providers are configured", true, ["login"]],
    ["hook up Active Directory as a login provider", true, ["login"]],
    ["add an authentication source for our LDAP", true, ["authentication"]],
    ["our SSO provider is Keycloak", true, ["sso"]],
    // A login word before another noun, or a source of something else, is no realm.
    ["put a banner on the login page", false, []],
    ["the time source of pve1", false, []],
    ["the login-provider group", false, []],
  ])("%s: %p %j", (query, found, passing) => {
    const tokens = tokenize(buildSearchIndex([]), query).tokens;
    expect(markLoginSource(tokens)).toBe(found);
    expect(tokens.filter((t) => t.context).map((t) => t.word)).toEqual(passing);
  });
});

describe("what an account is allowed to do is its permissions", () => {
  test.each<[string, boolean]>([
    ["what am I allowed to do on storage local?", true],
    ["what is the monitoring@pve user actually allowed to do", true],
    ["what is ci@pve!deploy permitted to do", true],
    ["show me what he's effectively allowed to do", true],
    // A guest, an address or a rule is allowed by other settings.
    ["which VMs are allowed to run on pve2", false],
    ["which IPs are allowed to reach port 22", false],
    ["the user logs in, and VMs are allowed to start", false],
    ["users are allowed", false],
    ["which VMs is the HA group allowed to use", false],
    ["is the user allowed to have more than one TFA", false],
  ])("%s: %p", (query, asked) => {
    expect(asksPermission(query)).toBe(asked);
  });
});

describe("back from a backup is a restore", () => {
  test.each<[string, boolean, string[]]>([
    ["bring back container 310 from its backup archive", true, ["back"]],
    ["bring VM 120 back from last night's backup", true, ["back"]],
    ["intern deleted a VM by accident, bring it back from last night's dump", true, ["back"]],
    // Back to a snapshot, back up, a file from inside the backup, or a backup that is not where from.
    ["bring VM 512 back to the snapshot before-upgrade", false, []],
    ["bring container 173 back up", false, []],
    ["I need one config file back from last night's PBS backup of vm 101", false, []],
    ["get back a single deleted document from last night's backup", false, []],
    ["bring VM 120 back online and run a backup from pve2", false, []],
    ["I need to back up vm 100 from pve1 to the backup storage pbs", false, []],
    ["the node came back from reboot, is the backup of vm 100 still running", false, []],
  ])("%s: %p %j", (query, found, passing) => {
    const tokens = tokenize(buildSearchIndex([]), query).tokens;
    expect(markBackFromBackup(tokens)).toBe(found);
    expect(tokens.filter((t) => t.context).map((t) => t.word)).toEqual(passing);
  });
});

describe("set up after a form of be is what is configured", () => {
  test.each<[string, string[]]>([
    ["show how container 305 is set up", ["show", "how", "container", "305", "is", "configured"]],
    ["how is container 305 set up", ["how", "is", "container", "305", "configured"]],
    ["which storages are set up on this cluster", ["which", "storages", "are", "configured", "on", "this", "cluster"]],
    // An order, or how to do it, sets up something new.
    ["set up a container", ["set", "up", "a", "container"]],
    ["show me how to set up a container", ["show", "me", "how", "to", "set", "up", "a", "container"]],
    ["is it possible to set up HA", ["is", "it", "possible", "to", "set", "up", "ha"]],
    // "set" opening its clause is an order, whatever came before.
    [
      "the old container is broken, set up a new one",
      ["the", "old", "container", "is", "broken", "set", "up", "a", "new", "one"],
    ],
  ])("%s", (query, read) => {
    const tokens = tokenize(buildSearchIndex([]), query).tokens;
    markSetUpState(tokens);
    expect(tokens.filter((t) => !t.context || t.weight > 0).map((t) => t.word)).toEqual(read);
  });
});

describe("isNavigation: a GET that only lists the paths below it", () => {
  const get = (path: string, description: string, properties: Record<string, unknown>, href: string) =>
    ({
      method: "GET",
      path,
      name: "index",
      description,
      parameters: {},
      returns: { type: "array", items: { type: "object", properties }, links: [{ rel: "child", href }] },
    }) as unknown as Endpoint;
  const pci = "/nodes/{node}/hardware/pci/{pci-id-or-mapping}";
  test.each<[string, Endpoint, boolean]>([
    ["a directory index", get("/x", "Directory index.", { subdir: {} }, "{subdir}"), true],
    [
      "one item's index of methods, linked by its one property",
      get(pci, "Index of available pci methods", { method: {} }, "{method}"),
      true,
    ],
    // The root of such indexes lists kinds of things; lists whose items the schema describes only
    // by their key are lists all the same.
    [
      "the index of hardware types",
      get("/nodes/{node}/hardware", "Index of hardware types", { type: {} }, "{type}"),
      false,
    ],
    ["the storage index", get("/storage", "Storage index.", { storage: {} }, "{storage}"), false],
    ["the HA resources", get("/cluster/ha/resources", "List HA resources.", { sid: {} }, "{sid}"), false],
    ["an index with more than its link", get(pci, "Index of things", { method: {}, size: {} }, "{method}"), false],
  ])("%s: %p", (_, e, navigation) => {
    expect(isNavigation(e)).toBe(navigation);
  });
});

describe("an action run together with its object is named by the action", () => {
  test("prunebackups needs prune; vncproxy and sendmail are named by any of their words", () => {
    const index = buildSearchIndex([
      {
        method: "GET",
        path: "/nodes/{node}/storage/{storage}/prunebackups",
        name: "dryrun",
        description: "Get prune information for backups.",
        parameters: {},
      },
      {
        method: "POST",
        path: "/nodes/{node}/qemu/{vmid}/vncproxy",
        name: "vncproxy",
        description: "Creates a TCP VNC proxy connections.",
        parameters: {},
      },
      {
        method: "POST",
        path: "/cluster/notifications/endpoints/sendmail",
        name: "create_sendmail_endpoint",
        description: "Send mail with sendmail.",
        parameters: {},
      },
    ] as unknown as Endpoint[]);
    expect(index.identity[0]![0]).toEqual(["prunebackup", "prune"]);
    expect(index.identity[1]![0]).toEqual(["vncproxi", "vnc", "proxi"]);
    // A name the descriptions use as a word of its own keeps its pieces.
    expect(index.identity[2]![0]).toEqual(["sendmail", "send", "mail"]);
  });
});

describe("a compound the schema writes with a hyphen is a word of the API, not a name", () => {
  test("CD-ROM", () => {
    const index = buildSearchIndex([
      {
        method: "PUT",
        path: "/nodes/{node}/qemu/{vmid}/config",
        name: "update_vm",
        description: "Set virtual machine options.",
        parameters: {
          ide0: { type: "string", description: "Use volume as IDE hard disk or CD-ROM." },
          sata0: { type: "string", description: "Use volume as SATA hard disk or CD-ROM." },
          hookscript: { type: "string", description: "Script run by ha-manager." },
        },
      },
    ] as unknown as Endpoint[]);
    // A name's words count half; the API's own compound counts whole.
    const weights = (query: string, word: string) =>
      tokenize(index, query)
        .tokens.filter((t) => t.word === word)
        .map((t) => t.weight);
    expect(weights("remove the CD-ROM from VM 100", "rom")).toEqual([1]);
    expect(weights("back up the web-server now", "server")).toEqual([0.5]);
    // A tool the prose names once is a name.
    expect(weights("run ha-manager status", "manager")).toEqual([0.5]);
  });
});

describe("seenFromInside: what a VM sees from inside, which its guest agent reports", () => {
  test.each<[string, boolean]>([
    ["addresses of each NIC as seen from inside VM 130", true],
    ["which IP addresses does the OS inside VM 4312 think it has", true],
    ["which addresses does VM 230 see from the inside", true],
    ["how full are the partitions as the guest sees them", true],
    // The agent said already, a container (no agent), a guest OS that is only frozen.
    ["run 'systemctl restart nginx' inside vm 402 via the guest agent", false],
    ["let docker run inside container 150", false],
    ["guest OS is totally frozen, doesn't react to the shutdown button", false],
    ["from the inside of pve1, the network looks down", false],
    ["which filesystems are mounted inside the guest of container 200", false],
    ["which IPs are allowed to reach VM 100 from inside the office", false],
  ])("%s: %p", (query, inside) => {
    expect(seenFromInside(query)).toBe(inside);
  });
});

describe("asksVmAddresses: the addresses a VM got, which its guest agent reports", () => {
  test.each<[string, boolean]>([
    ["what ip did vm 120 get from dhcp?", true],
    ["what is the IPv4 address of VM 201", true],
    // Kept by the firewall, cloud-init or the IPAM, a container's, or the agent said already.
    ["which IPs are in the ipset of VM 100", false],
    ["the cloud-init IP of VM 100", false],
    ["what IP does container 200 have", false],
    ["get the IP address of VM 100 from the guest agent", false],
    ["does VM 100 have IP spoofing protection", false],
    ["VM 100 needs a static IP", false],
  ])("%s: %p", (query, asked) => {
    expect(asksVmAddresses(query)).toBe(asked);
  });
});

describe("numberedStorage: a kind of storage numbered", () => {
  const types = new Set(["pbs", "nfs", "zfs"]);
  test.each<[string, boolean]>([
    ["pbs1", true],
    ["nfs-2", true],
    ["zfs02,", true],
    ["pve1", false],
    ["pbs", false],
    ["pbs-main", false],
  ])("%s: %p", (word, storage) => {
    expect(numberedStorage(word, types)).toBe(storage);
  });
});

describe("opensQuestion: a question word first, not when or where opening a clause", () => {
  test.each<[string, boolean]>([
    ["which VMs are running", true],
    ["how full is local-zfs", true],
    ["when did the backup of VM 100 run", true],
    ["where is VM 100 running", true],
    ["when is the next backup", true],
    ["when?", true],
    // A clause of time or place before the request.
    ["when a node is rebooted, HA should move its guests", false],
    ["when I leave the ID empty, new VMs should be numbered from 5000", false],
    ["where the disk is full, trim it", false],
    // Without a comma closing it, "when" and "where" ask.
    ["when exactly did replication job 100-0 last run", true],
    ["where's the log of the last backup", true],
    ["start VM 100", false],
  ])("%s: %p", (query, asks) => {
    expect(opensQuestion(words(query), query)).toBe(asks);
  });
});

describe("a name after a kind's word names an object of the collection before it", () => {
  test.each<[string, string, boolean]>([
    ["switch backup job backup-9d41e0 to lzo", "backup", true],
    ["mark PCI mapping tesla-t4 as mdev capable", "pci", true],
    // A typed value of a kind, a bare word, or a preposition before the name: no owner.
    ["the ha rule for vm:101 and vm:102", "rule", false],
    ["pick the backup job nightly", "backup", false],
    ["sign up an ACME account with admin-1", "account", false],
    // A kind's word the API names its items by: realms are the items of /access/domains.
    ["the realm corp-ad1 should be the default", "domain", true],
  ])("%s: %s %p", (query, owner, named) => {
    const index = buildSearchIndex([
      ...["/cluster/backup", "/cluster/mapping/pci", "/cluster/ha/rules", "/cluster/acme/account"].flatMap((path) => [
        { method: "GET", path, name: "index", description: "List.", parameters: {} },
        { method: "GET", path: `${path}/{id}`, name: "read", description: "Read.", parameters: {} },
      ]),
      {
        method: "GET",
        path: "/access/domains",
        name: "index",
        description: "Authentication domain index.",
        parameters: {},
      },
      {
        method: "GET",
        path: "/access/domains/{realm}",
        name: "read",
        description: "Get auth server configuration.",
        parameters: { realm: { type: "string", description: "Authentication domain ID" } },
      },
    ] as unknown as Endpoint[]);
    expect(tokenize(index, query).namedByName.has(stem(owner, index.stems))).toBe(named);
  });
});

describe("a file called by its name is the path an endpoint's description says", () => {
  const paths = new Set(["/etc/hosts"]);
  test.each<[string, string]>([
    ["add an entry to the hosts file of pve1", "add an entry to the /etc/hosts file of pve1"],
    ["the Hosts file", "the /etc/hosts file"],
    ["edit /etc/hosts file", "edit /etc/hosts file"],
    ["the hosts files are synced by corosync", "the hosts files are synced by corosync"],
    ["hosts on the file server", "hosts on the file server"],
    ["the ghosts file", "the ghosts file"],
  ])("%s", (query, read) => {
    expect(namingFiles(query, paths)).toBe(read);
  });
});

describe("guests kept together or apart name the HA rules' affinity", () => {
  test.each<[string, boolean]>([
    ["VMs 101 and 102 must never run on the same host", true],
    ["keep VM 100 and VM 101 on different nodes", true],
    ["keep two containers together on the same hypervisor", true],
    ["the two database VMs should stay on separate nodes", true],
    // A fact, not a rule to keep; a move, not a placement rule.
    ["VMs on different hosts need to share one layer-2 network", false],
    ["migrate VM 100 to a different node", false],
    ["always keep backups on a separate server", false],
    ["keep the container running while moving it to a different node", false],
  ])("%s: %p", (query, expected) => {
    expect(namesAffinity(query)).toBe(expected);
  });
});

describe('"login" as a noun names an account or its page, not the act', () => {
  const marked = (query: string) => {
    const words = markedTokens(query, markLoginNoun);
    return { passing: words((t) => t.context), account: words((t) => t.account) };
  };
  test.each<[string, string[], string[]]>([
    // The head of its phrase, right after its determiner or with a stopword between: the
    // account itself, which the API calls a user.
    ["the intern needs a login for the web UI", [], ["login"]],
    ["our contractor needs a proxmox login", [], ["login"]],
    ["bob forgot his login", [], ["login"]],
    ["disable her login but keep her VMs", [], ["login"]],
    // Before the noun it qualifies, counted, after an adjective, in the plural or followed by how
    // one logs in: the act, in passing.
    ["reset her login password", ["login"], []],
    ["put a warning banner on the login screen", ["login"], []],
    ["count every login of root@pam", ["login"], []],
    ["login page of the web UI", ["login"], []],
    ["a second login step for bob", ["login"], []],
    ["go to the login page of pve1", ["login"], []],
    ["when was the last login of bob", ["login"], []],
    ["the logins of root@pam", ["logins"], []],
    ["the api login with a token", ["login"], []],
    // Before a preposition, after "to", a modal or "who", or as the subject of a verb: the act.
    // Nor does a determiner before a clause's end reach it ("create a VM, login and check it").
    ["create a VM, login and check it", [], []],
    ["notify those who login as root", [], []],
    ["login with username and password and return the CSRF token", [], []],
    ["how do I login to the API from a script", [], []],
    ["I want to login as root@pam", [], []],
    ["try to login again", [], []],
    ["users cannot login after the upgrade", [], []],
    ["how can the user login", [], []],
    ["api login fails with 401", [], []],
    // A name with "login" in it is no word of the request.
    ["show the group login-admins", [], []],
  ])("%s: passing %j, account %j", (query, passing, account) => {
    expect(marked(query)).toEqual({ passing, account });
  });
});

describe("what a request keeps from happening", () => {
  const marked = (query: string) => {
    const words = markedTokens(query, markPrevented);
    return { prevented: words((t) => t.prevented), preventing: words((t) => t.context) };
  };
  test.each([
    ["guard VM 123 against accidental removal", ["removal"], []],
    // After "from", a gerund or participle; the verb opening the clause then says "prevent".
    ["stop anyone from accidentally deleting container 310", ["deleting"], ["stop"]],
    ["keep the backup from ever being pruned", ["pruned"], ["keep"]],
    ["mark it protected so pruning never deletes it", ["deletes"], []],
    // What the request does without: a gerund, or a noun phrase to its noun.
    ["kill container 227 without a clean shutdown", ["clean", "shutdown"], []],
    ["reset VM 212 without a clean OS shutdown", ["clean", "os", "shutdown"], []],
    ["show the pending SDN changes without applying them", ["applying"], []],
    // What is not cared about or needed is done without.
    ["stop VM 100 now, I don't care about a clean shutdown", ["clean", "shutdown"], []],
    ["power off container 200, no need for a graceful shutdown", ["graceful", "shutdown"], []],
    // Not what is needed: "I don't need VM 100 any more" names what goes; so does what is given up.
    ["I don't need VM 100 any more, delete it", [], []],
    ["no need for the test snapshot anymore, remove it", [], []],
    // The phrase ends at a verb with its object, and goes on after "of".
    ["I don't care about downtime migrate VM 100 to pve2", ["downtime"], []],
    ["kill container 227 without a clean shutdown of the guest", ["clean", "shutdown"], []],
    // A noun that names an action, or a verb with no object after it, is still the phrase's.
    ["stop VM 100 without a clean shutdown, it is hung", ["clean", "shutdown"], []],
    ["VM 100 hangs, I don't care about a clean shutdown, just kill it", ["clean", "shutdown"], []],
    // A pronoun is an object after a verb; what is given up ("get rid of it") is no "no need".
    ["VM 100 no need for a graceful shutdown reset it", ["graceful", "shutdown"], []],
    ["we have no need for snapshot test of VM 100, get rid of it", [], []],
    // A determiner after the delete names its object; nothing is given up.
    ["no need for a graceful shutdown, delete that VM 100 right away", ["graceful", "shutdown"], []],
    // "from" before a place or a source: nothing is kept from happening.
    ["clone VM 100 from a template", [], []],
    ["migrate everything from node pve1", [], []],
  ])("%s", (query, prevented, preventing) => {
    expect(marked(query)).toEqual({ prevented, preventing });
  });
});

describe("configuring an object not yet known creates it", () => {
  const listed = new Set(["server", "rule", "job", "storage"]);
  test.each<[string, boolean]>([
    ["configure an InfluxDB metric server", true],
    ["configure a firewall rule for VM 100", true],
    ["configure the metric server influx1", false],
    ["configure an existing backup job", false],
    ["configure a bandwidth limit for migrations", false],
    // The object's phrase ends with its clause.
    ["configure a bandwidth limit; storage local is slow", false],
    ["set up a backup job", true],
  ])("%s: %j", (query, created) => {
    const tokens = tokenize(buildSearchIndex([]), query).tokens;
    expect(introducesNewObject(tokens, 0, (w) => listed.has(w))).toBe(created);
  });
});

describe("definiteOf: the item a definite noun phrase names exists", () => {
  const index = {
    collectionStems: new Set(["backup", "storag", "pci", "ipam", "rule", "replic"]),
    stems: buildSearchIndex([]).stems,
  };
  test.each<[string, string[], string[]]>([
    ["exclude VM 100 from the nightly backup job", [], ["backup"]],
    ["the weekly replication job should skip VM 7", [], ["replic"]],
    // A name's words name no collection ("backup" of backup-nfs).
    ["restrict the backup nfs storage to pve1", ["backup", "nfs"], ["storag"]],
    // Not one that is new, a list, a role to play, a means or a goal, or another's part.
    ["add the new storage for ISOs", [], []],
    ["show the backups of VM 100", [], []],
    ["hook NetBox up as the IPAM backend", [], []],
    ["pin VM 100 to pve1 through the HA rule", [], []],
    ["send alerts to the backup server", [], []],
    ["pass the GPU through without the host's PCI address", [], []],
    // "that" opens a clause as often as it points; a possessive may point outside Proxmox.
    ["ensure that replication of VM 100 runs hourly", [], []],
    ["push alerts to our backup server", [], []],
  ])("%s: %j", (query, names, known) => {
    const raw = query.toLowerCase().replace(/'s\b/g, "").split(/\s+/);
    const isName = (i: number) => names.includes(raw[i]!);
    expect([...definiteOf(raw, index, possessors(query), isName)].sort()).toEqual(known);
  });
  // The object of an order to add is what it brings into being; a later phrase still exists.
  test("install the backup storage from the ipam pool: only the later phrase", () => {
    const raw = "install the backup storage from the ipam pool".split(" ");
    expect([...definiteOf(raw, index, new Set(), () => false, 1)]).toEqual(["ipam"]);
  });
});

describe("collectionAliases: a collection named by its items' placeholder", () => {
  const item = (path: string) => ({ method: "GET", path }) as unknown as Endpoint;
  test("the placeholder's noun, where the path calls the collection otherwise and no other collection has it", () => {
    const endpoints = [
      item("/access/domains/{realm}"),
      item("/cluster/backup/{id}"),
      item("/cluster/notifications/endpoints/smtp/{name}"),
      item("/cluster/notifications/endpoints/gotify/{name}"),
      item("/access/users/{userid}"),
      item("/access/tfa/{userid}"),
      item("/nodes/{node}/qemu/{vmid}"),
      item("/nodes/{node}/lxc/{vmid}"),
      item("/cluster/firewall/rules/{pos}"),
      item("/nodes/{node}/firewall/rules/{pos}"),
    ];
    const listed = new Map([
      ["/access/domains", "domain"],
      ["/cluster/backup", "backup"],
      ["/cluster/notifications/endpoints/smtp", "smtp"],
      ["/cluster/notifications/endpoints/gotify", "gotifi"],
      ["/access/users", "user"],
      ["/access/tfa", "tfa"],
      ["/nodes/{node}/qemu", "qemu"],
      ["/nodes/{node}/lxc", "lxc"],
      ["/cluster/firewall/rules", "rule"],
      ["/nodes/{node}/firewall/rules", "rule"],
    ]);
    // "user" is a collection of its own; "name" names the items of two; "id" and "vmid" leave
    // no noun of three letters; "pos" names one, twice.
    expect([...collectionAliases(endpoints, listed, buildSearchIndex([]).stems)]).toEqual([
      ["realm", "domain"],
      ["pos", "rule"],
    ]);
  });
});

describe("listsThrough: the lists whose items a path goes through", () => {
  const listed = new Map([
    ["/cluster/sdn/vnets", "vnet"],
    ["/cluster/sdn/vnets/{vnet}/subnets", "subnet"],
    ["/nodes/{node}/qemu", "qemu"],
  ]);
  test.each<[string, (string | undefined)[]]>([
    ["/cluster/sdn/vnets/{vnet}/subnets/{subnet}", ["vnet", "subnet"]],
    // A list with no noun of its own ("/nodes" here) gives none.
    ["/nodes/{node}/qemu/{vmid}/config", [undefined, "qemu"]],
    ["/cluster/sdn/vnets", []],
  ])("%s: %j", (path, lists) => {
    expect(listsThrough(path, listed)).toEqual(lists);
  });
});

describe("wantedOf: a modal of what should be, said of a thing", () => {
  test.each<[string, number]>([
    ["container 171 should start third", 2],
    ["VM 160 has to come up by itself", 3],
    ["new ones must get IDs from 5000", 2],
    ["the disk needs to be bigger", 3],
    ["the SSH keys should be enabled for VM 600", 3],
    ["users from LDAP should be pulled in automatically every night", 3],
    // Said by the speaker of themselves, it is a request; "has" alone is no modal.
    ["I need to move the disk of VM 7", -1],
    ["I really need to delete container 300", -1],
    // A question, a relative clause, one action in the passive: no behaviour to set.
    ["which VM should be migrated first", -1],
    ["show the VMs that need to be rebooted", -1],
    ["VM 100 needs to be migrated to pve3 tonight", -1],
    ["we must reboot pve1 tonight", -1],
    ["VM 7 has two disks", -1],
  ])("%s: %p", (query, at) => {
    expect(wantedOf(query.toLowerCase().split(" "))).toBe(at);
  });
});

describe("possessors: who owns what a noun phrase names", () => {
  test.each<[string, string[]]>([
    ["the host's PCI address", ["host"]],
    ["the nodes' disks", ["nodes"]],
    ["don't stop the VM's agent", ["vm"]],
    ["the host’s PCI address", ["host"]],
    // A contraction is no possessive.
    ["it's late, what's left on the node's disk", ["node"]],
  ])("%s: %j", (query, owners) => {
    expect([...possessors(query)]).toEqual(owners);
  });
});

describe("placeMentions: the kinds of existing object something is put in or added to", () => {
  const index = {
    collectionStems: new Set(["group", "zone", "snapshot", "domain", "server", "storag"]),
    collectionAliases: new Map([["realm", "domain"]]),
    stems: buildSearchIndex([]).stems,
  } as unknown as SearchIndex;
  test.each<[string, string[]]>([
    ["add bob to the admins group", ["group"]],
    // A collection by its items' name, and a name before "in" (English has a verb "bob").
    ["create user bob in the pve realm", ["domain"]],
    ["create a vnet called vnet100 in the evpn zone", ["zone"]],
    ["back up container 140 immediately in snapshot mode", ["snapshot"]],
    ["mark the backup on storage nas as protected", ["storag"]],
    // "in" right after a verb is its particle.
    ["people log in with their domain accounts", []],
    ["staff logged in with domain accounts", []],
    ["users logging in with domain accounts", []],
    ["turn on the zone", []],
    // A new object is no place; nor is "to" before a verb.
    ["send alerts to a new server", []],
    ["send alerts to a gotify server", []],
    ["how to create a snapshot", []],
    // Where something is: an indefinite names one that exists there ("a" is no new one).
    ["list the files inside a snapshot", ["snapshot"]],
    ["show the members within a zone", ["zone"]],
    ["put the disk on a new storage", []],
    // "to every group" adds to groups that exist.
    ["add bob to every group", ["group"]],
    // After a determiner a word that may be a verb is a noun, and "in" no particle.
    ["show the groups in the evpn zone", ["zone"]],
    ["people log in to the evpn zone", ["zone"]],
  ])("%s: %j", (query, places) => {
    const raw = query.split(" ");
    const kinds = placeMentions(raw, index, (i) => raw[i] === "bob").map((p) => p.kind);
    expect([...new Set(kinds)].sort()).toEqual(places);
  });
});

describe("holdersOf: the places whose contents a query asks about", () => {
  const index = {
    collectionStems: new Set(["pool", "zone", "storag", "backup"]),
    collectionAliases: new Map(),
    stems: buildSearchIndex([]).stems,
  } as unknown as SearchIndex;
  test.each<[string, string[]]>([
    ["list the files inside a backup", ["backup"]],
    ["show the vnets in zone evpn1", ["zone"]],
    // Every one of a kind is what is asked about, not where it is.
    ["how much space is left on each storage", []],
    ["show the vnets in every zone", []],
    // Contents of the place's own kind: pools in a pool are pools.
    ["list the sub pools inside pool prod", []],
  ])("%s: %j", (query, holders) => {
    const raw = query.split(" ");
    expect([...holdersOf(raw, placeMentions(raw, index), index)].sort()).toEqual(holders);
  });
});

describe("createdOf: what a verb of creation creates", () => {
  const index = { stems: buildSearchIndex([]).stems };
  const creatable = new Set(["pool", "storag", "rule", "user", "qemu", "network", "zone", "zfs"]);
  test.each<[string, string[]]>([
    ["create a resource pool sandbox for the intern VMs", ["pool"]],
    // The head of the phrase: its last noun.
    ["add a zfs storage for the pool tank", ["storag"]],
    ["add the NFS export as new storage for ISOs", ["storag"]],
    ["add the existing zfs pool tank as storage", ["storag"]],
    ["add the existing pool tank to the cluster", []],
    // "as" after another verb is that verb's.
    ["create a zfs pool tank and add it as storage", ["pool"]],
    ["create an HA rule through the GUI", ["rule"]],
    // The first after the verb: its object; a guest's word for its kind's collection.
    ["create a VM with the disk on storage ceph and the network on vnet prod", ["qemu"]],
    ["VMs need one network; create a zone spanning three nodes", ["zone"]],
    ["create user bob in the pve realm of the pool", ["user"]],
    // A noun a preposition governs is where or with what; one named by a number exists.
    ["create it with its disk on storage ceph", []],
    ["add bob to the admins pool", []],
    ["add VM 305 and storage nas01 to pool dev", []],
  ])("%s: %j", (query, created) => {
    const raw = query.toLowerCase().replace(/;/g, "").split(/\s+/);
    const verbAt = raw.findIndex((w) => w === "create" || w === "add");
    expect([...createdOf(raw, index, creatable, verbAt)]).toEqual(created);
  });
});

describe("ownersOf: the named item whose setting is changed", () => {
  const index = { collectionStems: new Set(["snapshot", "storag", "network"]), stems: buildSearchIndex([]).stems };
  test.each<[string, string[], string[]]>([
    ["set the notes of snapshot before-patch on VM 7", ["snapshot"], ["snapshot"]],
    ["change the content types of storage tank2", ["storag"], ["storag"]],
    // Named by no name, or not after "of": no owner.
    ["set the description of the snapshot on VM 7", [], []],
    ["use network 10.1.0.0/24 for the migrations of all VMs", ["network"], []],
  ])("%s: %j", (query, named, owners) => {
    const raw = query.toLowerCase().split(/\s+/);
    expect([...ownersOf(raw, index, new Set(named))]).toEqual(owners);
  });
});

describe("which kinds of path typed count as values", () => {
  const typed = new Set(["file", "image"] as const);
  test.each<[GuestFacet, string[]]>([
    ["qemu", ["file", "image"]],
    ["any", ["file", "image"]],
    // Containers import no disk image; with no guest a path names one of Proxmox's files.
    ["lxc", ["file"]],
    ["none", []],
  ])("about %s: %j", (guest, kinds) => {
    expect(pathValues(typed, guest)).toEqual(kinds as never);
  });
});

describe("a first clause that states the situation", () => {
  const marked = (query: string) => markedTokens(query, markContext)((t) => t.context);
  test.each([
    ["pve7 is powered off, send it a magic packet", ["pve7", "is", "powered", "off"]],
    [
      "user ivan is locked out of two-factor, unlock him",
      ["user", "ivan", "is", "locked", "out", "of", "two", "factor"],
    ],
    ["VM 418 has a stale backup lock - clear the lock", ["vm", "418", "has", "a", "stale", "backup", "lock"]],
    // What something needs is a situation too; "I need …" is a request.
    ["the new box needs to join, where do I get the join info", ["the", "new", "box", "needs", "to", "join"]],
    ["I need the join info, and the fingerprint", []],
    // "needs" in a relative clause describes a noun of the request.
    ["add a user that needs access to pool lab, realm pve", []],
    // The verb of a relative clause is not the statement's.
    ["the VM that was migrated is stuck, stop it", ["the", "vm", "that", "was", "migrated", "is", "stuck"]],
    ["stop the VM that was migrated, then start it", []],
    ["add a user that really needs access to pool lab, realm pve", []],
    // A question, a request without a statement before it, or a statement with nothing after it: no scene.
    ["how are the replication jobs doing - last sync time", []],
    ["shut down VM 100, then start VM 101", []],
    ["pve7 is powered off", []],
  ])("%s", (query, words) => {
    expect(marked(query)).toEqual(words);
  });
});

describe("a subordinate clause: of time or condition, or describing a noun", () => {
  const marked = (query: string) => markedTokens(query, markSubordinate)((t) => t.subordinate);
  test.each([
    ["make VM 160 come back up whenever its host reboots", ["whenever", "its", "host", "reboots"]],
    ["drop all traffic to VM 125 unless a rule allows it", ["unless", "a", "rule", "allows", "it"]],
    // An opening clause runs to its comma.
    ["after pve2 boots, wait 90 seconds", ["after", "pve2", "boots"]],
    // A question's "when", "check if", a question's own condition, a clause with nothing after it: none.
    ["when will the backup job run next", []],
    ["check if the guest agent is running", []],
    ["which backups would get deleted if I applied keep-last=3", []],
    ["when a node fails", []],
    // The word that opens the clause is part of it: "when" there asks nothing, so states no read.
    ["page the on-call webhook when a backup job fails", ["when", "a", "backup", "job", "fails"]],
    // After a comma, "when" and an auxiliary ask: the clause counts less, "when" itself asks.
    ["the backup job overlaps with replication, when does it run next", ["does", "it", "run", "next"]],
    // "when" after a verb of asking and the one it is told to is what is asked.
    ["tell me when the replication job runs next", []],
    // A relative clause after a noun of a request describes that noun.
    [
      "create a custom role that can only power VMs on and off",
      ["that", "can", "only", "power", "vms", "on", "and", "off"],
    ],
    // ... not after a verb ("make sure that"), nor in a request that opens with no verb.
    ["make sure that VM 100 starts at boot", []],
    ["VMs that never get backed up", []],
  ])("%s", (query, words) => {
    expect(marked(query)).toEqual(words);
  });
});

describe("a light verb whose object names the action", () => {
  const marked = (query: string) => {
    const words = markedTokens(query, markLightVerb);
    return { light: words((t) => t.context), verbs: words((t) => t.clauseStart) };
  };
  test.each([
    ["take a snapshot of VM 600", ["take"], ["take", "snapshot"]],
    ["run a backup of container 210", ["run"], ["run", "backup"]],
    // No determiner: a causative, not a light verb; no action noun: the verb stays.
    ["make VM 118 start automatically", [], ["make"]],
    ["take the node out of the cluster", [], ["take"]],
  ])("%s", (query, light, verbs) => {
    expect(marked(query)).toEqual({ light, verbs });
  });
});

describe("a frame around a request asks for the action its verb names", () => {
  const marked = (query: string) => markedTokens(query, markFraming)((t) => t.context);
  test.each([
    ["how do I delete snapshot foo of VM 100", ["how", "do", "i"]],
    ["how to change the DNS servers", ["how", "to"]],
    ["is it possible to add a user", ["is", "it", "possible", "to"]],
    ["which endpoint do I use to stop container 200", ["which", "endpoint", "do", "i", "use", "to"]],
    ["can you reboot node pve1", ["can", "you"]],
    // An English verb of no known method opens the request as well.
    ["how can I throttle replication job 101-0", ["how", "can", "i"]],
    // A verb that says no method, a question about what is, a request with no frame: nothing to mark.
    ["how do I know whether VM 100 runs", []],
    ["which VMs are set to start at boot", []],
    ["delete snapshot foo of VM 100", []],
  ])("%s", (query, words) => {
    expect(marked(query)).toEqual(words);
  });
});

describe("a guest named by its number that leaves something, or that something leaves, stays", () => {
  const index = buildSearchIndex([]);
  test.each([
    ["remove VM 100 from HA", true],
    ["take container 200 out of pool dev", true],
    // Something taken out of the guest: the guest stays as well.
    ["remove the CD-ROM from VM 100", true],
    ["detach disk scsi1 from the VM 100", true],
    // From the whole system it is gone.
    ["remove VM 100 from proxmox", false],
    // From a node is where it is; "from being removed" is what is kept from happening.
    ["delete VM 300 from node pve2", false],
    ["delete VM 300 from pve2", false],
    ["prevent container 570 from being removed by accident", false],
  ])("%s: %p", (query, leaves) => {
    const staying = analyzeQuery(index, query).staying ?? new Set();
    expect(staying.has("qemu") || staying.has("lxc")).toBe(leaves);
  });
});

describe("an item named by its name that leaves something stays", () => {
  const present = haveSharedData("items leaving", SCHEMA_DIR);
  const index = present ? real91Index() : undefined;
  test.skipIf(!present).each([
    ["remove user bob@pve from group admins", ["user"]],
    ["take storage nfs1 out of pool dev", ["storag"]],
    // From the whole system it is gone; no name, no item.
    ["remove the user jdoe@pam from proxmox", []],
    ["remove the user from group admins", []],
  ])("%s: %j", (query, stems) => {
    expect([...(analyzeQuery(index!, query).staying ?? [])]).toEqual(stems);
  });
});

describe("a guest named by its number and put somewhere exists", () => {
  const index = buildSearchIndex([]);
  test.each([
    ["create VM 100", true],
    ["add VM 100 to HA", false],
    ["add container 200 into pool dev", false],
    ["add VMs 400 through 405 to the lab pool", false],
    ["add containers 300 and 301 into pool lab", false],
    ["add VM 101 and container 202 to pool web", false],
    // The "to" right after the guests, wherever it stands.
    ["go to the datacenter and add VM 100 to pool web", false],
    // A word between the guest and "to" that is no number: the guest is not what goes there.
    ["clone VM 100 with a new name to pve2", true],
    // "to" before a verb is no place.
    ["add VM 100 to create a test setup", true],
  ])("%s: a create verb %p", (query, creates) => {
    expect(analyzeQuery(index, query).createVerb).toBe(creates);
  });
});

describe("existingPlaceAt: the place guests go to is one object that exists", () => {
  const present = haveSharedData("existingPlaceAt", SCHEMA_DIR);
  const index = present ? real91Index() : undefined;
  test.skipIf(!present).each([
    ["add VMs 400 through 405 to the lab pool", true],
    ["add VM 5 to pool sandbox", true],
    ["add VM 1 to the nightly backup job", true],
    // A subsystem or a kind of job, no object of it.
    ["add VM 700 to replication towards pve2", false],
    ["add VM 100 to HA", false],
    ["add VM 100 to a pool", false],
  ])("%s: %p", (query, exists) => {
    const raw = query.toLowerCase().split(" ");
    expect(existingPlaceAt(raw, guestsGoTo(raw), index!, () => false)).toBe(exists);
  });
});

describe("addsProperty: what is added to something is set on it", () => {
  const present = haveSharedData("addsProperty", SCHEMA_DIR);
  const index = present ? real91Index() : undefined;
  test.skipIf(!present).each([
    ["add a note to the backup archive", true],
    ["add a description to container 200", true],
    ["add a short comment to the user alice@pve", true],
    // "to backup job": the verb's word names a collection, so it is a noun there.
    ["add a note to backup job daily", true],
    // Something a POST creates or names, a guest, a value or a name is added as itself.
    ["add a user to group admins", false],
    ["add an API token to user ci@pve", false],
    ["add an LDAP server to the realms", false],
    ["add the storage to the pool", false],
    ["add VM 100 to pool dev", false],
    ["add 10.0.0.5 to the ipset", false],
    // An infinitive's "to", a "to" too far, or nothing after it.
    ["add a hook script to run at boot", false],
    ["add a very long winded note to it", false],
    ["add a tag to", false],
    ["add a tag", false],
  ])("%s: %p", (query, adds) => {
    const raw = query.toLowerCase().split(" ");
    expect(addsProperty(raw, index!, index!.postWords, 0, () => false)).toBe(adds);
  });
});

describe("what comes along is said aside", () => {
  const index = buildSearchIndex([]);
  test.each([
    ["delete VM 130 including its disks", ["its", "disks"]],
    ["delete VM 130 together with its disks", ["its", "disks"]],
    ["delete VM 130 along with its disks", ["its", "disks"]],
    ["snapshot VM 88 as well as its RAM", ["its", "ram"]],
    ["wipe container 512 and its volumes", ["its", "volumes"]],
    // "and its" after anything but a guest named by its number, or "and" before anything but a
    // possessive, joins what the request is about.
    ["list the OSDs of hv2 and their state", []],
    ["show the zone evpn1 and its vnets", []],
    ["stop VM 7 and VM 8", []],
    ["Delete VM 707 entirely, disks included.", ["disks", "included"]],
    // "included" that closes no clause, or that the request asks about, is no accompaniment.
    ["which disks are included in backup job nightly", []],
    ["disks included in backup job nightly", []],
  ])("%s: %j", (query, aside) => {
    expect(
      tokenize(index, query)
        .tokens.filter((t) => t.aside)
        .map((t) => t.word),
    ).toEqual(aside);
  });
});

describe("a hyphenated compound that opens a request", () => {
  const index = buildSearchIndex([]);
  test.each([
    ["live-migrate VM 330 to pve5", "migrate", true],
    ["force-stop container 200", "stop", true],
    // A tool's name, and a compound that does not open the request, stay names.
    ["apt-get update on pve2", "get", false],
    ["restart pve-firewall now", "firewall", false],
  ])("%s: %s opens it %p", (query, word, verb) => {
    const token = tokenize(index, query).tokens.find((t) => t.word === word)!;
    expect({ clauseStart: token.clauseStart, inName: token.inName === true }).toEqual({
      clauseStart: verb,
      inName: !verb,
    });
  });
});

describe("a question whether something can be done", () => {
  const index = buildSearchIndex([]);
  test.each<[string, boolean]>([
    // The passive, a word of possibility, or what the action must not bring about.
    ["can VM 101 be migrated", true],
    ["can VM 160 be live-migrated to pve3", true],
    ["can I stop OSD 3 safely", true],
    ["can I stop OSD 7 without making placement groups unavailable", true],
    ["can I snapshot VM 119 given its storage", true],
    // A polite request, someone asked to act, a failure told, a way asked.
    ["can I add a second disk to VM 100", false],
    ["can you stop VM 100", false],
    ["can u start VM 100", false],
    ["can someone tell me how to stop VM 100", false],
    ["can't start VM 100, the config is locked", false],
    ["could not connect to pve2", false],
    ["how can I stop VM 100", false],
    ["stop VM 100 if you can", false],
    ["can", false],
  ])("%s: %p", (query, asked) => {
    expect(asksPossibility(tokenize(index, query).tokens)).toBe(asked);
  });
});

describe("a host named by its name alone", () => {
  const index = buildSearchIndex([]);
  test.each([
    ["list the tasks on pve1", true],
    ["syslog from hv-02", true],
    ["block port 8006 on pve3 only", true],
    ["change the DNS servers of pve1", true],
    // Named like a collection of the API, a guest with its number, a device: no host.
    ["list the snapshots of vm-100", false],
    ["the SMART values of nvme0", false],
    // A name that opens the request, or stands right after its first word, names a host too.
    ["reboot pve2", true],
    ["pve3 needs new RAM, move its guests away first", true],
    ["reboot vm100", false],
    // There, only a name that says it is a host's: a guest may be named so too.
    ["reboot srv2", true],
    ["reboot pvenode1", true],
    ["srv-pve-01 needs a reboot", true],
    ["start web01", false],
    ["start web-server-01", false],
    ["show hostnameresolutionconfigurationproblem", false],
    ["web01 is frozen, force it off", false],
    ["group admins2 members", false],
    // A guest run together with its number, a guest's disk or a network device is no host.
    ["list the snapshots of vm100", false],
    ["the size of scsi0", false],
    ["the VLANs on bond0", false],
    // A word the API knows, a name without a number, a name elsewhere not after on/from/at: no host.
    ["list the tasks on the node", false],
    ["free space on tank-nvme", false],
    ["migrate VM 100 to pve2", false],
    // After "node" or "host", unless something goes to it.
    ["stop every guest on node pve5", true],
    ["host hv3 is down", true],
    ["migrate VM 100 to node pve2", false],
    ["move the disks onto host hv4", false],
  ])("%s: %p", (query, host) => {
    expect(hostsByName(query, index).any).toBe(host);
  });

  // A kind of storage numbered names a storage: "pbs1", "nfs-2".
  test.each([
    ["what backups of VM 101 are on pbs1", false, true],
    ["status of node pbs1", true, false],
    ["free space on nfs-2", false, true],
    ["list the tasks on pve1", true, false],
  ])("%s: a host %p, a storage %p", (query, host, storage) => {
    const withStorages = buildSearchIndex([
      {
        method: "POST",
        path: "/storage",
        name: "create",
        description: "Create a new storage.",
        parameters: { type: { type: "string", enum: ["pbs", "nfs", "zfs"] } },
      },
    ] as unknown as Endpoint[]);
    expect(hostsByName(query, withStorages).any).toBe(host);
    expect(tokenize(withStorages, query).namesStorage).toBe(storage);
  });

  // Surely a node: named like one, or after "node" or "host" where the request happens.
  test.each([
    ["start all guests on host hv3", true, true],
    ["the syslog of the node pve4", true, true],
    ["reboot pve2", true, true],
    ["list the tasks on pve1", true, true],
    // "at mail01" may be a mail server's; "host hv3" added to an IP set is a value.
    ["point the smtp target at mail01 port 587", true, false],
    ["add host hv3 to the management ipset", false, false],
    ["allow ssh from host hv3", false, false],
    ["migrate VM 100 to the node pve2", false, false],
  ])("%s: any %p, surely %p", (query, any, surely) => {
    expect(hostsByName(query, index)).toEqual({ any, surely });
  });
});

describe("a particle right after a verb is the verb's", () => {
  test.each([
    [["come", "back", "up"], 1, true],
    [["is", "vm", "up"], 2, false],
    [["back", "up", "vm", "100"], 0, false],
    [["please", "back", "up"], 1, false],
    // Any form of the verb: "comes back up" is no backup either.
    [["vm", "comes", "back", "up"], 2, true],
    // A participle may be an adjective: "the scheduled back up" is a backup.
    [["scheduled", "back", "up"], 1, false],
  ])("%p at %i: %p", (raw, i, expected) => {
    expect(particleOfVerb(raw, i)).toBe(expected);
  });
});

describe("opensWithVerb", () => {
  const index = buildSearchIndex([]);
  test.each([
    ["reserve a static IP", true],
    ["pin VM 105 to specific cores", true],
    ["tear down container 333", true],
    ["bond two NICs together", true],
    ["cluster log of recent events", false],
    ["show the log", false],
    ["which users are logged in", false],
    ["lsblk", false],
    ["a snapshot called test", false],
    // A guest or a node named first is what the words are about.
    ["VM 100 config", false],
    ["node pve1 status", false],
  ])("%s: %p", (query, expected) => {
    expect(opensWithVerb(tokenize(index, query).tokens)).toBe(expected);
  });
});

/** Our own query sets in test/fixtures (the dev sets are in ../shared). */
const FIXTURE_SETS = [
  "search-fresh-tune",
  "search-fresh-sealed",
  "search-fresh2-tune",
  "search-fresh2-sealed",
  "search-fresh3-tune",
  "search-fresh3-sealed",
  "search-fresh4-sealed",
  "search-fresh5-sealed",
  "search-fresh6-sealed",
  "search-fresh7-sealed",
  "search-fresh8-sealed",
  "search-fresh9-sealed",
  "search-fresh10-sealed",
  "search-fresh11-sealed",
  "search-fresh12-sealed",
  "search-fresh13-sealed",
  "search-fresh14-sealed",
  "search-fresh15-sealed",
  "search-fresh16-sealed",
  "search-fresh17-sealed",
  "search-fresh18-sealed",
  "search-fresh19-sealed",
  "search-fresh20-sealed",
  "search-fresh21-sealed",
  "search-fresh22-sealed",
  "search-fresh23-sealed",
  "search-fresh24-sealed",
  "search-fresh27-sealed",
  "search-fresh28-sealed",
  "search-fresh32-sealed",
  "search-fresh38-sealed",
  "search-fresh39-sealed",
  "search-fresh41-sealed",
  "search-fresh46-sealed",
  "search-fresh50-sealed",
  "search-fresh54-sealed",
  "search-fresh56-sealed",
  "search-fresh58-sealed",
  "search-fresh59-sealed",
  "search-fresh60-sealed",
  "search-fresh62-sealed",
  "search-fresh65-sealed",
  "search-fresh66-sealed",
  "search-fresh67-sealed",
];

function querySetFile(name: string): string {
  if (name === "dev-queries") return DEV_QUERIES;
  if (name === "dev-queries-2") return DEV_QUERIES_2;
  return resolve(import.meta.dir, `../fixtures/${name}.json`);
}

/** The floors, set from the figures of the last change to the ranking: [set, with docs, first %, top five %]. */
const FLOORS: [string, boolean, number, number][] = [
  ["dev-queries", false, 98.3, 100],
  ["dev-queries", true, 98.3, 100],
  ["dev-queries-2", true, 88, 98],
  ["search-heldout", true, 93.6, 100],
  // Lowered by one query in the twenty-second round, as were fresh6's and fresh41's top five
  // below: an item no word speaks of steps back (itemUnspoken). "set the SSH key that cloud-init
  // injects" names its VM only through cloud-init; in fresh6, "HA-managed VM 100" names its HA
  // resource only through the guest; in fresh41, a failed start names its task only as "the last
  // attempt". Over the opened sets, 64 queries rose and 12 fell.
  ["search-fresh-tune", true, 86.1, 98.6],
  // Raised in the fourth round (WordNet's verbs, volume names, property-string keys), here and below.
  ["search-fresh-sealed", true, 86.8, 100],
  // The second round's own sets (written before its changes; the sealed half opened at its end).
  // Lowered in the fifth round: the docs' words for shell commands cost it "zpool status" (second, after the scan).
  ["search-fresh2-tune", true, 87.1, 92.9],
  // Raised by the third round's CLI forms (pct status, pveam list local).
  ["search-fresh2-sealed", true, 88.2, 97.6],
  // The third round's own sets (written before its changes; the sealed half opened at its end).
  ["search-fresh3-tune", true, 83.8, 93.2],
  ["search-fresh3-sealed", true, 91.8, 98.6],
  // A second check of the mechanisms the third round dropped (written after its sealed run; all sealed).
  ["search-fresh4-sealed", true, 90.7, 98.1],
  // The fourth round's check (written by a helper who saw neither the code nor the other sets; opened at its end).
  ["search-fresh5-sealed", true, 89.2, 98.3],
  // A second blind check of the fourth round (written like fresh5 by a helper who saw nothing else; opened at its end).
  ["search-fresh6-sealed", true, 90, 96.7],
  // The fourth round's last blind check (written after its other changes; opened at its end).
  ["search-fresh7-sealed", true, 90, 99.2],
  // A last blind check, harder than the others (longer requests), opened before the last changes; the docs'
  // content types cost it one first place ("how full is the backup-nfs storage": the listing before the status).
  // First back to its floor before the twenty-second round (its top five rose, 94.2 to 95): a word
  // the schema says rarely now counts from the docs (RARE_IN_SCHEMA), and the config's docs put it
  // before move_disk for "hand disk scsi2 over from VM 101 to VM 102". 12 queries of the opened
  // sets rose, 2 fell.
  // Top five lowered in the thirty-seventh round by one query ("make sure pruning never deletes the
  // backup vzdump-lxc-101-… on storage nas01", sixth now), traded for a storage named only counting
  // against reads after a helper's read ("add a 32G disk on storage local-lvm to VM 100" first again).
  ["search-fresh8-sealed", true, 82.5, 95.8],
  // The round's last blind check (written after its last change; opened at the end).
  ["search-fresh9-sealed", true, 92.5, 99.2],
  // The fifth round's blind checks: fresh10 written before its first change, fresh11 during it,
  // fresh12 after its last; all opened at its end.
  ["search-fresh10-sealed", true, 87.5, 95.8],
  ["search-fresh11-sealed", true, 90, 96.7],
  // Top five lowered in the thirty-second round by one query ("new guests keep getting MACs
  // starting with BC:24:11", seventh now): startall, which names "all VMs and containers",
  // now names guests and starts ("starting") above the cluster's options.
  ["search-fresh12-sealed", true, 81.7, 96.7],
  // Written after the round's last commit, as a fourth unseen check of it.
  ["search-fresh13-sealed", true, 85.8, 97.5],
  // The sixth round's blind checks: fresh14 written before its first change, fresh15 and fresh16
  // during it; measured at its start and end only, opened at its end.
  ["search-fresh14-sealed", true, 84.2, 93.3],
  ["search-fresh15-sealed", true, 83.3, 95],
  ["search-fresh16-sealed", true, 83.6, 91.8],
  // Written after fresh14-16 were opened, as a blind check of the round's last two changes too.
  // Top five lowered in the fourteenth round by one query ("VM 5120 and the storage nas-backup should
  // belong to the pool prod from now on", sixth now), traded for a modal of what should be asking for
  // a setting (four first places over the opened sets, three on the first reader's queries).
  ["search-fresh17-sealed", true, 90, 99.1],
  // The seventh round's blind checks, written before its first change: measured at its start and
  // after its changes to the schema's marks (neither moved), then opened.
  ["search-fresh18-sealed", true, 81.8, 95.5],
  // Top five lowered in the eleventh round by one query ("let's encrypt validation fails … our
  // domain's DNS is at cloudflare", sixth now), traded for an item's kinds naming it (a backup
  // names a content volume: two first places).
  ["search-fresh19-sealed", true, 79.1, 92.7],
  // Written after the round's changes to the schema's marks; opened after them.
  ["search-fresh20-sealed", true, 89.1, 96.4],
  // Written after fresh18-20 were opened, before the round's changes to phrasing (accompaniment, typos).
  ["search-fresh21-sealed", true, 80, 88.2],
  // Written after the round's changes to phrasing, before its last change; opened after it.
  ["search-fresh22-sealed", true, 94.5, 99.1],
  // Written after the round's last change; measured at its start and end only.
  // Lowered in the ninth round by one query ("… don't appear until someone clicks sync", second
  // then), traded for the negated auxiliary; first again since "added" stems as "add" (tenth round).
  ["search-fresh23-sealed", true, 80, 88.2],
  // The eighth round's first blind check, written at its start: measured there and after its
  // first four changes (neither moved), then opened.
  ["search-fresh24-sealed", true, 81.8, 90],
  // The ninth round's blind checks: fresh27 written at its start, fresh28 soon after; each
  // measured at the start commit (72.7 / 86.4 and 74.5 / 87.3), then opened to find classes.
  ["search-fresh27-sealed", true, 80.9, 90.9],
  // Top five lowered in the tenth round by one query ("create user bob in the pve realm", sixth now),
  // traded for "added" stemming as "add" (three first places); and in the twelfth by one ("a backup
  // task has been hanging for hours …", seventh now), traded for one identity unit per word (a
  // first place and three in the top five over the opened sets).
  ["search-fresh28-sealed", true, 83.6, 90.9],
  // The tenth round's opened check, one of four written at its start: measured at the start
  // commit (67.3 / 80.0), then opened to find classes; the other three stay sealed.
  ["search-fresh32-sealed", true, 79.1, 90],
  // The eleventh round's opened check, one of four written at its start: measured at the start
  // commit (62.7 / 78.2), then opened to find classes; the other three stay sealed.
  ["search-fresh38-sealed", true, 76.4, 84.5],
  // The twelfth round's opened check, one of two written during it: measured at the start commit
  // (75.5 / 84.5), then opened to find classes; fresh40 stays sealed.
  ["search-fresh39-sealed", true, 82.7, 87.3],
  // The thirteenth round's opened check, one of five written during it: measured at the start
  // commit (82.7 / 92.7), then opened to find classes; fresh42-45 stay sealed.
  ["search-fresh41-sealed", true, 87.3, 92.7], // top five lowered (see search-fresh-tune)
  // The fourteenth round's opened check, one of four written at its start: measured at the start
  // commit (80.0 / 91.8), then opened to find classes; fresh47-49 stay sealed.
  ["search-fresh46-sealed", true, 87.3, 95.5],
  // Written near the round's end, after its main rules: measured at the start commit (73.6 / 86.4)
  // and at 2dca5c0 (74.5 / 87.3), then opened; fresh51, written with it, stays sealed.
  ["search-fresh50-sealed", true, 80.9, 91.8],
  // The twenty-eighth round's opened check, written by a helper at its start: measured at the
  // start commit (79.1 / 90.0), then opened to find classes.
  ["search-fresh54-sealed", true, 83.6, 91.8],
  // The thirty-fifth round's opened check, written by a helper at its start in the style of
  // dev-queries-2 with harder plain requests: measured at the start commit (75.5 / 90.9), then
  // opened to find classes.
  ["search-fresh56-sealed", true, 80.9, 95.5],
  // The thirty-sixth round's opened checks, written by helpers at its start: fresh58 in the style
  // of dev-queries-2, fresh59 plain requests only, fresh60 plain requests by ten kinds of writer.
  // Measured at the start commit (83.6 / 96.4, 69.0 / 90.0, 71.0 / 90.0), then opened to find
  // classes; fresh57, written with them, stays sealed.
  ["search-fresh58-sealed", true, 88.2, 98.2],
  ["search-fresh59-sealed", true, 75, 96],
  // Lowered by one query ("review the datacenter-level firewall ruleset", first before), traded for
  // dropping WordNet's ways to look over after a helper's read ("review and apply the pending
  // network changes" read as a GET).
  ["search-fresh60-sealed", true, 77, 94],
  // Written during the round for breadth (100 different endpoints, plain requests): measured at
  // the start commit (68.0 / 89.0) and after the round's first two commits (70.0 / 90.0), then opened.
  ["search-fresh62-sealed", true, 72, 91],
  // The thirty-seventh round's opened checks, written by helpers at its start: fresh65 in the style
  // of dev-queries-2, fresh66 settings that live in one parameter and siblings easy to confuse,
  // fresh67 goals in the operator's own words. Measured at the start commit (88.0 / 97.0, 50.0 /
  // 85.0, 70.0 / 88.2), then opened to find classes; fresh63 and fresh64, written with them, stay sealed.
  ["search-fresh65-sealed", true, 90, 98],
  ["search-fresh66-sealed", true, 52, 85],
  ["search-fresh67-sealed", true, 73.6, 90],
];
