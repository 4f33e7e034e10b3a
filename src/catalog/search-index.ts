// Builds the search index: each endpoint a small document of weighted fields, plus the facts
// about it that the score factors use (guest kind, item or collection, navigation, twins).
import {
  collectionPath,
  endsInPlaceholder,
  kindEnumsOf,
  isDeprecated,
  placeholders,
  returnFields,
  type Endpoint,
} from "./model.ts";
import { homeOf } from "./cli-map.ts";
import { stem, StemCache, type StemMemo } from "./stem.ts";
import { EQUIVALENT_GROUPS, LXC_WORDS, QEMU_WORDS, RELATED } from "./synonyms.ts";
import { firstSentence, identifierWords, markupToText, NEGATIONS, PARTICLES, words } from "./text.ts";
import { buildParamDocs, type ParamDocs } from "./search-params.ts";
import { acronymGroups, apiNames, schemaAcronyms } from "./acronyms.ts";
import { compoundsByEnd, Postings, TermCache, type PhraseTable } from "./search-terms.ts";
import { endpointValueKinds, measuredWords, valueKinds, valueTerm } from "./search-values.ts";
import {
  agentTwins,
  collections,
  identityUnits,
  isAgentCommand,
  isBulk,
  takesNode,
  isNavigation,
  isSetter,
  crossKindTwins,
  scopeTwins,
  summaryObject,
  withStandIns,
  itemKinds,
  itemNames,
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

const FIELD = {
  lastSegment: 4,
  segment: 2,
  name: 3,
  summary: 2,
  description: 1,
  paramName: 0.7,
  enumValue: 0.5,
  paramText: 0.15,
  /**
   * A read's required parameters say what it reads, half as much as its description: at its
   * weight, "list the backup files on storage X" took single-file restore for the storage's content
   * (calibrated on the opened sets, fourteenth round).
   */
  required: 0.5,
  returnName: 0.8,
  /**
   * The values a returned field may take ("qemu", "lxc", "storage" for the items of
   * /cluster/resources). This (a fifth down), inherited and docs (a quarter up) were moved in the
   * twenty-second round's sweep of every field weight on the opened sets, where a step made none worse.
   */
  returnValue: 0.16,
  /**
   * For a cluster-wide mapping: the name and description of the guest setting that uses it
   * (virtiofs for directory mappings), as much its words as its own description (calibrated, ninth round).
   */
  usedBy: 1,
  /** What a retired parameter or endpoint said, for what the schema names in its place. */
  inherited: 1.25,
  /** Words of the docs about the endpoint: its CLI commands, the prose around their examples. */
  docs: 0.625,
  /** Words of the other methods of its resource (the collection and its items). */
  sibling: 1,
} as const;

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
  /** Per endpoint, the stems of every list whose item its path goes through, the nearest last. */
  itemsOf: string[][];
  /** Per endpoint, how its item may be named besides its list's word (itemNames). */
  itemNames: ItemNames[];
  /** Raw words of the descriptions with their counts, for splitting and joining words. */
  vocabulary: Map<string, number>;
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

/** What an endpoint says about itself, by field: identifiers (path, names, values) and texts. */
interface Fields {
  lastSegment: string[];
  segment: string[];
  name: string[];
  summary: string[];
  description: string[];
  paramName: string[];
  enumValue: string[];
  paramText: string[];
  /** The descriptions of what a read requires (not in its path). */
  required: string[];
  returnName: string[];
  returnValue: string[];
  usedBy: readonly string[];
  /** The words of the retired parameters and endpoints that name it as their successor. */
  inherited: readonly string[];
  docs: readonly string[];
}

/** An endpoint's one-line description, as results show it. */
export function summaryOf(e: Endpoint): string {
  return firstSentence(firstSentence(markupToText(e.description), Infinity));
}

function endpointFields(
  e: Endpoint,
  usedBy: readonly string[],
  inherited: readonly string[],
  docs: readonly string[],
  docsValues: readonly string[],
): Fields {
  const literals = e.path.split("/").filter((s) => s && !s.startsWith("{"));
  const description = markupToText(e.description);
  const sentence = firstSentence(description, Infinity);
  const fields: Fields = {
    lastSegment: literals.slice(-1),
    segment: literals.slice(0, -1),
    name: [e.name],
    summary: [firstSentence(sentence, 400)],
    description: [description],
    paramName: [],
    enumValue: [],
    paramText: [],
    required: [],
    returnName: [],
    returnValue: [],
    usedBy,
    inherited,
    docs,
  };
  for (const [name, p] of Object.entries(e.parameters)) {
    // A retired parameter says what the endpoint no longer is for ("mailto" of vzdump: use notification matchers).
    if (isDeprecated(p.description)) continue;
    fields.paramName.push(name);
    for (const value of p.enum ?? []) if (typeof value === "string") fields.enumValue.push(value);
    if (!p.description) continue;
    // What a read requires is what it reads: "Backup volume ID or name. Currently only PBS
    // snapshots are supported." of file-restore/list's `volume`.
    const read = e.method === "GET" && !p.optional && !e.path.includes(`{${name}}`);
    (read ? fields.required : fields.paramText).push(p.description);
  }
  returnFields(e.returns, fields.returnName, fields.returnValue);
  // The values the docs define for its parameters count as the schema's own enum values.
  fields.enumValue.push(...docsValues);
  return fields;
}

const TEXT_FIELDS = ["summary", "description", "paramText", "usedBy", "required", "inherited"] as const;
const PARAMETER_FIELDS: ReadonlySet<string> = new Set(["paramName", "enumValue", "paramText"]);
const IDENTIFIER_FIELDS = [
  "lastSegment",
  "segment",
  "name",
  "paramName",
  "enumValue",
  "returnName",
  "returnValue",
] as const;

/** The formats of a guest's ID (pve-common's PVE::JSONSchema, pve-ha-manager's PVE::HA::Tools). */
const GUEST_ID_FORMATS = new Set(["pve-vmid", "pve-ha-resource-or-vm-id"]);
/**
 * Whether an endpoint takes an existing guest by its ID: a filter ("Only list tasks for this
 * VM"), an HA resource's `sid`; not the `vmid` a POST requires, which is the new guest's or the
 * owner of a new volume ("Allocate disk images"). Or one guest's backup by its volume.
 */
const takesGuest = (e: Endpoint) =>
  Object.values(e.parameters).some(
    (p) =>
      (typeof p.format === "string" &&
        GUEST_ID_FORMATS.has(p.format) &&
        !(e.method === "POST" && p.format === "pve-vmid" && !p.optional)) ||
      isBackupVolume(p),
  );

/**
 * A parameter that takes a backup by its volume ("Backup volume ID or name" of file-restore):
 * a backup is one guest's (PVE::Storage::archive_info reads the guest's ID from its name), so
 * "the files in the PBS backup of VM 120" speaks of that guest.
 */
const isBackupVolume = (p: Endpoint["parameters"][string]) =>
  typeof p.description === "string" && /^backup volume\b/i.test(p.description);

/**
 * A text that names both kinds of guest ("Migrate all VMs and Containers.") names guests, the
 * word the API and its docs use for either kind: the reverse of RELATED's guest -> qemu, lxc.
 * Returns the text's terms with the guest's term added where it names both.
 */
export function guestsOfBothKinds(
  postings: Pick<Postings, "intern">,
  stemOf: (word: string) => string,
): (terms: readonly number[]) => readonly number[] {
  const termsOf = (words: Iterable<string>) => new Set([...words].map((w) => postings.intern(stemOf(w))));
  const qemu = termsOf(QEMU_WORDS);
  const lxc = termsOf(LXC_WORDS);
  const guest = postings.intern(stemOf("guest"));
  return (terms) =>
    terms.some((t) => qemu.has(t)) && terms.some((t) => lxc.has(t)) && !terms.includes(guest)
      ? [...terms, guest]
      : terms;
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
  const uses = mappingUses(endpoints);
  const inherited = successorTexts(endpoints);
  const fieldsOf = endpoints.map((e, id) =>
    endpointFields(e, uses[id]!, inherited[id]!, docs?.texts[id] ?? [], [
      ...(docs?.values?.[id] ?? []),
      ...kinds.item[id]!,
    ]),
  );
  const vocabulary = new Map<string, number>();
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
    postWords: postWords(endpoints, creatable, stems),
    collectionStems: new Set(listed.values()),
    collectionAliases: collectionAliases(endpoints, listed, stems),
    collectionParents: collectionParents(listed, stems),
    storageTypes: storageTypes(endpoints),
    measured: measuredWords(endpoints),
    describedPaths: describedPaths(endpoints),
    itemOf: through.map((lists) => lists.at(-1)),
    itemsOf: through.map((lists) => lists.filter((list): list is string => list !== undefined)),
    itemNames: endpoints.map((e) => itemNames(e, stems, pathWords)),
    vocabulary,
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

/**
 * One resource, several methods: the collection and its items (/cluster/backup,
 * /cluster/backup/{id}) describe one kind of object, often in different words ("backup
 * schedule", "backup job definition"). Each method also gets the others' summary and
 * description words, weakly and as not its own, so the method asked for decides among them.
 * So do a guest endpoint and its twin of the other kind of guest under another name, whose
 * summary and description are its own and weigh as its own summary: the same method says the
 * same of the other kind ("Get IP addresses of the specified container interface" for the VM
 * agent's network-get-interfaces, whose summary is only "Execute network-get-interfaces.").
 */
function addSiblingTerms(
  endpoints: readonly Endpoint[],
  pairs: readonly (readonly [number, number])[],
  textTerms: readonly (readonly (readonly number[])[])[][],
  ownTerms: readonly Set<number>[],
  postings: Postings,
): void {
  const resources = new Map<string, number[]>();
  endpoints.forEach((e, id) => {
    const key = collectionPath(e.path);
    resources.set(key, [...(resources.get(key) ?? []), id]);
  });
  const twins = new Set<readonly number[]>(pairs);
  for (const members of [...resources.values(), ...twins]) {
    if (members.length < 2) continue;
    for (const id of members) {
      const extra = new Set<number>();
      for (const other of members) {
        if (other === id) continue;
        // The text fields in TEXT_FIELDS order: the summary and the description.
        for (const field of textTerms[other]!.slice(0, 2))
          for (const item of field) for (const t of item) if (!ownTerms[id]!.has(t)) extra.add(t);
      }
      const twin = twins.has(members);
      for (const t of extra) postings.add(t, id, twin ? FIELD.summary : FIELD.sibling, !twin);
    }
  }
}

/** A read that checks whether an action can be done: "Check if …", "Get preconditions for …". */
const CHECK = /\bcheck if\b|\bpreconditions?\b/i;

function collectionParents(listed: ReadonlyMap<string, string>, stems: StemMemo): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [path, collection] of listed) {
    const above = path
      .split("/")
      .slice(0, -1)
      .filter((s) => s && !s.startsWith("{"));
    const set = out.get(collection) ?? new Set<string>();
    for (const segment of above) for (const w of identifierWords(segment)) set.add(stem(w, stems));
    out.set(collection, set);
  }
  return out;
}

