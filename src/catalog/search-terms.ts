// Index terms: words stemmed, run-together names split, split words joined, phrases of the
// synonym groups found. Shared by index building and query analysis.
import { stem, type StemMemo } from "./stem.ts";
import { SHORT_WORDS } from "./synonyms.ts";
import { identifierWords, STOPWORDS, words } from "./text.ts";

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

/** Shorter words are not looked for inside run-together names. */
export const MIN_COMPOUND_END = 4;

/**
 * By each start and end of a run-together name at least MIN_COMPOUND_END letters long, the
 * names (their places in `compounds`, in order) that start or end so: the candidates of
 * compoundsWith (search-tokens.ts), found once per index instead of by testing every name for
 * every word of every query.
 */
export function compoundsByEnd(compounds: readonly string[]): Map<string, number[]> {
  const byEnd = new Map<string, number[]>();
  const add = (end: string, i: number) => {
    const list = byEnd.get(end);
    if (!list) byEnd.set(end, [i]);
    else if (list.at(-1) !== i) list.push(i);
  };
  compounds.forEach((c, i) => {
    for (let k = MIN_COMPOUND_END; k <= c.length; k++) {
      add(c.slice(0, k), i);
      add(c.slice(c.length - k), i);
    }
  });
  return byEnd;
}

/** Shorter than this, a word one letter off a known word is likelier another word ("alice", "slice"). */
const MIN_TYPO_LENGTH = 7;

/**
 * The known word a typed word misspells by one letter left out, two letters swapped or a letter
 * typed twice ("certifcate", "automaticaly", "containr", "snapshoot"), when exactly one known
 * word is that close. Any other letter changed or added is left alone: those make other English
 * words ("getting", "setting"; "unblock", "unlock").
 */
export function respelled(word: string, vocabulary: ReadonlyMap<string, number>): string | undefined {
  if (word.length < MIN_TYPO_LENGTH || vocabulary.has(word)) return undefined;
  const found = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    for (let c = 97; c <= 122; c++) {
      const added = word.slice(0, i) + String.fromCharCode(c) + word.slice(i);
      if (vocabulary.has(added)) found.add(added);
    }
    // A letter typed twice ("snapshoot", "containner"): the word with one of them left out.
    if (i > 0 && i < word.length && word[i] === word[i - 1]) {
      const single = word.slice(0, i) + word.slice(i + 1);
      if (vocabulary.has(single)) found.add(single);
    }
    if (i < word.length - 1) {
      const swapped = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
      if (vocabulary.has(swapped)) found.add(swapped);
    }
  }
  return found.size === 1 ? [...found][0] : undefined;
}

export function joinable(a: string, b: string, vocabulary: Map<string, number>, stems: StemMemo): string | undefined {
  if (a.length < 2 || b.length < 2) return undefined;
  for (const joined of [a + b, stem(a, stems) + b]) {
    if (joined.length >= 5 && vocabulary.has(joined)) return joined;
  }
  return undefined;
}

/** Phrases of the synonym groups, as sequences of stems; a phrase may stand in several groups ("turn on": start, enable). */
export interface PhraseTable {
  byStems: Map<string, number[]>;
  firstStems: Set<string>;
  /** The first two stems of each phrase ("network card"), a cheap test before looking further. */
  openings: Set<string>;
  maxWords: number;
}

/** The phrase starting at `i` (longest first), as [groups, length]. */
export function phraseAt(stemsOf: readonly string[], i: number, table: PhraseTable): [number[], number] | undefined {
  if (!table.firstStems.has(stemsOf[i]!)) return undefined;
  for (let len = Math.min(table.maxWords, stemsOf.length - i); len >= 2; len--) {
    const ids = table.byStems.get(stemsOf.slice(i, i + len).join(" "));
    if (ids !== undefined) return [ids, len];
  }
  return undefined;
}

/** The documents that have a term, each with its weight; `paramOnly`: those that have it in their parameters alone. */
export interface PostingList {
  readonly ids: number[];
  readonly weights: number[];
  readonly paramOnly: ReadonlySet<number> | undefined;
}

/** Term -> the documents (endpoints, or parameters) that have it, each with the summed weight of the fields it is in. */
export class Postings {
  private readonly ids: number[][] = [];
  private readonly weights: number[][] = [];
  private readonly byTerm = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly paramOnly: (Set<number> | undefined)[] = [];
  private readonly lists: (PostingList | undefined)[] = [];

  get size(): number {
    return this.ids.length;
  }

  intern(term: string): number {
    let id = this.byTerm.get(term);
    if (id === undefined) {
      id = this.ids.length;
      this.byTerm.set(term, id);
      this.terms.push(term);
      this.ids.push([]);
      this.weights.push([]);
    }
    return id;
  }

  /** The term an id stands for. */
  termOf(id: number): string {
    return this.terms[id]!;
  }

  /** `onlyParameters`: the document has the term in its parameters alone, not in its own name or description. */
  add(termId: number, endpoint: number, weight: number, onlyParameters = false): void {
    this.ids[termId]!.push(endpoint);
    this.weights[termId]!.push(weight);
    if (onlyParameters) (this.paramOnly[termId] ??= new Set()).add(endpoint);
    this.lists[termId] = undefined;
  }

  /** Adds one more field of the endpoint's own: to the weight it has for the term, or as a new entry. */
  addField(termId: number, endpoint: number, weight: number): void {
    const at = this.ids[termId]!.indexOf(endpoint);
    if (at < 0) return this.add(termId, endpoint, weight);
    this.weights[termId]![at]! += weight;
    this.paramOnly[termId]?.delete(endpoint);
    this.lists[termId] = undefined;
  }

  get(term: string): PostingList | undefined {
    const id = this.byTerm.get(term);
    if (id === undefined || this.ids[id]!.length === 0) return undefined;
    // One object per term, made on first asking: a search asks for the same terms many times.
    return (this.lists[id] ??= { ids: this.ids[id]!, weights: this.weights[id]!, paramOnly: this.paramOnly[id] });
  }

  has(term: string): boolean {
    const id = this.byTerm.get(term);
    return id !== undefined && this.ids[id]!.length > 0;
  }
}

/**
 * Index terms of texts and identifiers, each worked out once: the same parameter
 * descriptions and names recur across hundreds of endpoints.
 */
export class TermCache {
  private readonly texts = new Map<string, number[]>();
  private readonly identifiers = new Map<string, number[]>();
  private readonly splits = new Map<string, string[] | null>();
  private readonly wordInfo = new Map<string, { stem: string; term: number; opensPhrase: boolean }>();

  constructor(
    private readonly postings: Postings,
    private readonly vocabulary: Map<string, number>,
    private readonly stems: StemMemo,
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
        for (const id of phrase?.[0] ?? []) out.add(this.postings.intern(stem(this.leads[id]!, this.stems)));
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
