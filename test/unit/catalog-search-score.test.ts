// Issue 11: the score factors, one pure function, rule by rule.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { Catalog } from "../../src/catalog/catalog.ts";
import type { Endpoint } from "../../src/catalog/model.ts";
import {
  AGENT_TWIN,
  agentTwins,
  crossKindTwins,
  scopeTwins,
  isSetter,
  itemKinds,
  itemNames,
  type ItemNames,
  actionKeyTexts,
  mappingUses,
  OWN_TWIN,
  summaryObject,
  takesNode,
  withStandIns,
} from "../../src/catalog/search-facts.ts";
import {
  FACTOR,
  factorCeiling,
  scoreFactor,
  type EndpointFacts,
  type QueryFacts,
} from "../../src/catalog/search-score.ts";
import { itemSpokenOf } from "../../src/catalog/search-rank.ts";
import { StemCache } from "../../src/catalog/stem.ts";
import { keyOf } from "../../src/catalog/search-index-facts.ts";
import { haveSharedData, SCHEMA_FILES } from "../support/shared.ts";

/** The PVE 9.1 catalog, parsed once for the tests that read the real schema. */
let parsed91: Catalog | undefined;
const real91 = () =>
  (parsed91 ??= Catalog.fromText(readFileSync(SCHEMA_FILES["9.1"].file, "utf8"), { kind: "inline", location: "9.1" }));

const endpoint = (over: Partial<EndpointFacts> = {}): EndpointFacts => ({
  method: "GET",
  guestKind: 0,
  oneGuest: false,
  takesGuests: false,
  item: false,
  collectionOf: undefined,
  navigation: false,
  websocket: false,
  identityMiss: 0,
  scope: "other",
  bulk: false,
  agentTwin: false,
  createsGuest: false,
  ...over,
});
const query = (over: Partial<QueryFacts> = {}): QueryFacts => ({
  method: undefined,
  methodStated: false,
  guest: "none",
  oneItem: true,
  named: new Set(),
  asksForAll: false,
  namesGuest: false,
  namesNode: false,
  namesCluster: false,
  namesAgent: false,
  question: false,
  guestIsPlace: false,
  ...over,
});

