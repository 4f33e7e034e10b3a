// File transfer at disk speed with flat memory: proxmox_upload and proxmox_download through a
// real MCP SDK client over stdio to a spawned dist/index.js, beside curl doing the same
// transfers against the same loopback fake (its own process, bench/transfer-fake.ts). Prints the
// median throughput of each, their ratio, and the server process's peak RSS (VmHWM) per size;
// each size gets a fresh server process so its peak is its own.
//
//   bun bench/transfer.ts [--sizes 256,1024] (MiB) [--runs 3]
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createHash } from "node:crypto";
import { createReadStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { contentAt, contentPeriod } from "../test/fake/upload.ts";
import { cleanEnv, connectStdio, ensureBuilt, ROOT } from "../test/support/stdio.ts";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "256,1024" },
    runs: { type: "string", default: "3" },
  },
});
const MiB = 1024 * 1024;
const SIZES = values.sizes.split(",").map((s) => Number(s) * MiB);
const RUNS = Number(values.runs);
const SEED = 42;
const CURL = "/usr/bin/curl";

interface FakeInfo {
  url: string;
  env: Record<string, string>;
  authorization: string;
}
type FakeEvent = { event: "upload"; size: number; sha256: string } | { event: "download"; filepath: string; bytes: number };

function startFake(): { info: Promise<FakeInfo>; next(kind: FakeEvent["event"]): Promise<FakeEvent>; stop(): Promise<void> } {
  const proc = Bun.spawn([process.execPath, join(ROOT, "bench/transfer-fake.ts"), String(SEED), ...SIZES.map(String)], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  const events: FakeEvent[] = [];
  const waiters: (() => void)[] = [];
  let resolveInfo!: (info: FakeInfo) => void;
  const info = new Promise<FakeInfo>((resolve) => (resolveInfo = resolve));
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    let first = true;
    for await (const chunk of proc.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = JSON.parse(buffer.slice(0, nl)) as FakeInfo & FakeEvent;
        buffer = buffer.slice(nl + 1);
        if (first) {
          first = false;
          resolveInfo(line);
        } else {
          events.push(line);
          waiters.splice(0).forEach((wake) => wake());
        }
      }
    }
  })();
  return {
    info,
    next: async (kind) => {
      for (;;) {
        const index = events.findIndex((e) => e.event === kind);
        if (index >= 0) return events.splice(index, 1)[0]!;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    stop: async () => {
      await proc.stdin.end();
      await proc.exited;
    },
  };
}

/** Writes `size` bytes of the fake's content for SEED (what its download serves) and returns their sha256. */
async function writeSource(path: string, size: number): Promise<string> {
  const period = contentPeriod(SEED);
  const hash = createHash("sha256");
  const handle = await open(path, "wx", 0o600);
  for (let offset = 0; offset < size; offset += 4 * MiB) {
    const chunk = contentAt(period, offset, Math.min(4 * MiB, size - offset));
    hash.update(chunk);
    await handle.write(chunk);
  }
  await handle.close();
  return hash.digest("hex");
}

async function fileSha256(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path, { highWaterMark: 4 * MiB })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

function procStatus(pid: number): { hwm: number; rss: number } {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? NaN);
  return { hwm: kb("VmHWM") / 1024, rss: kb("VmRSS") / 1024 };
}

async function timed(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  return (performance.now() - started) / 1000;
}

