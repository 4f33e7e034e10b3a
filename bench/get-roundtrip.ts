// What the MCP layer adds to one Proxmox read: proxmox_get /version through a real SDK client
// over stdio to a spawned dist/index.js, beside a direct undici GET of the same URL with the
// same TLS, both against the loopback fake running in its own process.
//
//   bun bench/get-roundtrip.ts [--calls 2000] [--concurrency 10] [--warmup 200]
import { parseArgs } from "node:util";
import { cleanEnv, connectStdio, ensureBuilt } from "../test/support/stdio.ts";
import { directGet, mcpGet, ms, run, startFake, type Summary } from "./measure.ts";

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

async function main(): Promise<void> {
  ensureBuilt();
  const fake = await startFake();
  const { info } = fake;
  const session = await connectStdio(cleanEnv(info.env));
  const direct = directGet(info);
  const mcp = mcpGet(session.client);

  try {
    await run([direct.call, mcp], WARMUP, CONCURRENCY, 2);
    const lines = [
      `proxmox_get /version round trip: ${CALLS} calls per mode and path, after ${WARMUP} warm-up calls each`,
      `bun ${Bun.version}, ${navigator.hardwareConcurrency} cpus`,
      "",
      "mode            path     median      p99         calls/s",
    ];
    for (const inFlight of [1, CONCURRENCY]) {
      const [d, m] = (await run([direct.call, mcp], CALLS, inFlight, BLOCKS)) as [Summary, Summary];
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
    await direct.close();
    await fake.stop();
  }
}

await main();