describe("scoreFactor", () => {
  test.each<[string, Partial<EndpointFacts>, Partial<QueryFacts>, number]>([
    ["nothing applies", {}, {}, 1],
    ["a stated method that matches", { method: "POST" }, { method: "POST", methodStated: true }, FACTOR.statedMethod],
    ["an assumed method that matches", { method: "GET" }, { method: "GET" }, FACTOR.assumedMethod],
    [
      "PUT for a stated POST: both are writes",
      { method: "PUT" },
      { method: "POST", methodStated: true },
      FACTOR.otherWrite,
    ],
    ["a directory index", { navigation: true }, {}, FACTOR.navigation],
    ["half the naming words not asked for", { identityMiss: 0.5 }, {}, 1 - FACTOR.identityMiss * 0.5],
    ["a websocket upgrade", { websocket: true }, {}, FACTOR.websocket],
    ["one item of a list when nothing names one", { item: true }, { oneItem: false }, FACTOR.itemUnasked],
    // "every rule of the host firewall on pve2": the value names the node, "every" asks for the list.
    [
      "one item of a list when all are asked for",
      { item: true },
      { oneItem: true, asksForAll: true },
      FACTOR.itemUnasked,
    ],
    ["one item of a list when a value names one", { item: true }, { oneItem: true }, 1],
    // "mark storage nfs1 as shared": storage nfs1 exists; "create storage nfs1" makes it.
    [
      "creating what the query names by name",
      { creates: "storag" },
      { named: new Set(["storag"]), namedByName: new Set(["storag"]) },
      FACTOR.createInExisting,
    ],
    [
      "creating it with a verb that creates",
      { creates: "storag" },
      { named: new Set(["storag"]), namedByName: new Set(["storag"]), createVerb: true },
      1,
    ],
    // "pct snapshot 105": a number after the word may be a command's guest, not a snapshot's name.
    ["creating what the query names by number only", { creates: "snapshot" }, { named: new Set(["snapshot"]) }, 1],
    [
      "creating a guest the query names by number",
      { createsGuest: true },
      { namesGuest: true },
      FACTOR.createInExisting,
    ],
    [
      "the list when the query names one of its items",
      { collectionOf: "role" },
      { named: new Set(["role"]) },
      FACTOR.collectionForOne,
    ],
    ["the list when the name is of something else", { collectionOf: "snapshot" }, { named: new Set(["vm"]) }, 1],
    ["a node-wide endpoint when one guest is named", {}, { guest: "qemu", namesGuest: true }, FACTOR.notTheGuest],
    ["an endpoint that takes the guest named by its ID", { takesGuests: true }, { guest: "qemu", namesGuest: true }, 1],
    [
      "creating a guest, whose vmid is the new one's",
      { takesGuests: true, createsGuest: true, method: "POST" },
      { guest: "qemu", namesGuest: true },
      FACTOR.notTheGuest * FACTOR.createInExisting,
    ],
    ["a container endpoint for a VM", { guestKind: 2, oneGuest: true }, { guest: "qemu" }, FACTOR.otherGuest],
    ["a VM endpoint when no guest is asked", { guestKind: 1 }, { guest: "none" }, FACTOR.unaskedGuest],
    ["a VM endpoint when the node is asked", { guestKind: 1 }, { guest: "none", namesNode: true }, FACTOR.nodeNotGuest],
    ["the container twin when either will do", { guestKind: 2 }, { guest: "any" }, FACTOR.eitherGuestLxc],
    [
      "a VM endpoint when both kinds are named",
      { guestKind: 1 },
      { guest: "any", bothKinds: true },
      FACTOR.oneKindForBoth,
    ],
    [
      "a container endpoint when both kinds are named",
      { guestKind: 2 },
      { guest: "any", bothKinds: true },
      FACTOR.eitherGuestLxc * FACTOR.oneKindForBoth,
    ],
    ["an endpoint of no kind when both kinds are named", { guestKind: 0 }, { guest: "any", bothKinds: true }, 1],
    [
      "a guest's power action when the verb acts on something else",
      { powerAction: true },
      { verbOnOther: true },
      FACTOR.powerActionOnOther,
    ],
    ["a guest's power action when the verb acts on a guest", { powerAction: true }, { verbOnOther: false }, 1],
    ["a node endpoint when the cluster is asked", { scope: "node" }, { namesCluster: true }, FACTOR.otherScope],
    ["a cluster endpoint when the node is asked", { scope: "cluster" }, { namesNode: true }, FACTOR.otherScope],
    [
      "a node endpoint when all of something across the cluster is asked",
      { scope: "node" },
      { namesCluster: true, asksForAll: true },
      FACTOR.nodeForWholeCluster,
    ],
    [
      "a cluster endpoint when all of something on a node is asked",
      { scope: "cluster" },
      { namesNode: true, asksForAll: true },
      FACTOR.otherScope,
    ],
    ["both scopes named: neither preferred", { scope: "cluster" }, { namesNode: true, namesCluster: true }, 1],
    ["every guest at once, not asked for", { bulk: true }, { asksForAll: false }, FACTOR.bulkUnasked],
    ["every guest at once, asked for", { bulk: true }, { asksForAll: true }, 1],
    ["one guest, when all are asked for", { oneGuest: true }, { asksForAll: true }, FACTOR.oneGuestForAll],
    ["one guest, all asked for but one named", { oneGuest: true }, { asksForAll: true, namesGuest: true }, 1],
    ["the agent's twin of a guest action", { agentTwin: true }, {}, FACTOR.agentUnasked],
    ["the agent's twin, the agent named", { agentTwin: true }, { namesAgent: true }, 1],
    ["the guest's own action, the agent named", { ownTwin: true }, { namesAgent: true }, FACTOR.ownActionForAgent],
    ["the guest's own action, the agent not named", { ownTwin: true }, { namesAgent: false }, 1],
    ["an agent command, no guest named", { agentCommand: true }, { guest: "none" }, FACTOR.agentWithoutGuest],
    ["an agent command, a guest named", { agentCommand: true }, { guest: "qemu" }, 1],
    ["an agent command, the agent named", { agentCommand: true }, { guest: "none", namesAgent: true }, 1],
    ["a write for a question", { method: "POST" }, { method: "GET", question: true }, FACTOR.writeForQuestion],
    [
      "creating a guest in an existing one",
      { createsGuest: true },
      { guestIsPlace: true, createVerb: true },
      FACTOR.createInExisting,
    ],
    ["creating a guest when no verb of creation is said", { createsGuest: true }, {}, FACTOR.guestNotCreated],
    ["creating a guest when creating is said", { createsGuest: true }, { createVerb: true }, 1],
    ["a read for a stated delete", { method: "GET" }, { method: "DELETE", methodStated: true }, FACTOR.readForWrite],
    ["a read for an assumed write: no verb said it", { method: "GET" }, { method: "POST" }, 1],
    ["a write for a verb of no known method", { method: "DELETE" }, { acts: true }, FACTOR.unknownAction],
    ["a read for a verb of no known method", { method: "GET" }, { acts: true }, 1],
    [
      "creating a group when something is added to a group",
      { method: "POST", creates: "group" },
      { places: new Set(["group"]) },
      FACTOR.createInExisting,
    ],
    ["creating a group when it goes to a pool", { method: "POST", creates: "group" }, { places: new Set(["pool"]) }, 1],
    // "list the files inside a PBS backup": the backups are where the files are, not what is listed.
    [
      "the list of the kind of object the things asked for are in",
      { method: "GET", collectionOf: "backup" },
      { holders: new Set(["backup"]) },
      FACTOR.listOfPlace,
    ],
    [
      "the list of another kind of object",
      { method: "GET", collectionOf: "storag" },
      { holders: new Set(["backup"]) },
      1,
    ],
    ["a write to that kind of object", { method: "PUT", collectionOf: "backup" }, { holders: new Set(["backup"]) }, 1],
    // "how much space is left on each storage": a place, but all of them are asked about.
    [
      "the list of a kind named as a place, not as a holder",
      { method: "GET", collectionOf: "storag" },
      { places: new Set(["storag"]) },
      1,
    ],
    ["nowhere to put a value typed", { missesValue: true }, {}, FACTOR.missesValue],
    ["the action a causative's verb names", { doesCausedVerb: true }, {}, FACTOR.causedAction],
    ["the action the request keeps from happening", { doesPrevented: true }, {}, FACTOR.preventedAction],
    ["the reverse of the action asked", { undoesVerb: true }, {}, FACTOR.reversedAction],
    ["a directory index that lists a better answer", { listsBetter: true }, {}, FACTOR.navigation],
    ["what a subordinate clause says", { doesSubordinate: true }, {}, FACTOR.subordinateAction],
    [
      "deleting a guest the query takes out of something",
      { method: "DELETE", item: true, itemOf: "qemu" },
      { staying: new Set(["qemu"]) },
      FACTOR.deletesWhatStays,
    ],
    ["deleting a guest", { method: "DELETE", item: true, itemOf: "qemu" }, {}, 1],
    [
      "deleting an item the query takes out of something",
      { method: "DELETE", item: true, itemOf: "user" },
      { staying: new Set(["user"]) },
      FACTOR.deletesWhatStays,
    ],
    // "create a user alice@pve": alice's account is to be made.
    [
      "an item of what the query creates",
      { method: "PUT", item: true, itemOf: "user" },
      { createVerb: true, created: new Set(["user"]) },
      FACTOR.itemNotYet,
    ],
    [
      "a POST that makes the item at its own path",
      { method: "POST", item: true, itemOf: "server" },
      { createVerb: true, created: new Set(["server"]) },
      1,
    ],
    [
      "an item of what is created, added to something that exists",
      { method: "PUT", item: true, itemOf: "user" },
      { createVerb: true, created: new Set(["user"]), places: new Set(["group"]) },
      1,
    ],
    ["a picture, data asked for", { returnsImage: true }, {}, FACTOR.imageUnasked],
    ["one subsystem named and not matched", { subsystemsMissed: 1 }, {}, FACTOR.otherSubsystem],
    ["two subsystems named and not matched", { subsystemsMissed: 2 }, {}, FACTOR.otherSubsystem ** 2],
    ["every subsystem named is matched", { subsystemsMissed: 0 }, {}, 1],
    [
      "one item, its list asked for in the plural",
      { item: true, itemOf: "plugin" },
      { oneItem: true, listsAsked: new Set(["plugin"]) },
      FACTOR.itemForList,
    ],
    [
      "below one item, its list asked for in the plural",
      { item: false, itemOf: "task" },
      { oneItem: false, listsAsked: new Set(["task"]) },
      FACTOR.itemForList,
    ],
    [
      "one object's item, what its key names asked for in the plural (which users have 2FA)",
      { item: true, itemOf: "tfa", keyOf: "user" },
      { oneItem: true, listsAsked: new Set(["user"]) },
      FACTOR.itemForList,
    ],
    [
      "one item, another list asked for",
      { item: true, itemOf: "plugin" },
      { oneItem: true, listsAsked: new Set(["rule"]) },
      1,
    ],
    ["a picture, a graph asked for", { returnsImage: true }, { asksImage: true }, 1],
    ["a place for every value typed (or none typed)", { missesValue: false }, {}, 1],
    // "shut down all guests on node pve2": a host's name is a value the endpoint must take.
    ["a node named, nowhere to put it", { takesNode: false }, { nodeByName: true }, FACTOR.nodeNowhere],
    ["a node named, a place for it", { takesNode: true }, { nodeByName: true }, 1],
    // "list all backups on storage pbs01": not the backup jobs, which take no storage.
    [
      "a storage named in a read, nowhere to put it",
      { takesStorage: false },
      { storageByName: true, method: "GET" },
      FACTOR.storageNowhere * FACTOR.assumedMethod,
    ],
    [
      "a storage named in a read, a place for it",
      { takesStorage: true },
      { storageByName: true, method: "GET" },
      FACTOR.assumedMethod,
    ],
    [
      "a storage named in a write, no parameter for it",
      { takesStorage: false },
      { storageByName: true, method: "POST" },
      1,
    ],
    // "every VM and container in the cluster with their node and status": no backup job is spoken of.
    ["below an item the query never speaks of", { itemUnspoken: true }, {}, FACTOR.itemUnspoken],
    ["below an item the query speaks of", { itemUnspoken: false }, {}, 1],
    // "display each snapshot of CT 240": the list is read, not one more snapshot made.
    [
      "adding to a list the query reads",
      { method: "POST", creates: "snapshot" },
      { method: "GET", methodStated: true, listsAsked: new Set(["snapshot"]) },
      FACTOR.createForList,
    ],
    [
      "adding to a list, the read only assumed",
      { method: "POST", creates: "snapshot" },
      { method: "GET", listsAsked: new Set(["snapshot"]) },
      1,
    ],
    [
      'adding to a list, creating said ("show me how to create snapshots")',
      { method: "POST", creates: "snapshot" },
      { method: "GET", methodStated: true, listsAsked: new Set(["snapshot"]), createSaid: true },
      1,
    ],
    ["a node named and the cluster too", { takesNode: false }, { nodeByName: true, namesCluster: true }, 1],
    [
      "the node only by its word",
      { scope: "cluster", takesNode: false },
      { nodeByName: false, namesNode: true },
      FACTOR.otherScope,
    ],
    ["a node named, the endpoint unknown", {}, { nodeByName: true }, 1],
    // An index steps back, unless what it indexes is asked for in the plural ("the guest agent commands").
    ["a directory index", { navigation: true }, {}, FACTOR.navigation],
    [
      "an index of what is asked in the plural",
      { navigation: true, indexes: "command" },
      { plurals: new Set(["command"]) },
      1,
    ],
    [
      "an index of something else",
      { navigation: true, indexes: "command" },
      { plurals: new Set(["disk"]) },
      FACTOR.navigation,
    ],
  ])("%s", (_name, e, q, expected) => {
    expect(scoreFactor(endpoint(e), query(q))).toBeCloseTo(expected, 10);
  });

  test("factors multiply", () => {
    const f = scoreFactor(
      endpoint({ method: "POST", bulk: true, scope: "node" }),
      query({ method: "POST", methodStated: true, namesCluster: true }),
    );
    expect(f).toBeCloseTo(FACTOR.statedMethod * FACTOR.otherScope * FACTOR.bulkUnasked, 10);
  });
});

