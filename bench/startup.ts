// Cold start to a completed tools/list: `bun dist/index.js`, the source entry (`bun src/index.ts`)
// and the floor, the smallest useful stdio MCP server on the same SDK (bench/startup-floor.ts,
// bundled here with `bun build --target=bun`). Each round starts one fresh process of each, in a
// rotating order, so drift on a shared machine hits all alike. A process counts from spawn to
// the tools/list answer (initialize answered first, as a client does); it is then killed, and its
// CPU (user + system, all threads) is read from the kernel's accounting. Prints medians.
//
//   bun bench/startup.ts [--runs 20] [--also name=path/to/other-build.js ...] [--no-source] [--first-call]
//
// --also alternates further builds of this server with the rest (how the build flags were chosen).
// --first-call then starts each of ours again, against the loopback fake in its own process, and
// times the first proxmox_get /version after tools/list: what is loaded on first use is paid there.
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { cleanEnv, DIST, ensureBuilt, ROOT } from "../test/support/stdio.ts";
import { spawnFake } from "./fake-process.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "20" },
    also: { type: "string", multiple: true, default: [] },
    "no-source": { type: "boolean", default: false },
    "first-call": { type: "boolean", default: false },
  },
});
const RUNS = Number(values.runs);
const TMP = join(ROOT, "bench/.tmp");
const FLOOR = join(TMP, "startup-floor.js");

// Startup never talks to Proxmox; the address only has to be valid configuration.
const ENV = cleanEnv({
  PROXMOX_URL: "https://127.0.0.1:9",
  PROXMOX_TOKEN_ID: "bench@pve!startup",
  PROXMOX_TOKEN_SECRET: "00000000-0000-0000-0000-000000000000",
});

interface Target {
  name: string;
  args: string[];
  /** Tools the answer must list, so a failing start cannot pass for a fast one. */
  tools: number;
}

interface Sample {
  wallMs: number;
  cpuMs: number;
  /** Peak resident memory (VmHWM) at the tools/list answer. */
  peakMiB: number;
  /** With a first call: from sending proxmox_get /version to its answer. */
  firstCallMs?: number;
}

function buildFloor(): void {
  mkdirSync(TMP, { recursive: true });
  const result = Bun.spawnSync(
    [process.execPath, "build", join(ROOT, "bench/startup-floor.ts"), "--target=bun", `--outfile=${FLOOR}`],
    { cwd: ROOT, stdout: "pipe", stderr: "pipe" },
  );
  if (result.exitCode !== 0) throw new Error(`building the floor failed: ${result.stderr.toString()}`);
}

