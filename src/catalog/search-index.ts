// Builds the search index: each endpoint's fields (search-fields.ts) as weighted postings, plus
// the facts the score factors and the query's reading use (search-facts.ts, search-index-facts.ts).
import { endsInPlaceholder, kindEnumsOf, placeholders, propertyStringKeys, type Endpoint } from "./model.ts";
import { homeOf } from "./cli-map.ts";
import { stem, StemCache, type StemMemo } from "./stem.ts";
import { EQUIVALENT_GROUPS, RELATED } from "./synonyms.ts";
import { identifierWords, NEGATIONS, PARTICLES, words } from "./text.ts";
import { buildParamDocs, type ParamDocs } from "./search-params.ts";
import { acronymGroups, apiNames, schemaAcronyms } from "./acronyms.ts";
import { compoundsByEnd, Postings, TermCache, type PhraseTable } from "./search-terms.ts";
import { endpointValueKinds, measuredWords, valueTerm } from "./search-values.ts";
import {
  agentTwins,
  collections,
  identityUnits,
  isAgentCommand,
  isBulk,
  takesNode,
  takesGuest,
  isNavigation,
  isSetter,
  crossKindTwins,
  scopeTwins,
  summaryObject,
  withStandIns,
  itemKinds,
  itemNames,
  actionKeyTexts,
  mappingUses,
  pathStems,
  phraseBoundWords,
  rootLists,
  subsystemLists,
  subsystemWords,
  type PhraseBound,
  type ItemNames,
} from "./search-facts.ts";
import { successorTexts } from "./successors.ts";
import {
  addSiblingTerms,
  endpointFields,
  FIELD,
  guestsOfBothKinds,
  IDENTIFIER_FIELDS,
  PARAMETER_FIELDS,
  summaryOf,
  TEXT_FIELDS,
  type Fields,
} from "./search-fields.ts";
import {
  checksOf,
  collectionAliases,
  collectionParents,
  familyKey,
  describedPaths,
  keyOf,
  indexNoun,
  listsThrough,
  negatedFlags,
  postWords,
  storageTypes,
  tieOrderOf,
  type Check,
  type NegatedFlag,
} from "./search-index-facts.ts";

/**
 * A word the schema holds for at most this many endpoints (in their own words, their parameters'
 * or their siblings') tells as much in the docs as one it lacks, so the docs add it to the
 * endpoints they speak of (calibrated on the opened sets, twenty-second round: at 1, 1 query
 * better and 1 worse; at 2, 12 and 2; at 3, 17 and 5).
 */
const RARE_IN_SCHEMA = 2;

/** What the docs add to the index: texts about each endpoint, and the acronyms they define. */
export interface DocsVocabulary {
  texts: readonly (readonly string[])[];
  /** Per endpoint: the values the docs define for its parameters (SSH, HTTPS for `macro`). */
  values?: readonly (readonly string[])[];
  /** By parameter name: the values the docs define for it, which name the parameter as its enum values do. */
  paramValues?: ReadonlyMap<string, readonly string[]>;
  acronyms?: readonly (readonly [string, string])[];
  /** Per endpoint: the words the docs define it by, which may stand for its name. */
  standIns?: readonly (readonly string[])[];
}

/**
 * A word the docs define an endpoint by stands for its name when at most this share of the
 * endpoints use it: "route" of the notification matchers and "push" of Gotify, five endpoints
 * each of 649 in 9.1, do; "packages" of the APT repositories (eight), which names other
 * endpoints, does not (calibrated on the opened sets, seventeenth round: at four endpoints none
 * moved; at eight, "packages" came in and 13 queries got worse).
 */
export const DEFINING_SHARE = 0.01;

/** The stems of `words` that at most `most` endpoints use (`df`: how many use a stem). */
export function rareStems(
  words: readonly string[],
  stems: StemMemo,
  df: (stem: string) => number,
  most: number,
): string[] {
  return [...new Set(words.map((w) => stem(w, stems)))].filter((s) => df(s) <= most);
}