describe("factorCeiling: no endpoint's factors exceed its own ceiling", () => {
  // A seeded generator, so a failure repeats.
  let seed = 20261201;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  // Mostly false: each fact that holds tends to lower the product, and the test is of the highest.
  const bool = () => random() < 0.15;
  const stems = new Set(["snapshot", "user"]);
  const methods = ["GET", "POST", "PUT", "DELETE"] as const;

  test("over 20,000 random endpoints and queries, the product stays at or below the ceiling", () => {
    let highest = 0;
    let reached = 0;
    const above: string[] = [];
    for (let k = 0; k < 20_000; k++) {
      const e: EndpointFacts = {
        method: pick(methods),
        guestKind: pick([0, 1, 2]),
        oneGuest: bool(),
        takesGuests: bool(),
        item: bool(),
        collectionOf: pick([undefined, "snapshot"]),
        navigation: bool(),
        websocket: bool(),
        identityMiss: pick([0, 0.5, 1]),
        scope: pick(["cluster", "node", "other"] as const),
        bulk: bool(),
        agentTwin: bool(),
        ownTwin: bool(),
        agentCommand: bool(),
        powerAction: bool(),
        createsGuest: bool(),
        creates: pick([undefined, "snapshot"]),
        missesValue: bool(),
        doesCausedVerb: bool(),
        listsBetter: bool(),
        doesPrevented: bool(),
        undoesVerb: bool(),
        itemOf: pick([undefined, "user"]),
        itemUnspoken: bool(),
        doesSubordinate: bool(),
        returnsImage: bool(),
        takesNode: pick([undefined, false, true]),
      };
      const q: QueryFacts = {
        method: pick([undefined, ...methods]),
        methodStated: bool(),
        guest: pick(["qemu", "lxc", "any", "none"] as const),
        verbOnOther: bool(),
        bothKinds: bool(),
        oneItem: bool(),
        named: pick([new Set<string>(), stems]),
        namedByName: pick([new Set<string>(), stems]),
        namesGuest: bool(),
        namesNode: bool(),
        namesCluster: bool(),
        asksForAll: bool(),
        namesAgent: bool(),
        acts: bool(),
        question: bool(),
        guestIsPlace: bool(),
        places: pick([new Set<string>(), stems]),
        definite: pick([new Set<string>(), stems]),
        createVerb: bool(),
        listsAsked: pick([new Set<string>(), stems]),
        asksImage: bool(),
        staying: pick([new Set<string>(), stems]),
        nodeByName: bool(),
      };
      const f = scoreFactor(e, q);
      highest = Math.max(highest, f);
      const ceiling = factorCeiling(e.method, q);
      if (f > ceiling)
        above.push(`${e.method} for ${JSON.stringify({ ...q, named: [...q.named] })}: ${f} > ${ceiling}`);
      if (f === ceiling && ceiling > 1) reached++;
    }
    expect(highest).toBeGreaterThan(1);
    // Each endpoint's own bound holds, and is met where nothing lowers the product.
    expect(above).toEqual([]);
    expect(reached).toBeGreaterThan(0);
  });

  test("the only factors above 1 are the method's and an unknown action's: the ceiling counts each", () => {
    const above = Object.entries(FACTOR)
      .filter(([, f]) => f > 1)
      .map(([name]) => name)
      .sort();
    expect(above).toEqual(["assumedMethod", "otherWrite", "statedMethod", "unknownAction"]);
  });

  test.each([
    // [endpoint's method, query's method, stated, acts, ceiling]
    ["GET", "GET", true, false, FACTOR.statedMethod],
    ["GET", "GET", false, true, FACTOR.assumedMethod],
    ["GET", "POST", true, true, 1],
    ["PUT", "POST", true, false, FACTOR.otherWrite],
    ["PUT", "POST", false, false, 1],
    ["DELETE", "POST", true, true, FACTOR.unknownAction],
    ["POST", "POST", true, true, FACTOR.statedMethod * FACTOR.unknownAction],
    ["POST", undefined, false, false, 1],
  ] as const)(
    "factorCeiling: a %s for a query of %s (stated %p, acts %p) is bound by %p",
    (method, asked, stated, acts, ceiling) => {
      expect(factorCeiling(method, query({ method: asked, methodStated: stated, acts }))).toBeCloseTo(ceiling, 12);
    },
  );

  test("a stated method and an unknown action at once reach it: the bound is no looser than it says", () => {
    const q = query({ method: "POST", methodStated: true, acts: true });
    const f = scoreFactor(endpoint({ method: "POST" }), q);
    expect(f).toBe(FACTOR.statedMethod * FACTOR.unknownAction);
    expect(f).toBe(factorCeiling("POST", q));
  });
});

