// What the docs add to the first search (issue 11): a fresh process loads the catalog from the
// loopback fake (in its own process, bench/catalog-fake.ts: the PVE 9.1 schema and the 9.1.3
// docs) and times the first search, with the docs on and off, alternating, in fresh processes.
//   bun bench/catalog-first.ts [--runs 9]
// "first search" is CatalogLoader.get() plus one search: the schema fetch, parse and index, and
// with docs on, whatever of the docs (fetched alongside) is ready within the grace. "second
// search" is a plain search right after it, waiting as the search tool does for the docs still
// loading (the grace at most). "docs in" is when the docs are attached and the next search uses them.
import { join, resolve } from "node:path";
import { CatalogLoader } from "../src/catalog/loader.ts";
import { loadConnectionConfig } from "../src/config.ts";
import { silentLogger } from "../src/log.ts";

const ROOT = resolve(import.meta.dir, "..");
const ONCE = "--once";
const args = process.argv.slice(2);

if (args[0] === ONCE) {
  const [, docs, envJson] = args;
  const env = JSON.parse(envJson!) as Record<string, string>;
  const loader = new CatalogLoader({
    config: { docs: docs === "on" ? { kind: "auto" } : { kind: "off" } },
    connection: loadConnectionConfig(env),
    log: silentLogger,
    publicUrl: "https://127.0.0.1:9/pve-docs/api-viewer/apidoc.js",
    publicDocsUrl: "https://127.0.0.1:9/pve-docs/",
  });
  const t0 = performance.now();
  const catalog = await loader.get();
  const first = catalog.search("take a snapshot of VM 100");
  const t1 = performance.now();
  // A plain search right after it, as the search tool makes one: it waits for the docs still
  // loading, the grace at most.
  await loader.docsAwaited();
  catalog.search("pull the plug on a hung VM");
  const t2 = performance.now();
  const secondWithDocs = catalog.docs !== undefined;
  await loader.docsSettled();
  catalog.search("qm set 100 --memory 4096");
  const t3 = performance.now();
  process.stdout.write(
    `${JSON.stringify({ first: t1 - t0, second: t2 - t1, secondWithDocs, docsIn: t3 - t0, withDocs: catalog.docs !== undefined, hits: first.total })}\n`,
  );
  await loader.close();
  process.exit(0);
}

const at = args.indexOf("--runs");
const runs = at >= 0 ? Number(args[at + 1]) : 9;
const fake = Bun.spawn([process.execPath, join(ROOT, "bench/catalog-fake.ts")], {
  stdin: "pipe",
  stdout: "pipe",
  stderr: "inherit",
});
const reader = fake.stdout.getReader();
let text = "";
while (!text.includes("\n")) {
  const { value, done } = await reader.read();
  if (done) throw new Error("bench/catalog-fake.ts exited before printing its address");
  text += new TextDecoder().decode(value);
}
reader.releaseLock();
const { env } = JSON.parse(text.slice(0, text.indexOf("\n"))) as { env: Record<string, string> };

interface Sample {
  first: number;
  second: number;
  secondWithDocs: boolean;
  docsIn: number;
  withDocs: boolean;
}
const samples: Record<"on" | "off", Sample[]> = { on: [], off: [] };
for (let i = 0; i < runs; i++) {
  for (const docs of (i % 2 ? ["off", "on"] : ["on", "off"]) as ("on" | "off")[]) {
    const child = Bun.spawnSync([process.execPath, import.meta.path, ONCE, docs, JSON.stringify(env)], { cwd: ROOT });
    samples[docs].push(JSON.parse(child.stdout.toString().trim()) as Sample);
  }
}
await fake.stdin.end();
await fake.exited;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;
const range = (xs: number[]) => `${ms(Math.min(...xs))}–${ms(Math.max(...xs))}`;
const on = samples.on;
const off = samples.off;
process.stdout.write(
  [
    `first search, docs off: median ${ms(median(off.map((s) => s.first)))} (${range(off.map((s) => s.first))}) of ${runs} fresh processes`,
    `first search, docs on:  median ${ms(median(on.map((s) => s.first)))} (${range(on.map((s) => s.first))}); with the docs already in: ${on.filter((s) => s.withDocs && s.docsIn - s.first < 5).length} of ${runs}`,
    `second search right after, docs off: median ${ms(median(off.map((s) => s.second)))} (${range(off.map((s) => s.second))})`,
    `second search right after, docs on:  median ${ms(median(on.map((s) => s.second)))} (${range(on.map((s) => s.second))}); with the docs: ${on.filter((s) => s.secondWithDocs).length} of ${runs}`,
    `docs in (attached, next search uses them): median ${ms(median(on.map((s) => s.docsIn)))} (${range(on.map((s) => s.docsIn))})`,
  ].join("\n") + "\n",
);
