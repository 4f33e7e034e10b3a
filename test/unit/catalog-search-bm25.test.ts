// Issue 11, third round: the second ranker (BM25F, one parameter at a time) and how its
// ranking is fused with the main one.
import { describe, expect, test } from "bun:test";
import {
  bm25Scores,
  buildBm25,
  type Bm25Concept,
  type Bm25Fields,
  type Bm25Passage,
} from "../../src/catalog/search-bm25.ts";
import { fuseScores } from "../../src/catalog/search-rank.ts";

/** Term ids stand for words in these tests. */
const W = { create: 1, vm: 2, tpm: 3, state: 4, disk: 5, fuse: 6, mount: 7, config: 8, filler: 100 } as const;

const fields = (over: Partial<Bm25Fields> = {}): Bm25Fields => ({
  name: [],
  place: [],
  text: [],
  returns: [],
  docs: [],
  siblings: [],
  values: [],
  kinds: [],
  ...over,
});
const passage = (names: number[], text: number[] = []): Bm25Passage => ({ names, text });
const concept = (...terms: number[]): Bm25Concept => ({ terms: terms.map((t) => [t, 1] as const), weight: 1 });
/** Endpoints that make the words of the tests rare (a realistic df). */
const others = (count: number) => Array.from({ length: count }, (_, i) => fields({ name: [[1000 + i]] }));

describe("bm25Scores: the parameters count one at a time", () => {
  test("an endpoint whose words are spread over many parameters loses to one whose single setting says them all", () => {
    // 0: create VM, one parameter per word; 1: VM config, one parameter that is a TPM state disk.
    const index = buildBm25(
      [fields({ name: [[W.create]], place: [[W.vm]] }), fields({ name: [[W.config]], place: [[W.vm]] }), ...others(50)],
      [
        [passage([W.tpm]), passage([W.state]), passage([W.disk]), passage([W.fuse])],
        [passage([W.tpm, W.state], [W.disk])],
      ],
    );
    const scores = bm25Scores(index, [concept(W.vm), concept(W.tpm), concept(W.state), concept(W.disk)]);
    expect(scores[1]!).toBeGreaterThan(scores[0]!);
  });

  test("a parameter adds to its endpoint's own words; its endpoint without it scores its own words only", () => {
    const index = buildBm25(
      [fields({ name: [[W.config]] }), fields({ name: [[W.config]] }), ...others(50)],
      [[passage([W.fuse, W.mount])], []],
    );
    const scores = bm25Scores(index, [concept(W.config), concept(W.fuse)]);
    expect(scores[0]!).toBeGreaterThan(scores[1]!);
    expect(scores[1]!).toBeGreaterThan(0);
  });

  test("a field's length is normalised: the same word in a short description counts more than in a long one", () => {
    const long = Array.from({ length: 40 }, (_, i) => 200 + i);
    const index = buildBm25(
      [fields({ text: [[W.mount]] }), fields({ text: [[W.mount, ...long]] }), ...others(50)],
      [[], []],
    );
    const scores = bm25Scores(index, [concept(W.mount)]);
    expect(scores[0]!).toBeGreaterThan(scores[1]!);
  });

  test("matching more of the query's concepts beats matching one of them twice", () => {
    const index = buildBm25(
      [fields({ name: [[W.tpm]], text: [[W.tpm]] }), fields({ name: [[W.tpm]], text: [[W.disk]] }), ...others(50)],
      [[], []],
    );
    const scores = bm25Scores(index, [concept(W.tpm), concept(W.disk)]);
    expect(scores[1]!).toBeGreaterThan(scores[0]!);
  });

  test("a synonym is no rarer than the word typed (maxIdf)", () => {
    const index = buildBm25([fields({ name: [[W.tpm]] }), fields({ name: [[W.disk]] }), ...others(50)], [[], []]);
    const capped = bm25Scores(index, [{ terms: [[W.tpm, 1]], weight: 1, maxIdf: 0.5 }]);
    const free = bm25Scores(index, [{ terms: [[W.tpm, 1]], weight: 1 }]);
    expect(capped[0]!).toBeLessThan(free[0]!);
  });

  test("words nobody has score nothing", () => {
    const index = buildBm25([fields({ name: [[W.tpm]] })], [[passage([W.disk])]]);
    expect([...bm25Scores(index, [concept(W.filler)])]).toEqual([0]);
  });
});

describe("fuseScores", () => {
  const r = (id: number, score: number, second: number) => ({ id, score, second });
  test.each<[string, ReturnType<typeof r>[], number[]]>([
    ["both agree", [r(1, 10, 5), r(2, 5, 1)], [1, 2]],
    // The main ranking is sure of its first (a lead of 20%); the rest follow both.
    ["a sure first place stands", [r(1, 10, 0.1), r(2, 8, 5), r(3, 7, 4)], [1, 2, 3]],
    ["below it, the fused order", [r(1, 10, 0), r(2, 8, 0.1), r(3, 7, 5)], [1, 3, 2]],
    // A lead under 3% is a near tie: the second ranker breaks it.
    ["a near tie is broken by the second ranker", [r(1, 10, 0.1), r(2, 9.9, 5)], [2, 1]],
    // Only the second ranker found 3: it joins by its own score.
    ["a candidate only the second ranker found", [r(1, 10, 5), r(2, 5, 0), r(3, 0, 4)], [1, 3, 2]],
    ["nothing found by either is dropped", [r(1, 10, 5), r(2, 0, 0)], [1]],
  ])("%s", (_name, ranked, expected) => {
    expect(fuseScores(ranked, 0.03).map((x) => x.id)).toEqual(expected);
  });
});
