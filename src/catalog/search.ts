import type { Endpoint } from "./model.ts";
import { stem } from "./stem.ts";
import {
  EQUIVALENT_GROUPS,
  GROUP_METHOD_HINTS,
  METHOD_HINTS,
  NOUN_VERBS,
  PHRASAL_VERBS,
  RELATED,
  SHORT_WORDS,
  type MethodName,
} from "./synonyms.ts";
import { firstSentence, identifierWords, markupToText, STOPWORDS, words } from "./text.ts";

/**
 * Ranked search over endpoints. Each endpoint is a small document with weighted fields
 * (path segments, handler name, description, parameters, enum values, returned fields);
 * query words are stemmed, joined or split where the API runs words together
 * ("roll back" / rollback, nextid / next id), expanded with domain synonyms, and scored
 * per concept with IDF, so matching more of what was asked beats repeating one word.
 * Verbs mostly say the method; an endpoint loses a little for each word of its name that
 * was not asked for, so the endpoint that is what was asked beats one that merely mentions it.
 */

export interface SearchOptions {
  method?: string | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

export interface SearchHit {
  method: string;
  path: string;
  description: string;
  /** Present and true only when the endpoint refuses API tokens. */
  refusesTokens?: true;
  score: number;
}

export interface SearchPage {
  total: number;
  hits: SearchHit[];
}

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
} as const;

const EQUIVALENT_WEIGHT = 0.8;
const RELATED_WEIGHT = 0.45;
const METHOD_BOOST = 1.5;
const ASSUMED_METHOD_BOOST = 1.15;
const OTHER_WRITE_BOOST = 1.2;
const WRITES = new Set(["POST", "PUT"]);
const OTHER_GUEST_FACTOR = 0.75;
const EITHER_GUEST_LXC_FACTOR = 0.95;
const UNASKED_GUEST_FACTOR = 0.85;
const NODE_NOT_GUEST_FACTOR = 0.7;
const ITEM_FACTOR = 0.9;
const NOT_THE_GUEST_FACTOR = 0.85;
const NAVIGATION_FACTOR = 0.8;
const WEBSOCKET_FACTOR = 0.7;
const MODIFIER_WEIGHT = 0.6;
const GENERIC_WEIGHT = 0.5;
const FULL_MATCH = 1.5;
const SATURATION = 2;
/** How much rarer than itself the API's word for a synonym typed may count ("move" -> migrate). */
const SYNONYM_RAISE = 1.2;
/** Score lost, in proportion, for the words naming an endpoint (last segment, handler name) that were not asked for. */
const IDENTITY_MISS = 0.3;
/** A word found inside one of the API's run-together names ("trim" in fstrim). */
const SUBWORD_WEIGHT = 0.7;
/** A verb that only says the method ("add", "revoke", "show"). */
const VERB_WEIGHT = 0.5;
/** Words of handler names that say what is done, which the method already tells, or which guest. */
const IDENTITY_GENERIC = new Set(
  "index idx get read list create update delete set add remove new vm vms ct qemu lxc cmd dir diridx".split(" "),
);
/** Groups of verbs that say no more than the method ("edit" is an update even though apt has an "update"). */
const CRUD_LEADS = new Set(["create", "delete", "update", "list"]);