/** An action the API can check before it is done, and the objects it checks it for (none: any). */
export interface Check {
  actions: Set<string>;
  objects: Set<string>;
}

/** Parameters of a check that say which action it checks ("action" of cmd-safety, "feature" of a guest's feature check). */
const CHECKED_ACTION = /^(?:action|feature)$/;

function checksOf(endpoints: readonly Endpoint[], identity: readonly string[][][], stems: StemMemo): Check[] {
  const checks: Check[] = [];
  endpoints.forEach((e, id) => {
    if (e.method !== "GET" || !CHECK.test(e.description)) return;
    const actions = new Set<string>();
    const objects = new Set<string>();
    for (const [name, p] of Object.entries(e.parameters))
      for (const value of p.enum ?? [])
        if (typeof value === "string")
          (CHECKED_ACTION.test(name) ? actions : objects).add(stem(value.toLowerCase(), stems));
    // Without a parameter naming the action, the endpoint's own name does ("migrate").
    if (actions.size === 0) for (const unit of identity[id]!) actions.add(unit[0]!);
    checks.push({ actions, objects });
  });
  return checks;
}

/**
 * For each placeholder of a path, the stem of what the list before it holds, or undefined when
 * that list has no noun ("vnet" and "subnet" for …/vnets/{vnet}/subnets/{subnet}; the last is the
 * endpoint's own item, or the item it is below).
 */