describe("isSetter: which writes set something a parameter can name", () => {
  const endpoint = (method: string, name: string, description: string) =>
    ({ method, name, description, parameters: {} }) as unknown as Endpoint;
  test.each([
    ["PUT", "update_vm", "Set virtual machine options.", true],
    ["POST", "create_vm", "Create or restore a virtual machine.", true],
    ["POST", "add_tfa_entry", "Add a TFA entry for a user.", true],
    // The handler's name does not say it; the description does.
    ["POST", "ipcreate", "Create IP Mapping in a VNet", true],
    ["POST", "vm_start", "Start virtual machine.", false],
    ["POST", "migrate_vm", "Migrate virtual machine. Creates a new migration task.", false],
    ["GET", "vmconfig", "Get the virtual machine configuration.", false],
  ])("%s %s (%s): %p", (method, name, description, setter) => {
    expect(isSetter(endpoint(method, name, description))).toBe(setter);
  });
});

describe("agentTwins: a guest-agent command and the guest's own action it is named like", () => {
  test("agent/shutdown and agent/suspend-ram are twins of status/shutdown and status/suspend; agent/ping has none", () => {
    const paths = [
      "/nodes/{node}/qemu/{vmid}/agent/shutdown",
      "/nodes/{node}/qemu/{vmid}/status/shutdown",
      "/nodes/{node}/qemu/{vmid}/agent/suspend-ram",
      "/nodes/{node}/qemu/{vmid}/status/suspend",
      "/nodes/{node}/qemu/{vmid}/agent/ping",
      "/nodes/{node}/qemu/{vmid}/status/start",
    ];
    const endpoints = paths.map((path) => ({ method: "POST", path, name: "x", description: "", parameters: {} }));
    expect([...agentTwins(endpoints as unknown as Endpoint[])]).toEqual([
      AGENT_TWIN,
      OWN_TWIN,
      AGENT_TWIN,
      OWN_TWIN,
      0,
      0,
    ]);
  });
});

