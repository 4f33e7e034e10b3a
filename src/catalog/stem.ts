// Porter's stemming algorithm (M.F. Porter, 1980), so that "replicate", "replication" and
// "replicating" meet in one index term.

const STEP2: Record<string, string> = {
  ational: "ate",
  tional: "tion",
  enci: "ence",
  anci: "ance",
  izer: "ize",
  bli: "ble",
  alli: "al",
  entli: "ent",
  eli: "e",
  ousli: "ous",
  ization: "ize",
  ation: "ate",
  ator: "ate",
  alism: "al",
  iveness: "ive",
  fulness: "ful",
  ousness: "ous",
  aliti: "al",
  iviti: "ive",
  biliti: "ble",
  logi: "log",
};
const STEP3: Record<string, string> = {
  icate: "ic",
  ative: "",
  alize: "al",
  iciti: "ic",
  ical: "ic",
  ful: "",
  ness: "",
};

const c = "[^aeiou]";
const v = "[aeiouy]";
const C = `${c}[^aeiouy]*`;
const V = `${v}[aeiou]*`;
const MGR0 = new RegExp(`^(${C})?${V}${C}`);
const MEQ1 = new RegExp(`^(${C})?${V}${C}(${V})?$`);
const MGR1 = new RegExp(`^(${C})?${V}${C}${V}${C}`);
const S_V = new RegExp(`^(${C})?${v}`);
const CVC = new RegExp(`^${C}${v}[^aeiouwxy]$`);

const STEP1A_SSES = /^(.+?)(ss|i)es$/;
const STEP1A_S = /^(.+?)([^s])s$/;
const STEP1B_EED = /^(.+?)eed$/;
const STEP1B_ED = /^(.+?)(ed|ing)$/;
const STEP1C = /^(.+?)y$/;
const STEP2_RE =
  /^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$/;
const STEP3_RE = /^(.+?)(icate|ative|alize|iciti|ical|ful|ness)$/;
const STEP4_RE = /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/;
const STEP4_ION = /^(.+?)(s|t)(ion)$/;
const STEP5_E = /^(.+?)e$/;

function porter(word: string): string {
  if (word.length < 3) return word;
  let w = word;
  const startsWithY = w[0] === "y";
  if (startsWithY) w = `Y${w.slice(1)}`;

  let m: RegExpExecArray | null;
  if ((m = STEP1A_SSES.exec(w))) w = m[1]! + m[2]!;
  else if ((m = STEP1A_S.exec(w))) w = m[1]! + m[2]!;

  if ((m = STEP1B_EED.exec(w))) {
    if (MGR0.test(m[1]!)) w = w.slice(0, -1);
  } else if ((m = STEP1B_ED.exec(w))) {
    const stem = m[1]!;
    if (S_V.test(stem)) {
      w = stem;
      if (/(at|bl|iz)$/.test(w)) w += "e";
      // A three-letter base stays whole ("added": add, which stem() leaves as it is), not "ad".
      else if (/([^aeiouylsz])\1$/.test(w) && w.length > 3) w = w.slice(0, -1);
      else if (CVC.test(w)) w += "e";
    }
  }

  if ((m = STEP1C.exec(w)) && S_V.test(m[1]!)) w = `${m[1]!}i`;

  if ((m = STEP2_RE.exec(w)) && MGR0.test(m[1]!)) w = m[1]! + STEP2[m[2]!]!;
  if ((m = STEP3_RE.exec(w)) && MGR0.test(m[1]!)) w = m[1]! + STEP3[m[2]!]!;

  if ((m = STEP4_RE.exec(w))) {
    if (MGR1.test(m[1]!)) w = m[1]!;
  } else if ((m = STEP4_ION.exec(w))) {
    const stem = m[1]! + m[2]!;
    if (MGR1.test(stem)) w = stem;
  }

  if ((m = STEP5_E.exec(w))) {
    const stem = m[1]!;
    if (MGR1.test(stem) || (MEQ1.test(stem) && !CVC.test(stem))) w = stem;
  }
  if (/ll$/.test(w) && MGR1.test(w)) w = w.slice(0, -1);

  if (startsWithY) w = `y${w.slice(1)}`;
  return w;
}

/** What stem() remembers: a Map, or a StemCache. */
export interface StemMemo {
  get(word: string): string | undefined;
  set(word: string, stemmed: string): unknown;
}

/** How many stems of words searched a StemCache remembers before it forgets them all. */
const RECENT_STEMS = 4096;

/**
 * The stems of an index's own words, kept for good, and of the words searched since, at most
 * `limit` of them: a server searches words without end, and they must not pile up in memory.
 */
export class StemCache implements StemMemo {
  private readonly recent = new Map<string, string>();

  constructor(
    private readonly known: ReadonlyMap<string, string>,
    private readonly limit = RECENT_STEMS,
  ) {}

  get(word: string): string | undefined {
    return this.known.get(word) ?? this.recent.get(word);
  }

  set(word: string, stemmed: string): this {
    if (this.recent.size >= this.limit) this.recent.clear();
    this.recent.set(word, stemmed);
    return this;
  }

  /** How many stems of words searched it holds now. */
  get recentSize(): number {
    return this.recent.size;
  }
}

/**
 * The two-letter acronyms the schema's own prose puts in the plural ("IPs" 16 times, "IDs" 13,
 * "PGs" 3 in the PVE 9.1 schema), whose singular is the API's word; "VMs" and "CTs" have
 * synonyms of their own.
 */
const TWO_LETTER_PLURAL = /^(?:ip|id|pg)s$/;

/** Stems a lower-case word; words with digits and short words stay as they are. */
export function stem(word: string, cache?: StemMemo): string {
  // The cache holds only words stemmed, so a hit needs no other test.
  const hit = cache?.get(word);
  if (hit !== undefined) return hit;
  // "IPs", "IDs", "PGs": a two-letter acronym in the plural is that acronym, which the API writes
  // in the singular ("ip", "id", "pg"); other short words stay as they are.
  if (TWO_LETTER_PLURAL.test(word)) return word.slice(0, 2);
  if (word.length < 4 || /\d/.test(word)) return word;
  const out = porter(word);
  cache?.set(word, out);
  return out;
}
