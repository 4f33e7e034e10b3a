// Query analysis: the words of a query as weighted concepts (phrases, joined and split words,
// synonyms), the method its verbs ask for, which guest and which scope it is about.
import { stem } from "./stem.ts";
import {
  GROUP_METHOD_HINTS,
  METHOD_HINTS,
  NOUN_VERBS,
  PHRASAL_VERBS,
  SHORT_WORDS,
  type MethodName,
} from "./synonyms.ts";
import { STOPWORDS, words } from "./text.ts";
import type { SearchIndex } from "./search-index.ts";
import { joinable, phraseAt, splitCompound } from "./search-terms.ts";

export const EQUIVALENT_WEIGHT = 0.8;
const RELATED_WEIGHT = 0.45;
const MODIFIER_WEIGHT = 0.6;
const GENERIC_WEIGHT = 0.5;
/** A word found inside one of the API's run-together names ("trim" in fstrim). */
const SUBWORD_WEIGHT = 0.7;
/** A verb that only says the method ("add", "revoke", "show"). */
const VERB_WEIGHT = 0.5;
/** The particles of separable phrasal verbs ("turn it off", "throw the snapshot away"). */
const PARTICLES = new Set(["on", "off", "up", "down", "back", "away", "out"]);
/** Groups whose verbs ask to set something rather than to act. */
const SETTING_LEADS = new Set(["create", "update", "enable", "disable"]);
/** Groups of verbs that say no more than the method ("edit" is an update even though apt has an "update"). */
const CRUD_LEADS = new Set(["create", "delete", "update", "list"]);

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

const NODE_WORDS = new Set(["node", "nodes", "host", "hosts", "hypervisor", "physical"]);
const CLUSTER_WORDS = new Set(["cluster", "datacenter", "datacentre"]);
const TARGET_WORDS = new Set(["to", "onto", "into", "from"]);
/** Prepositions that make a named guest the place of the request rather than its object. */
const PLACE_WORDS = new Set(["to", "in", "into", "inside", "on", "of", "from", "for"]);
/** Words that open a question about what is: its answer is read, not written. */
const QUESTION_WORDS = new Set(["which", "what", "whats", "is", "are", "does", "do", "how", "who", "when", "where"]);
/** Words that ask for all of something: "every guest", "all VMs", "VMs" (a plural). */
const ALL_WORDS = new Set(["all", "every", "each", "everything"]);
const PLURAL_GUESTS = new Set(["vms", "containers", "cts", "guests", "machines"]);

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
  /** A verb: it says what is done ("stop", "turn on"), not what to ("firewall", "notes"). */
  verb?: boolean;
  /** A verb that asks to set something (add, make, change, enable), not for another action (migrate, restart). */
  sets?: boolean;
  /** For a phrase: where it starts in the query and the API words of its groups. */
  at?: number;
  leads?: string[];
}

export interface QueryAnalysis {
  concepts: Concept[];
  /** The query asks to set or create something (a stated write whose verbs only say so). */
  setting: boolean;
  method: MethodName | undefined;
  /** Whether the method was said (a verb) or assumed (a question or a noun phrase reads). */
  methodStated: boolean;
  guest: "qemu" | "lxc" | "any" | "none";
  /** The query is about one particular object: it names one (a number, an ID, a path) or asks for its details. */
  oneItem: boolean;
  /** The query names one guest by number ("VM 100", "container 105"). */
  namesGuest: boolean;
  /** Stems of the words next to a name the query gives ("role" in "PVEAuditor role"): the kinds of object named. */
  named: Set<string>;
  /** The query speaks of the node (host) itself. */
  namesNode: boolean;
  /** The query speaks of the whole cluster or datacenter. */
  namesCluster: boolean;
  /** The query asks for all or many ("all", "every", a plural of guests). */
  asksForAll: boolean;
  /** The query speaks of the guest agent. */
  namesAgent: boolean;
  /** The query is a question about what is ("which ISO images are on local"). */
  question: boolean;
  /** The query names an existing guest as the place of what it asks ("to VM 120"). */
  guestIsPlace: boolean;
}