export interface SearchIndex {
  endpoints: readonly Endpoint[];
  postings: Postings;
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

/** Splits a run-together word into known words ("prunebackups" -> prune, backups), or undefined. */
export function splitCompound(word: string, vocabulary: Map<string, number>): string[] | undefined {
  const n = word.length;
  if (n < 5) return undefined;
  // Fewest known parts covering word[0, end): count and where the last part starts (-1: none).
  const count = new Int16Array(n + 1).fill(-1);
  const from = new Int16Array(n + 1);
  count[0] = 0;
  for (let end = 2; end <= n; end++) {
    for (let start = Math.max(0, end - 20); start <= end - 2; start++) {
      const before = count[start]!;
      if (before < 0 || (start === 0 && end === n)) continue;
      if (count[end]! >= 0 && before + 1 >= count[end]!) continue;
      const part = word.slice(start, end);
      if (!(part.length >= 3 ? vocabulary.has(part) : SHORT_WORDS.has(part))) continue;
      count[end] = before + 1;
      from[end] = start;
    }
  }
  if (count[n]! < 2 || count[n]! > 3) return undefined;
  const parts: string[] = [];
  for (let end = n; end > 0; end = from[end]!) parts.unshift(word.slice(from[end]!, end));
  // A word used on its own more often than its parts ("template", not temp + late) stays whole.
  const ownCount = vocabulary.get(word) ?? 0;
  if (ownCount > 0 && parts.some((p) => (vocabulary.get(p) ?? (SHORT_WORDS.has(p) ? Infinity : 0)) <= ownCount))
    return undefined;
  return parts;
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
}

function endpointFields(e: Endpoint): Fields {
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
  };
  for (const [name, p] of Object.entries(e.parameters)) {
    fields.paramName.push(name);
    for (const value of p.enum ?? []) if (typeof value === "string") fields.enumValue.push(value);
    if (p.description) fields.paramText.push(p.description);
  }
  returnFields(e.returns, fields.returnName);
  return fields;
}

function joinable(
  a: string,
  b: string,
  vocabulary: Map<string, number>,
  stems: Map<string, string>,
): string | undefined {
  if (a.length < 2 || b.length < 2) return undefined;
  for (const joined of [a + b, stem(a, stems) + b]) {
    if (joined.length >= 5 && vocabulary.has(joined)) return joined;
  }
  return undefined;
}

/** Phrases of the synonym groups, as sequences of stems. */
interface PhraseTable {
  byStems: Map<string, number>;
  firstStems: Set<string>;
  /** The first two stems of each phrase ("network card"), a cheap test before looking further. */
  openings: Set<string>;
  maxWords: number;
}

/** The phrase starting at `i` (longest first), as [group, length]. */
function phraseAt(stemsOf: string[], i: number, table: PhraseTable): [number, number] | undefined {
  if (!table.firstStems.has(stemsOf[i]!)) return undefined;
  for (let len = Math.min(table.maxWords, stemsOf.length - i); len >= 2; len--) {
    const id = table.byStems.get(stemsOf.slice(i, i + len).join(" "));
    if (id !== undefined) return [id, len];
  }
  return undefined;
}

/** Term -> the endpoints that have it, each with the summed weight of the fields it is in. */
export class Postings {
  private readonly ids: number[][] = [];
  private readonly weights: number[][] = [];
  private readonly byTerm = new Map<string, number>();

  get size(): number {
    return this.ids.length;
  }

  intern(term: string): number {
    let id = this.byTerm.get(term);
    if (id === undefined) {
      id = this.ids.length;
      this.byTerm.set(term, id);
      this.ids.push([]);
      this.weights.push([]);
    }
    return id;
  }

  add(termId: number, endpoint: number, weight: number): void {
    this.ids[termId]!.push(endpoint);
    this.weights[termId]!.push(weight);
  }

  get(term: string): { ids: number[]; weights: number[] } | undefined {
    const id = this.byTerm.get(term);
    if (id === undefined || this.ids[id]!.length === 0) return undefined;
    return { ids: this.ids[id]!, weights: this.weights[id]! };
  }

  has(term: string): boolean {
    return this.get(term) !== undefined;
  }
}

/**
 * Index terms of texts and identifiers, each worked out once: the same parameter
 * descriptions and names recur across hundreds of endpoints.
 */
class TermCache {
  private readonly texts = new Map<string, number[]>();
  private readonly identifiers = new Map<string, number[]>();
  private readonly splits = new Map<string, string[] | null>();
  private readonly wordInfo = new Map<string, { stem: string; term: number; opensPhrase: boolean }>();

  constructor(
    private readonly postings: Postings,
    private readonly vocabulary: Map<string, number>,
    private readonly stems: Map<string, string>,
    private readonly phrases: PhraseTable,
    private readonly leads: string[],
  ) {}