export function listsThrough(path: string, listed: ReadonlyMap<string, string>): (string | undefined)[] {
  const segments = path.split("/");
  return segments.flatMap((s, at) => (s.startsWith("{") ? [listed.get(segments.slice(0, at).join("/"))] : []));
}

/** Words by which a flag's description says its action is off. */
const OFF = /\b(?:not|no|never|suspend\w*|disabl\w*|ignor\w*|prevent\w*|paus\w*)\b/i;

/**
 * Whether two stems are one action: equal, or the first the second with at most three letters
 * more that the stemmer kept ("rebalanc" of rebalancing and "rebal" of rebalance). "download" is
 * no "down", "write" no "writecach".
 */
export function sameAction(stemmed: string, action: string): boolean {
  return (
    stemmed === action || (action.length >= 4 && stemmed.startsWith(action) && stemmed.length - action.length <= 3)
  );
}

/** A flag that turns an action off: its term, and the stems of its description ("mark" and "out" of noout's). */
export interface NegatedFlag {
  flag: string;
  described: ReadonlySet<string>;
}

/**
 * Parameters named "no" and an action that their own description says is off: Ceph's `noout`
 * ("OSDs will not automatically be marked out"), `norebalance` ("Rebalancing of PGs is
 * suspended"). By the stem of the action. "nodes", "notes" or `nocow` ("Set the NOCOW flag")
 * say no action of theirs.
 */