/** How much a word counts: values such as names, IDs and paths count little. */
function chunkWeight(chunk: string): number {
  // A colon or stop at the end is punctuation ("healthy:"), inside it makes a value ("vm:100").
  if (/[/@:=]/.test(chunk.replace(/[.,;:!?]+$/, ""))) return 0.3;
  return 1;
}

export interface Token {
  word: string;
  weight: number;
  /** The first content word of a clause, where a verb says what is wanted. */
  clauseStart: boolean;
  /** Part of a value such as a path or an ID ("/etc/hosts", "bob@pve"): taken literally. */
  literal: boolean;
  /** Part of a hyphenated name ("apt-get", "pve-firewall"): never a verb of the request. */
  inName?: boolean;
}

/** A chunk that is a name rather than a word: a number or ID, a path, CamelCase or quoted ("PVEAuditor", "'web'"). */
function isValue(chunk: string, base: number): boolean {
  return base < 1 || /\d/.test(chunk) || /[a-z][A-Z]|[A-Z]{2,}[a-z]/.test(chunk) || /^["'].+["'][.,;:!?]*$/.test(chunk);
}

/**
 * The query's words with their weights; `namesValue` when it names an object (a number, an
 * ID, a path, a name); `named` the words next to such a name ("role" in "PVEAuditor role",
 * "group" in "a group called web"), which say what kind of object it is.
 */
export function tokenize(
  index: SearchIndex,
  query: string,
): { tokens: Token[]; namesValue: boolean; named: Set<string> } {
  const tokens: Token[] = [];
  let newClause = true;
  let afterFrom = false;
  let namesValue = false;
  const named = new Set<string>();
  // "S.M.A.R.T." -> "SMART"; "VM's" -> "VM".
  const text = query.replace(/\b(?:[a-z]\.){2,}[a-z]?\b\.?/gi, (m) => m.replace(/\./g, "")).replace(/'s\b/gi, "");
  const chunks = text.split(/\s+/);
  const isWord = (c: string | undefined) => c !== undefined && /^[a-z]+[.,;:!?]*$/i.test(c) && !isValue(c, 1);
  chunks.forEach((chunk, k) => {
    if (!isValue(chunk, chunkWeight(chunk))) return;
    // "a group called web": the kind is the word before "called"/"named".
    const before = /^(called|named)$/i.test(chunks[k - 1] ?? "") ? chunks[k - 2] : chunks[k - 1];
    for (const near of [before, chunks[k + 1]]) {
      if (isWord(near)) named.add(stem(words(near!)[0]!, index.stems));
    }
  });
  chunks.forEach((chunk, k) => {
    // "a snapshot called test": what follows "called" is a name.
    const base = /^(called|named)$/i.test(chunks[k - 1] ?? "") ? 0.3 : chunkWeight(chunk);
    if (isValue(chunk, base)) namesValue = true;
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
      tokens.push({
        word: w,
        weight,
        clauseStart: newClause && content,
        literal: base < 1,
        ...(hyphenated ? { inName: true } : {}),
      });
      if (content) newClause = false;
    }
    if (/[:;,.!?]$/.test(chunk)) newClause = true;
    if (/^(from|with|using|without|for)$/i.test(chunk)) afterFrom = true;
  });
  return { tokens, namesValue, named };
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

type VerbToken = Pick<Token, "word" | "clauseStart" | "inName">;

/**
 * The method the word at `i` asks for when it is a verb of the request. A word that is as
 * often a noun counts only where a clause starts; a verb word closing a noun phrase ("the last
 * replication run") is a noun; a verb after "to" inside a clause says a purpose ("addresses
 * needed to add a node"), not the request; a word of a hyphenated name ("apt-get") is no verb.
 */
export function verbAt(tokens: readonly VerbToken[], i: number): MethodName | undefined {
  const { word, clauseStart, inName } = tokens[i]!;
  if (inName) return undefined;
  const hinted = METHOD_HINTS[word];
  const inherited = clauseStart ? GROUP_METHOD_HINTS.get(word) : undefined;
  const method = hinted && (clauseStart || !NOUN_VERBS.has(word)) ? hinted : inherited;
  if (!method || clauseStart) return method;
  const previous = tokens[i - 1]?.word;
  const closes = i === tokens.length - 1 || tokens[i + 1]!.clauseStart;
  if (closes && previous && !STOPWORDS.has(previous) && !METHOD_HINTS[previous]) return undefined;
  if (previous === "to") return undefined;
  return method;
}

/** The method the request's verb asks for, if it says one. */
export function statedMethod(tokens: readonly VerbToken[]): MethodName | undefined {
  return statedMethodAt(tokens)?.method;
}

/** The request's verb: the method it asks for and where it is. */
function statedMethodAt(tokens: readonly VerbToken[]): { method: MethodName; at: number } | undefined {
  for (let i = 0; i < tokens.length; i++) {
    const phrasal = PHRASAL_VERBS[`${tokens[i]!.word} ${tokens[i + 1]?.word}`];
    if (phrasal) return { method: phrasal, at: i };
    const method = verbAt(tokens, i);
    if (method) return { method, at: i };
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
/** How much the words of a CLI-only command's description count, against the words typed. */
const DESCRIPTION_WEIGHT = 0.6;

/**
 * The query's concepts and facets. `described` is a text that says what was asked in other
 * words (a CLI-only command's own description): its words join the query's at a lower weight.
 */
export function analyzeQuery(index: SearchIndex, query: string, described?: string): QueryAnalysis {
  const typed = tokenize(index, query);
  const { namesValue, named } = typed;
  const tokens = described
    ? [
        ...typed.tokens,
        ...tokenize(index, described).tokens.map((t) => ({ ...t, weight: t.weight * DESCRIPTION_WEIGHT })),
      ]
    : typed.tokens;
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

  const stated = statedMethodAt(tokens);
  let method = stated?.method;
  let methodStated = method !== undefined;
  // Words of values ("/vms", "/etc/hosts") name no guest or node.
  const spoken = raw.filter((_, i) => !tokens[i]!.literal);
  const guest = guestFacet(spoken);

  const consumed = new Array<boolean>(raw.length).fill(false);
  const rawStems = raw.map((w) => stem(w, index.stems));
  // "turn the VM back on": a verb and its particle with the object between them are the phrase "turn on".
  for (let i = 0; i < raw.length; i++) {
    if (phraseAt(rawStems, i, index.phrases) || !index.phrases.firstStems.has(rawStems[i]!)) continue;
    for (let j = i + 2; j < Math.min(raw.length, i + 5); j++) {
      if (verbAt(tokens, j)) break;
      const ids = PARTICLES.has(raw[j]!) ? index.phrases.byStems.get(`${rawStems[i]} ${rawStems[j]}`) : undefined;
      if (!ids) continue;
      const concept = groupConcept(
        ids,
        undefined,
        ids.map((id) => index.leads[id]!),
        tokens[i]!.weight,
      );
      if (ids.some((id) => METHOD_HINTS[index.leads[id]!])) concept.verb = true;
      if (ids.some((id) => SETTING_LEADS.has(index.leads[id]!))) concept.sets = true;
      consumed[i] = consumed[j] = true;
      // "back on": a particle right before the one that completes the verb goes with it.
      if (PARTICLES.has(raw[j - 1]!)) consumed[j - 1] = true;
      break;
    }
  }
  for (let i = 0; i < raw.length; i++) {
    if (consumed[i]) continue;
    const phrase = phraseAt(rawStems, i, index.phrases);
    if (!phrase) continue;
    const ids = phrase[0];
    let len = phrase[1];
    // "lvm thin pool": phrases of one group that overlap ("lvm thin", "thin pool") are one mention.
    for (let j = i + 1; j < i + len; j++) {
      const next = phraseAt(rawStems, j, index.phrases);
      if (next && next[0].some((g) => ids.includes(g))) len = Math.max(len, j - i + next[1]);
    }
    const inPhrase = tokens.slice(i, i + len);
    const content = inPhrase.filter((t) => !STOPWORDS.has(t.word));
    const phraseConcept = groupConcept(
      ids,
      undefined,
      ids.map((id) => index.leads[id]!),
      Math.max(...(content.length ? content : inPhrase).map((t) => t.weight)),
    );
    phraseConcept.at = i;
    phraseConcept.leads = ids.map((id) => index.leads[id]!);
    // "turn on", "get rid of": a phrase of a verb's group is a verb.
    if (ids.some((id) => METHOD_HINTS[index.leads[id]!])) phraseConcept.verb = true;
    if (ids.some((id) => SETTING_LEADS.has(index.leads[id]!))) phraseConcept.sets = true;
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
    // ("trim" names fstrim, so it is no mere method word.)
    const methodOnly =
      METHOD_HINTS[w] !== undefined &&
      verbAt(tokens, i) !== undefined &&
      !groupsOf(w).some(
        (g) => !CRUD_LEADS.has(index.leads[g]!) && index.groups[g]!.some((t) => index.lastSegmentStems.has(t)),
      ) &&
      !index.lastSegmentStems.has(stem(w, index.stems)) &&
      compoundsWith(index, w).length === 0;
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
    if (verbAt(tokens, i)) {
      concept.verb = true;
      if (methodOnly || groupsOf(w).some((g) => SETTING_LEADS.has(index.leads[g]!))) concept.sets = true;
    }
    previous = { word: w, concept, index: i };
  });
  // "throw away the snapshot", "turn the VM back on": a verb phrase opening the request says the method.
  const opening = concepts.find((c) => c.verb && c.at !== undefined && tokens[c.at]!.clauseStart);
  const lead = opening?.leads?.find((l) => METHOD_HINTS[l]);
  if (lead && (!stated || stated.at > opening!.at!)) {
    method = METHOD_HINTS[lead];
    methodStated = true;
  }
  if (!method && concepts.length > 0) method = "GET";
  // "to node pve2", "to another node": a node the query moves something to is a target, not the scope.
  const target = (i: number) => TARGET_WORDS.has(spoken[i - 1] ?? "") || TARGET_WORDS.has(spoken[i - 2] ?? "");
  // "on all nodes", "every node": the whole cluster.
  const everyNode = (i: number) => ALL_WORDS.has(spoken[i - 1] ?? "") || ALL_WORDS.has(spoken[i - 2] ?? "");
  const namesNode = spoken.some((w, i) => NODE_WORDS.has(w) && !target(i) && !everyNode(i));
  const namesCluster = spoken.some(
    (w, i) =>
      CLUSTER_WORDS.has(w) || (w === "data" && spoken[i + 1] === "center") || (NODE_WORDS.has(w) && everyNode(i)),
  );
  const asksForAll = spoken.some((w) => ALL_WORDS.has(w) || PLURAL_GUESTS.has(w));
  const namesAgent = spoken.some((w) => w === "agent" || w === "qga");
  const namesGuest = raw.some((w, i) => (QEMU_WORDS.has(w) || LXC_WORDS.has(w)) && /^\d+$/.test(raw[i + 1] ?? ""));
  // "to VM 120", "in container 101": an existing guest is where it happens.
  const guestIsPlace = raw.some(
    (w, i) =>
      (QEMU_WORDS.has(w) || LXC_WORDS.has(w)) &&
      /^\d+$/.test(raw[i + 1] ?? "") &&
      (PLACE_WORDS.has(raw[i - 1] ?? "") || (DETERMINERS.has(raw[i - 1] ?? "") && PLACE_WORDS.has(raw[i - 2] ?? ""))),
  );
  // A write that sets something: a parameter of a setting endpoint may be what is asked (search-params.ts).
  const setting = methodStated && (method === "POST" || method === "PUT") && concepts.every((c) => !c.verb || c.sets);
  return {
    concepts,
    method,
    methodStated,
    guest,
    oneItem: namesValue || asksForOne,
    named,
    namesNode,
    namesCluster,
    asksForAll,
    namesAgent,
    guestIsPlace,
    question: stated !== undefined && QUESTION_WORDS.has(tokens[stated.at]!.word) && method === "GET",
    namesGuest,
    setting,
  };
}
