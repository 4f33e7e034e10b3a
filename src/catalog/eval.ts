import type { Catalog } from "./catalog.ts";

/** One evaluation query: the words and the acceptable "METHOD /path" answers. */
export interface EvalQuery {
  query: string;
  expect: string[];
}

export interface EvalOutcome {
  query: string;
  expect: string[];
  /** 1-based rank of the first acceptable answer, or undefined when not in the top ten. */
  rank: number | undefined;
  top: string[];
}

export interface EvalSummary {
  total: number;
  top1: number;
  top5: number;
  top10: number;
  outcomes: EvalOutcome[];
}

export function parseEvalQueries(data: unknown): EvalQuery[] {
  if (!Array.isArray(data)) throw new Error("expected an array of {query, expect}");
  return data.map((item, i) => {
    const q = item as { query?: unknown; expect?: unknown };
    if (typeof q.query !== "string" || !Array.isArray(q.expect) || !q.expect.every((e) => typeof e === "string")) {
      throw new Error(`entry ${i} is not {query: string, expect: string[]}`);
    }
    return { query: q.query, expect: q.expect as string[] };
  });
}

/** Top-1, top-5 and top-10 rates of acceptable answers, as the issues measure them. */
export function evaluateSearch(catalog: Catalog, queries: EvalQuery[]): EvalSummary {
  const outcomes = queries.map((q) => {
    const top = catalog.search(q.query, { limit: 10 }).hits.map((h) => `${h.method} ${h.path}`);
    const index = top.findIndex((t) => q.expect.includes(t));
    return { query: q.query, expect: q.expect, rank: index >= 0 ? index + 1 : undefined, top };
  });
  return {
    total: outcomes.length,
    top1: outcomes.filter((o) => o.rank === 1).length / Math.max(1, outcomes.length),
    top5: outcomes.filter((o) => o.rank !== undefined && o.rank <= 5).length / Math.max(1, outcomes.length),
    top10: outcomes.filter((o) => o.rank !== undefined).length / Math.max(1, outcomes.length),
    outcomes,
  };
}