export function negatedFlags(endpoints: readonly Endpoint[], stems?: Map<string, string>): Map<string, NegatedFlag> {
  const out = new Map<string, NegatedFlag>();
  for (const e of endpoints) {
    for (const [name, p] of Object.entries(e.parameters)) {
      const action = /^no([a-z]{3,})$/.exec(name)?.[1];
      const key = action === undefined ? undefined : stem(action, stems);
      if (key === undefined || out.has(key)) continue;
      const text = typeof p.description === "string" ? p.description : "";
      // Its description says the action is off ("will not", "suspended", "disabled", "ignored"),
      // not merely that a flag exists ("Enable SMURFS filter.").
      if (!OFF.test(text)) continue;
      const described = words(text).map((w) => stem(w, stems));
      if (described.some((d) => sameAction(d, key)))
        out.set(key, { flag: stem(name, stems), described: new Set(described) });
    }
  }
  return out;
}

/**
 * The paths in a file system the endpoints' descriptions say, less the punctuation after them
 * ("/etc/hosts"); not an API path ("/cluster/acme/meta").
 */
function describedPaths(endpoints: readonly Endpoint[]): Set<string> {
  return new Set(
    endpoints
      .flatMap((e) => e.description.match(/(?<=^|\s)\/[\w.@+-]+(?:\/[\w.@+-]+)*/g) ?? [])
      .map((path) => path.replace(/[.,;:]+$/, ""))
      .filter((path) => valueKinds(path).includes("file")),
  );
}