async function curl(args: string[]): Promise<void> {
  const proc = Bun.spawn([CURL, "-sS", "--fail", ...args], { stdout: "ignore", stderr: "pipe" });
  const code = await proc.exited;
  if (code !== 0) throw new Error(`curl exited ${code}: ${await new Response(proc.stderr).text()}`);
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`check failed: ${what}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), "pve-bench-transfer-"));
const root = join(dir, "root");
mkdirSync(root, { mode: 0o755 });
const fake = startFake();
const rows: string[] = [];
try {
  const info = await fake.info;
  const ca = info.env.PROXMOX_CA_FILE!;
  const uploadUrl = `${info.url}/api2/json/nodes/pve1/storage/local/upload`;
  for (const size of SIZES) {
    const label = size >= 1024 * MiB ? `${size / (1024 * MiB)} GiB` : `${size / MiB} MiB`;
    const source = join(root, `source-${size}.iso`);
    const expected = await writeSource(source, size);
    const session = await connectStdio(cleanEnv({ ...info.env, PROXMOX_FILE_ROOTS: root }));
    const pid = session.transport.pid!;
    const idle = procStatus(pid);
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = (await session.client.callTool({ name, arguments: args }, undefined, { timeout: 30 * 60_000 })) as CallToolResult;
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
      return result.structuredContent as Record<string, unknown>;
    };
    const times = { toolUp: [] as number[], curlUp: [] as number[], toolDown: [] as number[], curlDown: [] as number[] };
    try {
      const toolUp = async () => {
        times.toolUp.push(await timed(async () => void (await call("proxmox_upload", { path: "/nodes/pve1/storage/local/upload", file_path: source, parameters: { content: "iso" } }))));
        const event = await fake.next("upload");
        check(event.event === "upload" && event.size === size && event.sha256 === expected, "tool upload arrived byte-identical");
      };
      const curlUp = async () => {
        times.curlUp.push(
          await timed(() =>
            curl(["--cacert", ca, "-H", `Authorization: ${info.authorization}`, "-H", "Expect:", "-F", "content=iso", "-F", `filename=@${source};filename=source.iso;type=application/octet-stream`, "-o", "/dev/null", uploadUrl]),
          ),
        );
        const event = await fake.next("upload");
        check(event.event === "upload" && event.size === size && event.sha256 === expected, "curl upload arrived byte-identical");
      };
      const toolDown = async (run: number) => {
        const destination = join(root, `tool-${size}-${run}.bin`);
        let result: Record<string, unknown> = {};
        times.toolDown.push(
          await timed(async () => {
            result = await call("proxmox_download", { path: "/nodes/pve1/storage/pbs/file-restore/download", parameters: { volume: "v", filepath: `/bench-${size}` }, destination });
          }),
        );
        await fake.next("download");
        check(result.sha256 === expected && result.bytes_written === size, "tool download reported the right sha256 and size");
        if (run === 0) check((await fileSha256(destination)) === expected, "tool download is byte-identical on disk");
        unlinkSync(destination);
      };
      const curlDown = async (run: number) => {
        const destination = join(root, `curl-${size}-${run}.bin`);
        times.curlDown.push(
          await timed(() =>
            curl(["--cacert", ca, "-H", `Authorization: ${info.authorization}`, "-o", destination, `${info.url}/api2/json/nodes/pve1/storage/pbs/file-restore/download?volume=v&filepath=%2Fbench-${size}`]),
          ),
        );
        const event = await fake.next("download");
        check(event.event === "download" && event.bytes === size && statSync(destination).size === size, "curl download complete");
        if (run === 0) check((await fileSha256(destination)) === expected, "curl download is byte-identical on disk");
        unlinkSync(destination);
      };
      // Tool and curl alternate which goes first, so drift on a shared machine hits both alike.
      for (let run = 0; run < RUNS; run++) {
        for (const step of run % 2 === 0 ? [toolUp, curlUp] : [curlUp, toolUp]) await step();
      }
      const afterUploads = procStatus(pid);
      for (let run = 0; run < RUNS; run++) {
        for (const step of run % 2 === 0 ? [toolDown, curlDown] : [curlDown, toolDown]) await step(run);
      }
      const peak = procStatus(pid);
      const rate = (seconds: number[]) => size / MiB / median(seconds);
      const up = { tool: rate(times.toolUp), curl: rate(times.curlUp) };
      const down = { tool: rate(times.toolDown), curl: rate(times.curlDown) };
      const row = `| ${label} | ${up.tool.toFixed(0)} | ${up.curl.toFixed(0)} | **${(up.tool / up.curl).toFixed(2)}** | ${down.tool.toFixed(0)} | ${down.curl.toFixed(0)} | **${(down.tool / down.curl).toFixed(2)}** | ${idle.rss.toFixed(0)} | ${afterUploads.hwm.toFixed(0)} | **${peak.hwm.toFixed(0)}** |`;
      rows.push(row);
      process.stderr.write(
        `${label}: upload tool ${up.tool.toFixed(0)} MiB/s, curl ${up.curl.toFixed(0)} MiB/s (ratio ${(up.tool / up.curl).toFixed(2)}); ` +
          `download tool ${down.tool.toFixed(0)} MiB/s, curl ${down.curl.toFixed(0)} MiB/s (ratio ${(down.tool / down.curl).toFixed(2)}); ` +
          `server RSS idle ${idle.rss.toFixed(0)} MiB, peak (VmHWM) after uploads ${afterUploads.hwm.toFixed(0)} MiB, after downloads ${peak.hwm.toFixed(0)} MiB\n`,
      );
    } finally {
      await session.close();
      unlinkSync(source);
    }
  }
} finally {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
}

process.stdout.write(
  [
    `\nMedian of ${RUNS} runs, MiB/s; RSS of the server process in MiB.\n`,
    "| file | upload tool | upload curl | ratio | download tool | download curl | ratio | RSS idle | peak RSS after uploads | peak RSS after downloads |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
  ].join("\n"),
);
