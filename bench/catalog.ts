// API catalog benchmark (issues 3 and 11): bun bench/catalog.ts [schema file] [queries file]
// (default queries: the shared dev sets and our held-out sets)
// Cold parse+index of the PVE 9.1 schema (median of fresh processes), the same with the
// pve-docs 9.1.3 pages parsed and attached, search and describe latency with and without the
// docs, and what a loaded catalog retains in memory, with and without the docs.
import { resolve } from "node:path";
import { Catalog } from "../src/catalog/catalog.ts";
import { parseDocsPage } from "../src/catalog/docs-html.ts";
import { DOCS_PAGES } from "../src/catalog/docs-loader.ts";
import { parseEvalQueries } from "../src/catalog/eval.ts";
import type { DocsPage } from "../src/catalog/model.ts";

const shared = resolve(import.meta.dir, "../../shared");
const fixtures = resolve(import.meta.dir, "../test/fixtures");
const COLD_ONCE = "--cold-once";
const coldOnce = process.argv.indexOf(COLD_ONCE);
const args = process.argv.slice(2).filter((a, i) => a !== COLD_ONCE && process.argv[i + 1] !== COLD_ONCE);
const schemaFile = args[0] ?? `${shared}/pve/schemas/pve9.1-apidata.js`;
const queryFiles = args[1]
  ? [args[1]]
  : [
      `${shared}/search-eval/dev-queries.json`,
      `${shared}/search-eval/dev-queries-2.json`,
      `${fixtures}/search-heldout.json`,
      `${fixtures}/search-fresh-tune.json`,
      `${fixtures}/search-fresh-sealed.json`,
    ];
const docsDir = `${shared}/pve/docs/9.1.3`;
const source = { kind: "inline" as const, location: schemaFile };
const docsSource = { kind: "inline" as const, location: docsDir };
const COLD_PROCESSES = 9;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const ms = (x: number) => `${x.toFixed(3)} ms`;
const mib = (x: number) => `${(x / 1024 / 1024).toFixed(1)} MiB`;

const text = await Bun.file(schemaFile).text();
const pageTexts = await Promise.all(
  DOCS_PAGES.map(async (p) => [p, await Bun.file(`${docsDir}/${p}`).text()] as const),
);
const parseDocs = async (): Promise<DocsPage[]> => Promise.all(pageTexts.map(([p, html]) => parseDocsPage(p, html)));

// Cold: the first load in a process, before anything else touched the heap or the JIT. The
// index is built by the first search, so that search is part of it.
if (coldOnce >= 0) {
  const withDocs = process.argv[coldOnce + 1] === "docs";
  const t = performance.now();
  const catalog = Catalog.fromText(text, source);
  if (withDocs) catalog.attachDocs(docsSource, await parseDocs());
  catalog.search("x");
  process.stdout.write(`${performance.now() - t}\n`);
  process.exit(0);
}
const cold = (mode: string) => {
  const child = Bun.spawnSync([process.execPath, import.meta.path, COLD_ONCE, mode, schemaFile]);
  return Number(child.stdout.toString().trim());
};
// Alternate the two kinds so that the machine's load falls on both alike.
const colds: number[] = [];
const coldsDocs: number[] = [];
for (let round = 0; round < COLD_PROCESSES; round++) {
  if (round % 2) colds.push(cold("schema"));
  coldsDocs.push(cold("docs"));
  if (round % 2 === 0) colds.push(cold("schema"));
}
colds.sort((a, b) => a - b);
coldsDocs.sort((a, b) => a - b);

const queries = (await Promise.all(queryFiles.map(async (f) => parseEvalQueries(await Bun.file(f).json())))).flat();
const plain = Catalog.fromText(text, source);
const docs = Catalog.fromText(text, source);
docs.attachDocs(docsSource, await parseDocs());

function searchTimes(catalog: Catalog): number[] {
  catalog.search("warm up");
  const times: number[] = [];
  for (let round = 0; round < 20; round++) {
    for (const q of queries) {
      const t = performance.now();
      catalog.search(q.query, { limit: 10 });
      times.push(performance.now() - t);
    }
  }
  return times.sort((a, b) => a - b);
}
const search = searchTimes(plain);
const searchDocs = searchTimes(docs);

const describe: number[] = [];
const paths = plain.allPaths();
for (let round = 0; round < 5; round++) {
  for (const p of paths) {
    const t = performance.now();
    plain.describe(p);
    describe.push(performance.now() - t);
  }
}
describe.sort((a, b) => a - b);
const endpoints = plain.size;

// Retained memory: JS heap growth per catalog kept alive (index built) once the file texts
// are gone, with the parsed pages the loader keeps beside it (mean of 8).
const heapUsed = () => {
  Bun.gc(true);
  return process.memoryUsage().heapUsed;
};
async function retained(withDocs: boolean): Promise<number> {
  const base = heapUsed();
  const kept: unknown[] = [];
  for (let i = 0; i < 8; i++) {
    const c = Catalog.fromText(text, source);
    if (withDocs) {
      const pages = await parseDocs();
      c.attachDocs(docsSource, pages);
      kept.push(pages);
    }
    c.search("x");
    kept.push(c);
  }
  const grown = (heapUsed() - base) / 8;
  kept.length = 0;
  return grown;
}
const keptDocs = await retained(true);
const keptPlain = await retained(false);

const lines = [
  `schema: ${schemaFile} (${endpoints} endpoints, ${mib(text.length)} of text); docs: ${docsDir} (${DOCS_PAGES.length} pages, ${mib(pageTexts.reduce((n, [, h]) => n + h.length, 0))})`,
  `parse+index (first search), schema only: cold median ${ms(quantile(colds, 0.5))} of ${colds.length} processes (${ms(colds[0]!)}–${ms(colds.at(-1)!)})`,
  `parse+index (first search), schema + docs parsed and attached: cold median ${ms(quantile(coldsDocs, 0.5))} of ${coldsDocs.length} (${ms(coldsDocs[0]!)}–${ms(coldsDocs.at(-1)!)})`,
  `search (${queries.length} queries x 20), schema only: median ${ms(quantile(search, 0.5))}, p99 ${ms(quantile(search, 0.99))}`,
  `search (${queries.length} queries x 20), with docs: median ${ms(quantile(searchDocs, 0.5))}, p99 ${ms(quantile(searchDocs, 0.99))} (goal median < 1 ms)`,
  `describe (${paths.length} paths x 5, all methods): median ${ms(quantile(describe, 0.5))}, p99 ${ms(quantile(describe, 0.99))}`,
  `retained per catalog: ${mib(keptPlain)} schema only, ${mib(keptDocs)} with docs (heapUsed after GC; goal < 60 MiB with docs)`,
];
process.stdout.write(`${lines.join("\n")}\n`);