  /** Stems of a text's words, plus the group word of any phrase it contains ("virtual machine" -> vm). */
  text(text: string, countWords = false): number[] {
    let terms = this.texts.get(text);
    if (terms) return terms;
    const found = words(text);
    const out = new Set<number>();
    let stemsOf: string[] | undefined;
    for (let i = 0; i < found.length; i++) {
      const w = found[i]!;
      if (countWords) this.vocabulary.set(w, (this.vocabulary.get(w) ?? 0) + 1);
      const info = this.word(w);
      if (info.term >= 0) out.add(info.term);
      if (
        info.opensPhrase &&
        i + 1 < found.length &&
        this.phrases.openings.has(`${info.stem} ${this.word(found[i + 1]!).stem}`)
      ) {
        stemsOf ??= found.map((x) => this.word(x).stem);
        const phrase = phraseAt(stemsOf, i, this.phrases);
        if (phrase) out.add(this.postings.intern(stem(this.leads[phrase[0]]!, this.stems)));
      }
    }
    terms = Array.from(out);
    this.texts.set(text, terms);
    return terms;
  }

  /** A word's stem, its term (-1 for a stopword), and whether a phrase may start with it. */
  private word(w: string): { stem: string; term: number; opensPhrase: boolean } {
    let info = this.wordInfo.get(w);
    if (!info) {
      const st = stem(w, this.stems);
      info = {
        stem: st,
        term: STOPWORDS.has(w) ? -1 : this.postings.intern(st),
        opensPhrase: this.phrases.firstStems.has(st),
      };
      this.wordInfo.set(w, info);
    }
    return info;
  }

  /** The known words of a run-together word, worked out once. */
  split(word: string): string[] | undefined {
    let pieces = this.splits.get(word);
    if (pieces === undefined) this.splits.set(word, (pieces = splitCompound(word, this.vocabulary) ?? null));
    return pieces ?? undefined;
  }

  /** Stems of an identifier's parts, run-together words split and split words joined. */
  identifier(identifier: string): number[] {
    let terms = this.identifiers.get(identifier);
    if (terms) return terms;
    const parts = identifierWords(identifier);
    const out = new Set<number>();
    const add = (w: string) => {
      if (!STOPWORDS.has(w)) out.add(this.postings.intern(stem(w, this.stems)));
    };
    parts.forEach((w, i) => {
      add(w);
      for (const piece of this.split(w) ?? []) add(piece);
      const next = parts[i + 1];
      const joined = next === undefined ? undefined : joinable(w, next, this.vocabulary, this.stems);
      if (joined) add(joined);
    });
    terms = [...out];
    this.identifiers.set(identifier, terms);
    return terms;
  }
}

const QEMU_WORDS = new Set(["vm", "vms", "qemu", "kvm", "virtual"]);
const LXC_WORDS = new Set(["container", "containers", "ct", "cts", "lxc"]);
const GUEST_WORDS = new Set(["guest", "guests"]);
const DETERMINERS = new Set([
  "a",
  "an",
  "the",
  "my",
  "our",
  "your",
  "its",
  "their",
  "this",
  "that",
  "these",
  "those",
  "each",
  "every",
  "all",
  "some",
  "any",
]);
/** Words before the verb of a request ("please", "quickly"). */
const LEADING_WORDS = new Set([
  "please",
  "quickly",
  "kindly",
  "now",
  "then",
  "also",
  "i",
  "we",
  "want",
  "need",
  "to",
  "how",
]);

/** Words that ask for more about one thing rather than name a thing. */
const GENERIC_WORDS = new Set(["details", "detail", "information", "info", "data", "entries", "entry", "properties"]);

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

const NODE_WORDS = new Set(["node", "nodes", "host", "hosts", "hypervisor", "physical"]);

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
const IDENTIFIER_FIELDS = ["lastSegment", "segment", "name", "paramName", "enumValue", "returnName"] as const;