export interface SearchIndex {
  endpoints: readonly Endpoint[];
  postings: Postings;
  /** Each endpoint's path placeholders ("node", "vmid"). */
  placeholders: string[][];
  /** The parameters of write endpoints, each a document of its own. */
  params: ParamDocs;
  /** How many parameters each endpoint takes. */
  settings: Uint16Array;
  /** 1 for endpoints that set things (PUT, or a POST that creates, adds or changes) rather than act. */
  setter: Uint8Array;
  /** Where an endpoint acts: the cluster (/cluster), one node (/nodes/{node}, its guests too), or elsewhere. */
  scope: ("cluster" | "node" | "other")[];
  /** 1 for endpoints acting on every guest at once (startall, bulk-action). */
  bulk: Uint8Array;
  /** 1 for endpoints a node's name has a place in (takesNode). */
  takesNode: Uint8Array;
  /** 1 for the endpoints that create (or restore) a guest: POST on the VM or container collection. */
  createsGuest: Uint8Array;
  /** 1 for guest-agent commands that have a twin among the guest's own actions (agent/shutdown, status/shutdown). */
  agentTwin: Uint8Array;
  /** 1 for the guest agent's commands. */
  agentCommand: Uint8Array;
  /** 1 for endpoints that answer with a picture ("returns PNG"). */
  returnsImage: Uint8Array;
  /** 1 for a guest's own power actions (POST .../{vmid}/status/reboot). */
  powerAction: Uint8Array;
  /** For a GET list whose items have a GET of their own: the stem of its last segment ("role" for /access/roles). */
  collectionOf: (string | undefined)[];
  /** For a POST that adds an item to such a list: the stem of what it adds ("group" for POST /access/groups). */
  creates: (string | undefined)[];
  /** Every stem some collection is named by. */
  collectionStems: Set<string>;
  /** The nouns an item's placeholder gives a collection, where its path calls it otherwise: "realm" for domain (/access/domains/{realm}); places only (placeMentions). */
  collectionAliases: Map<string, string>;
  /** The stems of the collections a POST adds to ("pool", "storag", "qemu"): what `creates` holds. */
  creatable: Set<string>;
  /** What a POST adds below one guest (snapshots, firewall rules): made by its own POST, not by setting the guest. */
  guestCreatable: Set<string>;
  /**
   * The stems of what a POST may make or do, by the words of its path and of its `type` values
   * ("token", "totp", "ldap", "map"), and `creatable`: what "add" may bring into being (addsProperty).
   */
  postWords: Set<string>;
  /** Per collection's stem, the stems of the path words above it ("usb": "mapping" of /cluster/mapping/usb). */
  collectionParents: Map<string, Set<string>>;
  /** The kinds of storage, as POST /storage's `type` names them ("zfspool", "lvmthin", "nfs", "pbs"). */
  storageTypes: Set<string>;
  /** The file paths the endpoints' descriptions say ("/etc/hosts" of "Write /etc/hosts."). */
  describedPaths: Set<string>;
  /** What the schema measures by an amount other than disk space ("memory", "ram", "swap"; measuredWords). */
  measured: Set<string>;
  /** For an item of such a list (its path and a placeholder): the stem of what the list holds. */
  itemOf: (string | undefined)[];
  /** For an item: the stem of the list its last placeholder names ("user" for /access/tfa/{userid}; keyOf). */
  keyOf: (string | undefined)[];
  /** Per endpoint, the stems of every list whose item its path goes through, the nearest last. */
  itemsOf: string[][];
  /** Per endpoint, how its item may be named besides its list's word (itemNames). */
  itemNames: ItemNames[];
  /** Raw words of the descriptions with their counts, for splitting and joining words. */
  vocabulary: Map<string, number>;
  /** Compounds the schema writes with hyphens ("cd-rom", "cloud-init"): words of the API, not names. */
  hyphenated: ReadonlySet<string>;
  /** Synonym groups as stems; a word or phrase of a group stands for all of them. */
  groups: string[][];
  groupsOfWord: Map<string, number[]>;
  groupsOfStem: Map<string, number[]>;
  /** The first single word of each group, which stands for it. */
  leads: string[];
  /** Phrases (stem sequences) -> group. */
  phrases: PhraseTable;
  /** One-way hints, by raw word and by stem. */
  related: Map<string, string[]>;
  stems: StemMemo;
  summaries: string[];
  /** Each endpoint's first two literal segments, where a tool's commands gather (homeOf in cli-map.ts). */
  homes: string[];
  /** 1 for endpoints of VMs (the collection or one VM), 2 of containers, 0 otherwise. */
  guestKind: Uint8Array;
  /** 1 for endpoints of one guest (the path holds {vmid}). */
  oneGuest: Uint8Array;
  /** 1 for endpoints that take one guest by its ID in a parameter (an HA resource's "vm:100", the task list's `vmid` filter). */
  takesGuests: Uint8Array;
  /** 1 for one item of a collection: the path ends with a placeholder and one object comes back, not a list. */
  itemOfCollection: Uint8Array;
  /** 1 for directory indexes that only list child paths. */
  navigation: Uint8Array;
  /** For an index, the stem of what its summary says it indexes ("command" of "QEMU Guest Agent command index."). */
  indexes: (string | undefined)[];
  /** For a directory index, the GETs of the paths it lists. */
  listedBy: number[][];
  /**
   * What the API can check before it is done: each check's actions, and the objects it checks
   * them for when it names some ("Check if feature … is available": snapshot, clone, copy; "Get
   * preconditions for migration": migrate; "Heuristical check if it is safe to perform an action":
   * stop, destroy of an OSD, monitor or MDS).
   */
  checks: Check[];
  /** 1 for websocket upgrades. */
  websocket: Uint8Array;
  /** Endpoints that are one answer in two variants (the VM and the container one) share a number. */
  families: Int32Array;
  /**
   * Each endpoint's place among equal scores: shorter paths first, then the paths in locale
   * order, then the schema's order within a path (GET, POST, PUT, DELETE: a tie never favours
   * deleting). Worked out once, so ranking compares two numbers.
   */
  tieOrder: Int32Array;
  /** What each endpoint is (its last segment and handler name), as units of alternative stems. */
  identity: string[][][];
  /** For a DELETE, the stem of its handler's verb, a word of its own: what the DELETE does (revert_network_changes: "revert"). */
  deleteVerb: (string | undefined)[];
  /** Stems of the words of last path segments: the actions and objects the API names. */
  lastSegmentStems: Set<string>;
  /** Stems of the words of every parameter's name ("since", "until" of the task and log lists). */
  parameterStems: Set<string>;
  /** Run-together words of paths and handler names that do not split into known words ("fstrim"). */
  compounds: string[];
  /** `compounds` by their starts and ends (compoundsByEnd in search-terms.ts). */
  compoundsByEnd: Map<string, number[]>;
  /** By term: the endpoints with an enum of kinds that has a value of that term, and which of their enums (`endpoint * ENUMS_PER_ENDPOINT + enum`). */
  enumSpans: Map<string, number[]>;
  /** The API's flags that turn an action off, by the stem of that action: "rebalanc" for `norebalance`, "out" for `noout`. */
  negatedFlags: Map<string, NegatedFlag>;
  /** By stem: the negations and particles that endpoints' names hold only inside a phrase ("not-backed-up"). */
  phraseBound: Map<string, PhraseBound>;
  /** Stems of the words that name a subsystem of the API ("ceph", "sdn", "firewal"; subsystemWords). */
  subsystems: Set<string>;
  /** Per endpoint, the subsystems its path lies in. */
  subsystemsOf: string[][];
  /** Per subsystem, the stems of the lists of objects below it (subsystemLists). */
  subsystemLists: Map<string, Set<string>>;
  /** The stems of the lists of the API's top level ("storag", "pool", "node"; rootLists). */
  rootLists: Set<string>;
}

