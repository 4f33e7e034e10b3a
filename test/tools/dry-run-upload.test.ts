// proxmox_upload with dry_run: every local check of a real upload, the multipart fields and
// size that would go out and the verdicts; the file is opened, never read, and Proxmox is never
// reached.
import { describe, expect, test } from "bun:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFileFixture } from "../support/files.ts";
import { textOf, type Harness } from "../support/mcp.ts";
import { policyGate, protectedFile } from "../support/policy.ts";

const fx = useFileFixture("pve-mcp-dryrun-upload-");
const UPLOAD = "/nodes/pve1/storage/local/upload";

interface UploadDryRun {
  dry_run: true;
  would_send: boolean;
  request?: { method: string; url: string; multipart: Record<string, string>; file: { path: string; bytes: number } };
  stored_name?: string;
  volid?: string;
  policy: { verdict: string; code?: string; confirmation?: string };
}

function reportOf(result: CallToolResult): UploadDryRun {
  expect(result.isError).toBeFalsy();
  const report = result.structuredContent as unknown as UploadDryRun;
  expect(JSON.parse(textOf(result))).toEqual(report);
  return report;
}

/** The dry-run report of uploading `filePath` (an ISO) to `path`. */
async function dryRun(h: Harness, filePath: string, path = UPLOAD): Promise<UploadDryRun> {
  return reportOf(
    await h.call("proxmox_upload", { path, file_path: filePath, parameters: { content: "iso" }, dry_run: true }),
  );
}

describe("proxmox_upload with dry_run", () => {
  test("an allowed upload: the fields, the file's size, the stored name and volid; nothing sent", async () => {
    writeFileSync(join(fx.root, "my debian.iso"), Buffer.alloc(5000, 1));
    const h = await fx.connect();
    const report = await dryRun(h, join(fx.root, "my debian.iso"));
    expect(report.would_send).toBe(true);
    expect(report.request).toMatchObject({
      method: "POST",
      url: `${fx.fake.url}/api2/json${UPLOAD}`,
      file: { path: join(fx.root, "my debian.iso"), bytes: 5000 },
    });
    expect(report.request!.multipart).toMatchObject({
      content: "iso",
      "checksum-algorithm": "sha256",
      filename: "my debian.iso",
    });
    expect(report.request!.multipart.checksum).toContain("computed when sent");
    expect(report.stored_name).toBe("my_debian.iso");
    expect(report.volid).toBe("local:iso/my_debian.iso");
    expect(report.policy.verdict).toBe("allowed");
    expect(fx.fake.apiRequests()).toEqual([]);
  });

  test.each([
    ["a file outside the roots", () => "/etc/hostname", "refused_file_path"],
    ["a path that is not an upload endpoint", () => "<ok>", "invalid_path"],
  ])("%s is reported as refused, nothing sent", async (_name, file, code) => {
    writeFileSync(join(fx.root, "ok.iso"), "x");
    const h = await fx.connect();
    const given = file() === "<ok>" ? join(fx.root, "ok.iso") : file();
    const report = await dryRun(h, given, code === "invalid_path" ? "/nodes/pve1/storage/local/content" : UPLOAD);
    expect(report.would_send).toBe(false);
    expect(report.policy.code).toBe(code);
    expect(fx.fake.apiRequests()).toEqual([]);
  });

  test("the policy's verdict: a deny rule refuses, a confirmation rule holds it; nobody is asked", async () => {
    writeFileSync(join(fx.root, "ok.iso"), "x");
    for (const [env, verdict] of [
      [{ PROXMOX_DENY: "POST /nodes/*/storage/*/upload" }, "refused"],
      [{ PROXMOX_CONFIRM: "POST /nodes/*/storage/*/upload" }, "needs_confirmation"],
      [{ PROXMOX_PROTECTED_VMS_FILE: protectedFile() }, "allowed"],
    ] as const) {
      const h = await fx.connect({ gate: policyGate(env) });
      const report = await dryRun(h, join(fx.root, "ok.iso"));
      expect(report.policy.verdict).toBe(verdict);
      await h.close();
    }
    expect(fx.fake.apiRequests()).toEqual([]);
  });
});
