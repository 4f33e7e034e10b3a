// File transfer at curl's speed with flat memory: proxmox_upload and proxmox_download through a
// real MCP SDK client over stdio to a spawned dist/index.js, beside curl moving the same file
// against the same loopback fake (its own process, bench/transfer-fake.ts), over plain HTTP and
// over TLS. Curl reads the same source file and writes its downloads to a real file, as the
// tool does. Prints the median of each, their ratio, and the server process's peak RSS
// (VmHWM) per size; each size gets a fresh server process so its peak is its own. Beside each
// pair, the CPU seconds per GiB each side used (the server process with all its threads; curl
// and openssl from their rusage): less sensitive to a busy machine than the wall clock.
//
// Uploads are measured twice:
//   given:   the caller passes checksum-algorithm + checksum (nothing hashed locally), against
//            curl sending the same fields: the transfer alone.
//   default: the server computes the sha256 it sends (the default), against `openssl dgst
//            -sha256` (SHA-NI, faster than coreutils' sha256sum) then curl with the fields: the
//            same work, the file read twice on both sides.
// Downloads: the tool hashes what it writes (sha256 in the result), against curl only writing
// (-o), and against curl -o followed by `openssl dgst -sha256` of the file (the same work).
//
//   bun run build && bun bench/transfer.ts [--sizes 256,1024] (MiB) [--runs 3] [--schemes http,https]
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createHash } from "node:crypto";
import {
  createReadStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { open } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { contentAt, contentPeriod } from "../test/fake/upload.ts";
import { uploadEndpointSchema } from "../test/support/catalog.ts";
import { cleanEnv, connectStdio, ensureBuilt, ROOT } from "../test/support/stdio.ts";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "256,1024" },
    runs: { type: "string", default: "3" },
    schemes: { type: "string", default: "http,https" },
  },
});
const MiB = 1024 * 1024;
const SIZES = values.sizes.split(",").map((s) => Number(s) * MiB);
const RUNS = Number(values.runs);
const SCHEMES = values.schemes.split(",") as ("http" | "https")[];
const SEED = 42;
const CURL = "/usr/bin/curl";
const UPLOAD_PATH = "/nodes/pve1/storage/local/upload";

interface FakeInfo {
  url: string;
  env: Record<string, string>;
  authorization: string;
}
type FakeEvent =
  | { event: "upload"; size: number; sha256: string; checksum: string | null }
  | { event: "download"; filepath: string; bytes: number };

