// What HTTP mode costs. proxmox_get /version over Streamable HTTP (spawned `bun dist/index.js
// --http`, real SDK clients with bearer tokens) beside the same call over stdio, a direct undici
// GET of the same URL (the physical yardstick), and the smallest Streamable HTTP server on the
// same SDK (bench/http-minimal-server.ts). All against the loopback fake in its own process;
// the modes alternate in blocks. Then calls/s with 10 and 50 concurrent clients (HTTP: one
// session each; stdio: one client with that many in flight), and the server's RSS growth per
// idle session (initialized, with its server stream open) against the minimal server's.
//
//   bun bench/http.ts [--calls 2000] [--warmup 200] [--sessions 200]
import { readFileSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectHttp, spawnHttpServer, writeTokensFile, type HttpSession } from "../test/support/http.ts";
import { cleanEnv, connectStdio, DIST, ensureBuilt } from "../test/support/stdio.ts";
import { spawnAnnounced } from "./fake-process.ts";
import { directGet, mcpGet, ms, run, startFake, type Call, type Summary } from "./measure.ts";

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "2000" },
    warmup: { type: "string", default: "200" },
    sessions: { type: "string", default: "200" },
  },
});
const CALLS = Number(values.calls);
const WARMUP = Number(values.warmup);
const IDLE_SESSIONS = Number(values.sessions);
const BLOCKS = 4;
const CONCURRENCY = [10, 50];

function rssKiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match![1]);
}

function uptime(): string {
  return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
}

/** Opens `count` sessions, a few at a time; each initializes and opens its server stream. */
async function openSessions(url: URL, token: string, count: number): Promise<HttpSession[]> {
  const sessions: HttpSession[] = [];
  for (let i = 0; i < count; i += 10) {
    sessions.push(
      ...(await Promise.all(Array.from({ length: Math.min(10, count - i) }, () => connectHttp(url, token)))),
    );
  }
  return sessions;
}

/** Ends the sessions (DELETE) and closes their clients. */
function closeAll(sessions: HttpSession[]): Promise<unknown> {
  return Promise.all(
    sessions.splice(0).map(async (s) => {
      await s.transport.terminateSession().catch(() => undefined);
      await s.close().catch(() => undefined);
    }),
  );
}

/**
 * RSS growth of a fresh server process per idle session: `count` sessions after a few warm-up
 * ones, then all are closed. Each open session holds a server stream, and Bun's fetch sends at
 * most 256 requests at once (BUN_CONFIG_MAX_HTTP_REQUESTS), so one server is measured at a time.
 */
async function perSession(
  pid: number,
  url: URL,
  token: string,
  count: number,
): Promise<{ kib: number; rssMiB: number }> {
  const sessions = await openSessions(url, token, 5);
  await Bun.sleep(1000);
  const before = rssKiB(pid);
  sessions.push(...(await openSessions(url, token, count)));
  await Bun.sleep(1000);
  const after = rssKiB(pid);
  await closeAll(sessions);
  return { kib: (after - before) / count, rssMiB: after / 1024 };
}

async function main(): Promise<void> {
  ensureBuilt();
  const load = [`load average at start: ${uptime()}`];
  const fake = await startFake();
  const { info } = fake;
  const { path: tokensFile, tokens } = writeTokensFile([{ label: "bench" }]);
  const token = tokens.bench!;
  const http = await spawnHttpServer(
    [DIST, "--http"],
    cleanEnv({
      ...info.env,
      PROXMOX_MCP_TOKENS_FILE: tokensFile,
      PROXMOX_MCP_LISTEN: "127.0.0.1:0",
      PROXMOX_MCP_MAX_SESSIONS: String(IDLE_SESSIONS + 100),
    }),
  );
  const minimalProcess = await spawnAnnounced<{ url: string }>("bench/http-minimal-server.ts", {
    env: cleanEnv(info.env),
  });
  const minimal = { ...minimalProcess, url: new URL(minimalProcess.info.url) };
  // Memory first, on fresh processes.
  const httpIdle = await perSession(http.proc.pid, http.url, token, IDLE_SESSIONS);
  const minimalIdle = await perSession(minimal.pid, minimal.url, "unused", IDLE_SESSIONS);
  const stdio = await connectStdio(cleanEnv(info.env));
  const direct = directGet(info);
  const maxClients = Math.max(...CONCURRENCY);
  const httpSessions = await openSessions(http.url, token, maxClients);
  const minimalSessions = await openSessions(minimal.url, "unused", maxClients);
  const clientsOf = (sessions: HttpSession[], n: number): Client[] => sessions.slice(0, n).map((s) => s.client);

  try {
    const names = ["direct", "stdio", "http", "minimal"];
    const named =
      (name: string, call: Call): Call =>
      (worker) =>
        call(worker).catch((error: unknown) => {
          throw new Error(`${name}, worker ${worker}: ${(error as Error).message}`);
        });
    const callsFor = (n: number): Call[] =>
      [
        direct.call,
        mcpGet(stdio.client),
        mcpGet(clientsOf(httpSessions, n)),
        mcpGet(clientsOf(minimalSessions, n)),
      ].map((call, i) => named(names[i]!, call));
    await run(callsFor(10), WARMUP, 10, 2);
    const lines = [
      `proxmox_get /version: ${CALLS} calls per mode and row after ${WARMUP} warm-up calls each; bun ${Bun.version}, ${navigator.hardwareConcurrency} cpus`,
      "",
      "clients           path      median      p99         calls/s",
    ];
    const results: Record<string, Summary[]> = {};
    for (const n of [1, ...CONCURRENCY]) {
      const summaries = await run(callsFor(n), CALLS, n, BLOCKS);
      results[n] = summaries;
      const label = n === 1 ? "1 (serial)" : `${n}`;
      summaries.forEach((s, i) =>
        lines.push(
          `${label.padEnd(18)}${names[i]!.padEnd(10)}${ms(s.median).padEnd(12)}${ms(s.p99).padEnd(12)}${Math.round(s.perSecond)}`,
        ),
      );
      const [d, st, h] = summaries as [Summary, Summary, Summary, Summary];
      lines.push(
        `${label.padEnd(18)}http-stdio ${ms(h.median - st.median).padEnd(12)}(http over direct: ${ms(h.median - d.median)})`,
      );
    }
    lines.push(
      "",
      `RSS per idle session (fresh process, ${IDLE_SESSIONS} sessions after 5, each initialized with its server stream open):`,
      `  proxmox-ve-mcp --http  ${httpIdle.kib.toFixed(1)} KiB   (RSS then ${httpIdle.rssMiB.toFixed(1)} MiB)`,
      `  minimal SDK server     ${minimalIdle.kib.toFixed(1)} KiB   (RSS then ${minimalIdle.rssMiB.toFixed(1)} MiB)`,
    );
    load.push(`load average at end: ${uptime()}`);
    process.stdout.write(`${[...lines, "", ...load].join("\n")}\n`);
  } finally {
    await closeAll(httpSessions);
    await closeAll(minimalSessions);
    await stdio.close();
    await direct.close();
    http.proc.kill("SIGTERM");
    await http.exited;
    await minimal.stop();
    await fake.stop();
    rmSync(dirname(tokensFile), { recursive: true, force: true });
  }
}

await main();
