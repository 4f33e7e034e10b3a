// Ranking: order by score, keep the top five free of VM/container twins, page.

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

/** A candidate as both rankers see it: the first's score (0 when it did not find it) and the second's. */
export interface Scored {
  id: number;
  score: number;
  second: number;
}

/**
 * Two rankings fused by score: each ranker's score as a share of its best, added. The first
 * ranker keeps its first place unless its lead over its own second place is less than `tie`
 * (a share of its score): a near tie is for the second ranker to break. `ranked` is in the
 * first ranker's order; candidates only the second ranker found may be among them.
 */
export function fuseScores<T extends Scored>(ranked: readonly T[], tie: number): T[] {
  const found = ranked.filter((r) => r.score > 0);
  const best = Math.max(0, ...ranked.map((r) => r.score));
  const bestSecond = Math.max(0, ...ranked.map((r) => r.second));
  const value = ranked.map((r) => (best ? r.score / best : 0) + (bestSecond ? r.second / bestSecond : 0));
  const fused = ranked
    .map((_, i) => i)
    .filter((i) => value[i]! > 0)
    .sort((a, b) => value[b]! - value[a]! || a - b)
    .map((i) => ranked[i]!);
  const [first, runnerUp] = found;
  const sure = first !== undefined && (first.score - (runnerUp?.score ?? 0)) / first.score >= tie;
  return sure ? [first, ...fused.filter((r) => r !== first)] : fused;
}
