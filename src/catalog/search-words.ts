// The single words of a query as concepts, each with its weight: a preposition names nothing, a
// word between a determiner and its noun only qualifies it, a verb that only says the method
// counts little, synonyms side by side are one thing, a run-together word the API does not know
// is its parts. What the words say of the request's grammar comes back with them.
import { stem } from "./stem.ts";
import { METHOD_HINTS } from "./synonyms.ts";
import { NEGATIONS, PARTICLES, STOPWORDS } from "./text.ts";
import type { SearchIndex } from "./search-index.ts";
import { splitCompound } from "./search-terms.ts";
import { EQUIVALENT_WEIGHT, SETTING_LEADS, type Concept, type QueryConcepts } from "./search-concepts.ts";
import {
  anyDestinationAt,
  CLUSTER_WORDS,
  compoundsWith,
  DETERMINERS,
  EVERY_NODE,
  GENERIC_WORDS,
  knowsWord,
  NODE_WORDS,
  PREPOSITIONS,
  verbAt,
  type Token,
} from "./search-tokens.ts";

const MODIFIER_WEIGHT = 0.6;
const GENERIC_WEIGHT = 0.5;
/** A verb that only says the method ("add", "revoke", "show"). */
export const VERB_WEIGHT = 0.5;
/**
 * Verbs that only put before the eyes, with their irregular forms ("shown", "seen"): a regular
 * form shares the stem ("shows", "showing").
 */
const PRESENTING_VERBS = ["show", "shown", "display", "view", "see", "seen", "print"];
/** Verbs that only present what is asked for (unlike "check" or "verify", which say what is done with it). */
const DISPLAY_VERBS = new Set([...PRESENTING_VERBS, "get", "read", "fetch"]);
const PRESENTING_STEMS: ReadonlySet<string> = new Set(PRESENTING_VERBS.map((verb) => stem(verb)));

/**
 * Whether a word is a form of a verb that only presents ("shows", "showing"; not "fetch" or "get",
 * which bring something, maybe from elsewhere), and names nothing of the API (`named`: no
 * endpoint or parameter is called by its stem).
 */
export function presentsOnly(word: string, stemOf: (word: string) => string, named: (s: string) => boolean): boolean {
  const s = stemOf(word);
  return PRESENTING_STEMS.has(s) && !named(s);
}

/** How many content words on each side of a negation or particle may complete its phrase ("not yet backed up"). */
const PHRASE_REACH = 2;

/**
 * For a negation or particle that endpoints' names hold only inside a phrase (`phraseBound`):
 * whether one of the PHRASE_REACH content words on either side of it in the query is its
 * neighbour there ("not backed up": yes; "not sure the mail setup works": no). Undefined for
 * any other word.
 */
export function joinsPhrase(index: SearchIndex, raw: readonly string[], i: number): boolean | undefined {
  const word = raw[i]!;
  if (!PARTICLES.has(word) && !NEGATIONS.has(word)) return undefined;
  const bound = index.phraseBound.get(stem(word, index.stems));
  if (!bound) return undefined;
  for (const step of [-1, 1]) {
    let found = 0;
    for (let k = i + step; k >= 0 && k < raw.length && found < PHRASE_REACH; k += step) {
      if (STOPWORDS.has(raw[k]!)) continue;
      if (bound.neighbours.has(stem(raw[k]!, index.stems))) return true;
      found++;
    }
  }
  return false;
}

/** Groups of verbs that say no more than the method ("edit" is an update even though apt has an "update"). */
const CRUD_LEADS = new Set(["create", "delete", "update", "list"]);
/** Prepositions before "all nodes" that make it where something applies ("across all nodes"). */
const SCOPE_PREPOSITIONS = new Set(["across", "on", "for", "in", "over", "throughout", "to"]);
/** Prepositions that negate what follows them: they keep their meaning. */
const NEGATING = new Set(["without", "except"]);

/** What the single words say beside their concepts. */
export interface WordFacts {
  /** A generic word ("details", "info") asks for one item. */
  asksForOne: boolean;
  /** Stems of the verb after a causative or a modal ("start" in "make VM 118 start automatically"). */
  causedVerb: ReadonlySet<string> | undefined;
  /** Terms of what the request keeps from happening. */
  prevented: Set<string>;
  /** Terms of the words of subordinate clauses and of purpose. */
  subordinates: Set<string>;
  /** Terms of the other words. */
  mainTerms: Set<string>;
}

/**
 * Adds a concept for each word no phrase took (`consumed`); `caused` says whether a word comes
 * after a causative or a modal, where a verb says a state wanted, not the request's action.
 */