describe("crossKindTwins: one answer for the two kinds of guest under two names", () => {
  const endpoints = (specs: [string, string][]) =>
    specs.map(([method, path]) => ({
      method,
      path,
      name: "x",
      description: "",
      parameters: {},
    })) as unknown as Endpoint[];

  test("a container's interfaces and a VM agent's network-get-interfaces; not what has a twin of its own path", () => {
    const list = endpoints([
      ["GET", "/nodes/{node}/lxc/{vmid}/interfaces"],
      ["GET", "/nodes/{node}/qemu/{vmid}/agent/network-get-interfaces"],
      ["POST", "/nodes/{node}/qemu/{vmid}/agent/network-get-interfaces"],
      ["GET", "/nodes/{node}/lxc/{vmid}/status/current"],
      ["GET", "/nodes/{node}/qemu/{vmid}/status/current"],
      ["GET", "/nodes/{node}/qemu/{vmid}/agent/get-current"],
    ]);
    expect(crossKindTwins(list)).toEqual([[0, 1]]);
  });

  test.skipIf(!haveSharedData("cross-kind twins", SCHEMA_FILES["9.1"].file))("PVE 9.1 has that one pair", () => {
    const catalog = real91();
    const pairs = crossKindTwins(catalog.endpoints).map((pair) =>
      pair.map((id) => `${catalog.endpoints[id]!.method} ${catalog.endpoints[id]!.path}`),
    );
    expect(pairs).toEqual([
      ["GET /nodes/{node}/qemu/{vmid}/agent/network-get-interfaces", "GET /nodes/{node}/lxc/{vmid}/interfaces"],
    ]);
  });
});

