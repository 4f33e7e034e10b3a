// What the MCP layer adds to one Proxmox read: proxmox_get /version through a real SDK client
// over stdio to a spawned dist/index.js, beside a direct undici GET of the same URL with the
// same TLS, both against the loopback fake running in its own process.
//
//   bun bench/get-roundtrip.ts [--calls 2000] [--concurrency 10] [--warmup 200]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { createAgent, request } from "../src/http/undici.ts";
import { cleanEnv, connectStdio, ensureBuilt } from "../test/support/stdio.ts";
import { startFakeProcess } from "./fake-process.ts";

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "10" },
    warmup: { type: "string", default: "200" },
  },
});
const CALLS = Number(values.calls);
const CONCURRENCY = Number(values.concurrency);
const WARMUP = Number(values.warmup);
// Direct and MCP runs alternate in blocks, so drift on a shared machine hits both alike.
const BLOCKS = 4;

type Call = () => Promise<void>;

/** Runs `count` calls with `inFlight` workers; returns each call's latency (ms) and the wall time. */
async function measure(
  call: Call,
  count: number,
  inFlight: number,
): Promise<{ latencies: number[]; elapsedMs: number }> {
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const started = performance.now();
      await call();
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { latencies, elapsedMs: performance.now() - started };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Summary {
  median: number;
  p99: number;
  perSecond: number;
}

/** Measures both calls in alternating blocks; returns [first, second]. */
async function run(calls: [Call, Call], count: number, inFlight: number, blocks: number): Promise<[Summary, Summary]> {
  const latencies: [number[], number[]] = [[], []];
  const elapsed: [number, number] = [0, 0];
  for (let block = 0; block < blocks; block++) {
    for (const i of [0, 1] as const) {
      const result = await measure(calls[i], Math.round(count / blocks), inFlight);
      latencies[i].push(...result.latencies);
      elapsed[i] += result.elapsedMs;
    }
  }
  const summary = (i: 0 | 1): Summary => {
    const sorted = latencies[i].sort((a, b) => a - b);
    return {
      median: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      perSecond: (sorted.length / elapsed[i]) * 1000,
    };
  };
  return [summary(0), summary(1)];
}

const ms = (n: number) => `${n.toFixed(3)} ms`;

async function main(): Promise<void> {
  ensureBuilt();
  const fake = await startFakeProcess();
  const { info } = fake;
  const session = await connectStdio(cleanEnv(info.env));
  const agent = createAgent({
    ca: readFileSync(info.env.PROXMOX_CA_FILE!, "utf8"),
    verifyTls: true,
    timeoutMs: 120_000,
  });
  const url = `${info.url}/api2/json/version`;

  const direct: Call = async () => {
    const response = await request(url, {
      headers: { authorization: info.authorization, accept: "application/json" },
      dispatcher: agent,
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`direct GET answered ${response.statusCode}`);
    JSON.parse(text);
  };
  const mcp: Call = async () => {
    const result = await session.client.callTool({ name: "proxmox_get", arguments: { path: "/version" } });
    if (result.isError) throw new Error(`proxmox_get failed: ${JSON.stringify(result.content)}`);
  };

  try {
    await run([direct, mcp], WARMUP, CONCURRENCY, 2);
    const lines = [
      `proxmox_get /version round trip: ${CALLS} calls per mode and path, after ${WARMUP} warm-up calls each`,
      `bun ${Bun.version}, ${navigator.hardwareConcurrency} cpus`,
      "",
      "mode            path     median      p99         calls/s",
    ];
    for (const inFlight of [1, CONCURRENCY]) {
      const [d, m] = await run([direct, mcp], CALLS, inFlight, BLOCKS);
      const mode = inFlight === 1 ? "serial" : `${inFlight} in flight`;
      const row = (path: string, s: Summary) =>
        `${mode.padEnd(16)}${path.padEnd(9)}${ms(s.median).padEnd(12)}${ms(s.p99).padEnd(12)}${Math.round(s.perSecond)}`;
      lines.push(row("direct", d), row("mcp", m));
      lines.push(`${mode.padEnd(16)}added    ${ms(m.median - d.median).padEnd(12)}${ms(m.p99 - d.p99).padEnd(12)}`);
    }
    process.stdout.write(`${lines.join("\n")}\n`);
    if (session.errors.length > 0) throw new Error(`client errors: ${session.errors.map((e) => e.message).join("; ")}`);
  } finally {
    await session.close();
    await agent.close();
    await fake.stop();
  }
}

await main();