/** The `type` enum of the endpoint that defines storages (POST /storage): zfs, zfspool, lvm, lvmthin, nfs, pbs... */
function storageTypes(endpoints: readonly Endpoint[]): Set<string> {
  const define = endpoints.find((e) => e.method === "POST" && e.path === "/storage");
  return new Set((define?.parameters.type?.enum ?? []).filter((v): v is string => typeof v === "string"));
}

/** Enums of kinds counted per endpoint, at most (the schema's most is a handful). */
export const ENUMS_PER_ENDPOINT = 256;

/** Which enums of kinds of which endpoints each term is a value of. */
function enumSpans(endpoints: readonly Endpoint[], terms: TermCache, postings: Postings): Map<string, number[]> {
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

/**
 * What the VM and the container variant of one answer share: the method and the path, with the
 * guest's kind left out. At most two endpoints share one (search-rank.ts relies on it).
 */
export function familyKey(e: { method: string; path: string }): string {
  return `${e.method} ${e.path.replace(/^\/nodes\/\{node\}\/(qemu|lxc)(?=\/|$)/, "/nodes/{node}/guest")}`;
}

/**
 * The collections whose item placeholder names their items otherwise than their path does
 * (/access/domains/{realm}: a realm is a domain's item), by the placeholder's stem; not when the
 * placeholder is a collection's own noun, nor when it names items of two collections.
 */
export function collectionAliases(
  endpoints: readonly Endpoint[],
  listed: ReadonlyMap<string, string>,
  stems: StemMemo,
): Map<string, string> {
  const collections = new Set(listed.values());
  const found = new Map<string, Set<string>>();
  for (const e of endpoints) {
    const m = /^(.*)\/\{([a-z]+)\}$/.exec(e.path);
    const collection = m ? listed.get(m[1]!) : undefined;
    if (!m || collection === undefined) continue;
    const noun = stem(m[2]!.replace(/id$/, ""), stems);
    if (noun.length < 3 || noun === collection || collections.has(noun)) continue;
    found.set(noun, (found.get(noun) ?? new Set()).add(collection));
  }
  const aliases = new Map<string, string>();
  for (const [noun, of] of found) if (of.size === 1) aliases.set(noun, [...of][0]!);
  return aliases;
}

/** Each endpoint's place among equal ranks (SearchIndex.tieOrder). */
export function tieOrderOf(endpoints: readonly { path: string }[]): Int32Array {
  const ids = endpoints.map((_, id) => id);
  ids.sort((a, b) => {
    const pa = endpoints[a]!.path;
    const pb = endpoints[b]!.path;
    return pa.length - pb.length || pa.localeCompare(pb) || a - b;
  });
  const order = new Int32Array(endpoints.length);
  ids.forEach((id, place) => (order[id] = place));
  return order;
}

/** The stems of the words of the POSTs' paths and `type` values, and what they create (SearchIndex.postWords). */
function postWords(endpoints: readonly Endpoint[], creatable: ReadonlySet<string>, stems: StemMemo): Set<string> {
  const out = new Set(creatable);
  for (const e of endpoints) {
    if (e.method !== "POST") continue;
    const kinds = (e.parameters.type?.enum ?? []).filter((v): v is string => typeof v === "string");
    const named = [...e.path.split("/").filter((s) => s && !s.startsWith("{")), ...kinds];
    for (const name of named) for (const w of identifierWords(name)) out.add(stem(w, stems));
  }
  return out;
}

/** What an index's summary says it indexes: the word before "index" ("QEMU Guest Agent command index."), not "directory". */
export function indexNoun(description: string, stems: StemMemo): string | undefined {
  const word = /(\w+) index\b/i.exec(firstSentence(description))?.[1]?.toLowerCase();
  return word === undefined || word === "directory" ? undefined : stem(word, stems);
}