describe("scopeTwins: one action for the cluster and for one node under two names", () => {
  const options = (...names: string[]) =>
    Object.fromEntries(
      names.map((n) => [n, { type: "string", description: n.startsWith("old") ? "Deprecated, use 'x'." : n }]),
    );
  const endpoint = (method: string, path: string, parameters: Record<string, unknown>) =>
    ({ method, path, name: "x", description: "", parameters }) as unknown as Endpoint;

  test("nearly the same options, another name, each the other's closest; no collection's POST", () => {
    const list = [
      endpoint("POST", "/cluster/bulk/halt", options("vms", "timeout", "force-stop", "workers", "oldworkers")),
      endpoint("POST", "/nodes/{node}/haltall", options("node", "vms", "timeout", "force-stop", "workers")),
      // The same last segment: the words already find it.
      endpoint("POST", "/nodes/{node}/halt", options("node", "vms", "timeout", "force-stop", "workers")),
      // Half the options only.
      endpoint("POST", "/nodes/{node}/pauseall", options("node", "vms", "to-disk", "state")),
      // Another method.
      endpoint("PUT", "/nodes/{node}/stopper", options("node", "vms", "timeout", "force-stop", "workers")),
      // Three of haltall's four options, with a deprecated one that would make it a fifth:
      // close enough, but haltall is closer to the cluster's halt.
      endpoint("POST", "/cluster/bulk/boot", options("vms", "timeout", "workers", "oldworkers")),
      // A POST that makes an item of /cluster/jobs, and a node action with its options.
      endpoint("POST", "/cluster/jobs", options("vms", "mode", "storage")),
      endpoint("GET", "/cluster/jobs/{id}", options("id")),
      endpoint("POST", "/nodes/{node}/dump", options("node", "vms", "mode", "storage")),
    ];
    expect(scopeTwins(list)).toEqual([[0, 1]]);
  });

  test("options the schema deprecates are not counted", () => {
    const list = [
      endpoint("POST", "/cluster/bulk/wake", options("vms", "timeout", "workers", "oldworkers", "oldtimeout")),
      endpoint("POST", "/nodes/{node}/wakeall", options("node", "vms", "timeout", "workers")),
    ];
    expect(scopeTwins(list)).toEqual([[0, 1]]);
  });

  test.skipIf(!haveSharedData("scope twins", SCHEMA_FILES["9.1"].file))(
    "PVE 9.1: the bulk shutdown and migration",
    () => {
      const catalog = real91();
      const pairs = scopeTwins(catalog.endpoints).map((pair) =>
        pair.map((id) => `${catalog.endpoints[id]!.method} ${catalog.endpoints[id]!.path}`),
      );
      expect(pairs).toEqual([
        ["POST /cluster/bulk-action/guest/shutdown", "POST /nodes/{node}/stopall"],
        ["POST /cluster/bulk-action/guest/migrate", "POST /nodes/{node}/migrateall"],
      ]);
    },
  );
});

describe("itemKinds: an item of a list filtered by kind is of one of those kinds", () => {
  const endpoint = (method: string, path: string, parameters: Record<string, unknown> = {}) =>
    ({ method, path, name: "x", description: "", parameters }) as unknown as Endpoint;

  test("the schema's enum and the docs' values of the list's kind filter, for every method of an item", () => {
    const list = [
      endpoint("GET", "/storage", {
        type: { description: "Only list storage of specific type", enum: ["nfs", "dir"] },
      }),
      endpoint("PUT", "/storage/{storage}"),
      endpoint("GET", "/nodes/{node}/storage/{storage}/content", {
        content: { description: "Only list content of this type." },
      }),
      endpoint("PUT", "/nodes/{node}/storage/{storage}/content/{volume}"),
      // A filter by what an item holds is no kind of the item.
      endpoint("GET", "/nodes/{node}/storage", {
        content: { description: "Only list stores which support this content type.", enum: ["iso"] },
      }),
      endpoint("GET", "/nodes/{node}/storage/{storage}"),
      endpoint("GET", "/storage/{storage}/other"),
    ];
    const docsValues = [[], [], ["backup", "iso"], [], ["iso"], [], []];
    const kinds = itemKinds(list, docsValues);
    expect(kinds.item).toEqual([[], ["nfs", "dir"], [], ["backup", "iso"], [], [], []]);
    // The GET lists themselves filter by those kinds.
    expect(kinds.list).toEqual([["nfs", "dir"], [], ["backup", "iso"], [], [], [], []]);
  });
});

describe("mappingUses: a cluster-wide mapping in the words of the guest setting that uses it", () => {
  const endpoint = (method: string, path: string, parameters: Record<string, unknown> = {}) =>
    ({ method, path, name: "x", description: "", parameters }) as unknown as Endpoint;
  const endpoints = [
    endpoint("GET", "/cluster/mapping/dir"),
    endpoint("PUT", "/cluster/mapping/dir/{id}"),
    endpoint("POST", "/cluster/mapping/usb"),
    endpoint("POST", "/cluster/mapping/pci"),
    endpoint("PUT", "/nodes/{node}/qemu/{vmid}/config", {
      "virtiofs[n]": {
        type: "string",
        description: "Configuration for sharing a directory between host and guest using Virtio-fs.",
        format: {
          dirid: {
            type: "string",
            format_description: "mapping-id",
            description: "Mapping identifier of the directory mapping to be shared with the guest.",
          },
        },
      },
      "usb[n]": {
        type: "string",
        description: "Configure an USB device.",
        format: {
          mapping: {
            type: "string",
            format_description: "mapping-id",
            description: "The ID of a cluster wide mapping.",
          },
        },
      },
      "serial[n]": { type: "string", description: "Create a serial device inside the VM." },
    }),
  ];

  test("the kind its key names (a directory mapping is dir), else the setting's own name (usb)", () => {
    const uses = mappingUses(endpoints);
    const virtiofs = ["virtiofs", "Configuration for sharing a directory between host and guest using Virtio-fs."];
    expect(uses[0]).toEqual(virtiofs);
    expect(uses[1]).toEqual(virtiofs);
    expect(uses[2]).toEqual(["usb", "Configure an USB device."]);
    expect(uses[3]).toEqual([]);
    expect(uses[4]).toEqual([]);
  });
});

