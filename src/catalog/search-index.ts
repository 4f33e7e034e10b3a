// Builds the search index: each endpoint a small document of weighted fields, plus the facts
// about it that the score factors use (guest kind, item or collection, navigation, twins).
import type { Endpoint } from "./model.ts";
import { stem } from "./stem.ts";
import { EQUIVALENT_GROUPS, RELATED } from "./synonyms.ts";
import { firstSentence, identifierWords, markupToText, STOPWORDS, words } from "./text.ts";
import { buildParamDocs, type ParamDocs } from "./search-params.ts";
import { Postings, TermCache, type PhraseTable } from "./search-terms.ts";

const FIELD = {
  lastSegment: 4,
  segment: 2,
  name: 3,
  summary: 2,
  description: 1,
  paramName: 0.7,
  enumValue: 0.5,
  paramText: 0.15,
  returnName: 0.8,
  /** Words of the docs about the endpoint: its CLI commands, the prose around their examples. */
  docs: 0.5,
} as const;

/** Words of handler names that say what is done, which the method already tells, or which guest. */
const IDENTITY_GENERIC = new Set(
  "index idx get read list create update delete set add remove new vm vms ct qemu lxc cmd dir diridx".split(" "),
);

export interface SearchIndex {
  endpoints: readonly Endpoint[];
  postings: Postings;
  /** The parameters of write endpoints, each a document of its own. */
  params: ParamDocs;
  /** 1 for endpoints that set things (PUT, or a POST that creates, adds or changes) rather than act. */
  setter: Uint8Array;
  /** Where an endpoint acts: the cluster (/cluster), one node (/nodes/{node}, its guests too), or elsewhere. */
  scope: ("cluster" | "node" | "other")[];
  /** 1 for endpoints acting on every guest at once (startall, bulk-action). */
  bulk: Uint8Array;
  /** 1 for the endpoints that create (or restore) a guest: POST on the VM or container collection. */
  createsGuest: Uint8Array;
  /** 1 for guest-agent commands that have a twin among the guest's own actions (agent/shutdown, status/shutdown). */
  agentTwin: Uint8Array;
  /** For a GET list whose items have a GET of their own: the stem of its last segment ("role" for /access/roles). */
  collectionOf: (string | undefined)[];
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
  stems: Map<string, string>;
  summaries: string[];
  /** 1 for endpoints of VMs (the collection or one VM), 2 of containers, 0 otherwise. */
  guestKind: Uint8Array;
  /** 1 for endpoints of one guest (the path holds {vmid}). */
  oneGuest: Uint8Array;
  /** 1 for one item of a collection: the path ends with a placeholder and one object comes back, not a list. */
  itemOfCollection: Uint8Array;
  /** 1 for directory indexes that only list child paths. */
  navigation: Uint8Array;
  /** 1 for websocket upgrades. */
  websocket: Uint8Array;
  /** Endpoints that are one answer in two variants (the VM and the container one) share a number. */
  families: Int32Array;
  /** What each endpoint is (its last segment and handler name), as units of alternative stems. */
  identity: string[][][];
  /** Stems of the words of last path segments: the actions and objects the API names. */
  lastSegmentStems: Set<string>;
  /** Run-together words of paths and handler names that do not split into known words ("fstrim"). */
  compounds: string[];
}

/** Names of the fields an endpoint returns ("quorate", "avail"): what a reader asks for. */
function returnFields(returns: unknown, names: string[], depth = 0): void {
  if (!returns || typeof returns !== "object" || depth > 3) return;
  const r = returns as { properties?: unknown; items?: unknown };
  if (r.properties && typeof r.properties === "object") {
    for (const [name, prop] of Object.entries(r.properties as Record<string, unknown>)) {
      names.push(name);
      returnFields(prop, names, depth + 1);
    }
  }
  if (r.items) returnFields(r.items, names, depth + 1);
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
  returnName: string[];
  docs: readonly string[];
}

/** An endpoint's one-line description, as results show it. */
export function summaryOf(e: Endpoint): string {
  return firstSentence(firstSentence(markupToText(e.description), Infinity));
}

function endpointFields(e: Endpoint, docs: readonly string[]): Fields {
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
    returnName: [],
    docs,
  };
  for (const [name, p] of Object.entries(e.parameters)) {
    fields.paramName.push(name);
    for (const value of p.enum ?? []) if (typeof value === "string") fields.enumValue.push(value);
    if (p.description) fields.paramText.push(p.description);
  }
  returnFields(e.returns, fields.returnName);
  return fields;
}

