import type { Endpoint } from "./catalog.ts";
import { stem } from "./stem.ts";
import { EQUIVALENT_GROUPS, METHOD_HINTS, RELATED, SHORT_WORDS, type MethodName } from "./synonyms.ts";
import { firstSentence, identifierWords, markupToText, STOPWORDS, words } from "./text.ts";

/**
 * Ranked search over endpoints. Each endpoint is a small document with weighted fields
 * (path segments, handler name, description, parameters, enum values, returned fields);
 * query words are stemmed, joined or split where the API runs words together
 * ("roll back" / rollback, nextid / next id), expanded with domain synonyms, and scored
 * per concept with IDF, so matching more of what was asked beats repeating one word.
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
  returnText: 0.1,
} as const;

const EQUIVALENT_WEIGHT = 0.8;
const RELATED_WEIGHT = 0.45;
const METHOD_BOOST = 1.5;
const ASSUMED_METHOD_BOOST = 1.15;
const OTHER_GUEST_FACTOR = 0.75;
const UNASKED_GUEST_FACTOR = 0.85;
const NODE_NOT_GUEST_FACTOR = 0.7;
const ITEM_FACTOR = 0.9;
const NAVIGATION_FACTOR = 0.8;
const VERB_WEIGHT = 0.7;
const FULL_MATCH = 1.5;
const SATURATION = 2;

export interface SearchIndex {
  endpoints: readonly Endpoint[];
  /** stem -> (endpoint index -> field weight sum) */
  postings: Map<string, Map<number, number>>;
  /** Raw words of the descriptions with their counts, for splitting and joining words. */
  vocabulary: Map<string, number>;
  /** Synonym groups as stems; a word or phrase of a group stands for all of them. */
  groups: string[][];
  groupsOfWord: Map<string, number[]>;
  groupsOfStem: Map<string, number[]>;
  /** Phrases (word sequences) -> group. */
  phrases: Map<string, number>;
  maxPhraseWords: number;
  /** One-way hints, by raw word and by stem. */
  related: Map<string, string[]>;
  stems: Map<string, string>;
  summaries: string[];
  /** 1 for endpoints under a VM, 2 under a container, 0 otherwise. */
  guestKind: Uint8Array;
  /** 1 when the path ends with a placeholder (one item of a collection). */
  endsWithPlaceholder: Uint8Array;
  /** 1 for directory indexes that only list child paths. */
  navigation: Uint8Array;
}

function methodToken(method: string): string {
  return `#${method.toLowerCase()}`;
}

/** Splits a run-together word into known words ("prunebackups" -> prune, backups), or undefined. */
export function splitCompound(word: string, vocabulary: Map<string, number>): string[] | undefined {
  if (word.length < 5) return undefined;
  const ownCount = vocabulary.get(word) ?? 0;
  const n = word.length;
  const best: (string[] | undefined)[] = new Array(n + 1);
  best[0] = [];
  for (let end = 1; end <= n; end++) {
    for (let start = Math.max(0, end - 20); start < end; start++) {
      const prefix = best[start];
      if (!prefix) continue;
      if (start === 0 && end === n) continue;
      const part = word.slice(start, end);
      const ok = part.length >= 3 ? vocabulary.has(part) : SHORT_WORDS.has(part);
      if (!ok) continue;
      const candidate = [...prefix, part];
      const current = best[end];
      if (!current || candidate.length < current.length) best[end] = candidate;
    }
  }
  const parts = best[n];
  if (!parts || parts.length < 2 || parts.length > 3) return undefined;
  // A word used on its own more often than its parts ("template", not temp + late) stays whole.
  if (ownCount > 0 && parts.some((p) => (vocabulary.get(p) ?? (SHORT_WORDS.has(p) ? Infinity : 0)) <= ownCount)) return undefined;
  return parts;
}

function returnFields(returns: unknown, out: { names: string[]; texts: string[] }, depth = 0): void {
  if (!returns || typeof returns !== "object" || depth > 3) return;
  const r = returns as { properties?: unknown; items?: unknown; description?: unknown };
  if (typeof r.description === "string") out.texts.push(r.description);
  if (r.properties && typeof r.properties === "object") {
    for (const [name, prop] of Object.entries(r.properties as Record<string, unknown>)) {
      out.names.push(name);
      returnFields(prop, out, depth + 1);
    }
  }
  if (r.items) returnFields(r.items, out, depth + 1);
}

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
  returnText: string[];
}