describe("keyOf: what an item's last placeholder names, when the API lists such objects", () => {
  const collections = new Set(["user", "pool", "realm", "node"]);
  test.each<[string, string | undefined]>([
    ["/access/tfa/{userid}", "user"],
    ["/pools/{poolid}", "pool"],
    ["/access/domains/{realm}", "realm"],
    ["/cluster/config/nodes/{node}", "node"],
    // A name, an ID or a position names no kind of object; "s" of {sid} and "up" of {upid} are
    // no list; a path that is no item has no key.
    ["/cluster/backup/{id}", undefined],
    ["/cluster/firewall/rules/{pos}", undefined],
    ["/nodes/{node}/ceph/pool/{name}", undefined],
    ["/cluster/ha/resources/{sid}", undefined],
    ["/nodes/{node}/tasks/{upid}", undefined],
    ["/access/tfa", undefined],
  ])("%s: %p", (path, key) => {
    expect(keyOf(path, new StemCache(new Map()), collections)).toBe(key);
  });
});

describe("actionKeyTexts: a setting's key named by an action's words says what the action does", () => {
  const endpoint = (method: string, path: string, parameters: Record<string, unknown> = {}) =>
    ({ method, path, name: "x", description: "", parameters }) as unknown as Endpoint;
  const freeze = "Freeze guest filesystems through QGA for consistent disk state on operations such as snapshots.";
  const endpoints = [
    endpoint("PUT", "/nodes/{node}/qemu/{vmid}/config", {
      agent: {
        type: "string",
        description: "Enable/disable communication with the QEMU Guest Agent and its properties.",
        format: {
          "freeze-fs": { type: "boolean", description: freeze },
          fstrim_cloned_disks: { type: "boolean", description: "Run fstrim after moving a disk or migrating the VM." },
          type: { type: "string", description: "Select the agent type" },
        },
      },
    }),
    endpoint("POST", "/nodes/{node}/qemu/{vmid}/agent/fsfreeze-freeze"),
    endpoint("POST", "/nodes/{node}/qemu/{vmid}/agent/fsfreeze-thaw"),
    endpoint("POST", "/nodes/{node}/qemu/{vmid}/agent/fstrim"),
    endpoint("GET", "/nodes/{node}/qemu/{vmid}/agent/{command}"),
  ];

  test("fsfreeze-freeze freezes as freeze-fs says; thawing is another action, fstrim no key's every word", () => {
    expect(actionKeyTexts(endpoints)).toEqual([[], [freeze], [], [], []]);
  });
});

describe("summaryObject: what a read's summary says it returns", () => {
  test.each<[string, string[]]>([
    ["Get IP addresses of the specified container interface.", ["ip", "address"]],
    ["List available updates.", ["avail", "updat"]],
    ["Read VM configuration.", ["vm", "configur"]],
    ["Get the virtual machine configuration with both current and pending values.", ["virtual", "machin", "configur"]],
    // Another shape says nothing of what comes back.
    ["Execute network-get-interfaces.", []],
    ["Create a new matcher", []],
  ])("%s", (summary, object) => {
    expect(summaryObject(summary, new Map())).toEqual(object);
  });
});

describe("withStandIns: more words that stand for each naming unit", () => {
  test.each<[string[][], string[], string[][]]>([
    [
      [["network"], ["interfac"]],
      ["ip", "address"],
      [
        ["network", "ip", "address"],
        ["interfac", "ip", "address"],
      ],
    ],
    // A word already in the unit is not repeated.
    [[["ip"]], ["ip", "address"], [["ip", "address"]]],
    [[["statu"]], [], [["statu"]]],
  ])("%j with %j", (units, standIns, out) => {
    expect(withStandIns(units, standIns)).toEqual(out);
  });
});

describe("takesNode: a node's name has a place in it", () => {
  const endpoint = (path: string, parameters: Record<string, unknown> = {}, returns: unknown = {}) =>
    ({ method: "GET", path, parameters, returns }) as unknown as Endpoint;
  test.each([
    ["its path's node", endpoint("/nodes/{node}/dns"), true],
    ["a parameter of a node's name", endpoint("/cluster/replication", { target: { format: "pve-node" } }), true],
    ["a list of nodes", endpoint("/storage", { nodes: { format: "pve-node-list" } }), true],
    ["HA's list of nodes", endpoint("/cluster/ha/rules", { nodes: { format: "pve-ha-node-list" } }), true],
    ["items that say their node", endpoint("/nodes", {}, { type: "array", items: { properties: { node: {} } } }), true],
    [
      "a name beside a type that may be a node",
      endpoint(
        "/cluster/status",
        {},
        { items: { properties: { name: { type: "string" }, type: { enum: ["cluster", "node"] } } } },
      ),
      true,
    ],
    [
      "a node's number is no name",
      endpoint("/cluster/x", {}, { items: { properties: { nodeid: { type: "integer" } } } }),
      false,
    ],
    ["a count of nodes is none", endpoint("/cluster/x", {}, { properties: { nodes: { type: "integer" } } }), false],
    [
      "a key of a property string",
      endpoint("/cluster/mapping/usb", { map: { format: { node: { format: "pve-node" } } } }),
      true,
    ],
    ["a list of nodes by its name", endpoint("/cluster/metrics/export", { "node-list": { type: "string" } }), true],
    ["a string that only mentions nodes", endpoint("/cluster/options", { description: { type: "string" } }), false],
    ["no node anywhere", endpoint("/cluster/bulk-action/guest/shutdown", { vms: { format: "pve-vmid-list" } }), false],
    ["a field named like a node but longer", endpoint("/cluster/x", {}, { properties: { nodename_hint: {} } }), false],
  ])("%s", (_name, e, expected) => {
    expect(takesNode(e)).toBe(expected);
  });

  test.skipIf(!haveSharedData("takesNode on the real schema", SCHEMA_FILES["9.1"].file))(
    "PVE 9.1: the cluster's bulk actions take no node but their migration's target; the lists of nodes do",
    () => {
      const catalog = real91();
      const takes = (method: string, path: string) => takesNode(catalog.endpoint(method, path)!);
      expect(takes("POST", "/cluster/bulk-action/guest/shutdown")).toBe(false);
      expect(takes("POST", "/cluster/bulk-action/guest/start")).toBe(false);
      expect(takes("POST", "/cluster/bulk-action/guest/migrate")).toBe(true);
      expect(takes("GET", "/nodes")).toBe(true);
      expect(takes("GET", "/cluster/resources")).toBe(true);
      expect(takes("GET", "/cluster/status")).toBe(true);
      expect(takes("PUT", "/cluster/options")).toBe(false);
      expect(takes("POST", "/nodes/{node}/stopall")).toBe(true);
    },
  );
});

