// Several hosts (PROXMOX_HOSTS): what a second host costs a call, and what a hung host costs
// the others. proxmox_get /version on site-b through a real SDK client over stdio to a spawned
// dist/index.js, in three modes alternating in blocks: a single-host server in front of the
// same fake (the yardstick), the two-host server with site-a idle, and the same server while
// `--hung` calls to site-a wait on an answer that never comes. Each fake runs in its own
// process with its own CA. Then the memory a shared catalog saves (needs ../shared).
//
//   bun bench/hosts.ts [--calls 1000] [--hung 20] [--warmup 100]
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { Catalog } from "../src/catalog/catalog.ts";
import { CatalogCache } from "../src/catalog/shared.ts";
import { cleanEnv, connectStdio, ensureBuilt, ROOT, type StdioSession } from "../test/support/stdio.ts";
import { spawnFake } from "./fake-process.ts";

const { values } = parseArgs({
  strict: false,
  options: {
    calls: { type: "string", default: "1000" },
    hung: { type: "string", default: "20" },
    warmup: { type: "string", default: "100" },
  },
});
const CALLS = Number(values.calls);
const HUNG = Number(values.hung);
const WARMUP = Number(values.warmup);
const BLOCKS = 4;

/** Latencies (ms) of `count` serial calls. */
async function measure(call: () => Promise<void>, count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await call();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (n: number) => `${n.toFixed(3)} ms`;
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

function getVersion(session: StdioSession, args: Record<string, unknown>): () => Promise<void> {
  return async () => {
    const result = await session.client.callTool({ name: "proxmox_get", arguments: { ...args, path: "/version" } });
    if (result.isError) throw new Error(`proxmox_get failed: ${JSON.stringify(result.content)}`);
  };
}

/** Starts `count` calls to site-a that hang; returns how to cancel them. */
function hang(session: StdioSession, count: number): () => Promise<void> {
  const cancel = new AbortController();
  const calls = Array.from({ length: count }, () =>
    session.client
      .callTool({ name: "proxmox_get", arguments: { host: "site-a", path: "/cluster/resources" } }, undefined, {
        signal: cancel.signal,
        timeout: 600_000,
      })
      .then(
        () => {
          throw new Error("a hung call was answered");
        },
        () => undefined,
      ),
  );
  return async () => {
    cancel.abort();
    await Promise.all(calls);
  };
}

async function latencies(): Promise<string[]> {
  ensureBuilt();
  const [a, b] = await Promise.all([
    spawnFake("hosts-fake.ts", ["bench@pve!site-a", "aaaaaaaa-1111-4aaa-8aaa-aaaaaaaaaaa1"]),
    spawnFake("hosts-fake.ts", ["bench@pve!site-b", "bbbbbbbb-2222-4bbb-8bbb-bbbbbbbbbbb2"]),
  ]);
  const labelled = (label: string, env: Record<string, string>) =>
    Object.fromEntries(Object.entries(env).map(([k, v]) => [k.replace(/^PROXMOX_/, `PROXMOX_${label}_`), v]));
  const single = await connectStdio(cleanEnv(b.info.env));
  const several = await connectStdio(
    cleanEnv({ PROXMOX_HOSTS: "site-a,site-b", ...labelled("SITE_A", a.info.env), ...labelled("SITE_B", b.info.env) }),
  );
  const modes = ["single host (yardstick)", "two hosts, site-a idle", `two hosts, ${HUNG} calls hung on site-a`];
  const samples: number[][] = modes.map(() => []);
  try {
    const calls = [getVersion(single, {}), getVersion(several, { host: "site-b" })];
    for (const call of calls) await measure(call, WARMUP);
    for (let block = 0; block < BLOCKS; block++) {
      const count = Math.round(CALLS / BLOCKS);
      samples[0]!.push(...(await measure(calls[0]!, count)));
      samples[1]!.push(...(await measure(calls[1]!, count)));
      const release = hang(several, HUNG);
      samples[2]!.push(...(await measure(calls[1]!, count)));
      await release();
    }
  } finally {
    await Promise.all([single.close(), several.close()]);
    await Promise.all([a.stop(), b.stop()]);
  }
  return [
    `proxmox_get /version on site-b over stdio: ${CALLS} serial calls per mode in ${BLOCKS} alternating blocks, after ${WARMUP} warm-up calls`,
    "mode                                   median      p99",
    ...modes.map((mode, i) => {
      const sorted = samples[i]!.sort((x, y) => x - y);
      return `${mode.padEnd(39)}${ms(percentile(sorted, 50)).padEnd(12)}${ms(percentile(sorted, 99))}`;
    }),
  ];
}

const SCHEMA = resolve(ROOT, "../shared/pve/schemas/pve9.1-apidata.js");
const MEMORY = "--memory";
const HOSTS_KEPT = 4;
const source = (host: string) => ({
  kind: "cluster" as const,
  location: `https://${host}:8006/pve-docs/api-viewer/apidoc.js`,
});

/** In a fresh process: heap growth for HOSTS_KEPT hosts' catalogs of the same bytes, shared or not. */
function memoryChild(mode: string): void {
  const text = readFileSync(SCHEMA, "utf8");
  const heapUsed = () => {
    Bun.gc(true);
    return process.memoryUsage().heapUsed;
  };
  const cache = new CatalogCache();
  const base = heapUsed();
  const kept = Array.from({ length: HOSTS_KEPT }, (_, i) =>
    mode === "shared" ? cache.parse(text, source(`h${i}`)) : Catalog.fromText(text, source(`h${i}`)),
  );
  process.stdout.write(`${heapUsed() - base} ${kept.length}\n`);
}

function sharedCatalog(): string[] {
  if (!existsSync(SCHEMA)) return [`catalog sharing: ${SCHEMA} is missing, skipped`];
  const growth = (mode: string) => {
    const runs = Array.from({ length: 3 }, () =>
      Number(
        Bun.spawnSync([process.execPath, import.meta.path, MEMORY, mode])
          .stdout.toString()
          .split(" ")[0],
      ),
    ).sort((x, y) => x - y);
    return runs[1]!;
  };
  const text = readFileSync(SCHEMA, "utf8");
  const cache = new CatalogCache();
  cache.parse(text, source("a"));
  const hits: number[] = [];
  const parses: number[] = [];
  for (let i = 0; i < 5; i++) {
    let t = performance.now();
    cache.parse(text, source(`b${i}`));
    hits.push(performance.now() - t);
    t = performance.now();
    Catalog.fromText(text, source(`c${i}`));
    parses.push(performance.now() - t);
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  return [
    `${HOSTS_KEPT} hosts on PVE 9.1, heapUsed growth (median of 3 fresh processes): ${mib(growth("separate"))} parsed separately, ${mib(growth("shared"))} shared`,
    `another host with the same bytes (median of 5): ${ms(median(hits))} (hash, lookup, view) instead of ${ms(median(parses))} (warm parse)`,
  ];
}

if (process.argv[2] === MEMORY) {
  memoryChild(process.argv[3] ?? "shared");
  process.exit(0);
}

const lines = [`bun ${Bun.version}, ${navigator.hardwareConcurrency} cpus`, ...(await latencies()), ...sharedCatalog()];
process.stdout.write(`${lines.join("\n")}\n`);
