// Memory under sustained load: proxmox_get /version through a real MCP SDK client over stdio to
// a spawned dist/index.js, the loopback fake in its own process. The number of calls in flight
// changes every segment (10, 20, ... up to 50 and back down); the server's RSS (VmRSS from
// /proc) is sampled every 100 ms and reported every --every calls: at that moment, and the
// mean and the maximum of the samples since the previous report (one sample swings with the
// collector; the window's figures show whether the level still climbs). With --heap the server runs under bench/memory-server.ts
// and each checkpoint also forces a full collection there and records the live heap: a leak
// grows the live heap, collector slack only the RSS.
//
//   bun bench/memory.ts [--calls 200000] [--every 20000] [--segment 2000] [--heap] [--server dist/index.js]
//
// --server runs another build of the server (to compare before and after a change).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { cleanEnv, DIST, ensureBuilt, ROOT } from "../test/support/stdio.ts";
import { spawnFake } from "./fake-process.ts";

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "200000" },
    every: { type: "string", default: "20000" },
    segment: { type: "string", default: "2000" },
    heap: { type: "boolean", default: false },
    server: { type: "string", default: DIST },
  },
});
const CALLS = Number(values.calls);
const EVERY = Number(values.every);
const SEGMENT = Number(values.segment);
const IN_FLIGHT = [10, 20, 30, 40, 50, 40, 30, 20];
const SAMPLE_MS = 100;
const MiB = 1024 * 1024;

interface Probe {
  heapSize: number;
  heapCapacity: number;
  objectCount: number;
  rss: number;
  types: Record<string, number>;
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) / 1024;
}

/** Runs `count` calls, `inFlight` at a time. */
async function runCalls(call: () => Promise<void>, count: number, inFlight: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      await call();
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, worker));
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Least-squares slope of the window means, in MiB per 100,000 calls. */
function slopePer100k(points: { calls: number; mean: number }[]): number {
  const x = mean(points.map((p) => p.calls));
  const y = mean(points.map((p) => p.mean));
  const num = points.reduce((sum, p) => sum + (p.calls - x) * (p.mean - y), 0);
  const den = points.reduce((sum, p) => sum + (p.calls - x) ** 2, 0);
  return den === 0 ? 0 : (num / den) * 100_000;
}

/** The object types whose count grew most between two probes. */
function grown(before: Probe, after: Probe): Record<string, number> {
  const deltas = Object.entries(after.types).map(([type, n]) => [type, n - (before.types[type] ?? 0)] as const);
  return Object.fromEntries(deltas.sort((a, b) => b[1] - a[1]).slice(0, 8));
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");

async function main(): Promise<void> {
  if (values.server === DIST) ensureBuilt();
  const fake = await spawnFake("fake-server.ts");
  const server = resolve(values.server);
  const args = values.heap ? [join(ROOT, "bench/memory-server.ts"), server] : [server];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: cleanEnv(fake.info.env),
    stderr: "pipe",
    cwd: ROOT,
  });
  const probes: ((probe: Probe) => void)[] = [];
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
    let nl: number;
    while ((nl = stderr.indexOf("\n")) >= 0) {
      const line = stderr.slice(0, nl);
      stderr = stderr.slice(nl + 1);
      if (line.startsWith("memory-probe ")) probes.shift()?.(JSON.parse(line.slice(13)) as Probe);
      else process.stderr.write(`server: ${line}\n`);
    }
  });
  const client = new Client({ name: "bench-memory", version: "0.0.0" });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  const pid = transport.pid!;

  const probe = async (): Promise<Probe | undefined> => {
    if (!values.heap) return undefined;
    const answer = new Promise<Probe>((resolve) => probes.push(resolve));
    process.kill(pid, "SIGUSR2");
    return answer;
  };
  const call = async () => {
    const result = await client.callTool({ name: "proxmox_get", arguments: { path: "/version" } });
    if (result.isError) throw new Error(`proxmox_get failed: ${JSON.stringify(result.content)}`);
  };

  const header = values.heap
    ? "calls      RSS now   window mean   window max   RSS after GC   JS heap live/reserved   objects   calls/s   load (1/5/15 min)"
    : "calls      RSS now   window mean   window max   calls/s   load (1/5/15 min)";
  const lines = [
    `${values.server}: proxmox_get /version, ${CALLS} calls, ${IN_FLIGHT.join("/")} in flight per ${SEGMENT}-call segment; bun ${Bun.version}, ${navigator.hardwareConcurrency} cpus`,
    `RSS in MiB; the window is every ${SAMPLE_MS} ms sample since the previous row`,
    "",
    header,
  ];
  const row = (done: number, rss: number, window: number[], perSecond: number, p: Probe | undefined) => {
    const cells = [
      String(done).padEnd(11),
      rss.toFixed(1).padEnd(10),
      mean(window).toFixed(1).padEnd(14),
      Math.max(...window)
        .toFixed(1)
        .padEnd(13),
    ];
    if (p) {
      cells.push(
        (p.rss / MiB).toFixed(1).padEnd(15),
        `${(p.heapSize / MiB).toFixed(1)} / ${(p.heapCapacity / MiB).toFixed(1)}`.padEnd(24),
        String(p.objectCount).padEnd(10),
      );
    }
    cells.push(String(Math.round(perSecond)).padEnd(10), load());
    const line = cells.join("");
    lines.push(line);
    process.stderr.write(`${line}\n`);
  };

  let window: number[] = [rssMiB(pid)];
  const sampler = setInterval(() => window.push(rssMiB(pid)), SAMPLE_MS);
  const checkpoints: { calls: number; mean: number; max: number }[] = [];
  try {
    const first = await probe();
    row(0, window[0]!, window, 0, first);
    let done = 0;
    let segment = 0;
    let since = performance.now();
    let sinceCalls = 0;
    while (done < CALLS) {
      const count = Math.min(SEGMENT, CALLS - done, EVERY - (done % EVERY));
      await runCalls(call, count, IN_FLIGHT[segment++ % IN_FLIGHT.length]!);
      done += count;
      if (done % EVERY === 0 || done === CALLS) {
        const rss = rssMiB(pid);
        window.push(rss);
        checkpoints.push({ calls: done, mean: mean(window), max: Math.max(...window) });
        const perSecond = ((done - sinceCalls) / (performance.now() - since)) * 1000;
        const p = await probe();
        row(done, rss, window, perSecond, p);
        if (p && first)
          process.stderr.write(`  grown since the first checkpoint: ${JSON.stringify(grown(first, p))}\n`);
        window = [];
        since = performance.now();
        sinceCalls = done;
      }
    }
    const secondHalf = checkpoints.slice(Math.floor(checkpoints.length / 2));
    const firstHalf = checkpoints.slice(0, Math.floor(checkpoints.length / 2));
    lines.push(
      "",
      `window max: first half up to ${Math.max(...firstHalf.map((c) => c.max)).toFixed(1)} MiB, second half up to ${Math.max(...secondHalf.map((c) => c.max)).toFixed(1)} MiB`,
      `window mean over the second half (from ${secondHalf[0]!.calls.toLocaleString("en")} calls): ${mean(secondHalf.map((c) => c.mean)).toFixed(1)} MiB, ` +
        `trend ${slopePer100k(secondHalf).toFixed(1)} MiB per 100,000 calls`,
    );
    if (errors.length > 0) throw new Error(`client errors: ${errors.map((e) => e.message).join("; ")}`);
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    clearInterval(sampler);
    await client.close();
    await fake.stop();
  }
}

await main();
