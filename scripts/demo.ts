// `bun run demo`: every tool of the built server, over stdio with a real MCP client, against the
// loopback fake Proxmox the tests use. No cluster, no network; exits 0 only when every step
// worked, and removes what it made (temp dir, server, fake) on every way out.
//
// DEMO_SAMPLE_SCHEMA=1 serves the bundled sample schema even when ../shared has the real one.
// DEMO_FAIL=snapshot makes the snapshot task fail, to show (and test) the failure path.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { VIEWER_PATH } from "../src/catalog/loader.ts";
import { FakeProxmox } from "../test/fake/pve-fake.ts";
import { installFileRoutes, type FileRoutes } from "../test/fake/upload.ts";
import { textOf } from "../test/support/mcp.ts";
import { DOCS_DIR, SCHEMA_FILES } from "../test/support/shared.ts";
import { cleanEnv, connectStdio, ensureBuilt, ROOT, type StdioSession } from "../test/support/stdio.ts";
import { DEMO_SAMPLE_APIDOC } from "./demo-schema.ts";

const TIMEOUT_MS = 60_000;
const CLEANUP_MS = 10_000;
const NODE = "pve1";
const VMID = 100;
const QUERY = "take a snapshot of a vm";

type Json = Record<string, unknown>;

const out = (line = "") => process.stdout.write(`${line}\n`);
const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

/** Compact JSON, cut to `max` characters. */
function brief(value: unknown, max = 100): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

class StepFailure extends Error {}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new StepFailure(message);
}

interface Demo {
  dir: string;
  fake?: FakeProxmox;
  routes?: FileRoutes;
  session?: StdioSession;
  serverPid?: number;
  /** Whether the fake serves the cluster's docs (else the server is told PROXMOX_DOCS=off: the demo stays offline). */
  docs?: boolean;
}

/** The fake cluster: the schema at the viewer path, a snapshot that runs a little, storage upload, task logs. */
async function startFake(demo: Demo): Promise<string> {
  const real = SCHEMA_FILES["9.1"].file;
  const useReal = process.env.DEMO_SAMPLE_SCHEMA !== "1" && existsSync(real);
  const schema = useReal ? readFileSync(real, "utf8") : DEMO_SAMPLE_APIDOC;
  const fake = (demo.fake = await FakeProxmox.start());
  fake.file(VIEWER_PATH, () => ({ body: schema, contentType: "application/javascript" }));
  // The real schema comes with its docs (man pages) when ../shared has them; the sample has none.
  demo.docs = useReal && existsSync(DOCS_DIR);
  if (demo.docs) fake.serveDocs(DOCS_DIR);
  const failure = process.env.DEMO_FAIL === "snapshot" ? "snapshot feature is not available" : undefined;
  fake.route("POST", "/nodes/{node}/qemu/{vmid}/snapshot", (req) => {
    const { node, vmid } = req.pathParams as { node: string; vmid: string };
    const snapname = String(req.params.snapname ?? "");
    if (!/^[a-z][a-z0-9_-]*$/i.test(snapname)) {
      return {
        status: 400,
        message: "Parameter verification failed.",
        errors: { snapname: "invalid configuration ID" },
      };
    }
    const log = [
      `snapshotting 'drive-scsi0' (local-lvm:vm-${vmid}-disk-0)`,
      failure ? `TASK ERROR: ${failure}` : "TASK OK",
    ];
    return {
      data: fake.startTask(node, "qmsnapshot", vmid, {
        pollsUntilDone: 2,
        log,
        ...(failure ? { exitstatus: failure } : {}),
      }),
    };
  });
  demo.routes = installFileRoutes(fake);
  return useReal
    ? `PVE 9.1 API viewer schema (${relative(ROOT, real)})`
    : "bundled sample schema (scripts/demo-schema.ts)";
}

async function call(demo: Demo, name: string, args: Json): Promise<Json> {
  const result = (await demo.session!.client.callTool({ name, arguments: args })) as CallToolResult;
  const structured = (result.structuredContent ?? {}) as Json;
  // A task that failed under wait=true is an error result too; the step names its exit status.
  if (result.isError && !structured.task) throw new StepFailure(`${name} answered with an error:\n${textOf(result)}`);
  return structured;
}

type Step = [title: string, run: (demo: Demo) => Promise<string[]>];

