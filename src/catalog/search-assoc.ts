// Word associations learnt from Proxmox's own text: which words keep each other company in
// the schema's descriptions and, when loaded, in the docs' sections, example paragraphs and
// command descriptions ("vgpu" with mediated: "Mediated Devices (vGPU, GVT-g)"). A query word
// the schema does not use then also finds, weakly, the words it goes with (search-query.ts).
// Version-matched like the schema, and written by nobody.
import { stem } from "./stem.ts";
import { STOPWORDS, words } from "./text.ts";

export const ASSOC = {
  /** Fewest texts two words must share. */
  minShared: 3,
  /** Least association (shared / sqrt(product of counts)) kept. */
  minStrength: 0.3,
  /** Most associates kept per word. */
  perWord: 4,
  /** Words in more texts than this share say nothing in particular. */
  maxShare: 0.05,
} as const;

/** Stem -> its associates with their strength (0..1], strongest first. */
export type Associations = Map<string, readonly (readonly [string, number])[]>;

/** The associations of the words of `texts` (each a context: a description, a section, a paragraph). */
export function learnAssociations(texts: Iterable<string>, stems: Map<string, string>): Associations {
  const ids = new Map<string, number>();
  const names: string[] = [];
  const contexts: Int32Array[] = [];
  const seen = new Set<string>();
  for (const text of texts) {
    if (seen.has(text)) continue;
    seen.add(text);
    const unique = new Set<number>();
    for (const w of words(text)) {
      if (w.length < 2 || STOPWORDS.has(w) || /^\d/.test(w)) continue;
      const s = stem(w, stems);
      let id = ids.get(s);
      if (id === undefined) {
        id = names.length;
        ids.set(s, id);
        names.push(s);
      }
      unique.add(id);
    }
    if (unique.size > 1) contexts.push(Int32Array.from(unique));
  }
  const count = new Int32Array(names.length);
  for (const c of contexts) for (const id of c) count[id]!++;
  const limit = Math.max(ASSOC.minShared, contexts.length * ASSOC.maxShare);
  const shared = new Map<number, number>();
  const m = names.length;
  for (const c of contexts) {
    const kept = [...c].filter((id) => count[id]! >= ASSOC.minShared && count[id]! <= limit);
    for (let i = 0; i < kept.length; i++)
      for (let j = i + 1; j < kept.length; j++) {
        const a = Math.min(kept[i]!, kept[j]!);
        const b = Math.max(kept[i]!, kept[j]!);
        const key = a * m + b;
        shared.set(key, (shared.get(key) ?? 0) + 1);
      }
  }
  const lists = new Map<number, [number, number][]>();
  for (const [key, n] of shared) {
    if (n < ASSOC.minShared) continue;
    const a = Math.floor(key / m);
    const b = key % m;
    const strength = n / Math.sqrt(count[a]! * count[b]!);
    if (strength < ASSOC.minStrength) continue;
    (lists.get(a) ?? lists.set(a, []).get(a)!).push([b, strength]);
    (lists.get(b) ?? lists.set(b, []).get(b)!).push([a, strength]);
  }
  const out: Associations = new Map();
  for (const [a, list] of lists) {
    list.sort((x, y) => y[1] - x[1]);
    out.set(
      names[a]!,
      list.slice(0, ASSOC.perWord).map(([b, s]) => [names[b]!, s] as const),
    );
  }
  return out;
}