describe("itemNames: how an endpoint's item may be named", () => {
  const endpoint = (path: string, parameters: Record<string, unknown> = {}) =>
    ({ method: "POST", path, parameters, returns: {} }) as unknown as Endpoint;
  // The words of the paths: "cluster" and "firewal" name parts of the API, not a service.
  const pathWords = new Set(["cluster", "firewal", "ha"]);
  test.each([
    [
      "the values its last placeholder enumerates, by the stems of their words",
      endpoint("/nodes/{node}/services/{service}/restart", { service: { enum: ["corosync", "pve-ha-lrm"] } }),
      { values: [["corosync"], ["ha", "lrm"]] },
    ],
    [
      "not a value whose every word is a path's",
      endpoint("/nodes/{node}/services/{service}/state", {
        service: { enum: ["pve-cluster", "pve-firewall", "chrony"] },
      }),
      { values: [["chroni"]] },
    ],
    ["a placeholder that lists no values", endpoint("/cluster/backup/{id}/included_volumes", { id: {} }), {}],
    ["no placeholder", endpoint("/cluster/resources", { type: { enum: ["vm", "storage"] } }), {}],
    [
      "only the last placeholder's",
      endpoint("/nodes/{node}/ceph/osd/{osdid}/in", { node: { enum: ["pve1"] }, osdid: {} }),
      {},
    ],
  ])("%s", (_name, e, expected) => {
    expect(itemNames(e, new Map(), pathWords)).toEqual(expected);
  });

  test.skipIf(!haveSharedData("itemNames on the real schema", SCHEMA_FILES["9.1"].file))(
    "PVE 9.1: a node's services are named by their own names",
    () => {
      const catalog = real91();
      const names = (method: string, path: string) => itemNames(catalog.endpoint(method, path)!, new Map(), pathWords);
      const service = names("POST", "/nodes/{node}/services/{service}/restart").values;
      expect(service).toContainEqual(["corosync"]);
      expect(service).toContainEqual(["pveproxi"]);
      expect(service).not.toContainEqual(["cluster"]);
      expect(names("GET", "/cluster/backup/{id}/included_volumes")).toEqual({});
    },
  );
});

describe("itemSpokenOf: the query speaks of the item an endpoint is or lies below", () => {
  const none = { asked: new Set<string>(), guest: false, takesTypedValue: false };
  test.each<[string, string | undefined, ItemNames, Partial<typeof none>, boolean]>([
    ["no item at all", undefined, {}, {}, true],
    ["a backup job, not a word of it", "backup", {}, {}, false],
    ["a backup job by its word", "backup", {}, { asked: new Set(["backup"]) }, true],
    // A node's and a storage's items are spoken of by whatever lies on them.
    ["a node's item", "node", {}, {}, true],
    ["a storage's item", "storag", {}, {}, true],
    ["a VM by any guest word", "qemu", {}, { guest: true }, true],
    ["a VM, no guest spoken of", "qemu", {}, {}, false],
    // An HA resource's `sid` takes a guest's ID, yet a guest word alone does not name it.
    ["an HA resource by a guest word", "resourc", {}, { guest: true }, false],
    ["a value of its kind typed", "content", {}, { takesTypedValue: true }, true],
    [
      "a service by its name",
      "servic",
      { values: [["corosync"], ["ha", "lrm"]] },
      { asked: new Set(["corosync"]) },
      true,
    ],
    [
      "a service by every word of its name",
      "servic",
      { values: [["ha", "lrm"]] },
      { asked: new Set(["ha", "lrm"]) },
      true,
    ],
    ["a service by one word of its name", "servic", { values: [["ha", "lrm"]] }, { asked: new Set(["ha"]) }, false],
  ])("%s", (_name, itemOf, names, mention, expected) => {
    expect(itemSpokenOf(itemOf, names, { ...none, ...mention })).toBe(expected);
  });
});
