import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileAccess, type FileAccessHooks } from "../../src/files/resolver.ts";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { downloadContent, installFileRoutes, type FileRoutes } from "../fake/upload.ts";
import { connectHarness, textOf, type Harness } from "../support/mcp.ts";

const RESTORE = "/nodes/pve1/storage/pbs/file-restore/download";

let fake: FakeProxmox;
let routes: FileRoutes;
let base: string;
let root: string;
let outside: string;
let harness: Harness | undefined;

beforeAll(async () => {
  fake = await FakeProxmox.start();
  routes = installFileRoutes(fake);
});
afterAll(async () => {
  await fake.stop();
});

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "pve-download-tool-")));
  root = join(base, "files");
  outside = join(base, "outside");
  mkdirSync(root, { mode: 0o755 });
  mkdirSync(outside, { mode: 0o755 });
  fake.requests.length = 0;
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  rmSync(base, { recursive: true, force: true });
});

async function connect(opts: { hooks?: FileAccessHooks; files?: boolean; env?: Record<string, string> } = {}): Promise<Harness> {
  const files = opts.files === false ? undefined : new FileAccess({ roots: [root] }, opts.hooks);
  harness = await connectHarness(fake, { deps: { files }, ...(opts.env ? { env: opts.env } : {}) });
  return harness;
}

