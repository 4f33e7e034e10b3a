// Prints the search quality figures of issue 3: bun scripts/search-eval.ts [schema file] [queries file]
import { resolve } from "node:path";
import { Catalog } from "../src/catalog/catalog.ts";
import { evaluateSearch, parseEvalQueries } from "../src/catalog/eval.ts";

const shared = resolve(import.meta.dir, "../../shared");
const schemaFile = process.argv[2] ?? `${shared}/pve/schemas/pve9.1-apidata.js`;
const queriesFile = process.argv[3] ?? `${shared}/search-eval/dev-queries.json`;

const catalog = Catalog.fromText(await Bun.file(schemaFile).text(), { kind: "inline", location: schemaFile });
const queries = parseEvalQueries(await Bun.file(queriesFile).json());
const summary = evaluateSearch(catalog, queries);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const out: string[] = [];
for (const o of summary.outcomes) {
  if (o.rank === 1) continue;
  out.push(
    `${o.rank === undefined ? "MISS" : `#${o.rank}  `} ${o.query}\n      want ${o.expect.join(" | ")}\n      got  ${o.top.slice(0, 5).join("\n           ")}`,
  );
}
out.push(`${schemaFile}: ${catalog.size} endpoints; ${summary.total} queries`);
out.push(`top-1 ${pct(summary.top1)} (goal 80%)   top-5 ${pct(summary.top5)} (goal 95%)`);
process.stdout.write(`${out.join("\n")}\n`);