/**
 * What each endpoint is, in words: those of its last segment and handler name that say more
 * than the method or the guest type. A unit holds a word's stem and those of its parts.
 */
function identityUnits(
  lastWords: readonly string[][],
  nameWords: readonly string[][],
  terms: TermCache,
  vocabulary: Map<string, number>,
  stems: Map<string, string>,
): string[][][] {
  const generic = (w: string) => STOPWORDS.has(w) || IDENTITY_GENERIC.has(w) || /^\d+$/.test(w);
  const unitOf = new Map<string, string[] | null>();
  const unit = (w: string): string[] | null => {
    let found = unitOf.get(w);
    if (found !== undefined) return found;
    const pieces = terms.split(w)?.filter((p) => !generic(p));
    // Jargon of handler names that no description uses ("async") is no one's word for it, and
    // a compound of generic words ("vmlist") is generic.
    found =
      generic(w) || (pieces ? pieces.length === 0 : !vocabulary.has(w))
        ? null
        : [stem(w, stems), ...(pieces ?? []).map((p) => stem(p, stems))];
    unitOf.set(w, found);
    return found;
  };
  return lastWords.map((last, id) => {
    const units: string[][] = [];
    const seen = new Set<string>();
    for (const w of [...last, ...nameWords[id]!]) {
      if (seen.has(w)) continue;
      seen.add(w);
      const u = unit(w);
      if (u) units.push(u);
    }
    return units;
  });
}

/** PUT, or a POST whose handler creates, adds or changes (create_vm, add_tfa_entry, change_repository). */
function isSetter(e: Endpoint): boolean {
  if (e.method === "PUT") return true;
  return e.method === "POST" && /^(create|add|new|update|change|set|write|register|generate)(_|$|[a-z])/.test(e.name);
}

/** A write on every guest at once: "Start all VMs and containers located on this node", "Bulk shutdown all guests". */
function isBulk(e: Endpoint): boolean {
  return e.method !== "GET" && /\b(bulk|all (vms|guests|containers))\b/i.test(e.description);
}

/** GET lists whose items have a GET: the stem of what they list. */
function collections(endpoints: readonly Endpoint[], stems: Map<string, string>): (string | undefined)[] {
  const itemGets = new Set(
    endpoints
      .filter((e) => e.method === "GET" && /\/\{[^{}]+\}$/.test(e.path))
      .map((e) => e.path.replace(/\/\{[^{}]+\}$/, "")),
  );
  return endpoints.map((e) => {
    if (e.method !== "GET" || !itemGets.has(e.path)) return undefined;
    const last = e.path.split("/").pop()!;
    return last.startsWith("{") ? undefined : stem(words(last).join(""), stems);
  });
}

/** Agent commands named like one of the guest's own actions: agent/suspend-ram beside status/suspend. */
function agentTwins(endpoints: readonly Endpoint[]): Uint8Array {
  const paths = new Set(endpoints.map((e) => e.path));
  return Uint8Array.from(endpoints, (e) => {
    const m = /^(.*)\/agent\/([a-z]+)[^/]*$/.exec(e.path);
    return m && paths.has(`${m[1]}/status/${m[2]}`) ? 1 : 0;
  });
}

/** A GET that only lists the child paths below it ("Directory index"). */
function isNavigation(e: Endpoint): boolean {
  if (e.method !== "GET") return false;
  if (/directory index/i.test(e.description)) return true;
  const r = e.returns as { links?: unknown; items?: { properties?: Record<string, unknown> } } | undefined;
  if (!r || !Array.isArray(r.links) || r.links.length === 0) return false;
  const props = Object.keys(r.items?.properties ?? {});
  return props.every((p) => p === "subdir");
}

const TEXT_FIELDS = ["summary", "description", "paramText"] as const;
const PARAMETER_FIELDS: ReadonlySet<string> = new Set(["paramName", "enumValue", "paramText"]);
const IDENTIFIER_FIELDS = ["lastSegment", "segment", "name", "paramName", "enumValue", "returnName"] as const;

/**
 * The index of the endpoints; `docs` adds, per endpoint, texts from the cluster's docs as one
 * more low-weight field. Docs words do not join the vocabulary that splits and joins the API's
 * run-together names, so the schema's own words are read the same with or without docs.
 */