async function startOnce(target: Target, env: Record<string, string> = ENV, firstCall = false): Promise<Sample> {
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, ...target.args], {
    cwd: ROOT,
    env,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const send = (message: object) => {
    proc.stdin.write(`${JSON.stringify(message)}\n`);
    proc.stdin.flush();
  };
  const decoder = new TextDecoder();
  const reader = proc.stdout.getReader();
  let buffer = "";
  const answer = async (id: number): Promise<Record<string, unknown>> => {
    for (;;) {
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const message = JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>;
        buffer = buffer.slice(nl + 1);
        if (message.id === id) return message;
      }
      const { value, done } = await reader.read();
      if (done) {
        const stderr = await new Response(proc.stderr).text();
        throw new Error(`${target.name} exited before answering request ${id}: ${stderr}`);
      }
      buffer += decoder.decode(value, { stream: true });
    }
  };

  send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
  });
  await answer(1);
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  const list = await answer(2);
  const wallMs = performance.now() - started;
  const status = readFileSync(`/proc/${proc.pid}/status`, "utf8");
  const peakMiB = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
  let firstCallMs: number | undefined;
  if (firstCall) {
    const sent = performance.now();
    send({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "proxmox_get", arguments: { path: "/version" } },
    });
    const result = (await answer(3)).result as { isError?: boolean; content?: { text?: string }[] } | undefined;
    firstCallMs = performance.now() - sent;
    if (!result || result.isError) throw new Error(`${target.name}: proxmox_get failed: ${result?.content?.[0]?.text}`);
  }
  proc.kill("SIGKILL");
  await proc.exited;
  const tools = (list.result as { tools?: unknown[] } | undefined)?.tools?.length ?? 0;
  if (tools !== target.tools) throw new Error(`${target.name} listed ${tools} tools, expected ${target.tools}`);
  const usage = proc.resourceUsage();
  if (!usage) throw new Error("no resource usage for an exited process");
  return { wallMs, cpuMs: Number(usage.cpuTime.total) / 1000, peakMiB, ...(firstCall ? { firstCallMs } : {}) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function quartiles(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  const digits = at(0.75) < 100 ? 1 : 0;
  return `${at(0.25).toFixed(digits)}–${at(0.75).toFixed(digits)}`;
}

function load(): string {
  return (
    Bun.spawnSync(["uptime"])
      .stdout.toString()
      .match(/load average: (.*)/)?.[1] ?? "?"
  ).trim();
}

async function main(): Promise<void> {
  ensureBuilt();
  buildFloor();
  const targets: Target[] = [
    { name: "dist/index.js", args: [DIST], tools: 6 },
    ...(values["no-source"] ? [] : [{ name: "src/index.ts", args: [join(ROOT, "src/index.ts")], tools: 6 }]),
    ...values.also.map((spec) => {
      const [name, path] = spec.includes("=")
        ? [spec.slice(0, spec.indexOf("=")), spec.slice(spec.indexOf("=") + 1)]
        : [spec, spec];
      return { name, args: [path], tools: 6 };
    }),
    { name: "floor", args: [FLOOR], tools: 1 },
  ];
  const dist = readdirSync(join(ROOT, "dist"))
    .map((file) => `${file} ${(statSync(join(ROOT, "dist", file)).size / 1e6).toFixed(2)} MB`)
    .join(", ");
  console.log(`Bun ${Bun.version}; dist: ${dist}; floor ${(statSync(FLOOR).size / 1e6).toFixed(2)} MB`);
  console.log(`load average before: ${load()}`);

  // One untimed round: the first start of each pays for reading its files into the page cache.
  for (const target of targets) await startOnce(target);
  const samples = new Map<string, Sample[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < RUNS; round++) {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(round + i) % targets.length]!;
      samples.get(target.name)!.push(await startOnce(target));
    }
  }

  const floor = samples.get("floor")!;
  const floorWall = median(floor.map((s) => s.wallMs));
  const floorCpu = median(floor.map((s) => s.cpuMs));
  console.log(`\nmedian of ${RUNS} cold starts to a completed tools/list (quartiles in brackets)`);
  console.log("| entry | wall ms | CPU ms | wall / floor | CPU / floor | peak RSS MiB |");
  console.log("|---|---|---|---|---|---|");
  for (const target of targets) {
    const list = samples.get(target.name)!;
    const wall = median(list.map((s) => s.wallMs));
    const cpu = median(list.map((s) => s.cpuMs));
    console.log(
      `| ${target.name} | ${wall.toFixed(0)} (${quartiles(list.map((s) => s.wallMs))}) | ${cpu.toFixed(0)} (${quartiles(list.map((s) => s.cpuMs))}) | ${(wall / floorWall).toFixed(2)} | ${(cpu / floorCpu).toFixed(2)} | ${median(list.map((s) => s.peakMiB)).toFixed(0)} |`,
    );
  }
  if (values["first-call"]) await firstCalls(targets.filter((t) => t.name !== "floor"));
  console.log(`\nload average after: ${load()}`);
}

/** Each of ours again, now against the fake: how long the first proxmox_get takes. */
async function firstCalls(targets: Target[]): Promise<void> {
  const fake = await spawnFake("fake-server.ts");
  try {
    const env = cleanEnv(fake.info.env);
    for (const target of targets) await startOnce(target, env, true);
    const times = new Map<string, number[]>(targets.map((t) => [t.name, []]));
    for (let round = 0; round < RUNS; round++) {
      for (let i = 0; i < targets.length; i++) {
        const target = targets[(round + i) % targets.length]!;
        times.get(target.name)!.push((await startOnce(target, env, true)).firstCallMs!);
      }
    }
    console.log(`\nfirst proxmox_get /version after tools/list, median of ${RUNS} fresh processes (quartiles)`);
    console.log("| entry | first call ms |");
    console.log("|---|---|");
    for (const target of targets) {
      const list = times.get(target.name)!;
      console.log(`| ${target.name} | ${median(list).toFixed(1)} (${quartiles(list)}) |`);
    }
  } finally {
    await fake.stop();
  }
}

await main();