const STEPS: Step[] = [
  [
    "tools/list",
    async (demo) => {
      const { tools } = await demo.session!.client.listTools();
      check(tools.length >= 6, `expected the six tools, got ${tools.map((t) => t.name).join(", ")}`);
      return tools.map((t) => `${t.name.padEnd(26)} ${t.title ?? t.annotations?.title ?? ""}`);
    },
  ],
  [
    'proxmox_get {"path": "/version"}',
    async (demo) => {
      const answer = await call(demo, "proxmox_get", { path: "/version" });
      const data = answer.data as Json;
      check(typeof data?.version === "string", `no version in ${brief(answer)}`);
      return [`data: ${brief(data)}`];
    },
  ],
  [
    `proxmox_search_endpoints {"query": "${QUERY}", "limit": 3}`,
    async (demo) => {
      const answer = await call(demo, "proxmox_search_endpoints", { query: QUERY, limit: 3 });
      const results = (answer.results ?? []) as Json[];
      check(results.length > 0, `no hits: ${brief(answer)}`);
      return [
        `source: ${answer.source}, ${answer.total} matches; top ${results.length}:`,
        ...results.map((r) => `  ${String(r.method).padEnd(6)} ${r.path}  ${brief(r.description, 60).slice(1, -1)}`),
      ];
    },
  ],
  [
    "proxmox_describe_endpoint (the top hit)",
    async (demo) => {
      const top = (
        ((await call(demo, "proxmox_search_endpoints", { query: QUERY, limit: 1 })).results ?? []) as Json[]
      )[0]!;
      const answer = await call(demo, "proxmox_describe_endpoint", { path: top.path, method: top.method });
      const method = ((answer.methods ?? []) as Json[])[0];
      check(method, `no method described: ${brief(answer)}`);
      const params = (method.parameters ?? []) as Json[];
      const perms = (method.permissions ?? {}) as Json;
      return [
        `${method.method} ${answer.path}: ${method.description}`,
        `parameters: ${params.map((p) => `${p.name}${p.optional ? "?" : ""}`).join(", ")}`,
        `permissions: ${brief(perms.check ?? perms.description ?? "(none listed)", 90)}; API tokens allowed: ${method.allowtoken}`,
      ];
    },
  ],
  [
    `proxmox_request POST /nodes/${NODE}/qemu/${VMID}/snapshot {"snapname": "demo"} wait=true`,
    async (demo) => {
      const started = performance.now();
      const answer = await call(demo, "proxmox_request", {
        method: "POST",
        path: `/nodes/${NODE}/qemu/${VMID}/snapshot`,
        parameters: { snapname: "demo", description: "taken by bun run demo" },
        wait: true,
      });
      const task = (answer.task ?? {}) as Json;
      const lines = [
        `data: ${answer.data}`,
        `task.ok: ${task.ok}, exitstatus: ${task.exitstatus}, waited ${((performance.now() - started) / 1000).toFixed(1)} s (task duration_s: ${task.duration_s})`,
      ];
      const tail = ((task.log_tail ?? []) as string[]).join(" | ");
      check(
        task.ok === true,
        `the snapshot task did not succeed: task.ok ${task.ok}, exitstatus '${task.exitstatus}', log: ${tail}`,
      );
      return lines;
    },
  ],
  [
    `proxmox_upload demo.iso (3 bytes, "iso") to /nodes/${NODE}/storage/local/upload wait=true`,
    async (demo) => {
      const file = join(demo.dir, "demo.iso");
      writeFileSync(file, "iso", { mode: 0o600 });
      const answer = await call(demo, "proxmox_upload", {
        path: `/nodes/${NODE}/storage/local/upload`,
        file_path: file,
        parameters: { content: "iso", "checksum-algorithm": "sha256", checksum: sha256("iso") },
        wait: true,
      });
      const task = (answer.task ?? {}) as Json;
      const received = demo.routes!.uploads.at(-1);
      check(task.ok === true, `the upload's copy task did not succeed: ${brief(task, 300)}`);
      check(received?.sha256 === sha256("iso"), `the fake received other bytes: ${brief(received)}`);
      return [
        `data: ${answer.data}`,
        `bytes_sent: ${answer.bytes_sent}, file_name: ${answer.file_name}, task.ok: ${task.ok}`,
        `the fake storage got ${received.size} bytes, sha256 ${received.sha256}`,
      ];
    },
  ],
  [
    "proxmox_download of the upload task's log (download=1)",
    async (demo) => {
      const upid = demo.routes!.uploads.at(-1)!.upid;
      const destination = join(demo.dir, "upload-task.log");
      const answer = await call(demo, "proxmox_download", {
        path: `/nodes/${NODE}/tasks/${upid}/log`,
        parameters: { download: 1 },
        destination,
      });
      const onDisk = readFileSync(destination);
      check(answer.sha256 === sha256(onDisk), `sha256 ${answer.sha256} does not match the file's ${sha256(onDisk)}`);
      check(onDisk.toString("utf8").includes("TASK OK"), `the log does not end well: ${onDisk.toString("utf8")}`);
      return [
        `GET /nodes/${NODE}/tasks/${upid}/log -> ${relative(demo.dir, destination)}`,
        `bytes_written: ${answer.bytes_written}, content_type: ${answer.content_type}, sha256: ${answer.sha256}`,
        `log: ${onDisk.toString("utf8").trim().split("\n").join(" | ")}`,
      ];
    },
  ],
];

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the server and the fake and removes the temp dir; returns what it did. */
async function cleanup(demo: Demo): Promise<string> {
  const done: string[] = [];
  await demo.session?.close().catch(() => undefined);
  if (demo.serverPid !== undefined)
    done.push(alive(demo.serverPid) ? `server pid ${demo.serverPid} STILL RUNNING` : "server stopped");
  await demo.fake?.stop().catch(() => undefined);
  if (demo.fake) done.push("fake stopped");
  rmSync(demo.dir, { recursive: true, force: true });
  done.push(existsSync(demo.dir) ? `${demo.dir} NOT removed` : `${demo.dir} removed`);
  return done.join(", ");
}

