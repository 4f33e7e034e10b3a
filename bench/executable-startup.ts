// Startup of the single-file executable beside `bun dist/index.js`: from spawn to the
// initialize answer, to the tools/list answer, and to exit after stdin closes. The yardstick is
// the smallest server on the same SDK (one tool, stdio) run by the same Bun. The three alternate
// in every round (order rotated), so drift on a shared machine hits all alike. No Proxmox is
// contacted at startup, so no fake is needed.
//
//   bun run release linux-x64 && bun bench/executable-startup.ts [--runs 30]
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { executableFile, RELEASE_DIR, ROOT } from "../scripts/release-targets.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "30" } } });
const RUNS = Number(values.runs);

const EXECUTABLE = join(RELEASE_DIR, executableFile("linux-x64"));
if (!existsSync(EXECUTABLE)) {
  process.stderr.write(`${EXECUTABLE} is missing: run \`bun run release linux-x64\` first\n`);
  process.exit(1);
}

// The yardstick lives under bench/.tmp (ignored by git) so it resolves the SDK from node_modules.
const TMP = join(ROOT, "bench/.tmp");
mkdirSync(TMP, { recursive: true });
const YARDSTICK = join(TMP, "smallest-server.ts");
writeFileSync(
  YARDSTICK,
  `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
const server = new McpServer({ name: "smallest", version: "0.0.0" });
server.registerTool("ping", { description: "Answers pong." }, async () => ({ content: [{ type: "text", text: "pong" }] }));
await server.connect(new StdioServerTransport());
process.stdin.on("end", () => process.exit(0));
`,
);

const ENV = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  PROXMOX_URL: "https://127.0.0.1:9",
  PROXMOX_TOKEN_ID: "bench@pve!startup",
  PROXMOX_TOKEN_SECRET: "bench-startup-not-a-secret",
};

const SUBJECTS: Record<string, string[]> = {
  executable: [EXECUTABLE],
  "bun dist/index.js": [process.execPath, join(ROOT, "dist/index.js")],
  "smallest SDK server (bun)": [process.execPath, YARDSTICK],
};

interface Sample {
  initialize: number;
  tools: number;
  exit: number;
  /** user + system CPU time of the whole run: what the start costs, whatever the machine's load. */
  cpu: number;
  /** peak resident memory, MiB */
  rss: number;
}

async function once(command: string[]): Promise<Sample> {
  const started = performance.now();
  const proc = Bun.spawn(command, { env: ENV, stdin: "pipe", stdout: "pipe", stderr: "ignore", cwd: ROOT });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  async function answer(id: number): Promise<number> {
    for (;;) {
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if ((JSON.parse(line) as { id?: number }).id === id) return performance.now() - started;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error(`${command.join(" ")} closed stdout before answering ${id}`);
      buffer += decoder.decode(value, { stream: true });
    }
  }
  const send = (message: object) => {
    void proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    void proc.stdin.flush();
  };
  send({
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
  });
  const initialize = await answer(1);
  send({ method: "notifications/initialized" });
  send({ id: 2, method: "tools/list" });
  const tools = await answer(2);
  await proc.stdin.end();
  await proc.exited;
  const exit = performance.now() - started;
  const usage = proc.resourceUsage()!;
  const cpu = Number(usage.cpuTime.user + usage.cpuTime.system) / 1000;
  return { initialize, tools, exit, cpu, rss: usage.maxRSS / 1024 / 1024 };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}
function p90(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.9 * s.length) - 1)]!;
}

const names = Object.keys(SUBJECTS);
const samples = new Map<string, Sample[]>(names.map((n) => [n, []]));
// one warm-up round: page cache, Bun's transpiler cache
for (const name of names) await once(SUBJECTS[name]!);
for (let round = 0; round < RUNS; round++) {
  const order = names.map((_, i) => names[(i + round) % names.length]!);
  for (const name of order) samples.get(name)!.push(await once(SUBJECTS[name]!));
}

const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
process.stdout.write(`${RUNS} runs each, median (p90)\n`);
process.stdout.write(
  `| start | initialize answered | tools/list answered | exit after stdin closes | CPU time | peak RSS |\n|---|---|---|---|---|---|\n`,
);
for (const name of names) {
  const s = samples.get(name)!;
  const col = (k: keyof Sample) => `${fmt(median(s.map((x) => x[k])))} (${fmt(p90(s.map((x) => x[k])))})`;
  const rss = median(s.map((x) => x.rss)).toFixed(0);
  process.stdout.write(
    `| ${name} | ${col("initialize")} | ${col("tools")} | ${col("exit")} | ${col("cpu")} | ${rss} MiB |\n`,
  );
}