export function buildSearchIndex(endpoints: readonly Endpoint[], docs?: readonly (readonly string[])[]): SearchIndex {
  const stems = new Map<string, string>();
  const fieldsOf = endpoints.map((e, id) => endpointFields(e, docs?.[id] ?? []));
  const vocabulary = new Map<string, number>();
  for (const group of EQUIVALENT_GROUPS) {
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
  EQUIVALENT_GROUPS.forEach((group, id) => {
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
  endpoints.forEach((_, id) => {
    const fields = [...textTerms[id]!, ...identifierTerms[id]!];
    fields.forEach((items, f) => {
      fieldStamp++;
      const w = fieldWeights[f]!;
      for (const item of items) {
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
      postings.add(term, id, weight[term]!, own[term] === 0);
      weight[term] = 0;
      own[term] = 0;
    }
    touched.length = 0;
  });
  // The docs bring the words the schema lacks ("virtiofs", "prefer", "maintenance"): only those
  // are indexed from them, so the schema's own words rank as they do without docs.
  // Names in the examples (pve2, node1, vm:100) are no words for anything.
  const schemaHas = (term: number) => postings.has(postings.termOf(term)) || /\d/.test(postings.termOf(term));
  const fromDocs = new Map<number, number[]>();
  docsTerms.forEach((items, id) => {
    const seen = new Set<number>();
    for (const item of items) for (const term of item) if (!seen.has(term) && !schemaHas(term)) seen.add(term);
    for (const term of seen) fromDocs.set(term, [...(fromDocs.get(term) ?? []), id]);
  });
  for (const [term, ids] of fromDocs) for (const id of ids) postings.add(term, id, FIELD.docs);

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
  const itemOfCollection = Uint8Array.from(endpoints, (e) =>
    /\}$/.test(e.path) && (e.returns as { type?: unknown } | undefined)?.type !== "array" ? 1 : 0,
  );
  const navigation = Uint8Array.from(endpoints, (e) => (isNavigation(e) ? 1 : 0));
  const websocket = Uint8Array.from(endpoints, (e) => (/websocket/i.test(e.path) ? 1 : 0));
  const familyOf = new Map<string, number>();
  const families = Int32Array.from(endpoints, (e) => {
    const key = `${e.method} ${e.path.replace(/^\/nodes\/\{node\}\/(qemu|lxc)(?=\/|$)/, "/nodes/{node}/guest")}`;
    let family = familyOf.get(key);
    if (family === undefined) familyOf.set(key, (family = familyOf.size));
    return family;
  });
  const summaries = endpoints.map(summaryOf);
  // Words of each endpoint's last segment and of its handler name.
  const lastWords = fieldsOf.map((f) => identifierWords(f.lastSegment[0] ?? ""));
  const nameWords = fieldsOf.map((f) => identifierWords(f.name[0] ?? ""));
  const identity = identityUnits(lastWords, nameWords, terms, vocabulary, stems);
  const compounds = new Set<string>();
  const lastSegmentStems = new Set<string>();
  lastWords.forEach((last, id) => {
    for (const w of last) lastSegmentStems.add(stem(w, stems));
    for (const w of [...last, ...nameWords[id]!]) {
      if (w.length >= 6 && !compounds.has(w) && !/\d/.test(w) && !terms.split(w)) compounds.add(w);
    }
  });
  return {
    endpoints,
    postings,
    params: buildParamDocs(endpoints, terms, postings),
    setter: Uint8Array.from(endpoints, (e) => (isSetter(e) ? 1 : 0)),
    scope: endpoints.map((e) =>
      e.path.startsWith("/cluster") ? "cluster" : e.path.startsWith("/nodes/{node}") ? "node" : "other",
    ),
    bulk: Uint8Array.from(endpoints, (e) => (isBulk(e) ? 1 : 0)),
    createsGuest: Uint8Array.from(endpoints, (e) =>
      e.method === "POST" && /^\/nodes\/\{node\}\/(qemu|lxc)$/.test(e.path) ? 1 : 0,
    ),
    agentTwin: agentTwins(endpoints),
    collectionOf: collections(endpoints, stems),
    vocabulary,
    groups,
    groupsOfWord,
    groupsOfStem,
    leads,
    phrases,
    related,
    stems,
    summaries,
    guestKind,
    oneGuest,
    itemOfCollection,
    navigation,
    websocket,
    families,
    identity,
    compounds: [...compounds],
    lastSegmentStems,
  };
}