function endpointFields(e: Endpoint): Fields {
  const literals = e.path.split("/").filter((s) => s && !s.startsWith("{"));
  const last = literals[literals.length - 1] ?? "";
  const description = markupToText(e.description);
  const summary = firstSentence(description, 400);
  const fields: Fields = {
    lastSegment: identifierWords(last),
    segment: literals.slice(0, -1).flatMap(identifierWords),
    name: identifierWords(e.name),
    summary: words(summary),
    description: words(description),
    paramName: [],
    enumValue: [],
    paramText: [],
    returnName: [],
    returnText: [],
  };
  for (const [name, p] of Object.entries(e.parameters)) {
    fields.paramName.push(...identifierWords(name));
    for (const value of p.enum ?? []) if (typeof value === "string") fields.enumValue.push(...identifierWords(value));
    if (p.description) fields.paramText.push(...words(p.description));
  }
  const ret = { names: [] as string[], texts: [] as string[] };
  returnFields(e.returns, ret);
  fields.returnName = ret.names.flatMap(identifierWords);
  fields.returnText = ret.texts.flatMap(words);
  return fields;
}

/** Neighbouring words whose concatenation is a known word ("back up", "backed up" -> backup). */
function joinNeighbours(tokens: string[], vocabulary: Map<string, number>, stems: Map<string, string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length - 1; i++) {
    const joined = joinable(tokens[i]!, tokens[i + 1]!, vocabulary, stems);
    if (joined) out.push(joined);
  }
  return out;
}

function joinable(a: string, b: string, vocabulary: Map<string, number>, stems: Map<string, string>): string | undefined {
  if (a.length < 2 || b.length < 2) return undefined;
  for (const joined of [a + b, stem(a, stems) + b]) {
    if (joined.length >= 5 && vocabulary.has(joined)) return joined;
  }
  return undefined;
}

/** For a text that says "virtual machine", the group's own word (vm) as well. */
function phraseLeads(list: string[], phrases: Map<string, number>, maxWords: number, leads: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < list.length - 1; i++) {
    for (let len = 2; len <= maxWords && i + len <= list.length; len++) {
      const id = phrases.get(list.slice(i, i + len).join(" "));
      const lead = id === undefined ? undefined : leads[id];
      if (lead) out.push(lead);
    }
  }
  return out;
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

const QEMU_WORDS = new Set(["vm", "vms", "qemu", "kvm", "virtual"]);
const LXC_WORDS = new Set(["container", "containers", "ct", "cts", "lxc"]);
const GUEST_WORDS = new Set(["guest", "guests"]);
const NODE_WORDS = new Set(["node", "nodes", "host", "hosts", "hypervisor", "physical"]);