function startFake(scheme: "http" | "https"): {
  info: Promise<FakeInfo>;
  next(kind: FakeEvent["event"]): Promise<FakeEvent>;
  stop(): Promise<void>;
} {
  const args = [...(scheme === "http" ? ["--plain"] : []), String(SEED), ...SIZES.map(String)];
  const proc = Bun.spawn([process.execPath, join(ROOT, "bench/transfer-fake.ts"), ...args], {
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

/** CPU seconds (user + system, all threads) a process has used so far. */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds used by the processes `run` spawned (curl, openssl), added up as they exit. */
let childCpu = 0;

/** Wall seconds of `run`, and the CPU seconds it cost: the server's (pid) or the spawned tools'. */
async function timed(run: () => Promise<void>, pid?: number): Promise<{ wall: number; cpu: number }> {
  const cpu0 = pid === undefined ? childCpu : cpuOf(pid);
  const started = performance.now();
  await run();
  const wall = (performance.now() - started) / 1000;
  return { wall, cpu: (pid === undefined ? childCpu : cpuOf(pid)) - cpu0 };
}

async function run(command: string[]): Promise<string> {
  const proc = Bun.spawn(command, { stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  const usage = proc.resourceUsage();
  if (usage) childCpu += Number(usage.cpuTime.user + usage.cpuTime.system) / 1e6;
  if (code !== 0) throw new Error(`${command[0]} exited ${code}: ${await new Response(proc.stderr).text()}`);
  return out;
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`check failed: ${what}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), "pve-bench-transfer-"));
const root = join(dir, "root");
mkdirSync(root, { mode: 0o755 });
// The cluster's schema as the server reads it: the upload endpoint takes a checksum (PVE 7.4+).
const schema = join(dir, "apidoc.js");
writeFileSync(schema, uploadEndpointSchema());
const rows: string[] = [];
const loadBefore = load();
try {
  for (const scheme of SCHEMES) {
    const fake = startFake(scheme);
    try {
      const info = await fake.info;
      const tls = info.env.PROXMOX_CA_FILE ? ["--cacert", info.env.PROXMOX_CA_FILE] : [];
      const curl = [CURL, "-sS", "--fail", ...tls, "-H", `Authorization: ${info.authorization}`];
      const uploadUrl = `${info.url}/api2/json${UPLOAD_PATH}`;
      for (const size of SIZES) {
        const label = size >= 1024 * MiB ? `${size / (1024 * MiB)} GiB` : `${size / MiB} MiB`;
        const source = join(root, `source-${size}.iso`);
        const expected = await writeSource(source, size);
        const session = await connectStdio(
          cleanEnv({ ...info.env, PROXMOX_FILE_ROOTS: root, PROXMOX_SCHEMA_URL: schema }),
        );
        const pid = session.transport.pid!;
        const idle = procStatus(pid);
        const call = async (name: string, args: Record<string, unknown>) => {
          const result = (await session.client.callTool({ name, arguments: args }, undefined, {
            timeout: 30 * 60_000,
          })) as CallToolResult;
          if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
          return result.structuredContent as Record<string, unknown>;
        };
        const times: Record<string, number[]> = {};
        const cpus: Record<string, number[]> = {};
        const record = (key: string, measured: { wall: number; cpu: number }) => {
          (times[key] ??= []).push(measured.wall);
          (cpus[key] ??= []).push(measured.cpu);
        };
        const arrived = async (who: string, withChecksum: boolean) => {
          const event = await fake.next("upload");
          check(
            event.event === "upload" && event.size === size && event.sha256 === expected,
            `${who} upload arrived byte-identical`,
          );
          if (withChecksum) check(event.event === "upload" && event.checksum === expected, `${who} sent the checksum`);
        };
        const downloadUrl = `${info.url}/api2/json/nodes/pve1/storage/pbs/file-restore/download?volume=v&filepath=%2Fbench-${size}`;
        const curlUpload = (checksum: string) =>
          run([
            ...curl,
            "-H",
            "Expect:",
            "-F",
            "content=iso",
            "-F",
            "checksum-algorithm=sha256",
            "-F",
            `checksum=${checksum}`,
            "-F",
            `filename=@${source};filename=source.iso;type=application/octet-stream`,
            "-o",
            "/dev/null",
            uploadUrl,
          ]);
        const steps = {
          toolUpGiven: async () => {
            record(
              "toolUpGiven",
              await timed(async () => {
                await call("proxmox_upload", {
                  path: UPLOAD_PATH,
                  file_path: source,
                  parameters: { content: "iso", "checksum-algorithm": "sha256", checksum: expected },
                });
              }, pid),
            );
            await arrived("tool (given checksum)", true);
          },
          curlUpGiven: async () => {
            record("curlUpGiven", await timed(async () => void (await curlUpload(expected))));
            await arrived("curl", true);
          },
          toolUpDefault: async () => {
            let result: Record<string, unknown> = {};
            record(
              "toolUpDefault",
              await timed(async () => {
                result = await call("proxmox_upload", {
                  path: UPLOAD_PATH,
                  file_path: source,
                  parameters: { content: "iso" },
                });
              }, pid),
            );
            check((result.checksum as { value?: string } | null)?.value === expected, "tool computed the checksum");
            await arrived("tool (default checksum)", true);
          },
          curlUpHashed: async () => {
            record(
              "curlUpHashed",
              await timed(async () => {
                const sum = (await run(["openssl", "dgst", "-sha256", "-r", source])).split(" ")[0]!;
                await curlUpload(sum);
              }),
            );
            await arrived("openssl + curl", true);
          },
          toolDown: async (i: number) => {
            const destination = join(root, `tool-${size}-${i}.bin`);
            let result: Record<string, unknown> = {};
            record(
              "toolDown",
              await timed(async () => {
                result = await call("proxmox_download", {
                  path: "/nodes/pve1/storage/pbs/file-restore/download",
                  parameters: { volume: "v", filepath: `/bench-${size}` },
                  destination,
                });
              }, pid),
            );
            await fake.next("download");
            check(
              result.sha256 === expected && result.bytes_written === size,
              "tool download reported the right sha256 and size",
            );
            if (i === 0) check((await fileSha256(destination)) === expected, "tool download is byte-identical on disk");
            unlinkSync(destination);
          },
          curlDown: async (i: number) => {
            const destination = join(root, `curl-${size}-${i}.bin`);
            record(
              "curlDown",
              await timed(async () => {
                await run([...curl, "-o", destination, downloadUrl]);
              }),
            );
            const event = await fake.next("download");
            check(
              event.event === "download" && event.bytes === size && statSync(destination).size === size,
              "curl download complete",
            );
            if (i === 0) check((await fileSha256(destination)) === expected, "curl download is byte-identical on disk");
            unlinkSync(destination);
          },
          curlDownHashed: async (i: number) => {
            const destination = join(root, `curl-hashed-${size}-${i}.bin`);
            let sum = "";
            record(
              "curlDownHashed",
              await timed(async () => {
                await run([...curl, "-o", destination, downloadUrl]);
                sum = (await run(["openssl", "dgst", "-sha256", "-r", destination])).split(" ")[0]!;
              }),
            );
            await fake.next("download");
            check(sum === expected && statSync(destination).size === size, "curl -o, then openssl dgst");
            unlinkSync(destination);
          },
        };
        try {
          // Each tool step and its yardsticks take turns going first, so drift on a shared
          // machine hits them alike.
          type Step = keyof typeof steps;
          const groups: Step[][] = [
            ["toolUpGiven", "curlUpGiven"],
            ["toolUpDefault", "curlUpHashed"],
            ["toolDown", "curlDown", "curlDownHashed"],
          ];
          const pairs: [Step, Step][] = groups.flatMap(([tool, ...yardsticks]) =>
            yardsticks.map((y) => [tool!, y] as [Step, Step]),
          );
          let afterUploads = idle;
          for (const group of groups) {
            for (let i = 0; i < RUNS; i++) {
              const turn = i % group.length;
              for (const step of [...group.slice(turn), ...group.slice(0, turn)]) await steps[step](i);
            }
            if (group[0] === "toolUpDefault") afterUploads = procStatus(pid);
          }
          const peak = procStatus(pid);
          const rate = (key: string) => size / MiB / median(times[key]!);
          const ratio = (tool: string, curl: string) => rate(tool) / rate(curl);
          const perGiB = (key: string) => (median(cpus[key]!) / (size / (1024 * MiB))).toFixed(2);
          const cells = pairs.flatMap(([tool, yardstick]) => [
            rate(tool).toFixed(0),
            rate(yardstick).toFixed(0),
            `**${ratio(tool, yardstick).toFixed(2)}**`,
            `${perGiB(tool)} / ${perGiB(yardstick)}`,
          ]);
          const row = `| ${scheme} | ${label} | ${cells.join(" | ")} | ${idle.rss.toFixed(0)} | ${afterUploads.hwm.toFixed(0)} | **${peak.hwm.toFixed(0)}** |`;
          rows.push(row);
          process.stderr.write(`${row}   (load ${load()})\n`);
        } finally {
          await session.close();
          unlinkSync(source);
        }
      }
    } finally {
      await fake.stop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

process.stdout.write(
  [
    `\nMedian of ${RUNS} runs, MiB/s; RSS of the server process in MiB. Load average (1, 5, 15 min) before: ${loadBefore}; after: ${load()}.\n`,
    "| scheme | file | upload, checksum given: tool | curl | ratio | CPU s/GiB tool / curl | upload, default checksum: tool | openssl dgst + curl | ratio | CPU s/GiB | download: tool | curl -o | ratio | CPU s/GiB | download: tool | curl -o, then openssl dgst | ratio | CPU s/GiB | RSS idle | peak RSS after uploads | peak RSS after downloads |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
  ].join("\n"),
);
