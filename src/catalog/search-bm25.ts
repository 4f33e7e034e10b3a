// The second ranker: BM25F over each endpoint's own fields (what it is, where it is, its
// description, what it returns, the docs' words about it, its resource's other methods, the
// values its path takes), with the parameters counted one at a time. An endpoint scores its own
// words plus the one parameter (or property-string key) that best explains the query, the best
// "passage", so an endpoint of 90 parameters cannot win by matching a different word in each,
// while a query that names one of its settings still finds it. Each field's length is
// normalised on its own, as BM25F does. It shares the query's concepts with the main ranker
// but weighs the evidence differently, so the two make different mistakes (search.ts fuses them).
import type { Endpoint } from "./model.ts";
import { placeholders } from "./model.ts";
import type { TermCache } from "./search-terms.ts";
import { parameterKinds, valueTerm } from "./search-values.ts";

/** An endpoint's own fields, as index term ids, item by item. */
export interface Bm25Fields {
  /** What it is: the last path segment and the handler's name. */
  name: readonly (readonly number[])[];
  /** Where it is: the other literal segments of its path. */
  place: readonly (readonly number[])[];
  /** Its summary and description. */
  text: readonly (readonly number[])[];
  returns: readonly (readonly number[])[];
  docs: readonly (readonly number[])[];
  siblings: readonly (readonly number[])[];
  /** The values its path placeholders take when the schema lists them ("pveproxy" for {service}). */
  values: readonly (readonly number[])[];
  /** The kinds of value its path placeholders take ("#volume"): what names its object. */
  kinds: readonly (readonly number[])[];
}

/** A parameter, or one key of a property string, as a small document. */
export interface Bm25Passage {
  /** Its name, its values and its key: what names the setting. */
  names: readonly number[];
  /** Its description. */
  text: readonly number[];
}

type FieldName = keyof Bm25Fields | "paramName" | "paramText";

/** Field weights and length normalisation (b); k1 saturates repeated evidence. */
export const BM25 = {
  k1: 1.2,
  weight: {
    name: 3,
    place: 1.5,
    text: 1.5,
    returns: 0.5,
    docs: 0.5,
    siblings: 0.4,
    values: 2,
    kinds: 1,
    paramName: 1.5,
    paramText: 0.75,
  } satisfies Record<FieldName, number>,
  b: {
    name: 0.3,
    place: 0.3,
    text: 0.75,
    returns: 0.75,
    docs: 0.75,
    siblings: 0.75,
    values: 0.5,
    kinds: 0,
    paramName: 0.5,
    paramText: 0.75,
  } satisfies Record<FieldName, number>,
  /** The score's share that depends on how many of the query's concepts are matched. */
  coverage: 0.6,
  /** A concept matched only by the parameter covers it this much. */
  paramCoverage: 0.5,
} as const;

/** Term id -> documents with their weighted, length-normalised term frequency. */
class TfPostings {
  private readonly ids: number[][] = [];
  private readonly tfs: number[][] = [];

  add(term: number, doc: number, tf: number): void {
    (this.ids[term] ??= []).push(doc);
    (this.tfs[term] ??= []).push(tf);
  }

  get(term: number): { ids: readonly number[]; tfs: readonly number[] } | undefined {
    const ids = this.ids[term];
    return ids ? { ids, tfs: this.tfs[term]! } : undefined;
  }
}

export interface Bm25Index {
  own: TfPostings;
  passages: TfPostings;
  /** The endpoint each passage belongs to. */
  passageEndpoint: Int32Array;
  /** In how many endpoints (own fields or any passage) each term occurs. */
  df: Map<number, number>;
  size: number;
}

/** Parameters that say nothing about what an endpoint does. */
const GENERIC_PARAMS = new Set(["node", "digest", "delete", "revert", "skiplock", "force"]);

/**
 * An endpoint's passages: each parameter that may explain a query (not a path placeholder, not
 * a generic one), and each key of a property string with its parameter's name ("agent" +
 * "freeze-fs"), since each key is a setting of its own.
 */
