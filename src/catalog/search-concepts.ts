// The concepts of a query: each word typed, phrase or value, with the terms that stand for it
// (its synonym groups' words, related words, the API's run-together names it is part of) and
// how much it counts. Query analysis (search-query.ts) builds them; ranking (search.ts) reads them.
import { stem } from "./stem.ts";
import type { SearchIndex } from "./search-index.ts";
import { compoundsWith } from "./search-tokens.ts";
import { valueTerm, type ValueKind } from "./search-values.ts";

/** A synonym of the word typed, below the API's own word for it (1). */
export const EQUIVALENT_WEIGHT = 0.8;
/** A word only related to the one typed (a group's `related` list). */
const RELATED_WEIGHT = 0.45;
/** A word found inside one of the API's run-together names ("trim" in fstrim). */
const SUBWORD_WEIGHT = 0.7;
/**
 * A value typed, by its kind ("a volume ID"): it says which endpoints take it, as much as a word
 * says what it names (0.6 and 0.8 lost first places to endpoints that merely share its words).
 */
const VALUE_WEIGHT = 1;
/** Groups whose verbs ask to set something rather than to act. */
export const SETTING_LEADS: ReadonlySet<string> = new Set(["create", "update", "enable", "disable"]);

export interface Concept {
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
  /** For a value: the stem of the kind of object it names ("user" for "carol@pve"). */
  names?: string;
  /** For a phrase: the stems of its groups' API words, which name what the phrase names ("mount point": mp). */
  leadStems?: Set<string>;
  /** For a phrase of the synonym table: how many of the query's words it takes, from `at`. */
  span?: number;
  /** Endpoints named by this word only inside a phrase the query does not make ("not" of "not the whole VM"): it does not reach them. */
  outside?: ReadonlySet<number>;
}

/**
 * The concepts of one query, in the order they were found, one per key: a word typed is its own
 * concept ("w" and its stem), a phrase stands for its groups ("g" and their ids), a value for its
 * kind ("v"), a flag an unwanted action names for that flag ("n", search-query.ts). Adding a key
 * again keeps the larger weight.
 */
export class QueryConcepts {
  readonly list: Concept[] = [];
  private readonly byKey = new Map<string, Concept>();

  constructor(private readonly index: SearchIndex) {}

  add(key: string, terms: Map<string, number>, primary: string | undefined, weight: number): Concept {
    const existing = this.byKey.get(key);
    if (existing) {
      existing.weight = Math.max(existing.weight, weight);
      if (primary) {
        existing.primaries.add(primary);
        existing.terms.set(primary, 1);
      }
      return existing;
    }
    const concept: Concept = { terms, primaries: new Set(primary ? [primary] : []), weight };
    this.byKey.set(key, concept);
    this.list.push(concept);
    return concept;
  }

  /** The concept of the word typed whose stem is `wordStem`, if there is one. */
  ofWord(wordStem: string): Concept | undefined {
    return this.byKey.get(`w${wordStem}`);
  }

  /** The concept of synonym groups `ids` (a phrase), or of the word `primary` typed in them. */
  group(ids: readonly number[], primary: string | undefined, relatedKeys: readonly string[], weight: number): Concept {
    const { index } = this;
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
    const concept = this.add(key, terms, primary, weight);
    if (primary) {
      const apiWords = ids.map((id) => index.groups[id]![0]!).filter((lead) => lead !== primary);
      if (apiWords.length) concept.apiWords = new Set([...(concept.apiWords ?? []), ...apiWords]);
    }
    return concept;
  }

  /** The synonym groups a word typed belongs to, by the word or else by its stem. */
  groupsOf(word: string): readonly number[] {
    const { index } = this;
    return index.groupsOfWord.get(word) ?? index.groupsOfStem.get(stem(word, index.stems)) ?? [];
  }

  /** Whether two words share a synonym group ("user account"). */
  sameGroup(a: string | undefined, b: string | undefined): boolean {
    return a !== undefined && b !== undefined && this.groupsOf(a).some((id) => this.groupsOf(b).includes(id));
  }

  /** A word typed, with its groups, its related words and the run-together names it is part of; a literal one alone. */
  word(word: string, weight: number, literal = false): Concept {
    const { index } = this;
    const s = stem(word, index.stems);
    if (literal) return this.group([], s, [], weight);
    const ids = this.groupsOf(word);
    const concept = this.group(ids, s, [word, s, ...ids.map((id) => index.leads[id]!)], weight);
    for (const compound of compoundsWith(index, word)) {
      const term = stem(compound, index.stems);
      if (!concept.terms.has(term)) concept.terms.set(term, SUBWORD_WEIGHT);
    }
    return concept;
  }

  /** "local:vztmpl/debian.tar.zst", "alice@pve": the kind of value says which endpoints take it. */
  value(kind: ValueKind): Concept {
    const term = valueTerm(kind);
    return this.add(`v${kind}`, new Map([[term, 1]]), term, VALUE_WEIGHT);
  }
}
