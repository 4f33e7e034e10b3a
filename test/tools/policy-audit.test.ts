// PROXMOX_AUDIT_LOG: one JSON line per write attempt and per refusal, mode 0600, never the token.
import { expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FAKE_TOKEN_ID, FAKE_TOKEN_SECRET } from "../fake/pve-fake.ts";
import { FileAccess } from "../../src/files/resolver.ts";
import { installFileRoutes } from "../fake/upload.ts";
import { expectRefusal, policySuite, protectedFile, routeGuestActions } from "../support/policy.ts";

const suite = policySuite((fake) => {
  routeGuestActions(fake);
  installFileRoutes(fake);
  fake.route("PUT", "/nodes/{node}/qemu/{vmid}/config", () => ({ status: 500, message: "VM 101 is locked (backup)" }));
});

function auditPath(): string {
  return join(mkdtempSync(join(tmpdir(), "pve-mcp-audit-")), "audit.jsonl");
}

function lines(path: string): Record<string, any>[] {
  return readFileSync(path, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, any>);
}

function expectNoToken(path: string): void {
  const text = readFileSync(path, "utf8");
  for (const form of [FAKE_TOKEN_SECRET, FAKE_TOKEN_ID, encodeURIComponent(FAKE_TOKEN_ID), encodeURIComponent(FAKE_TOKEN_SECRET)]) {
    expect(text).not.toContain(form);
  }
}

test("sent, failed and refused writes each give one line; reads give none", async () => {
  const path = auditPath();
  const harness = await suite.open({
    PROXMOX_AUDIT_LOG: path,
    PROXMOX_DENY: "DELETE /nodes/**",
    PROXMOX_PROTECTED_VMS_FILE: protectedFile(),
  });
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(readFileSync(path, "utf8")).toBe("");

  await harness.call("proxmox_get", { path: "/version" });
  const started = await harness.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/101/status/start", parameters: { timeout: 30 } });
  expect(started.isError).toBeFalsy();
  const failed = await harness.call("proxmox_request", {
    method: "PUT",
    path: "/nodes/pve1/qemu/101/config",
    parameters: { cipassword: "correct-horse-battery", memory: 2048, sshkeys: "ssh-ed25519 AAAAC3 me@host" },
  });
  expect(failed.isError).toBe(true);
  expectRefusal(await harness.call("proxmox_request", { method: "DELETE", path: "/nodes/pve1/qemu/101" }), "refused_rule");
  expectRefusal(await harness.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/100/status/stop" }), "refused_protected_guest");

  const entries = lines(path);
  expect(entries.map((e) => `${e.method} ${e.path} ${e.outcome.result}`)).toEqual([
    "POST /nodes/pve1/qemu/101/status/start ok",
    "PUT /nodes/pve1/qemu/101/config failed",
    "DELETE /nodes/pve1/qemu/101 refused",
    "POST /nodes/pve1/qemu/100/status/stop refused",
  ]);
  const [sent, fail, denied, guarded] = entries as [Record<string, any>, Record<string, any>, Record<string, any>, Record<string, any>];
  expect(sent.tool).toBe("proxmox_request");
  expect(Date.parse(sent.time)).toBeGreaterThan(Date.now() - 60_000);
  expect(sent.params).toEqual({ timeout: 30 });
  expect(sent.outcome.status).toBe(200);
  expect(sent.outcome.upid).toMatch(/^UPID:pve1:[0-9A-F]{8}:[0-9A-F]{8}:[0-9A-F]{8}:qmstart:101:/);
  expect(fail.params).toEqual({ cipassword: "[redacted]", memory: 2048, sshkeys: "[redacted]" });
  expect(fail.outcome).toMatchObject({ result: "failed", status: 500, error: expect.stringContaining("VM 101 is locked") });
  expect(denied.outcome).toMatchObject({ result: "refused", refusal: "refused_rule" });
  expect(guarded.outcome).toMatchObject({ result: "refused", refusal: "refused_protected_guest" });
  expect(readFileSync(path, "utf8")).not.toContain("correct-horse-battery");
  expectNoToken(path);
  expect(statSync(path).mode & 0o777).toBe(0o600);
});

test("read-only refusals are recorded too", async () => {
  const path = auditPath();
  const harness = await suite.open({ PROXMOX_AUDIT_LOG: path, PROXMOX_READ_ONLY: "1" }, { readOnly: false });
  expectRefusal(await harness.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/101/status/start" }), "refused_read_only");
  expect(lines(path).map((e) => e.outcome)).toEqual([{ result: "refused", refusal: "refused_read_only", error: expect.stringContaining("PROXMOX_READ_ONLY") }]);
  expect(suite.fake.apiRequests().length).toBe(0);
});

test("a token sent as a parameter value is redacted from the line", async () => {
  const path = auditPath();
  const harness = await suite.open({ PROXMOX_AUDIT_LOG: path });
  await harness.call("proxmox_request", {
    method: "POST",
    path: "/nodes/pve1/qemu/101/status/start",
    parameters: { note: `PVEAPIToken=${FAKE_TOKEN_ID}=${FAKE_TOKEN_SECRET}` },
  });
  expect(lines(path)).toHaveLength(1);
  expectNoToken(path);
});

test("when the audit log cannot be written, writes are refused and nothing is sent", async () => {
  const path = auditPath();
  const harness = await suite.open({ PROXMOX_AUDIT_LOG: path });
  rmSync(join(path, ".."), { recursive: true });
  const text = expectRefusal(await harness.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/101/status/start" }), "refused_audit");
  expect(text).toContain("cannot be written (ENOENT)");
  expect(suite.fake.apiRequests().length).toBe(0);
  expect((await harness.call("proxmox_get", { path: "/version" })).isError).toBeFalsy();
});

test("an upload's line carries the file, its size and the UPID of the copy task", async () => {
  const path = auditPath();
  const root = realpathSync(mkdtempSync(join(tmpdir(), "pve-mcp-audit-files-")));
  chmodSync(root, 0o700);
  writeFileSync(join(root, "small.iso"), "iso!");
  try {
    const harness = await suite.open({ PROXMOX_AUDIT_LOG: path }, { files: new FileAccess({ roots: [root] }) });
    const result = await harness.call("proxmox_upload", {
      path: "/nodes/pve1/storage/local/upload",
      file_path: join(root, "small.iso"),
      parameters: { content: "iso" },
    });
    expect(result.isError).toBeFalsy();
    const [entry] = lines(path);
    expect(entry!.tool).toBe("proxmox_upload");
    expect(entry!.outcome.status).toBe(200);
    expect(entry!.outcome.upid).toStartWith("UPID:pve1:");
    expect(JSON.stringify(entry)).toContain("small.iso");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