export function endpointPassages(e: Endpoint, terms: TermCache, intern: (term: string) => number): Bm25Passage[] {
  const inPath = new Set(placeholders(e.path));
  const values = (list: unknown) =>
    (Array.isArray(list) ? list : []).flatMap((v) => (typeof v === "string" ? terms.identifier(v) : []));
  const passage = (names: Iterable<number>, text: Iterable<number>): Bm25Passage => {
    const named = new Set(names);
    return { names: [...named], text: [...new Set(text)].filter((t) => !named.has(t)) };
  };
  const out: Bm25Passage[] = [];
  for (const [name, p] of Object.entries(e.parameters)) {
    if (inPath.has(name) || GENERIC_PARAMS.has(name)) continue;
    const own = terms.identifier(name);
    // The kinds of value it takes ("#volume") name it too: "local:iso/x.iso" is what it takes.
    const kinds = parameterKinds(name, p).map((kind) => intern(valueTerm(kind)));
    out.push(passage([...own, ...kinds, ...values(p.enum)], p.description ? terms.text(p.description) : []));
    if (!p.format || typeof p.format !== "object") continue;
    for (const [key, sub] of Object.entries(p.format as Record<string, Record<string, unknown> | undefined>)) {
      if (!sub || sub.alias !== undefined) continue;
      const text = typeof sub.description === "string" ? terms.text(sub.description) : [];
      out.push(passage([...own, ...terms.identifier(key), ...values(sub.enum)], text));
    }
  }
  return out;
}

/** The kinds of value an endpoint's path placeholders take ("#volume" for {volume}). */
export function placeholderKinds(e: Endpoint, intern: (term: string) => number): number[][] {
  return placeholders(e.path).flatMap((name) => {
    const p = e.parameters[name];
    return p ? [parameterKinds(name, p).map((kind) => intern(valueTerm(kind)))] : [];
  });
}

/** The values an endpoint's path placeholders take, when the schema lists them. */
export function placeholderValues(e: Endpoint, terms: TermCache): number[][] {
  return placeholders(e.path).flatMap((name) =>
    (e.parameters[name]?.enum ?? []).flatMap((v) => (typeof v === "string" ? [terms.identifier(v)] : [])),
  );
}

const lengthOf = (items: readonly (readonly number[])[]) => items.reduce((sum, item) => sum + item.length, 0);

/** The mean length of a field over the documents that have it. */
function meanLength(lengths: readonly number[]): number {
  const present = lengths.filter((l) => l > 0);
  return present.length ? present.reduce((a, b) => a + b, 0) / present.length : 1;
}

export function buildBm25(fields: readonly Bm25Fields[], passages: readonly (readonly Bm25Passage[])[]): Bm25Index {
  const n = fields.length;
  const ownFields = Object.keys(fields[0] ?? {}) as (keyof Bm25Fields)[];
  const lengths = fields.map((f) => Object.fromEntries(ownFields.map((k) => [k, lengthOf(f[k])])));
  const all = passages.flat();
  const mean: Record<string, number> = {
    paramName: meanLength(all.map((p) => p.names.length)),
    paramText: meanLength(all.map((p) => p.text.length)),
  };
  for (const k of ownFields) mean[k] = meanLength(lengths.map((l) => l[k]!));
  // BM25F: a term's frequency in a field, weighted and divided by the field's relative length.
  const norm = (field: FieldName, length: number) =>
    BM25.weight[field] / (1 - BM25.b[field] + (BM25.b[field] * length) / mean[field]!);

  const own = new TfPostings();
  const df = new Map<number, number>();
  const tf = new Map<number, number>();
  const seen = new Set<number>();
  const count = (term: number) => {
    if (seen.has(term)) return;
    seen.add(term);
    df.set(term, (df.get(term) ?? 0) + 1);
  };
  fields.forEach((f, id) => {
    tf.clear();
    seen.clear();
    for (const k of ownFields) {
      const w = norm(k, lengths[id]![k]!);
      for (const item of f[k]) for (const t of item) tf.set(t, (tf.get(t) ?? 0) + w);
    }
    for (const [t, value] of tf) {
      own.add(t, id, value);
      count(t);
    }
    for (const p of passages[id] ?? []) for (const t of [...p.names, ...p.text]) count(t);
  });
  const passagePostings = new TfPostings();
  const passageEndpoint: number[] = [];
  passages.forEach((list, id) => {
    for (const p of list) {
      const doc = passageEndpoint.length;
      passageEndpoint.push(id);
      tf.clear();
      const wName = norm("paramName", p.names.length);
      const wText = norm("paramText", p.text.length);
      for (const t of p.names) tf.set(t, (tf.get(t) ?? 0) + wName);
      for (const t of p.text) tf.set(t, (tf.get(t) ?? 0) + wText);
      for (const [t, value] of tf) passagePostings.add(t, doc, value);
    }
  });
  return { own, passages: passagePostings, passageEndpoint: Int32Array.from(passageEndpoint), df, size: n };
}

