// `bun run demo` is also a test: the README's command runs as a child process, with its own TMPDIR, and must
// print every step's result, exit 0, and leave nothing behind (temp dirs, certificates, processes).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { haveSharedData, SCHEMA_FILES } from "../support/shared.ts";
import { cleanEnv, ensureBuilt, ROOT } from "../support/stdio.ts";

interface DemoRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The TMPDIR the demo ran with; it must be empty again afterwards. */
  tmp: string;
}

const haveReal = haveSharedData("demo with the real PVE 9.1 schema", SCHEMA_FILES["9.1"].file);
const tmps: string[] = [];
const runs = new Map<string, Promise<DemoRun>>();

async function runDemo(env: Record<string, string>): Promise<DemoRun> {
  const tmp = mkdtempSync(join(tmpdir(), "pve-mcp-demo-test-"));
  tmps.push(tmp);
  const proc = Bun.spawn([process.execPath, "run", "demo"], {
    cwd: ROOT,
    env: cleanEnv({ TMPDIR: tmp, ...env }),
    stdout: "pipe",
    stderr: "pipe",
    timeout: 70_000,
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr, tmp };
}

function expectNothingLeft(run: DemoRun): void {
  const dir = /^temp dir: (\S+)/m.exec(run.stdout)?.[1];
  expect(dir).toStartWith(run.tmp);
  expect(existsSync(dir!)).toBe(false);
  // Everything else the demo made under TMPDIR (the fake's throwaway certificates) is gone too.
  expect(readdirSync(run.tmp)).toEqual([]);
  const pid = Number(/pid (\d+)/.exec(run.stdout)?.[1]);
  expect(pid).toBeGreaterThan(0);
  expect(() => process.kill(pid, 0)).toThrow();
}

function expectEveryStep(run: DemoRun): void {
  if (run.code !== 0) process.stderr.write(`demo stdout:\n${run.stdout}\ndemo stderr:\n${run.stderr}\n`);
  expect(run.code).toBe(0);
  const out = run.stdout;
  for (const tool of [
    "proxmox_get",
    "proxmox_request",
    "proxmox_upload",
    "proxmox_download",
    "proxmox_search_endpoints",
    "proxmox_describe_endpoint",
  ]) {
    expect(out).toMatch(new RegExp(`^   ${tool} +\\S`, "m"));
  }
  expect(out).toContain('"version":"9.1.1"');
  expect(out).toMatch(/^ {5}POST +\/nodes\/\{node\}\/qemu\/\{vmid\}\/snapshot {2}/m);
  expect(out).toMatch(
    /^ {3}POST \/nodes\/\{node\}\/qemu\/\{vmid\}\/snapshot: .*\n {3}parameters: node, vmid, snapname/m,
  );
  expect(out).toMatch(/data: UPID:pve1:[0-9A-F:]+:qmsnapshot:100:[^\n]*\n {3}task\.ok: true, exitstatus: OK/);
  expect(out).toContain("bytes_sent: 3, file_name: demo.iso, task.ok: true");
  expect(out).toContain(`the fake storage got 3 bytes, sha256 ${createHash("sha256").update("iso").digest("hex")}`);
  expect(out).toMatch(/bytes_written: [1-9]\d*, content_type: text\/plain, sha256: [0-9a-f]{64}\n {3}log: .*TASK OK/);
  expect(out).toMatch(/^cleanup: server stopped, fake stopped, \S+ removed\ndemo OK: 7 steps/m);
  expectNothingLeft(run);
}

beforeAll(() => {
  ensureBuilt();
  // The runs are independent processes: start them together to keep the file fast.
  if (haveReal) runs.set("real", runDemo({}));
  runs.set("sample", runDemo({ DEMO_SAMPLE_SCHEMA: "1" }));
  runs.set("failing", runDemo({ DEMO_SAMPLE_SCHEMA: "1", DEMO_FAIL: "snapshot" }));
});

afterAll(async () => {
  await Promise.allSettled(runs.values());
  for (const tmp of tmps) rmSync(tmp, { recursive: true, force: true });
});

describe("bun run demo", () => {
  test.skipIf(!haveReal)(
    "with the real PVE 9.1 schema: every step works, exit 0, nothing left behind",
    async () => {
      const run = await runs.get("real")!;
      expect(run.stdout).toContain("schema: PVE 9.1 API viewer schema");
      expectEveryStep(run);
    },
    75_000,
  );

  test("with the bundled sample schema: every step works, exit 0, nothing left behind", async () => {
    const run = await runs.get("sample")!;
    expect(run.stdout).toContain("schema: bundled sample schema (scripts/demo-schema.ts)");
    expectEveryStep(run);
  }, 75_000);

  test("a failing step: exit 1, a message naming the step and the cause, and still nothing left behind", async () => {
    const run = await runs.get("failing")!;
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("demo FAILED at step 5 (proxmox_request POST /nodes/pve1/qemu/100/snapshot");
    expect(run.stderr).toContain("exitstatus 'snapshot feature is not available'");
    expect(run.stdout).not.toContain("6. proxmox_upload");
    expect(run.stdout).toMatch(/^cleanup: server stopped, fake stopped, \S+ removed$/m);
    expectNothingLeft(run);
  }, 75_000);
});