async function main(): Promise<void> {
  const started = performance.now();
  // A fresh root for PROXMOX_FILE_ROOTS; mkdtemp makes it 0700 as the server demands.
  const demo: Demo = { dir: realpathSync(mkdtempSync(join(tmpdir(), "proxmox-ve-mcp-demo-"))) };
  let stage = "starting";
  let finished = false;
  const finish = async (code: number, message: string) => {
    if (finished) return;
    finished = true;
    clearTimeout(deadline);
    if (code !== 0) process.stderr.write(`\ndemo FAILED ${message}\n`);
    const stderr = demo.session?.stderr().trim();
    if (code !== 0 && stderr)
      process.stderr.write(`server stderr (last lines):\n${stderr.split("\n").slice(-10).join("\n")}\n`);
    const cleaned = await Promise.race([cleanup(demo), Bun.sleep(CLEANUP_MS).then(() => "cleanup timed out")]);
    out(`cleanup: ${cleaned}`);
    if (code === 0) out(message);
    // process.exit also runs the fake's exit hook that removes its throwaway certificates.
    process.exit(code === 0 && !/NOT|STILL|timed out/.test(cleaned) ? 0 : code || 1);
  };
  const deadline = setTimeout(
    () => void finish(1, `timed out after ${TIMEOUT_MS / 1000} s during ${stage}`),
    TIMEOUT_MS,
  );
  process.on("SIGINT", () => void finish(130, `interrupted during ${stage}`));
  process.on("SIGTERM", () => void finish(143, `terminated during ${stage}`));

  try {
    out("proxmox-ve-mcp demo: a loopback fake Proxmox VE, the built server over stdio, a real MCP client");
    out(`temp dir: ${demo.dir} (PROXMOX_FILE_ROOTS, mode 0700)`);
    stage = "starting the fake Proxmox";
    const schema = await startFake(demo);
    stage = "building dist/index.js";
    ensureBuilt();
    stage = "starting the server";
    const env = cleanEnv({
      ...demo.fake!.env(),
      PROXMOX_FILE_ROOTS: demo.dir,
      ...(demo.docs ? {} : { PROXMOX_DOCS: "off" }),
    });
    demo.session = await connectStdio(env);
    demo.serverPid = demo.session.transport.pid ?? undefined;
    out(`fake:     ${demo.fake!.url} (nodes ${demo.fake!.nodes.join(", ")}), schema: ${schema}`);
    out(`server:   bun dist/index.js, pid ${demo.serverPid}`);
    for (const [index, [title, run]] of STEPS.entries()) {
      stage = `step ${index + 1} (${title})`;
      out();
      out(`${index + 1}. ${title}`);
      for (const line of await run(demo)) out(`   ${line}`);
    }
    out();
    await finish(0, `demo OK: ${STEPS.length} steps in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    await finish(1, `at ${stage}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

await main();
