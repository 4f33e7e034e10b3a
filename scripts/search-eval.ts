// Prints the search quality figures (issues 3 and 11): for each query set, the share of queries
// whose acceptable answer is first, in the top five and in the top ten, with the schema alone
// and with the cluster's docs.
//   bun scripts/search-eval.ts [--schema file] [--docs dir] [--quiet] [queries file ...]
// Without query files: the shared dev sets (../shared/search-eval) and our held-out sets in
// test/fixtures. The docs are the pve-docs pages in ../shared/pve/docs/9.1.3 unless --docs
// says otherwise, read by the same loader the server uses (a local directory source).
// Each query whose answer is not first with docs is listed, unless --quiet.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { Catalog } from "../src/catalog/catalog.ts";
import { dirPlan, DocsLoader } from "../src/catalog/docs-loader.ts";
import { evaluateSearch, parseEvalQueries, type EvalSummary } from "../src/catalog/eval.ts";
import { silentLogger } from "../src/log.ts";

const shared = resolve(import.meta.dir, "../../shared");
const fixtures = resolve(import.meta.dir, "../test/fixtures");
const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const quiet = args.includes("--quiet");
const schemaFile = option("--schema") ?? `${shared}/pve/schemas/pve9.1-apidata.js`;
const docsDir = option("--docs") ?? `${shared}/pve/docs/9.1.3`;
const given = args.filter((a, i) => !a.startsWith("--") && !["--schema", "--docs"].includes(args[i - 1] ?? ""));
const queryFiles = given.length
  ? given
  : [
      `${shared}/search-eval/dev-queries.json`,
      `${shared}/search-eval/dev-queries-2.json`,
      `${fixtures}/search-heldout.json`,
      `${fixtures}/search-fresh-tune.json`,
      `${fixtures}/search-fresh-sealed.json`,
      `${fixtures}/search-fresh2-tune.json`,
      `${fixtures}/search-fresh2-sealed.json`,
      `${fixtures}/search-fresh3-tune.json`,
      `${fixtures}/search-fresh3-sealed.json`,
      `${fixtures}/search-fresh4-sealed.json`,
      `${fixtures}/search-fresh5-sealed.json`,
      `${fixtures}/search-fresh6-sealed.json`,
      `${fixtures}/search-fresh7-sealed.json`,
      `${fixtures}/search-fresh8-sealed.json`,
      `${fixtures}/search-fresh9-sealed.json`,
      `${fixtures}/search-fresh10-sealed.json`,
      `${fixtures}/search-fresh11-sealed.json`,
      `${fixtures}/search-fresh12-sealed.json`,
      `${fixtures}/search-fresh13-sealed.json`,
      `${fixtures}/search-fresh14-sealed.json`,
      `${fixtures}/search-fresh15-sealed.json`,
      `${fixtures}/search-fresh16-sealed.json`,
      `${fixtures}/search-fresh17-sealed.json`,
      `${fixtures}/search-fresh18-sealed.json`,
      `${fixtures}/search-fresh19-sealed.json`,
      `${fixtures}/search-fresh20-sealed.json`,
      `${fixtures}/search-fresh21-sealed.json`,
      `${fixtures}/search-fresh22-sealed.json`,
      `${fixtures}/search-fresh23-sealed.json`,
      `${fixtures}/search-fresh24-sealed.json`,
      `${fixtures}/search-fresh27-sealed.json`,
      `${fixtures}/search-fresh28-sealed.json`,
      `${fixtures}/search-fresh32-sealed.json`,
      `${fixtures}/search-fresh38-sealed.json`,
      `${fixtures}/search-fresh39-sealed.json`,
      `${fixtures}/search-fresh41-sealed.json`,
      `${fixtures}/search-fresh46-sealed.json`,
      `${fixtures}/search-fresh50-sealed.json`,
      `${fixtures}/search-fresh54-sealed.json`,
      `${fixtures}/search-fresh56-sealed.json`,
      `${fixtures}/search-fresh58-sealed.json`,
      `${fixtures}/search-fresh59-sealed.json`,
      `${fixtures}/search-fresh60-sealed.json`,
      `${fixtures}/search-fresh62-sealed.json`,
      `${fixtures}/search-fresh65-sealed.json`,
      `${fixtures}/search-fresh66-sealed.json`,
      `${fixtures}/search-fresh67-sealed.json`,
    ];

const text = await Bun.file(schemaFile).text();
const plain = Catalog.fromText(text, { kind: "inline", location: schemaFile });
const withDocs = Catalog.fromText(text, { kind: "inline", location: schemaFile });
const loader = new DocsLoader({
  plans: [dirPlan({ kind: "configured", location: docsDir }, docsDir, 4 * 1024 * 1024)],
  log: silentLogger,
  onLoaded: (bundle) => withDocs.attachDocs(bundle.source, bundle.pages),
});
loader.kick();
await loader.settled();
const docs = withDocs.docs;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`.padStart(6);
const figures = (s: EvalSummary) => `${pct(s.top1)} ${pct(s.top5)} ${pct(s.top10)}`;
const out: string[] = [
  `schema ${schemaFile}: ${plain.size} endpoints`,
  docs
    ? `docs ${docsDir}: ${docs.pages} pages, ${docs.mapped.commands} CLI commands mapped to ${docs.mapped.endpoints} endpoints`
    : `docs ${docsDir}: not loaded (${JSON.stringify(loader.status())})`,
];
const table: string[] = [
  `${"set".padEnd(24)} ${"n".padStart(4)}   without docs: first  top5 top10   with docs: first  top5 top10`,
];
let failed = false;
for (const file of queryFiles) {
  if (!existsSync(file)) {
    out.push(`${file}: missing, skipped`);
    continue;
  }
  const queries = parseEvalQueries(await Bun.file(file).json());
  const without = evaluateSearch(plain, queries);
  const with_ = evaluateSearch(withDocs, queries);
  if (!quiet) {
    out.push(`--- ${file} (with docs): not first`);
    for (const o of with_.outcomes) {
      if (o.rank === 1) continue;
      out.push(
        `${o.rank === undefined ? "MISS" : `#${o.rank}  `} ${o.query}\n      want ${o.expect.join(" | ")}\n      got  ${o.top.slice(0, 5).join("\n           ")}`,
      );
    }
  }
  failed ||= with_.top1 < 0.8 || with_.top5 < 0.95;
  const name = file
    .split("/")
    .pop()!
    .replace(/\.json$/, "");
  table.push(
    `${name.padEnd(24)} ${String(queries.length).padStart(4)}   ${" ".repeat(14)}${figures(without)}   ${" ".repeat(11)}${figures(with_)}`,
  );
}
process.stdout.write(`${[...out, ...table].join("\n")}\n`);
process.exitCode = failed ? 1 : 0;