export function buildSearchIndex(endpoints: readonly Endpoint[]): SearchIndex {
  const stems = new Map<string, string>();
  const fieldsOf = endpoints.map(endpointFields);
  const vocabulary = new Map<string, number>();
  const count = (w: string) => vocabulary.set(w, (vocabulary.get(w) ?? 0) + 1);
  for (const f of fieldsOf) {
    for (const list of [f.summary, f.description, f.paramText, f.returnText]) for (const w of list) count(w);
  }
  for (const group of EQUIVALENT_GROUPS) for (const entry of group) for (const w of words(entry)) count(w);

  const groups: string[][] = [];
  const leads: string[] = [];
  const groupsOfWord = new Map<string, number[]>();
  const groupsOfStem = new Map<string, number[]>();
  const phrases = new Map<string, number>();
  let maxPhraseWords = 1;
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
      const entryWords = words(entry);
      if (entryWords.length > 1) {
        phrases.set(entryWords.join(" "), id);
        maxPhraseWords = Math.max(maxPhraseWords, entryWords.length);
      }
    }
  });
  const postings = new Map<string, Map<number, number>>();
  endpoints.forEach((e, id) => {
    const f = fieldsOf[id]!;
    const weights = new Map<string, number>();
    const addAll = (list: string[], weight: number, identifiers: boolean) => {
      const seen = new Set<string>();
      const extra = identifiers ? joinNeighbours(list, vocabulary, stems) : phraseLeads(list, phrases, maxPhraseWords, leads);
      const expanded = extra.length ? [...list, ...extra] : list;
      for (const w of expanded) {
        const pieces = identifiers ? (splitCompound(w, vocabulary) ?? []) : [];
        for (const piece of [w, ...pieces]) {
          if (STOPWORDS.has(piece)) continue;
          const s = stem(piece, stems);
          if (seen.has(s)) continue;
          seen.add(s);
          weights.set(s, (weights.get(s) ?? 0) + weight);
        }
      }
    };
    addAll(f.lastSegment, FIELD.lastSegment, true);
    addAll(f.segment, FIELD.segment, true);
    addAll(f.name, FIELD.name, true);
    addAll(f.summary, FIELD.summary, false);
    addAll(f.description, FIELD.description, false);
    addAll(f.paramName, FIELD.paramName, true);
    addAll(f.enumValue, FIELD.enumValue, true);
    addAll(f.paramText, FIELD.paramText, false);
    addAll(f.returnName, FIELD.returnName, true);
    addAll(f.returnText, FIELD.returnText, false);
    for (const [term, weight] of weights) {
      let list = postings.get(term);
      if (!list) postings.set(term, (list = new Map()));
      list.set(id, weight);
    }
  });

  const related = new Map<string, string[]>();
  for (const [word, targets] of Object.entries(RELATED)) related.set(word, targets.map((t) => stem(t, stems)));

  const guestKind = new Uint8Array(endpoints.length);
  endpoints.forEach((e, id) => {
    guestKind[id] = /^\/nodes\/\{node\}\/qemu\/\{vmid\}/.test(e.path) ? 1 : /^\/nodes\/\{node\}\/lxc\/\{vmid\}/.test(e.path) ? 2 : 0;
  });
  const endsWithPlaceholder = Uint8Array.from(endpoints, (e) => (/\}$/.test(e.path) ? 1 : 0));
  const navigation = Uint8Array.from(endpoints, (e) => (isNavigation(e) ? 1 : 0));
  const summaries = endpoints.map((e) => firstSentence(markupToText(e.description)));
  return {
    endpoints, postings, vocabulary, groups, groupsOfWord, groupsOfStem, phrases, maxPhraseWords, related, stems, summaries,
    guestKind, endsWithPlaceholder, navigation,
  };
}

interface Concept {
  /** term -> weight within the concept (the best matching term counts). */
  terms: Map<string, number>;
  /** The stems of the words actually typed. */
  primaries: Set<string>;
  weight: number;
}

export interface QueryAnalysis {
  concepts: Concept[];
  method: MethodName | undefined;
  /** Whether the method was said (a verb) or assumed (a question or a noun phrase reads). */
  methodStated: boolean;
  guest: "qemu" | "lxc" | "any" | "none";
  /** The query names a particular object (a number, an ID, a path). */
  namesValue: boolean;
  /** The query speaks of the node (host) itself. */
  namesNode: boolean;
}

/** How much a word counts: values such as names, IDs and paths count little. */
function chunkWeight(chunk: string): number {
  if (/[/@:=]/.test(chunk)) return 0.3;
  return 1;
}

