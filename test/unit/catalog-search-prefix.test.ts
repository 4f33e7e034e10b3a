// rankedPrefix (src/catalog/search.ts): scoring in full only the candidates whose bound can reach
// the page gives the same first results as scoring them all.
import { describe, expect, test } from "bun:test";
import { rankedPrefix } from "../../src/catalog/search.ts";

interface Fake {
  id: number;
  bound: number;
  rank: number;
}

// A seeded generator, so a failure repeats.
function generator(seed: number): () => number {
  return () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

/** Candidates whose rank is their bound times a factor in (0, 1], with ties in both. */
function candidates(count: number, random: () => number): Fake[] {
  return Array.from({ length: count }, (_, id) => {
    const bound = Math.round(random() * 20) / 2;
    return { id, bound, rank: bound * (random() < 0.3 ? 1 : Math.round(random() * 10) / 10) };
  });
}

const order = (a: { id: number; rank: number }, b: { id: number; rank: number }) => b.rank - a.rank || a.id - b.id;
const firstOf = (list: readonly { id: number; rank: number }[], wanted: number) =>
  [...list]
    .sort(order)
    .slice(0, wanted)
    .map((r) => `${r.id}:${r.rank}`);

describe("rankedPrefix", () => {
  test.each([
    [5, 10],
    [200, 10],
    [500, 10],
    [500, 37],
    [60, 30],
  ])("%i candidates, first %i: the same as scoring every one", (count, wanted) => {
    for (let seed = 1; seed <= 25; seed++) {
      const all = candidates(count, generator(seed));
      let calls = 0;
      const scored = (c: Fake) => {
        calls++;
        return { id: c.id, score: c.rank, rank: c.rank };
      };
      const prefix = rankedPrefix(all, scored, wanted);
      expect(firstOf(prefix, wanted)).toEqual(firstOf(all, wanted));
      // Nothing is scored twice, and with many candidates not all of them are.
      expect(new Set(prefix.map((r) => r.id)).size).toBe(prefix.length);
      expect(calls).toBe(prefix.length);
      if (count >= 200) expect(calls).toBeLessThan(count);
    }
  });

  test("a pinned candidate (an infinite bound) is always scored", () => {
    const all = candidates(300, generator(7));
    all[299] = { id: 299, bound: Infinity, rank: -1 };
    const ids = rankedPrefix(all, (c) => ({ id: c.id, score: c.rank, rank: c.rank }), 10).map((r) => r.id);
    expect(ids).toContain(299);
  });
});
