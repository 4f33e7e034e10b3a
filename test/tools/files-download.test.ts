import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FileAccess } from "../../src/files/resolver.ts";
import { downloadContent } from "../fake/upload.ts";
import { sha256, useFileFixture } from "../support/files.ts";
import { textOf } from "../support/mcp.ts";

const RESTORE = "/nodes/pve1/storage/pbs/file-restore/download";

const fx = useFileFixture("pve-download-tool-");

/** Waits for a condition the server reaches on its own after a cancelled call (bounded, no fixed sleep). */
async function waitFor(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function restoreRequests() {
  return fx.fake.apiRequests().filter((r) => r.path.endsWith("/file-restore/download"));
}

describe("proxmox_download", () => {
  test("is listed as not read-only (it writes locally) and not destructive", async () => {
    const h = await fx.connect();
    const tool = (await h.client.listTools()).tools.find((t) => t.name === "proxmox_download");
    expect(tool?.title).toBeTruthy();
    expect(tool?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  test("without PROXMOX_FILE_ROOTS it says how to enable file transfer and sends nothing", async () => {
    const h = await fx.connect({ files: false });
    const result = await h.call("proxmox_download", { path: "/version", destination: join(fx.root, "v.json") });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("File transfer is disabled");
    expect(existsSync(join(fx.root, "v.json"))).toBe(false);
    expect(fx.fake.apiRequests()).toHaveLength(0);
  });

  test("streams a large binary answer to a new 0600 file with its sha256 (no 512 KiB cap)", async () => {
    const spec = { size: 5 * 1024 * 1024 + 333, seed: 7, declareLength: true };
    fx.routes.serve("/ok.zip", spec);
    const h = await fx.connect();
    const destination = join(fx.root, "restore.zip");
    const result = await h.call("proxmox_download", {
      path: RESTORE,
      parameters: { volume: "pbs:backup/vm/100/2025", filepath: "/ok.zip" },
      destination,
    });
    expect(result.isError).toBeFalsy();
    const payload = result.structuredContent as {
      path: string;
      bytes_written: number;
      content_type: string;
      sha256: string;
      length_verified: boolean;
    };
    const onDisk = readFileSync(destination);
    expect(onDisk.equals(downloadContent(spec))).toBe(true);
    expect(payload).toEqual({
      path: destination,
      bytes_written: spec.size,
      content_type: "application/zip",
      sha256: sha256(onDisk),
      length_verified: true,
    });
    expect(fx.routes.served.at(-1)?.sha256).toBe(payload.sha256);
    expect(statSync(destination).mode & 0o777).toBe(0o600);
    expect(restoreRequests()[0]?.query.get("filepath")).toBe("/ok.zip");
  });

  test("saves a text task log (download=1) and a JSON answer alike", async () => {
    const h = await fx.connect();
    const upid = fx.fake.startTask("pve1", "vzdump", "100", { log: ["INFO: starting", "INFO: done", "TASK OK"] });
    const log = await h.call("proxmox_download", {
      path: `/nodes/pve1/tasks/${upid}/log`,
      parameters: { download: 1 },
      destination: join(fx.root, "task.log"),
    });
    expect(log.isError).toBeFalsy();
    expect(readFileSync(join(fx.root, "task.log"), "utf8")).toBe("INFO: starting\nINFO: done\nTASK OK\n");
    expect((log.structuredContent as { content_type: string }).content_type).toBe("text/plain");

    const version = await h.call("proxmox_download", { path: "/version", destination: join(fx.root, "version.json") });
    expect(version.isError).toBeFalsy();
    expect(JSON.parse(readFileSync(join(fx.root, "version.json"), "utf8"))).toEqual({
      data: { version: "9.1.1", release: "9.1", repoid: "fake0000" },
    });
  });

  test("never overwrites: an existing destination is refused, unchanged, and nothing is requested", async () => {
    writeFileSync(join(fx.root, "keep.txt"), "precious");
    const h = await fx.connect();
    const result = await h.call("proxmox_download", { path: "/version", destination: join(fx.root, "keep.txt") });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("already exists");
    expect(readFileSync(join(fx.root, "keep.txt"), "utf8")).toBe("precious");
    expect(fx.fake.apiRequests()).toHaveLength(0);
  });

  test("a dangling symlink as destination is not followed: nothing is created outside", async () => {
    symlinkSync(join(fx.outside, "planted.txt"), join(fx.root, "out.txt"));
    const h = await fx.connect();
    const result = await h.call("proxmox_download", { path: "/version", destination: join(fx.root, "out.txt") });
    expect(result.isError).toBe(true);
    expect(existsSync(join(fx.outside, "planted.txt"))).toBe(false);
    expect(fx.fake.apiRequests()).toHaveLength(0);
  });

  test("a symlink planted at the destination right before the create is not followed", async () => {
    writeFileSync(join(fx.outside, "victim.txt"), "victim");
    const destination = join(fx.root, "new.json");
    const h = await fx.connect({
      hooks: { afterValidate: () => symlinkSync(join(fx.outside, "victim.txt"), destination) },
    });
    const result = await h.call("proxmox_download", { path: "/version", destination });
    expect(result.isError).toBe(true);
    expect(readFileSync(join(fx.outside, "victim.txt"), "utf8")).toBe("victim");
    expect(fx.fake.apiRequests()).toHaveLength(0);
  });

  const refusedDestinations: [string, () => string, string][] = [
    [
      "a prefix sibling of the root",
      () => (mkdirSync(`${fx.root}2`), join(`${fx.root}2`, "f")),
      "outside the directories allowed",
    ],
    ["a .. escape", () => join(fx.root, "..", "outside", "f"), "outside the directories allowed"],
    [
      "a symlinked parent leading outside",
      () => (symlinkSync(fx.outside, join(fx.root, "o")), join(fx.root, "o", "f")),
      "outside the directories allowed",
    ],
    ["a missing parent", () => join(fx.root, "missing", "f"), "create the directory first"],
  ];
  for (const [what, destination, message] of refusedDestinations) {
    test(`refuses ${what} before requesting anything`, async () => {
      const path = destination();
      const h = await fx.connect();
      const result = await h.call("proxmox_download", { path: "/version", destination: path });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(message);
      expect(readdirSync(fx.outside)).toEqual([]);
      expect(fx.fake.apiRequests()).toHaveLength(0);
    });
  }

  test("an HTTP error leaves no file", async () => {
    const h = await fx.connect();
    const destination = join(fx.root, "missing.zip");
    const result = await h.call("proxmox_download", {
      path: RESTORE,
      parameters: { volume: "v", filepath: "/not-served" },
      destination,
    });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { error: { status: number } }).error.status).toBe(500);
    expect(existsSync(destination)).toBe(false);
  });

  test("a body that ends at connection close is saved, flagged as not length-verified", async () => {
    fx.routes.serve("/cut.zip", { size: 4 * 1024 * 1024, failAfter: 1024 * 1024 + 5 });
    const h = await fx.connect();
    const destination = join(fx.root, "cut.zip");
    const result = await h.call("proxmox_download", {
      path: RESTORE,
      parameters: { volume: "v", filepath: "/cut.zip" },
      destination,
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ length_verified: false });
    expect((result.structuredContent as { bytes_written: number }).bytes_written).toBeLessThan(4 * 1024 * 1024);
    expect(String((result.structuredContent as { note: string }).note)).toContain("cannot be told from a complete one");
  });

  test("a connection dropped mid-stream leaves no partial file", async () => {
    fx.routes.serve("/drop.zip", { size: 4 * 1024 * 1024, failAfter: 1024 * 1024 + 5, declareLength: true });
    const h = await fx.connect();
    const destination = join(fx.root, "drop.zip");
    const result = await h.call("proxmox_download", {
      path: RESTORE,
      parameters: { volume: "v", filepath: "/drop.zip" },
      destination,
    });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { error: { failure: string } }).error.failure).toBe("dropped");
    expect(fx.routes.served.at(-1)?.bytes).toBe(1024 * 1024 + 5);
    expect(existsSync(destination)).toBe(false);
  });

  test("a body that stalls past PROXMOX_TIMEOUT_MS times out and leaves no partial file", async () => {
    fx.routes.serve("/stall.zip", { size: 4 * 1024 * 1024, hangAfter: 2 * 1024 * 1024 });
    const h = await fx.connect({ env: { PROXMOX_TIMEOUT_MS: "300" } });
    const destination = join(fx.root, "stall.zip");
    const result = await h.call("proxmox_download", {
      path: RESTORE,
      parameters: { volume: "v", filepath: "/stall.zip" },
      destination,
    });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { error: { failure: string } }).error.failure).toBe("timeout");
    expect(existsSync(destination)).toBe(false);
  });

  describe("the stall rule (minimum rate over a window)", () => {
    const rule = { bytesPerSecond: 20_000, windowMs: 400 };
    const withRule = () => fx.connect({ files: new FileAccess({ roots: [fx.root], stall: rule }) });

    test("a body that trickles (the idle timeout never fires) is given up, and the partial file removed", async () => {
      // 1 MiB at once, then 10 bytes every 20 ms: 500 B/s, far below the rule, yet never idle.
      fx.routes.serve("/trickle.zip", {
        size: 64 * 1024 * 1024,
        declareLength: true,
        pace: { after: 1024 * 1024, bytes: 10, everyMs: 20 },
      });
      const h = await withRule();
      const destination = join(fx.root, "trickle.zip");
      const started = performance.now();
      const result = await h.call("proxmox_download", {
        path: RESTORE,
        parameters: { volume: "v", filepath: "/trickle.zip" },
        destination,
      });
      expect(result.isError).toBe(true);
      expect((result.structuredContent as { error: { failure: string } }).error.failure).toBe("stalled");
      expect(textOf(result)).toContain("the download stalled and was given up");
      expect(textOf(result)).toContain("the partial file was removed");
      expect(textOf(result)).toMatch(/of 64\.0 MiB\)/);
      expect(fx.routes.served.at(-1)?.bytes).toBeGreaterThan(1024 * 1024);
      expect(existsSync(destination)).toBe(false);
      expect(readdirSync(fx.root)).toEqual([]);
      expect(performance.now() - started).toBeLessThan(10_000);
    });

    test("a slow but moving body is never cut off", async () => {
      // 16 KiB every 10 ms (~1.6 MB/s): eighty times the rule's rate, for several windows.
      const spec = { size: 1536 * 1024, seed: 5, pace: { bytes: 16 * 1024, everyMs: 10 } };
      fx.routes.serve("/slow-ok.zip", spec);
      const h = await withRule();
      const destination = join(fx.root, "slow-ok.zip");
      const started = performance.now();
      const result = await h.call("proxmox_download", {
        path: RESTORE,
        parameters: { volume: "v", filepath: "/slow-ok.zip" },
        destination,
      });
      expect(result.isError).toBeFalsy();
      expect(performance.now() - started).toBeGreaterThan(2 * rule.windowMs);
      expect(readFileSync(destination).equals(downloadContent(spec))).toBe(true);
    });
  });

  test("cancellation mid-stream stops the transfer and removes the partial file", async () => {
    fx.routes.serve("/slow.zip", { size: 8 * 1024 * 1024, hangAfter: 3 * 1024 * 1024 });
    const h = await fx.connect();
    const destination = join(fx.root, "slow.zip");
    const controller = new AbortController();
    const sent = fx.routes.sent("/slow.zip", 3 * 1024 * 1024);
    const call = h.call(
      "proxmox_download",
      { path: RESTORE, parameters: { volume: "v", filepath: "/slow.zip" }, destination },
      { signal: controller.signal },
    );
    await sent;
    expect(existsSync(destination)).toBe(true);
    controller.abort();
    await expect(call).rejects.toThrow();
    await waitFor(() => !existsSync(destination), "the partial file to be removed");
    expect(readdirSync(fx.root)).toEqual([]);
  });

  test("a failing disk (ENOSPC) stops the transfer and removes the partial file", async () => {
    fx.routes.serve("/big.zip", { size: 6 * 1024 * 1024 });
    const full = (written: number) => {
      if (written >= 2 * 1024 * 1024) throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
    };
    const h = await fx.connect({ hooks: { beforeWrite: full } });
    const destination = join(fx.root, "big.zip");
    const result = await h.call("proxmox_download", {
      path: RESTORE,
      parameters: { volume: "v", filepath: "/big.zip" },
      destination,
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("ENOSPC");
    expect(textOf(result)).toContain("partial file was removed");
    expect(existsSync(destination)).toBe(false);
  });
});