/**
 * The index of the endpoints; `docs` adds, per endpoint, texts from the cluster's docs as one
 * more low-weight field. Docs words do not join the vocabulary that splits and joins the API's
 * run-together names, so the schema's own words are read the same with or without docs.
 */
export function buildSearchIndex(endpoints: readonly Endpoint[], docs?: DocsVocabulary): SearchIndex {
  const stems = new Map<string, string>();
  // An item's kinds count as values it takes: "a backup" names a volume of the content listing.
  const kinds = itemKinds(endpoints, docs?.values);
  const mappings = mappingUses(endpoints);
  const actionKeys = actionKeyTexts(endpoints);
  const uses = mappings.map((texts, id) => [...texts, ...actionKeys[id]!]);
  const inherited = successorTexts(endpoints);
  const fieldsOf = endpoints.map((e, id) =>
    endpointFields(e, uses[id]!, inherited[id]!, docs?.texts[id] ?? [], [
      ...(docs?.values?.[id] ?? []),
      ...kinds.item[id]!,
    ]),
  );
  const vocabulary = new Map<string, number>();
  const hyphenated = writtenCompounds(endpoints, fieldsOf);
  const allGroups = [
    ...EQUIVALENT_GROUPS,
    ...acronymGroups([...schemaAcronyms(endpoints), ...(docs?.acronyms ?? [])], apiNames(endpoints)),
  ];
  for (const group of allGroups) {
    for (const entry of group) for (const w of words(entry)) vocabulary.set(w, (vocabulary.get(w) ?? 0) + 1);
  }

  const groups: string[][] = [];
  const leads: string[] = [];
  const groupsOfWord = new Map<string, number[]>();
  const groupsOfStem = new Map<string, number[]>();
  const phrases: PhraseTable = { byStems: new Map(), firstStems: new Set(), openings: new Set(), maxWords: 1 };
  const push = (map: Map<string, number[]>, key: string, id: number) => {
    const list = map.get(key) ?? [];
    if (!list.includes(id)) list.push(id);
    map.set(key, list);
  };
  allGroups.forEach((group, id) => {
    const singles = group.filter((g) => /^[a-z0-9]+$/.test(g));
    groups.push([...new Set(singles.map((g) => stem(g, stems)))]);
    leads.push(singles[0] ?? "");
    for (const single of singles) {
      push(groupsOfWord, single, id);
      push(groupsOfStem, stem(single, stems), id);
    }
    for (const lead of group.filter((g) => g.startsWith("~"))) push(groupsOfWord, lead.slice(1), id);
    for (const entry of group) {
      const entryStems = words(entry).map((w) => stem(w, stems));
      if (entryStems.length > 1) {
        const key = entryStems.join(" ");
        phrases.byStems.set(key, [...new Set([...(phrases.byStems.get(key) ?? []), id])]);
        phrases.firstStems.add(entryStems[0]!);
        phrases.openings.add(`${entryStems[0]} ${entryStems[1]}`);
        phrases.maxWords = Math.max(phrases.maxWords, entryStems.length);
      }
    }
  });

  const postings = new Postings();
  const terms = new TermCache(postings, vocabulary, stems, phrases, leads);
  // Texts first: their words are the vocabulary that splitting identifiers relies on.
  const textTerms = fieldsOf.map((f) => TEXT_FIELDS.map((field) => f[field].map((t) => terms.text(t, true))));
  const identifierTerms = fieldsOf.map((f) =>
    IDENTIFIER_FIELDS.map((field) => f[field].map((t) => terms.identifier(t))),
  );
  const docsTerms = fieldsOf.map((f) => f.docs.map((t) => terms.text(t)));
  const fieldWeights = [...TEXT_FIELDS.map((f) => FIELD[f]), ...IDENTIFIER_FIELDS.map((f) => FIELD[f])];
  // Before the arrays below are sized by the terms known: it may add terms.
  const withGuests = guestsOfBothKinds(postings, (w) => stem(w, stems));
  // What an endpoint says of itself, not a parameter ("vm:100 or ct:100" names no guests' action).
  const ownTextFields = new Set((["summary", "description"] as const).map((f) => TEXT_FIELDS.indexOf(f)));
  // A term counts once per field, whatever the number of parameters repeating it.
  const stamp = new Int32Array(postings.size).fill(-1);
  const weight = new Float64Array(postings.size);
  const touched: number[] = [];
  let fieldStamp = 0;
  // Which fields are the endpoint's parameters (names, values, descriptions), not what it is.
  const paramFields = new Set(
    [...TEXT_FIELDS, ...IDENTIFIER_FIELDS].flatMap((f, i) => (PARAMETER_FIELDS.has(f) ? [i] : [])),
  );
  const own = new Uint8Array(postings.size);
  const ownTerms = endpoints.map(() => new Set<number>());
  endpoints.forEach((_, id) => {
    const fields = [...textTerms[id]!, ...identifierTerms[id]!];
    fields.forEach((items, f) => {
      fieldStamp++;
      const w = fieldWeights[f]!;
      for (const said of items) {
        const item = ownTextFields.has(f) ? withGuests(said) : said;
        for (const term of item) {
          if (stamp[term] === fieldStamp) continue;
          stamp[term] = fieldStamp;
          if (weight[term] === 0) touched.push(term);
          weight[term] = weight[term]! + w;
          if (!paramFields.has(f)) own[term] = 1;
        }
      }
    });
    for (const term of touched) {
      ownTerms[id]!.add(term);
      postings.add(term, id, weight[term]!, own[term] === 0);
      weight[term] = 0;
      own[term] = 0;
    }
    touched.length = 0;
  });
  const twins = crossKindTwins(endpoints);
  addSiblingTerms(endpoints, twins, textTerms, ownTerms, postings);
  // "shut down all guests on pve2": stopall, the node's twin of the cluster's bulk shutdown, is
  // named by what its twin is named by. Not the other way round: the cluster's name says what
  // both do (stopall times out "each guest shutdown task"); stopall's would give the bulk
  // shutdown every "stop" (without docs, "qm shutdown 105 --forceStop 1" put it above status/shutdown).
  const scoped = scopeTwins(endpoints);
  const summaryAt = TEXT_FIELDS.indexOf("summary");
  const lastAt = IDENTIFIER_FIELDS.indexOf("lastSegment");
  const nameAt = IDENTIFIER_FIELDS.indexOf("name");
  for (const [cluster, node] of scoped) {
    const own = new Set(
      [textTerms[node]![summaryAt]!, identifierTerms[node]![lastAt]!, identifierTerms[node]![nameAt]!].flat(2),
    );
    for (const t of new Set(identifierTerms[cluster]![lastAt]!.flat()))
      if (!own.has(t)) postings.addField(t, node, FIELD.summary);
  }
  // The kinds of value each endpoint takes ("#volume"), for values typed in a query.
  endpoints.forEach((e, id) => {
    for (const [kind, where] of endpointValueKinds(e))
      postings.add(postings.intern(valueTerm(kind)), id, where, where < 2);
  });
  // The docs bring the words the schema lacks ("virtiofs", "prefer", "maintenance") or says of
  // at most RARE_IN_SCHEMA endpoints: only those are indexed from them, so the schema's common
  // words rank as they do without docs. Names in the examples (pve2, node1, vm:100) are no words
  // for anything.
  const schemaHas = (term: number) => {
    const word = postings.termOf(term);
    return /\d/.test(word) || (postings.get(word)?.ids.length ?? 0) > RARE_IN_SCHEMA;
  };
  const fromDocs = new Map<number, number[]>();
  docsTerms.forEach((items, id) => {
    const seen = new Set<number>();
    for (const item of items) for (const term of item) if (!seen.has(term) && !schemaHas(term)) seen.add(term);
    for (const term of seen) fromDocs.set(term, [...(fromDocs.get(term) ?? []), id]);
  });
  // Where the schema gives the endpoint the word already, the docs' field adds to that entry.
  for (const [term, ids] of fromDocs) for (const id of ids) postings.addField(term, id, FIELD.docs);

  const related = new Map<string, string[]>();
  for (const [word, targets] of Object.entries(RELATED))
    related.set(
      word,
      targets.map((t) => stem(t, stems)),
    );

  const guestKind = new Uint8Array(endpoints.length);
  endpoints.forEach((e, id) => {
    guestKind[id] = /^\/nodes\/\{node\}\/qemu(\/|$)/.test(e.path)
      ? 1
      : /^\/nodes\/\{node\}\/lxc(\/|$)/.test(e.path)
        ? 2
        : 0;
  });
  const oneGuest = Uint8Array.from(endpoints, (e) => (e.path.includes("{vmid}") ? 1 : 0));
  const takesGuests = Uint8Array.from(endpoints, (e) => (takesGuest(e) ? 1 : 0));
  const itemOfCollection = Uint8Array.from(endpoints, (e) =>
    endsInPlaceholder(e.path) && (e.returns as { type?: unknown } | undefined)?.type !== "array" ? 1 : 0,
  );
  const navigation = Uint8Array.from(endpoints, (e) => (isNavigation(e) ? 1 : 0));
  // The GETs below each path, one segment down.
  const byParent = new Map<string, number[]>();
  endpoints.forEach((e, id) => {
    if (e.method !== "GET") return;
    const parent = e.path.slice(0, e.path.lastIndexOf("/"));
    const children = byParent.get(parent);
    if (children) children.push(id);
    else byParent.set(parent, [id]);
  });
  const listedBy = endpoints.map((e, id) => (navigation[id] ? (byParent.get(e.path) ?? []) : []));
  const websocket = Uint8Array.from(endpoints, (e) => (/websocket/i.test(e.path) ? 1 : 0));
  const familyOf = new Map<string, number>();
  const families = Int32Array.from(endpoints, (e) => {
    const key = familyKey(e);
    let family = familyOf.get(key);
    if (family === undefined) familyOf.set(key, (family = familyOf.size));
    return family;
  });
  const summaries = endpoints.map(summaryOf);
  // Words of each endpoint's last segment and of its handler name.
  const lastWords = fieldsOf.map((f) => identifierWords(f.lastSegment[0] ?? ""));
  const nameWords = fieldsOf.map((f) => identifierWords(f.name[0] ?? ""));
  const namingKinds = kinds.item.map((item, id) => (item.length ? item : kinds.list[id]!));
  const closedStems = new Set([...PARTICLES, ...NEGATIONS].map((w) => stem(w, stems)));
  const stemOf = (w: string) => stem(w, stems);
  const paths = endpoints.map((e) => e.path);
  const stemsOfPaths = paths.map((path) => pathStems(path, stemOf));
  const subsystems = subsystemWords(paths, (s) => postings.get(s)?.ids ?? [], stemOf);
  const identity = identityUnits(lastWords, nameWords, terms, vocabulary, stems, namingKinds);
  // "route backup failures to the ops target": the docs define notification matchers as what
  // routes notifications, so "route" names them. Only a rare word of a definition does.
  const definingMost = Math.floor(endpoints.length * DEFINING_SHARE);
  docs?.standIns?.forEach((defining, id) => {
    const rare = rareStems(defining, stems, (s) => postings.get(s)?.ids.length ?? 0, definingMost);
    if (rare.length > 0) identity[id] = withStandIns(identity[id]!, rare);
  });
  // "which IP addresses does the agent report": a container's interfaces "Get IP addresses of the
  // specified container interface"; a VM agent's network-get-interfaces, its twin, says the same.
  for (const [a, b] of twins) {
    identity[a] = withStandIns(identity[a]!, summaryObject(summaries[b]!, stems));
    identity[b] = withStandIns(identity[b]!, summaryObject(summaries[a]!, stems));
  }
  for (const [cluster, node] of scoped)
    identity[node] = withStandIns(
      identity[node]!,
      lastWords[cluster]!.map((w) => stem(w, stems)),
    );
  const compounds = new Set<string>();
  const parameterStems = new Set<string>();
  for (const e of endpoints)
    for (const name of Object.keys(e.parameters))
      for (const w of identifierWords(name)) parameterStems.add(stem(w, stems));
  const lastSegmentStems = new Set<string>();
  lastWords.forEach((last, id) => {
    for (const w of last) lastSegmentStems.add(stem(w, stems));
    for (const w of [...last, ...nameWords[id]!]) {
      if (w.length >= 6 && !compounds.has(w) && !/\d/.test(w) && !terms.split(w)) compounds.add(w);
    }
  });
  // The words of the API's paths, which name lists and actions, not one service or flag.
  const pathWords = new Set(stemsOfPaths.flat());
  const collectionOf = collections(endpoints, stems);
  const listed = new Map<string, string>();
  endpoints.forEach((e, id) => {
    if (collectionOf[id] !== undefined) listed.set(e.path, collectionOf[id]!);
  });
  const creates = endpoints.map((e) => (e.method === "POST" ? listed.get(e.path) : undefined));
  const through = endpoints.map((e) => listsThrough(e.path, listed));
  const creatable = new Set(creates.filter((c): c is string => c !== undefined));
  const guestCreatable = new Set(
    creates.filter((c, id): c is string => c !== undefined && /\/\{vmid\}\//.test(endpoints[id]!.path)),
  );
  const collectionStems = new Set(listed.values());
  const compoundList = [...compounds];
  return {
    endpoints,
    postings,
    placeholders: endpoints.map((e) => placeholders(e.path)),
    params: buildParamDocs(endpoints, terms, postings, docs?.paramValues, lastSegmentStems),
    setter: Uint8Array.from(endpoints, (e) => (isSetter(e) ? 1 : 0)),
    settings: Uint16Array.from(endpoints, (e) => Object.keys(e.parameters).length),
    scope: endpoints.map((e) =>
      e.path.startsWith("/cluster") ? "cluster" : e.path.startsWith("/nodes/{node}") ? "node" : "other",
    ),
    bulk: Uint8Array.from(endpoints, (e) => (isBulk(e) ? 1 : 0)),
    takesNode: Uint8Array.from(endpoints, (e) => (takesNode(e) ? 1 : 0)),
    createsGuest: Uint8Array.from(endpoints, (e) =>
      e.method === "POST" && /^\/nodes\/\{node\}\/(qemu|lxc)$/.test(e.path) ? 1 : 0,
    ),
    agentTwin: agentTwins(endpoints),
    agentCommand: Uint8Array.from(endpoints, (e) => (isAgentCommand(e) ? 1 : 0)),
    returnsImage: Uint8Array.from(endpoints, (e) => (/\breturns PNG\b/i.test(e.description) ? 1 : 0)),
    powerAction: Uint8Array.from(endpoints, (e) =>
      e.method === "POST" && /\/\{vmid\}\/status\/[a-z]+$/.test(e.path) ? 1 : 0,
    ),
    collectionOf,
    creates,
    creatable,
    guestCreatable,
    postWords: postWords(endpoints, creatable, stems),
    collectionStems,
    collectionAliases: collectionAliases(endpoints, listed, stems),
    collectionParents: collectionParents(listed, stems),
    storageTypes: storageTypes(endpoints),
    measured: measuredWords(endpoints),
    describedPaths: describedPaths(endpoints),
    itemOf: through.map((lists) => lists.at(-1)),
    keyOf: endpoints.map((e) => keyOf(e.path, stems, collectionStems)),
    itemsOf: through.map((lists) => lists.filter((list): list is string => list !== undefined)),
    itemNames: endpoints.map((e) => itemNames(e, stems, pathWords)),
    vocabulary,
    hyphenated,
    groups,
    groupsOfWord,
    groupsOfStem,
    leads,
    phrases,
    related,
    // Searching stems the words typed too; those are remembered only for a while.
    stems: new StemCache(stems),
    summaries,
    homes: endpoints.map((e) => homeOf(e.path)),
    guestKind,
    oneGuest,
    takesGuests,
    itemOfCollection,
    navigation,
    indexes: endpoints.map((e, id) => (navigation[id] ? indexNoun(e.description, stems) : undefined)),
    listedBy,
    checks: checksOf(endpoints, identity, stems),
    websocket,
    families,
    tieOrder: tieOrderOf(endpoints),
    identity,
    deleteVerb: endpoints.map((e) => {
      // A verb of its own ("revert_network_changes"), not one run together with its object ("ipdelete").
      const words = identifierWords(e.name);
      return e.method === "DELETE" && words.length > 1 ? stem(words[0]!, stems) : undefined;
    }),
    compounds: compoundList,
    compoundsByEnd: compoundsByEnd(compoundList),
    lastSegmentStems,
    parameterStems,
    enumSpans: enumSpans(endpoints, terms, postings),
    negatedFlags: negatedFlags(endpoints, stems),
    phraseBound: phraseBoundWords(
      lastWords.map((last, id) => [last, nameWords[id]!]),
      // "backed" of not-backed-up: what a query's particle "back" would match.
      (w) => closedStems.has(stemOf(w)),
      stemOf,
    ),
    subsystems,
    subsystemsOf: stemsOfPaths.map((words) => words.filter((w) => subsystems.has(w))),
    subsystemLists: subsystemLists(paths, subsystems, stemOf),
    rootLists: rootLists(paths, stemOf),
  };
}

/** Enums of kinds counted per endpoint, at most (the schema's most is a handful). */
export const ENUMS_PER_ENDPOINT = 256;

/** Which enums of kinds of which endpoints each term is a value of. */
export function enumSpans(endpoints: readonly Endpoint[], terms: TermCache, postings: Postings): Map<string, number[]> {
  const spans = new Map<string, number[]>();
  endpoints.forEach((e, id) => {
    kindEnumsOf(e)
      .slice(0, ENUMS_PER_ENDPOINT)
      .forEach((values, k) => {
        // One word per value ("qemu", "vztmpl"); a value of several ("serial-port-socket-only") is no kind.
        const seen = new Set<number>();
        for (const value of values) {
          const words = terms.identifier(value);
          if (words.length === 1) seen.add(words[0]!);
        }
        for (const t of seen) {
          const term = postings.termOf(t);
          const keys = spans.get(term);
          if (keys) keys.push(id * ENUMS_PER_ENDPOINT + k);
          else spans.set(term, [id * ENUMS_PER_ENDPOINT + k]);
        }
      });
  });
  return spans;
}

/** How often the prose must write a compound with its hyphen for it to be a word of the API. */
const COMPOUND_USES = 2;

/**
 * The compounds the schema's prose writes with a hyphen, more than once ("CD-ROM" nine times,
 * "cloud-init", "two-factor"): words of the API, which a query's "CD-ROM" says whole. Not the
 * names of things it lists (services such as "pve-firewall", agent commands, parameter names, the
 * keys and formats of property strings: "import-from", "keep-last", "pve-vm-id"), nor a tool named
 * once ("ha-manager", "apt-get"), which a query names like any name.
 */
export function writtenCompounds(endpoints: readonly Endpoint[], fields: readonly Fields[]): Set<string> {
  const named = new Set<string>();
  for (const f of fields)
    for (const w of [...f.paramName, ...f.enumValue, ...f.lastSegment, ...f.segment]) named.add(w.toLowerCase());
  for (const e of endpoints)
    for (const p of Object.values(e.parameters)) {
      if (typeof p.format === "string") named.add(p.format.toLowerCase());
      for (const [key, sub] of Object.entries(propertyStringKeys(p) ?? {})) {
        named.add(key.toLowerCase());
        const format = (sub as { format?: unknown } | undefined)?.format;
        if (typeof format === "string") named.add(format.toLowerCase());
      }
    }
  const uses = new Map<string, number>();
  for (const f of fields)
    for (const text of [...f.summary, ...f.description, ...f.paramText])
      for (const m of text.matchAll(/\b[a-z]{2,}(?:-[a-z]{2,})+\b/gi)) {
        const w = m[0].toLowerCase();
        if (!named.has(w)) uses.set(w, (uses.get(w) ?? 0) + 1);
      }
  return new Set([...uses].filter(([, n]) => n >= COMPOUND_USES).map(([w]) => w));
}
