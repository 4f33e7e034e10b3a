// Prints the search quality figures of issue 3:
//   bun scripts/search-eval.ts [--schema file] [--quiet] [queries file ...]
// Without query files: the shared dev queries and our own held-out set (test/fixtures/search-heldout.json).
// Each miss (an acceptable answer not first) is listed unless --quiet.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { Catalog } from "../src/catalog/catalog.ts";
import { evaluateSearch, parseEvalQueries } from "../src/catalog/eval.ts";

const shared = resolve(import.meta.dir, "../../shared");
const args = process.argv.slice(2);
const quiet = args.includes("--quiet");
const schemaAt = args.indexOf("--schema");
const schemaFile = schemaAt >= 0 ? args[schemaAt + 1]! : `${shared}/pve/schemas/pve9.1-apidata.js`;
const given = args.filter((a, i) => !a.startsWith("--") && (schemaAt < 0 || i !== schemaAt + 1));
const queryFiles = given.length
  ? given
  : [`${shared}/search-eval/dev-queries.json`, resolve(import.meta.dir, "../test/fixtures/search-heldout.json")];

const catalog = Catalog.fromText(await Bun.file(schemaFile).text(), { kind: "inline", location: schemaFile });
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const out: string[] = [`${schemaFile}: ${catalog.size} endpoints`];
let failed = false;
for (const file of queryFiles) {
  if (!existsSync(file)) {
    out.push(`${file}: missing, skipped`);
    continue;
  }
  const summary = evaluateSearch(catalog, parseEvalQueries(await Bun.file(file).json()));
  if (!quiet) {
    for (const o of summary.outcomes) {
      if (o.rank === 1) continue;
      out.push(
        `${o.rank === undefined ? "MISS" : `#${o.rank}  `} ${o.query}\n      want ${o.expect.join(" | ")}\n      got  ${o.top.slice(0, 5).join("\n           ")}`,
      );
    }
  }
  failed ||= summary.top1 < 0.8 || summary.top5 < 0.95;
  out.push(
    `${file}: ${summary.total} queries: top-1 ${pct(summary.top1)} (goal 80%)   top-5 ${pct(summary.top5)} (goal 95%)`,
  );
}
process.stdout.write(`${out.join("\n")}\n`);
process.exitCode = failed ? 1 : 0;