/** Query words -> concepts: phrases first, then joined and split words, then single words. */
export function analyzeQuery(index: SearchIndex, query: string): QueryAnalysis {
  const tokens: { word: string; weight: number }[] = [];
  let afterFrom = false;
  let namesValue = false;
  for (const chunk of query.replace(/'s\b/gi, "").split(/\s+/)) {
    const base = chunkWeight(chunk);
    if (base < 1 || /\d/.test(chunk)) namesValue = true;
    const chunkWords = words(chunk);
    const hyphenated = chunkWords.length > 1 && /^[a-z0-9]+(-[a-z0-9]+)+[.,;:!?]*$/i.test(chunk);
    const known = hyphenated && (index.vocabulary.has(chunkWords.join("")) || index.phrases.has(chunkWords.join(" ")));
    for (const w of chunkWords) {
      let weight = base;
      if (hyphenated && !known) weight = Math.min(weight, 0.5);
      if (afterFrom) weight *= 0.6;
      tokens.push({ word: w, weight });
    }
    if (/^from$/i.test(chunk)) afterFrom = true;
  }
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
      return;
    }
    const concept: Concept = { terms, primaries: new Set(primary ? [primary] : []), weight };
    byKey.set(key, concept);
    concepts.push(concept);
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
    // Each word typed is its own concept ("user account" counts user twice); phrases go by group.
    const key = primary ? `w${primary}` : `g${[...ids].sort((a, b) => a - b).join(",")}`;
    addConcept(key, terms, primary, weight);
  };
  const wordConcept = (word: string, weight: number) => {
    const s = stem(word, index.stems);
    // The verb that picked the method counts less as a word: the method boost already counts it.
    if (word === methodWord) weight *= VERB_WEIGHT;
    const ids = index.groupsOfWord.get(word) ?? index.groupsOfStem.get(s) ?? [];
    groupConcept(ids, s, [word, s], weight);
  };

  let method: MethodName | undefined;
  let methodWord: string | undefined;
  for (const w of raw) {
    const hinted = METHOD_HINTS[w];
    if (hinted) {
      method = hinted;
      methodWord = w;
      break;
    }
  }
  const methodStated = method !== undefined;
  const guestQemu = raw.some((w) => QEMU_WORDS.has(w));
  const guestLxc = raw.some((w) => LXC_WORDS.has(w));
  const guest = raw.some((w) => GUEST_WORDS.has(w)) || (guestQemu && guestLxc) ? "any" : guestQemu ? "qemu" : guestLxc ? "lxc" : "none";

  const consumed = new Array<boolean>(raw.length).fill(false);
  for (let len = Math.min(index.maxPhraseWords, raw.length); len >= 2; len--) {
    for (let i = 0; i + len <= raw.length; i++) {
      if (consumed.slice(i, i + len).some(Boolean)) continue;
      const id = index.phrases.get(raw.slice(i, i + len).join(" "));
      if (id === undefined) continue;
      const weight = Math.max(...tokens.slice(i, i + len).map((t) => t.weight));
      groupConcept([id], undefined, [], weight);
      for (let k = i; k < i + len; k++) consumed[k] = true;
    }
  }
  for (let i = 0; i < raw.length - 1; i++) {
    if (consumed[i] || consumed[i + 1]) continue;
    const joined = joinable(raw[i]!, raw[i + 1]!, index.vocabulary, index.stems);
    if (!joined) continue;
    wordConcept(joined, Math.max(tokens[i]!.weight, tokens[i + 1]!.weight));
    consumed[i] = consumed[i + 1] = true;
  }
  raw.forEach((w, i) => {
    if (consumed[i] || STOPWORDS.has(w)) return;
    const weight = tokens[i]!.weight;
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
    wordConcept(w, weight);
  });
  if (!method && concepts.length > 0) method = "GET";
  const namesNode = raw.some((w) => NODE_WORDS.has(w));
  return { concepts, method, methodStated, guest, namesValue, namesNode };
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
      if (list) cap = Math.max(cap, idfOf(list.size));
    }
    if (cap === 0) {
      inConcept.fill(0);
      let df = 0;
      let looseDf = 0;
      for (const [term, termWeight] of concept.terms) {
        for (const id of index.postings.get(term)?.keys() ?? []) {
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
      const idf = concept.primaries.has(term) ? idfOf(list.size) : Math.min(idfOf(list.size), cap);
      for (const [id, tf] of list) {
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
  const results: { id: number; score: number }[] = [];
  for (let id = 0; id < n; id++) {
    if (scores[id] === 0) continue;
    const e = index.endpoints[id]!;
    if (wantMethod && e.method !== wantMethod) continue;
    const coverage = totalWeight ? matched[id]! / totalWeight : 0;
    let score = scores[id]! * (0.4 + 0.6 * coverage);
    if (analysis.method && e.method === analysis.method) score *= analysis.methodStated ? METHOD_BOOST : ASSUMED_METHOD_BOOST;
    if (index.navigation[id] === 1) score *= NAVIGATION_FACTOR;
    // Without a name or number in the query, a list is likelier wanted than one item of it.
    if (!analysis.namesValue && e.method === "GET" && index.endsWithPlaceholder[id] === 1) score *= ITEM_FACTOR;
    const kind = index.guestKind[id]!;
    if (kind !== 0) {
      if ((analysis.guest === "qemu" && kind === 2) || (analysis.guest === "lxc" && kind === 1)) score *= OTHER_GUEST_FACTOR;
      else if (analysis.guest === "none") score *= analysis.namesNode ? NODE_NOT_GUEST_FACTOR : UNASKED_GUEST_FACTOR;
    }
    results.push({ id, score });
  }
  results.sort((a, b) => {
    if (b.score !== a.score) return b.score - a.score;
    const ea = index.endpoints[a.id]!;
    const eb = index.endpoints[b.id]!;
    return ea.path.length - eb.path.length || ea.path.localeCompare(eb.path) || ea.method.localeCompare(eb.method);
  });
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