export function buildSearchIndex(endpoints: readonly Endpoint[]): SearchIndex {
  const stems = new Map<string, string>();
  const fieldsOf = endpoints.map(endpointFields);
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
        phrases.byStems.set(entryStems.join(" "), id);
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
  const fieldWeights = [...TEXT_FIELDS.map((f) => FIELD[f]), ...IDENTIFIER_FIELDS.map((f) => FIELD[f])];
  // A term counts once per field, whatever the number of parameters repeating it.
  const stamp = new Int32Array(postings.size).fill(-1);
  const weight = new Float64Array(postings.size);
  const touched: number[] = [];
  let fieldStamp = 0;
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
        }
      }
    });
    for (const term of touched) {
      postings.add(term, id, weight[term]!);
      weight[term] = 0;
    }
    touched.length = 0;
  });

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
  const summaries = fieldsOf.map((f) => firstSentence(f.summary[0]!));
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

interface Concept {
  /** term -> weight within the concept (the best matching term counts). */
  terms: Map<string, number>;
  /** The stems of the words actually typed. */
  primaries: Set<string>;
  weight: number;
  /** Synonyms typed side by side ("user account"): the concept is as rare as the commonest of them. */
  capWith?: string[];
  /** The API's own word for what was typed in other words ("move" -> migrate): it counts as rare as the word typed. */
  apiWords?: Set<string>;
}

export interface QueryAnalysis {
  concepts: Concept[];
  method: MethodName | undefined;
  /** Whether the method was said (a verb) or assumed (a question or a noun phrase reads). */
  methodStated: boolean;
  guest: "qemu" | "lxc" | "any" | "none";
  /** The query is about one particular object: it names one (a number, an ID, a path) or asks for its details. */
  oneItem: boolean;
  /** The query names one guest by number ("VM 100", "container 105"). */
  namesGuest: boolean;
  /** The query speaks of the node (host) itself. */
  namesNode: boolean;
}

/** How much a word counts: values such as names, IDs and paths count little. */
function chunkWeight(chunk: string): number {
  if (/[/@:=]/.test(chunk)) return 0.3;
  return 1;
}

interface Token {
  word: string;
  weight: number;
  /** The first content word of a clause, where a verb says what is wanted. */
  clauseStart: boolean;
  /** Part of a value such as a path or an ID ("/etc/hosts", "bob@pve"): taken literally. */
  literal: boolean;
}

