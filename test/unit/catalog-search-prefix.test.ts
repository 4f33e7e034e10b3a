// Ranking's shortcuts give what the long way gives: rankedPrefix (src/catalog/search.ts) scores
// in full only the candidates whose bound can reach the page; equal ranks keep a precomputed
// order; a VM/container family has two members at most.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { parseEvalQueries } from "../../src/catalog/eval.ts";
import { Catalog } from "../../src/catalog/catalog.ts";
import { familyKey, tieOrderOf } from "../../src/catalog/search-index-facts.ts";
import { rankedPrefix } from "../../src/catalog/search.ts";
import { realCatalogs } from "../support/real-catalog.ts";
import { DEV_QUERIES, DOCS_DIR, haveSharedData, SCHEMA_DIR, SCHEMA_FILES } from "../support/shared.ts";

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

describe("search pages on PVE 9.1: the same as one long page cut up", async () => {
  const present =
    haveSharedData("search pages", SCHEMA_DIR) &&
    haveSharedData("search pages", DOCS_DIR) &&
    haveSharedData("search pages", DEV_QUERIES);
  const { plain, withDocs } = present ? await realCatalogs(true) : {};
  // Plain words, and command lines that pin endpoints ("qm set"), weigh a tool's home ("pct
  // enter": no API twin, its tool's other commands count more) or name one guest ("pct status").
  const queries = present
    ? [
        ...parseEvalQueries(JSON.parse(readFileSync(DEV_QUERIES, "utf8"))).map((q) => q.query),
        "pct enter 101",
        "qm terminal 100",
        "pct status 101",
        "qm set 100 --memory 4096",
        "qm migrate 100 pve2 --online",
        "pvesh get /cluster/resources",
        "pveam remove local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst",
        "ha-manager add vm:100",
        "show every VM and container on all nodes",
      ]
    : [];
  const page = (hits: { method: string; path: string; score?: number }[]) =>
    hits.map((h) => `${h.method} ${h.path} ${h.score}`);

  test.skipIf(!present)(
    "every offset and limit, with docs and without, with a method filter too",
    () => {
      let pages = 0;
      for (const catalog of [withDocs!, plain!]) {
        for (const query of queries) {
          for (const method of [undefined, "GET"]) {
            const whole = catalog.search(query, { limit: 5000, method });
            for (const limit of [1, 3, 9, 10, 25]) {
              for (const offset of [0, 1, 9, 17]) {
                const cut = catalog.search(query, { limit, offset, method });
                expect(cut.total).toBe(whole.total);
                expect(page(cut.hits)).toEqual(page(whole.hits.slice(offset, offset + limit)));
                pages++;
              }
            }
          }
        }
      }
      expect(pages).toBeGreaterThan(1000);
      // About 5,500 pages: seconds here, more on a slow CI machine.
    },
    60_000,
  );
});

describe("tieOrderOf: equal ranks in a fixed order", () => {
  test("shorter paths first, then the paths in locale order, then the schema's order within a path", () => {
    const endpoints = [
      { path: "/b/c" },
      { path: "/B" }, // a capital sorts with its letter, not before every small one
      { path: "/a" },
      { path: "/a" }, // the same path again: its POST after its GET
    ];
    const order = tieOrderOf(endpoints);
    const sorted = endpoints.map((_, id) => id).sort((x, y) => order[x]! - order[y]!);
    expect(sorted).toEqual([2, 3, 1, 0]);
  });
});

describe("familyKey: one answer in two variants", () => {
  test("a VM's and a container's endpoint share a key; a node's own does not", () => {
    expect(familyKey({ method: "POST", path: "/nodes/{node}/qemu/{vmid}/status/start" })).toBe(
      familyKey({ method: "POST", path: "/nodes/{node}/lxc/{vmid}/status/start" }),
    );
    expect(familyKey({ method: "GET", path: "/nodes/{node}/qemu" })).toBe(
      familyKey({ method: "GET", path: "/nodes/{node}/lxc" }),
    );
    expect(familyKey({ method: "GET", path: "/nodes/{node}/qemu" })).not.toBe(
      familyKey({ method: "POST", path: "/nodes/{node}/lxc" }),
    );
    expect(familyKey({ method: "GET", path: "/nodes/{node}/qemuserver" })).not.toBe(
      familyKey({ method: "GET", path: "/nodes/{node}/lxcserver" }),
    );
  });

  const present = haveSharedData("search families", SCHEMA_DIR);
  test.skipIf(!present).each(Object.entries(SCHEMA_FILES))(
    "PVE %s: no family holds more than two",
    (version, { file }) => {
      const catalog = Catalog.fromText(readFileSync(file, "utf8"), { kind: "inline", location: version });
      const sizes = new Map<string, number>();
      for (const e of catalog.endpoints) sizes.set(familyKey(e), (sizes.get(familyKey(e)) ?? 0) + 1);
      expect(Math.max(...sizes.values())).toBe(2);
    },
  );
});
