// API catalog benchmark (issue 3): bun bench/catalog.ts [schema file] [queries file]
// (default queries: the shared dev queries and our held-out set)
// Cold parse+index of the PVE 9.1 schema (median of fresh processes), search and describe
// latency, retained memory.
import { resolve } from "node:path";
import { Catalog } from "../src/catalog/catalog.ts";
import { parseEvalQueries } from "../src/catalog/eval.ts";

const shared = resolve(import.meta.dir, "../../shared");
const COLD_ONCE = "--cold-once";
const coldOnce = process.argv.includes(COLD_ONCE);
const args = process.argv.slice(2).filter((a) => a !== COLD_ONCE);
const schemaFile = args[0] ?? `${shared}/pve/schemas/pve9.1-apidata.js`;
const queriesFile = args[1] ?? `${shared}/search-eval/dev-queries.json`;
const source = { kind: "inline" as const, location: schemaFile };
const COLD_PROCESSES = 9;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const ms = (x: number) => `${x.toFixed(3)} ms`;
const mib = (x: number) => `${(x / 1024 / 1024).toFixed(1)} MiB`;

const text = await Bun.file(schemaFile).text();
const heldOutFile = resolve(import.meta.dir, "../test/fixtures/search-heldout.json");
const queries = [
  ...parseEvalQueries(await Bun.file(queriesFile).json()),
  ...(args[1] ? [] : parseEvalQueries(await Bun.file(heldOutFile).json())),
].map((q) => q.query);

// Cold: the first parse+index in a process, before anything else touched the heap or the JIT.
let t = performance.now();
let catalog: Catalog | undefined = Catalog.fromText(text, source);
const cold = performance.now() - t;
if (coldOnce) {
  process.stdout.write(`${cold}\n`);
  process.exit(0);
}
// One process is one sample of a noisy figure: take the median of several fresh ones.
const colds = [cold];
for (let i = 1; i < COLD_PROCESSES; i++) {
  const child = Bun.spawnSync([process.execPath, import.meta.path, COLD_ONCE, schemaFile, queriesFile]);
  colds.push(Number(child.stdout.toString().trim()));
}
colds.sort((a, b) => a - b);

const warm: number[] = [];
for (let i = 0; i < 10; i++) {
  t = performance.now();
  Catalog.fromText(text, source);
  warm.push(performance.now() - t);
}
warm.sort((a, b) => a - b);

const search: number[] = [];
for (let round = 0; round < 20; round++) {
  for (const q of queries) {
    t = performance.now();
    catalog.search(q, { limit: 10 });
    search.push(performance.now() - t);
  }
}
search.sort((a, b) => a - b);

const describe: number[] = [];
const paths = catalog.allPaths();
for (let round = 0; round < 5; round++) {
  for (const p of paths) {
    t = performance.now();
    catalog.describe(p);
    describe.push(performance.now() - t);
  }
}
describe.sort((a, b) => a - b);
const endpoints = catalog.size;
catalog = undefined;

// Retained memory: JS heap growth per catalog kept alive once the file text is gone (mean of 4).
const heapUsed = () => {
  Bun.gc(true);
  return process.memoryUsage().heapUsed;
};
const base = heapUsed();
const kept = Array.from({ length: 4 }, () => Catalog.fromText(text, source));
const retained = (heapUsed() - base) / kept.length;
kept.length = 0;

const lines = [
  `schema: ${schemaFile} (${endpoints} endpoints, ${mib(text.length)} of text)`,
  `parse+index: cold median ${ms(quantile(colds, 0.5))} of ${colds.length} processes (${ms(colds[0]!)}–${ms(colds.at(-1)!)}), warm median ${ms(quantile(warm, 0.5))} (goal < 100 ms)`,
  `search (${queries.length} queries x 20${args[1] ? "" : ": dev and held-out"}): median ${ms(quantile(search, 0.5))}, p99 ${ms(quantile(search, 0.99))} (goal median < 1 ms)`,
  `describe (${paths.length} paths x 5, all methods): median ${ms(quantile(describe, 0.5))}, p99 ${ms(quantile(describe, 0.99))}`,
  `retained per catalog: ${mib(retained)} heapUsed after GC (goal < 40 MiB)`,
];
process.stdout.write(`${lines.join("\n")}\n`);