/** The query's words with their weights; `namesValue` when it names an object (a number, an ID, a path). */
export function tokenize(index: SearchIndex, query: string): { tokens: Token[]; namesValue: boolean } {
  const tokens: Token[] = [];
  let newClause = true;
  let afterFrom = false;
  let namesValue = false;
  // "S.M.A.R.T." -> "SMART"; "VM's" -> "VM".
  const text = query.replace(/\b(?:[a-z]\.){2,}[a-z]?\b\.?/gi, (m) => m.replace(/\./g, "")).replace(/'s\b/gi, "");
  for (const chunk of text.split(/\s+/)) {
    const base = chunkWeight(chunk);
    if (base < 1 || /\d/.test(chunk)) namesValue = true;
    const chunkWords = words(chunk);
    // "local-lvm" is a name, "cloud-init" a word of the API.
    const hyphenated = chunkWords.length > 1 && /^[a-z0-9]+(-[a-z0-9]+)+[.,;:!?]*$/i.test(chunk);
    const known =
      hyphenated &&
      (index.vocabulary.has(chunkWords.join("")) ||
        index.phrases.byStems.has(chunkWords.map((w) => stem(w, index.stems)).join(" ")));
    for (const w of chunkWords) {
      let weight = base;
      if (hyphenated && !known) weight = Math.min(weight, 0.5);
      // "... from a template", "... with privilege separation": the means, not the goal.
      if (afterFrom) weight *= 0.6;
      const content = !STOPWORDS.has(w) && !LEADING_WORDS.has(w);
      tokens.push({ word: w, weight, clauseStart: newClause && content, literal: base < 1 });
      if (content) newClause = false;
    }
    if (/[:;,.!?]$/.test(chunk)) newClause = true;
    if (/^(from|with|using)$/i.test(chunk)) afterFrom = true;
  }
  return { tokens, namesValue };
}

/**
 * The API's run-together names that hold a word with a known word beside it ("trim" in fstrim,
 * fs + trim), which splitting cannot find when the word itself is in no description.
 */
export function compoundsWith(index: Pick<SearchIndex, "compounds" | "vocabulary">, word: string): string[] {
  if (word.length < 4) return [];
  const known = (part: string) => (part.length >= 3 ? index.vocabulary.has(part) : SHORT_WORDS.has(part));
  return index.compounds.filter((c) => {
    const rest = c.startsWith(word) ? c.slice(word.length) : c.endsWith(word) ? c.slice(0, -word.length) : "";
    return rest.length > 0 && known(rest);
  });
}

/** The method a verb asks for; a word that is as often a noun counts only where a clause starts. */
export function statedMethod(tokens: readonly Pick<Token, "word" | "clauseStart">[]): MethodName | undefined {
  for (const [i, { word, clauseStart }] of tokens.entries()) {
    const phrasal = PHRASAL_VERBS[`${word} ${tokens[i + 1]?.word}`];
    if (phrasal) return phrasal;
    const hinted = METHOD_HINTS[word];
    if (hinted && (clauseStart || !NOUN_VERBS.has(word))) return hinted;
    // "pause", "halt", "enlarge": a synonym of a verb asks what the verb asks, where a clause starts.
    const inherited = GROUP_METHOD_HINTS.get(word);
    if (inherited && clauseStart) return inherited;
  }
  return undefined;
}

/** Which kind of guest the query is about, if any. */
export function guestFacet(words: readonly string[]): QueryAnalysis["guest"] {
  const qemu = words.some((w) => QEMU_WORDS.has(w));
  const lxc = words.some((w) => LXC_WORDS.has(w));
  if (words.some((w) => GUEST_WORDS.has(w)) || (qemu && lxc)) return "any";
  return qemu ? "qemu" : lxc ? "lxc" : "none";
}

/** Query words -> concepts: phrases first, then joined and split words, then single words. */
export function analyzeQuery(index: SearchIndex, query: string): QueryAnalysis {
  const { tokens, namesValue } = tokenize(index, query);
  const raw = tokens.map((t) => t.word);

  const concepts: Concept[] = [];
  const byKey = new Map<string, Concept>();
  const addConcept = (key: string, terms: Map<string, number>, primary: string | undefined, weight: number) => {
    const existing = byKey.get(key);
    if (existing) {
      existing.weight = Math.max(existing.weight, weight);
      if (primary) {
        existing.primaries.add(primary);
        existing.terms.set(primary, 1);
      }
      return existing;
    }
    const concept: Concept = { terms, primaries: new Set(primary ? [primary] : []), weight };
    byKey.set(key, concept);
    concepts.push(concept);
    return concept;
  };
  const groupConcept = (ids: number[], primary: string | undefined, relatedKeys: string[], weight: number) => {
    const terms = new Map<string, number>();
    // The first member of a group is the API's own word and counts fully.
    const groupWeight = primary === undefined ? 1 : EQUIVALENT_WEIGHT;
    for (const id of ids) {
      index.groups[id]!.forEach((t, i) => terms.set(t, Math.max(terms.get(t) ?? 0, i === 0 ? 1 : groupWeight)));
    }
    for (const key of relatedKeys) {
      for (const t of index.related.get(key) ?? []) if (!terms.has(t)) terms.set(t, RELATED_WEIGHT);
    }
    if (primary) terms.set(primary, 1);
    // Each word typed is its own concept; a phrase stands for its group.
    const key = primary ? `w${primary}` : `g${[...ids].sort((a, b) => a - b).join(",")}`;
    const concept = addConcept(key, terms, primary, weight);
    if (primary) {
      const apiWords = ids.map((id) => index.groups[id]![0]!).filter((lead) => lead !== primary);
      if (apiWords.length) concept.apiWords = new Set([...(concept.apiWords ?? []), ...apiWords]);
    }
    return concept;
  };
  const groupsOf = (word: string) =>
    index.groupsOfWord.get(word) ?? index.groupsOfStem.get(stem(word, index.stems)) ?? [];
  const wordConcept = (word: string, weight: number, literal = false) => {
    const s = stem(word, index.stems);
    if (literal) return groupConcept([], s, [], weight);
    const ids = groupsOf(word);
    const concept = groupConcept(ids, s, [word, s, ...ids.map((id) => index.leads[id]!)], weight);
    for (const compound of compoundsWith(index, word)) {
      const term = stem(compound, index.stems);
      if (!concept.terms.has(term)) concept.terms.set(term, SUBWORD_WEIGHT);
    }
    return concept;
  };
  const sameGroup = (a: string | undefined, b: string | undefined) =>
    a !== undefined && b !== undefined && groupsOf(a).some((id) => groupsOf(b).includes(id));

  let method = statedMethod(tokens);
  const methodStated = method !== undefined;
  // Words of values ("/vms", "/etc/hosts") name no guest or node.
  const spoken = raw.filter((_, i) => !tokens[i]!.literal);
  const guest = guestFacet(spoken);

  const consumed = new Array<boolean>(raw.length).fill(false);
  const rawStems = raw.map((w) => stem(w, index.stems));
  for (let i = 0; i < raw.length; i++) {
    const phrase = phraseAt(rawStems, i, index.phrases);
    if (!phrase) continue;
    const id = phrase[0];
    let len = phrase[1];
    // "lvm thin pool": phrases of one group that overlap ("lvm thin", "thin pool") are one mention.
    for (let j = i + 1; j < i + len; j++) {
      const next = phraseAt(rawStems, j, index.phrases);
      if (next && next[0] === id) len = Math.max(len, j - i + next[1]);
    }
    const inPhrase = tokens.slice(i, i + len);
    const content = inPhrase.filter((t) => !STOPWORDS.has(t.word));
    groupConcept(
      [id],
      undefined,
      [index.leads[id]!],
      Math.max(...(content.length ? content : inPhrase).map((t) => t.weight)),
    );
    for (let k = i; k < i + len; k++) consumed[k] = true;
    i += len - 1;
  }
  for (let i = 0; i < raw.length - 1; i++) {
    if (consumed[i] || consumed[i + 1]) continue;
    const joined = joinable(raw[i]!, raw[i + 1]!, index.vocabulary, index.stems);
    if (!joined) continue;
    wordConcept(joined, Math.max(tokens[i]!.weight, tokens[i + 1]!.weight));
    consumed[i] = consumed[i + 1] = true;
  }
  let previous: { word: string; concept: Concept; index: number } | undefined;
  let asksForOne = false;
  raw.forEach((w, i) => {
    if (consumed[i] || STOPWORDS.has(w)) return;
    let weight = tokens[i]!.weight;
    const next = raw[i + 1];
    // "a paused VM", "the datacenter firewall": the word between a determiner and its noun only qualifies it.
    if (
      DETERMINERS.has(raw[i - 1] ?? "") &&
      next &&
      !STOPWORDS.has(next) &&
      !/^\d+$/.test(next) &&
      !METHOD_HINTS[w] &&
      !sameGroup(w, next)
    ) {
      weight *= MODIFIER_WEIGHT;
    }
    // "revoke", "add", "open": a verb that names no endpoint only says the method.
    const methodOnly =
      METHOD_HINTS[w] !== undefined &&
      (tokens[i]!.clauseStart || !NOUN_VERBS.has(w)) &&
      !groupsOf(w).some(
        (g) => !CRUD_LEADS.has(index.leads[g]!) && index.groups[g]!.some((t) => index.lastSegmentStems.has(t)),
      ) &&
      !index.lastSegmentStems.has(stem(w, index.stems));
    if (methodOnly) weight *= VERB_WEIGHT;
    if (GENERIC_WORDS.has(w)) {
      weight *= GENERIC_WEIGHT;
      asksForOne = true;
    }
    // "user account", "apt repositories": synonyms side by side name one thing, which is no
    // rarer than the commoner word ("account" alone would favour the rare ACME account).
    if (previous && previous.index === i - 1 && sameGroup(previous.word, w)) {
      const concept = wordConcept(w, weight);
      concept.capWith = previous.concept.capWith = [...previous.concept.primaries, ...concept.primaries];
      previous = { word: w, concept, index: i };
      return;
    }
    const s = stem(w, index.stems);
    const known = index.postings.has(s) || index.groupsOfWord.has(w) || index.groupsOfStem.has(s);
    if (/^\d+$/.test(w)) return;
    if (!known) {
      if (/\d/.test(w)) return;
      const parts = splitCompound(w, index.vocabulary);
      if (parts) {
        for (const p of parts) if (!STOPWORDS.has(p)) wordConcept(p, weight);
        return;
      }
    }
    const concept = wordConcept(w, weight, tokens[i]!.literal);
    if (methodOnly) delete concept.apiWords;
    previous = { word: w, concept, index: i };
  });
  if (!method && concepts.length > 0) method = "GET";
  const namesNode = spoken.some((w) => NODE_WORDS.has(w));
  const namesGuest = raw.some((w, i) => (QEMU_WORDS.has(w) || LXC_WORDS.has(w)) && /^\d+$/.test(raw[i + 1] ?? ""));
  return { concepts, method, methodStated, guest, oneItem: namesValue || asksForOne, namesNode, namesGuest };
}

export function runSearch(index: SearchIndex, query: string, options: SearchOptions = {}): SearchPage {
  const n = index.endpoints.length;
  const analysis = analyzeQuery(index, query);
  const wantMethod = options.method?.toUpperCase();
  const scores = new Float64Array(n);
  const matched = new Float64Array(n);
  const best = new Float64Array(n);
  const inConcept = new Uint8Array(n);
  let totalWeight = 0;
  const idfOf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
  for (const concept of analysis.concepts) {
    best.fill(0);
    // A synonym can be no rarer than the word typed: "cluster" must not score like "datacenter".
    let cap = 0;
    for (const p of concept.primaries) {
      const list = index.postings.get(p);
      if (list) cap = Math.max(cap, idfOf(list.ids.length));
    }
    for (const p of concept.capWith ?? []) {
      const list = index.postings.get(p);
      if (list) cap = Math.min(cap, idfOf(list.ids.length));
    }
    if (cap === 0) {
      inConcept.fill(0);
      let df = 0;
      let looseDf = 0;
      for (const [term, termWeight] of concept.terms) {
        for (const id of index.postings.get(term)?.ids ?? []) {
          if (inConcept[id] === 0) {
            inConcept[id] = 1;
            looseDf++;
          }
          if (termWeight >= EQUIVALENT_WEIGHT && inConcept[id] === 1) {
            inConcept[id] = 2;
            df++;
          }
        }
      }
      if (looseDf === 0) continue;
      cap = idfOf(df || looseDf);
    }
    for (const [term, termWeight] of concept.terms) {
      const list = index.postings.get(term);
      if (!list) continue;
      const df = list.ids.length;
      const idf =
        concept.primaries.has(term) && !concept.capWith
          ? idfOf(df)
          : concept.apiWords?.has(term) && !concept.capWith
            ? Math.min(cap, idfOf(df) * SYNONYM_RAISE)
            : Math.min(idfOf(df), cap);
      for (let k = 0; k < df; k++) {
        const id = list.ids[k]!;
        const tf = list.weights[k]!;
        const value = termWeight * idf * ((tf * (SATURATION + 1)) / (tf + SATURATION));
        if (value > best[id]!) best[id] = value;
      }
    }
    totalWeight += concept.weight;
    for (let id = 0; id < n; id++) {
      if (best[id]! > 0) {
        scores[id] = scores[id]! + concept.weight * best[id]!;
        // A passing mention (one parameter's description) covers a concept only partly.
        matched[id] = matched[id]! + concept.weight * Math.min(1, best[id]! / (cap * FULL_MATCH));
      }
    }
  }
  const asked = new Set<string>();
  for (const concept of analysis.concepts) for (const t of concept.terms.keys()) asked.add(t);
  const results: { id: number; score: number }[] = [];
  for (let id = 0; id < n; id++) {
    if (scores[id] === 0) continue;
    const e = index.endpoints[id]!;
    if (wantMethod && e.method !== wantMethod) continue;
    const coverage = totalWeight ? matched[id]! / totalWeight : 0;
    let score = scores[id]! * (0.4 + 0.6 * coverage);
    if (analysis.method && e.method === analysis.method)
      score *= analysis.methodStated ? METHOD_BOOST : ASSUMED_METHOD_BOOST;
    // Proxmox writes with POST and PUT alike ("edit /etc/hosts" is a POST, "add a repository" a PUT).
    else if (analysis.methodStated && WRITES.has(analysis.method!) && WRITES.has(e.method)) score *= OTHER_WRITE_BOOST;
    if (index.navigation[id] === 1) score *= NAVIGATION_FACTOR;
    // "back up VM 100 now": vzdump is a backup, the backup job (create_job) is also a job.
    const units = index.identity[id]!;
    if (units.length > 0) {
      let missing = 0;
      for (const unit of units) if (!unit.some((t) => asked.has(t))) missing++;
      score *= 1 - (IDENTITY_MISS * missing) / units.length;
    }
    // A websocket upgrade cannot be used through these tools; the proxy ticket endpoints can.
    if (index.websocket[id] === 1) score *= WEBSOCKET_FACTOR;
    // Without a name or number in the query, a list is likelier wanted than one item of it.
    if (!analysis.oneItem && e.method === "GET" && index.itemOfCollection[id] === 1) score *= ITEM_FACTOR;
    const kind = index.guestKind[id]!;
    // "container 105": one guest is meant, so node-wide endpoints that merely mention guests step back.
    if (index.oneGuest[id] === 0 && analysis.namesGuest && (analysis.guest === "qemu" || analysis.guest === "lxc"))
      score *= NOT_THE_GUEST_FACTOR;
    if (kind !== 0) {
      if ((analysis.guest === "qemu" && kind === 2) || (analysis.guest === "lxc" && kind === 1))
        score *= OTHER_GUEST_FACTOR;
      else if (analysis.guest === "none") score *= analysis.namesNode ? NODE_NOT_GUEST_FACTOR : UNASKED_GUEST_FACTOR;
      // Either kind of guest will do: the VM variant is the canonical one.
      if (kind === 2 && (analysis.guest === "none" || analysis.guest === "any")) score *= EITHER_GUEST_LXC_FACTOR;
    }
    results.push({ id, score });
  }
  results.sort((a, b) => {
    if (b.score !== a.score) return b.score - a.score;
    const ea = index.endpoints[a.id]!;
    const eb = index.endpoints[b.id]!;
    return ea.path.length - eb.path.length || ea.path.localeCompare(eb.path) || ea.method.localeCompare(eb.method);
  });
  diversify(results, index.families);
  const offset = Math.max(0, options.offset ?? 0);
  const limit = Math.max(1, options.limit ?? 10);
  const hits = results.slice(offset, offset + limit).map(({ id, score }) => {
    const e = index.endpoints[id]!;
    return {
      method: e.method,
      path: e.path,
      description: index.summaries[id]!,
      ...(e.allowtoken ? {} : { refusesTokens: true as const }),
      score: Math.round(score * 100) / 100,
    };
  });
  return { total: results.length, hits };
}

/** How many of the first results are kept free of near-duplicates. */
const DIVERSE_TOP = 5;

/**
 * The VM and the container variant of one endpoint are one answer twice: a twin of a result
 * already in the top five moves to just after the top five, so those show five different answers.
 */
export function diversify(results: { id: number }[], families: Int32Array): void {
  const seen = new Set<number>();
  const top: { id: number }[] = [];
  const later: { id: number }[] = [];
  let i = 0;
  for (; i < results.length && top.length < DIVERSE_TOP; i++) {
    const r = results[i]!;
    const family = families[r.id]!;
    if (seen.has(family)) later.push(r);
    else {
      seen.add(family);
      top.push(r);
    }
  }
  if (later.length === 0) return;
  results.splice(0, i, ...top, ...later);
}