function sha256(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Waits for a condition the server reaches on its own after a cancelled call (bounded, no fixed sleep). */
async function waitFor(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function restoreRequests() {
  return fake.apiRequests().filter((r) => r.path.endsWith("/file-restore/download"));
}

describe("proxmox_download", () => {
  test("is listed as not read-only (it writes locally) and not destructive", async () => {
    const h = await connect();
    const tool = (await h.client.listTools()).tools.find((t) => t.name === "proxmox_download");
    expect(tool?.title).toBeTruthy();
    expect(tool?.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true });
  });

  test("without PROXMOX_FILE_ROOTS it says how to enable file transfer and sends nothing", async () => {
    const h = await connect({ files: false });
    const result = await h.call("proxmox_download", { path: "/version", destination: join(root, "v.json") });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("File transfer is disabled");
    expect(existsSync(join(root, "v.json"))).toBe(false);
    expect(fake.apiRequests()).toHaveLength(0);
  });

  test("streams a large binary answer to a new 0600 file with its sha256 (no 512 KiB cap)", async () => {
    const spec = { size: 5 * 1024 * 1024 + 333, seed: 7 };
    routes.serve("/ok.zip", spec);
    const h = await connect();
    const destination = join(root, "restore.zip");
    const result = await h.call("proxmox_download", { path: RESTORE, parameters: { volume: "pbs:backup/vm/100/2025", filepath: "/ok.zip" }, destination });
    expect(result.isError).toBeFalsy();
    const payload = result.structuredContent as { path: string; bytes_written: number; content_type: string; sha256: string };
    const onDisk = readFileSync(destination);
    expect(onDisk.equals(downloadContent(spec))).toBe(true);
    expect(payload).toEqual({ path: destination, bytes_written: spec.size, content_type: "application/zip", sha256: sha256(onDisk) });
    expect(routes.served.at(-1)?.sha256).toBe(payload.sha256);
    expect(statSync(destination).mode & 0o777).toBe(0o600);
    expect(restoreRequests()[0]?.query.get("filepath")).toBe("/ok.zip");
  });

  test("saves a text task log (download=1) and a JSON answer alike", async () => {
    const h = await connect();
    const upid = fake.startTask("pve1", "vzdump", "100", { log: ["INFO: starting", "INFO: done", "TASK OK"] });
    const log = await h.call("proxmox_download", { path: `/nodes/pve1/tasks/${upid}/log`, parameters: { download: 1 }, destination: join(root, "task.log") });
    expect(log.isError).toBeFalsy();
    expect(readFileSync(join(root, "task.log"), "utf8")).toBe("INFO: starting\nINFO: done\nTASK OK\n");
    expect((log.structuredContent as { content_type: string }).content_type).toBe("text/plain");

    const version = await h.call("proxmox_download", { path: "/version", destination: join(root, "version.json") });
    expect(version.isError).toBeFalsy();
    expect(JSON.parse(readFileSync(join(root, "version.json"), "utf8"))).toEqual({ data: { version: "9.1.1", release: "9.1", repoid: "fake0000" } });
  });

  test("never overwrites: an existing destination is refused, unchanged, and nothing is requested", async () => {
    writeFileSync(join(root, "keep.txt"), "precious");
    const h = await connect();
    const result = await h.call("proxmox_download", { path: "/version", destination: join(root, "keep.txt") });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("already exists");
    expect(readFileSync(join(root, "keep.txt"), "utf8")).toBe("precious");
    expect(fake.apiRequests()).toHaveLength(0);
  });

  test("a dangling symlink as destination is not followed: nothing is created outside", async () => {
    symlinkSync(join(outside, "planted.txt"), join(root, "out.txt"));
    const h = await connect();
    const result = await h.call("proxmox_download", { path: "/version", destination: join(root, "out.txt") });
    expect(result.isError).toBe(true);
    expect(existsSync(join(outside, "planted.txt"))).toBe(false);
    expect(fake.apiRequests()).toHaveLength(0);
  });

  test("a symlink planted at the destination right before the create is not followed", async () => {
    writeFileSync(join(outside, "victim.txt"), "victim");
    const destination = join(root, "new.json");
    const h = await connect({ hooks: { afterValidate: () => symlinkSync(join(outside, "victim.txt"), destination) } });
    const result = await h.call("proxmox_download", { path: "/version", destination });
    expect(result.isError).toBe(true);
    expect(readFileSync(join(outside, "victim.txt"), "utf8")).toBe("victim");
    expect(fake.apiRequests()).toHaveLength(0);
  });

  const refusedDestinations: [string, () => string, string][] = [
    ["a prefix sibling of the root", () => (mkdirSync(`${root}2`), join(`${root}2`, "f")), "outside the directories allowed"],
    ["a .. escape", () => join(root, "..", "outside", "f"), "outside the directories allowed"],
    ["a symlinked parent leading outside", () => (symlinkSync(outside, join(root, "o")), join(root, "o", "f")), "outside the directories allowed"],
    ["a missing parent", () => join(root, "missing", "f"), "create the directory first"],
  ];
  for (const [what, destination, message] of refusedDestinations) {
    test(`refuses ${what} before requesting anything`, async () => {
      const path = destination();
      const h = await connect();
      const result = await h.call("proxmox_download", { path: "/version", destination: path });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(message);
      expect(readdirSync(outside)).toEqual([]);
      expect(fake.apiRequests()).toHaveLength(0);
    });
  }

  test("an HTTP error leaves no file", async () => {
    const h = await connect();
    const destination = join(root, "missing.zip");
    const result = await h.call("proxmox_download", { path: RESTORE, parameters: { volume: "v", filepath: "/not-served" }, destination });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { error: { status: number } }).error.status).toBe(500);
    expect(existsSync(destination)).toBe(false);
  });

  test("a connection dropped mid-stream leaves no partial file", async () => {
    routes.serve("/drop.zip", { size: 4 * 1024 * 1024, failAfter: 1024 * 1024 + 5 });
    const h = await connect();
    const destination = join(root, "drop.zip");
    const result = await h.call("proxmox_download", { path: RESTORE, parameters: { volume: "v", filepath: "/drop.zip" }, destination });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { error: { failure: string } }).error.failure).toBe("dropped");
    expect(routes.served.at(-1)?.bytes).toBe(1024 * 1024 + 5);
    expect(existsSync(destination)).toBe(false);
  });

  test("a body that stalls past PROXMOX_TIMEOUT_MS times out and leaves no partial file", async () => {
    routes.serve("/stall.zip", { size: 4 * 1024 * 1024, hangAfter: 2 * 1024 * 1024 });
    const h = await connect({ env: { PROXMOX_TIMEOUT_MS: "300" } });
    const destination = join(root, "stall.zip");
    const result = await h.call("proxmox_download", { path: RESTORE, parameters: { volume: "v", filepath: "/stall.zip" }, destination });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { error: { failure: string } }).error.failure).toBe("timeout");
    expect(existsSync(destination)).toBe(false);
  });

  test("cancellation mid-stream stops the transfer and removes the partial file", async () => {
    routes.serve("/slow.zip", { size: 8 * 1024 * 1024, hangAfter: 3 * 1024 * 1024 });
    const h = await connect();
    const destination = join(root, "slow.zip");
    const controller = new AbortController();
    const sent = routes.sent("/slow.zip", 3 * 1024 * 1024);
    const call = h.call("proxmox_download", { path: RESTORE, parameters: { volume: "v", filepath: "/slow.zip" }, destination }, { signal: controller.signal });
    await sent;
    expect(existsSync(destination)).toBe(true);
    controller.abort();
    await expect(call).rejects.toThrow();
    await waitFor(() => !existsSync(destination), "the partial file to be removed");
    expect(readdirSync(root)).toEqual([]);
  });

  test("a failing disk (ENOSPC) stops the transfer and removes the partial file", async () => {
    routes.serve("/big.zip", { size: 6 * 1024 * 1024 });
    const full = (written: number) => {
      if (written >= 2 * 1024 * 1024) throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
    };
    const h = await connect({ hooks: { beforeWrite: full } });
    const destination = join(root, "big.zip");
    const result = await h.call("proxmox_download", { path: RESTORE, parameters: { volume: "v", filepath: "/big.zip" }, destination });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("ENOSPC");
    expect(textOf(result)).toContain("partial file was removed");
    expect(existsSync(destination)).toBe(false);
  });
});
