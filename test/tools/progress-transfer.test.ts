// Progress notifications while files move (issue 13): bytes so far with the total when known,
// increasing, throttled, and a last one with the whole size; then, for an upload with wait,
// the copy task's seconds counted on from the bytes sent.
import { describe, expect, test } from "bun:test";
import type { Progress as ProgressNotification } from "@modelcontextprotocol/sdk/types.js";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFileFixture } from "../support/files.ts";
import type { Harness } from "../support/mcp.ts";

const fx = useFileFixture("pve-mcp-progress-");
const RESTORE = "/nodes/pve1/storage/pbs/file-restore/download";

function callWithProgress(h: Harness, name: string, args: Record<string, unknown>) {
  const seen: ProgressNotification[] = [];
  const done = h.client.callTool({ name, arguments: args }, undefined, { onprogress: (p) => seen.push(p) });
  return { seen, done };
}

function expectIncreasing(seen: ProgressNotification[]): void {
  for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
}

describe("progress while files move", () => {
  test("a download: bytes written with the announced length, then the whole size", async () => {
    const size = 2 * 1024 * 1024;
    // about 1 s: 64 KiB every 30 ms
    fx.routes.serve("/big.img", { size, declareLength: true, pace: { bytes: 64 * 1024, everyMs: 30 } });
    const h = await fx.connect();
    const { seen, done } = callWithProgress(h, "proxmox_download", {
      path: RESTORE,
      parameters: { volume: "pbs:backup/vm/101/2025", filepath: "/big.img" },
      destination: join(fx.root, "big.img"),
    });
    expect((await done).isError).toBeFalsy();
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.length).toBeLessThan(20);
    expectIncreasing(seen);
    for (const p of seen) expect(p.total).toBe(size);
    expect(seen.at(-1)!.progress).toBe(size);
    expect(seen.slice(0, -1).every((p) => p.progress < size)).toBe(true);
  });

  test("an upload with wait: bytes sent up to the file's size, then the copy task counted on", async () => {
    const size = 24 * 1024 * 1024;
    writeFileSync(join(fx.root, "debian.iso"), Buffer.alloc(size, 3));
    const h = await fx.connect();
    const { seen, done } = callWithProgress(h, "proxmox_upload", {
      path: "/nodes/pve1/storage/local/upload",
      file_path: join(fx.root, "debian.iso"),
      parameters: { content: "iso" },
      wait: true,
    });
    expect((await done).isError).toBeFalsy();
    expectIncreasing(seen);
    const sentFinal = seen.findIndex((p) => p.progress === size);
    expect(sentFinal).toBeGreaterThanOrEqual(0);
    expect(seen[sentFinal]!.total).toBe(size);
    // after the file: the wait, past the size, with no total, ending with the task's outcome
    const last = seen.at(-1)!;
    expect(last.progress).toBeGreaterThan(size);
    expect(last.total).toBeUndefined();
    expect(last.message).toBe("The task finished successfully.");
  });

  test("without a progressToken nothing is sent", async () => {
    writeFileSync(join(fx.root, "small.iso"), Buffer.alloc(1024, 3));
    const h = await fx.connect();
    let notified = 0;
    h.client.setNotificationHandler(
      (await import("@modelcontextprotocol/sdk/types.js")).ProgressNotificationSchema,
      () => void notified++,
    );
    const result = await h.call("proxmox_upload", {
      path: "/nodes/pve1/storage/local/upload",
      file_path: join(fx.root, "small.iso"),
      parameters: { content: "iso" },
    });
    expect(result.isError).toBeFalsy();
    expect(notified).toBe(0);
  });
});