export function wordConcepts(
  index: SearchIndex,
  concepts: QueryConcepts,
  tokens: readonly Token[],
  raw: readonly string[],
  consumed: readonly boolean[],
  caused: (i: number) => boolean,
): WordFacts {
  let previous: { word: string; concept: Concept; index: number } | undefined;
  let asksForOne = false;
  let causedVerb: ReadonlySet<string> | undefined;
  const prevented = new Set<string>();
  const subordinates = new Set<string>();
  const mainTerms = new Set<string>();
  // The concepts of negations and particles of which one occurrence completes a name's phrase.
  const joined = new Set<Concept>();
  const stemOf = (word: string) => stem(word, index.stems);
  const namedByApi = (s: string) => index.lastSegmentStems.has(s) || index.parameterStems.has(s);
  raw.forEach((w, i) => {
    if (consumed[i] || STOPWORDS.has(w)) return;
    // "cluster wide", "datacenter-wide": the scope, said by the word before.
    if (w === "wide" && (CLUSTER_WORDS.has(raw[i - 1] ?? "") || NODE_WORDS.has(raw[i - 1] ?? ""))) return;
    // "across all nodes", "on every node", "on any node": where it applies (the cluster), not the
    // nodes' endpoints; "to any node" is where something goes, one node.
    if (
      NODE_WORDS.has(w) &&
      EVERY_NODE.has(raw[i - 1] ?? "") &&
      SCOPE_PREPOSITIONS.has(raw[i - 2] ?? "") &&
      !anyDestinationAt(raw, i - 1)
    )
      return;
    let weight = tokens[i]!.weight;
    // "across the cluster", "after the switch rebooted", "through its firewall": a preposition
    // relates the words around it and names nothing, unless a parameter is named by it (the task
    // list's "since" and "until"), it makes a phrasal verb (OSD "out", "power down") or it
    // negates ("without", "except").
    if (PREPOSITIONS.has(w) && !PARTICLES.has(w) && !NEGATING.has(w) && !index.parameterStems.has(stem(w, index.stems)))
      weight = 0;
    const next = raw[i + 1];
    // "a paused VM", "the datacenter firewall": the word between a determiner and its noun only
    // qualifies it. Before a preposition it is the noun ("the files inside a backup"), though a
    // particle may follow its verb's object ("shut the OS down").
    if (
      DETERMINERS.has(raw[i - 1] ?? "") &&
      next &&
      !STOPWORDS.has(next) &&
      !(PREPOSITIONS.has(next) && !PARTICLES.has(next)) &&
      !/^\d+$/.test(next) &&
      !METHOD_HINTS[w] &&
      !concepts.sameGroup(w, next)
    ) {
      weight *= MODIFIER_WEIGHT;
    }
    // "revoke", "add", "open": a verb that names no endpoint only says the method.
    // ("trim" names fstrim, so it is no mere method word.)
    const methodOnly =
      METHOD_HINTS[w] !== undefined &&
      verbAt(tokens, i) !== undefined &&
      !concepts
        .groupsOf(w)
        .some((g) => !CRUD_LEADS.has(index.leads[g]!) && index.groups[g]!.some((t) => index.lastSegmentStems.has(t))) &&
      !index.lastSegmentStems.has(stem(w, index.stems)) &&
      compoundsWith(index, w).length === 0;
    // "show the cluster status": a verb that only says "present it" says nothing of what is read
    // ("Show the current pool status." is no better answer for it).
    if (methodOnly) weight *= DISPLAY_VERBS.has(w) ? 0 : VERB_WEIGHT;
    // "the summary page doesn't show the IP", "pools aren't showing up": wherever it stands, a verb
    // that only presents says nothing of what is read.
    else if (presentsOnly(w, stemOf, namedByApi)) weight = 0;
    if (GENERIC_WORDS.has(w)) {
      weight *= GENERIC_WEIGHT;
      asksForOne = true;
    }
    // "user account", "apt repositories": synonyms side by side name one thing, which is no
    // rarer than the commoner word ("account" alone would favour the rare ACME account).
    if (previous && previous.index === i - 1 && concepts.sameGroup(previous.word, w)) {
      const concept = concepts.word(w, weight);
      concept.capWith = previous.concept.capWith = [...previous.concept.primaries, ...concept.primaries];
      previous = { word: w, concept, index: i };
      return;
    }
    if (/^\d+$/.test(w)) return;
    if (!knowsWord(index, w)) {
      if (/\d/.test(w)) return;
      const parts = splitCompound(w, index.vocabulary);
      if (parts) {
        for (const p of parts) if (!STOPWORDS.has(p)) concepts.word(p, weight);
        return;
      }
    }
    const concept = concepts.word(w, weight, tokens[i]!.literal);
    if (methodOnly) delete concept.apiWords;
    // "not sure the mail setup works": this "not" is none of "not backed up". One occurrence in
    // the phrase is enough ("not sure which are backed up and which are not").
    const joins = joinsPhrase(index, raw, i);
    if (joins === true) {
      joined.add(concept);
      delete concept.outside;
    } else if (joins === false && !joined.has(concept)) {
      concept.outside = index.phraseBound.get(stemOf(w))!.ids;
    }
    for (const [term, w] of concept.terms) {
      if (w >= EQUIVALENT_WEIGHT) (tokens[i]!.subordinate || tokens[i]!.purpose ? subordinates : mainTerms).add(term);
    }
    if (tokens[i]!.prevented) {
      for (const [term, w] of concept.terms) if (w >= EQUIVALENT_WEIGHT) prevented.add(term);
    } else if (verbAt(tokens, i) && !caused(i)) {
      concept.verb = true;
      if (methodOnly || concepts.groupsOf(w).some((g) => SETTING_LEADS.has(index.leads[g]!))) concept.sets = true;
    } else if (verbAt(tokens, i) && causedVerb === undefined) causedVerb = concept.primaries;
    previous = { word: w, concept, index: i };
  });
  return { asksForOne, causedVerb, prevented, subordinates, mainTerms };
}