/** One concept of the query: alternative terms (ids) with their weights, and the concept's weight. */
export interface Bm25Concept {
  terms: readonly (readonly [number, number])[];
  weight: number;
  /** The concept is no rarer than this: the word typed, when a synonym of it is rarer. */
  maxIdf?: number | undefined;
}

/** BM25's inverse document frequency. */
export function bm25Idf(index: Pick<Bm25Index, "df" | "size">, term: number): number {
  const df = index.df.get(term) ?? 0;
  return Math.log(1 + (index.size - df + 0.5) / (df + 0.5));
}

/**
 * Each endpoint's score: per concept the best of its terms, summed over the concepts, for the
 * endpoint's own fields plus its best passage; scaled by how many concepts are matched (a
 * concept matched only by the passage half counts).
 */
export function bm25Scores(index: Bm25Index, concepts: readonly Bm25Concept[]): Float64Array {
  const n = index.size;
  const m = index.passageEndpoint.length;
  const k1 = BM25.k1;
  const saturate = (x: number) => (x * (k1 + 1)) / (x + k1);
  const ownTotal = new Float64Array(n);
  const ownCovered = new Float64Array(n);
  const ownTf = new Float64Array(n);
  const ownBest = new Float64Array(n);
  // Per passage: what it adds to its endpoint's own match, in score and in coverage.
  const gain = new Float64Array(m);
  const covered = new Float64Array(m);
  const passageBest = new Float64Array(m);
  const touched: number[] = [];
  const gained: number[] = [];
  let totalWeight = 0;
  for (const concept of concepts) {
    ownBest.fill(0);
    for (const [term, weight] of concept.terms) {
      const idf = Math.min(bm25Idf(index, term), concept.maxIdf ?? Infinity) * weight;
      if (idf <= 0) continue;
      const list = index.own.get(term);
      if (list) {
        for (let k = 0; k < list.ids.length; k++) {
          const id = list.ids[k]!;
          ownTf[id] = list.tfs[k]!;
          const v = idf * saturate(list.tfs[k]!);
          if (v > ownBest[id]!) ownBest[id] = v;
        }
      }
      const plist = index.passages.get(term);
      if (plist) {
        for (let k = 0; k < plist.ids.length; k++) {
          const doc = plist.ids[k]!;
          // The passage adds to the endpoint's own frequency of the term: one document, two parts.
          const v = idf * saturate(ownTf[index.passageEndpoint[doc]!]! + plist.tfs[k]!);
          if (passageBest[doc] === 0) touched.push(doc);
          if (v > passageBest[doc]!) passageBest[doc] = v;
        }
      }
      if (list) for (const id of list.ids) ownTf[id] = 0;
    }
    totalWeight += concept.weight;
    for (let id = 0; id < n; id++) {
      ownTotal[id] = ownTotal[id]! + concept.weight * ownBest[id]!;
      if (ownBest[id]! > 0) ownCovered[id] = ownCovered[id]! + concept.weight;
    }
    for (const doc of touched) {
      const e = index.passageEndpoint[doc]!;
      const more = passageBest[doc]! - ownBest[e]!;
      passageBest[doc] = 0;
      if (more <= 0) continue;
      if (gain[doc] === 0) gained.push(doc);
      gain[doc] = gain[doc]! + concept.weight * more;
      if (ownBest[e] === 0) covered[doc] = covered[doc]! + concept.weight;
    }
    touched.length = 0;
  }
  const coverage = (own: number, passage: number) =>
    totalWeight ? 1 - BM25.coverage + (BM25.coverage * (own + BM25.paramCoverage * passage)) / totalWeight : 1;
  const scores = new Float64Array(n);
  for (let id = 0; id < n; id++) scores[id] = ownTotal[id]! * coverage(ownCovered[id]!, 0);
  for (const doc of gained) {
    const e = index.passageEndpoint[doc]!;
    const value = (ownTotal[e]! + gain[doc]!) * coverage(ownCovered[e]!, covered[doc]!);
    if (value > scores[e]!) scores[e] = value;
  }
  return scores;
}
