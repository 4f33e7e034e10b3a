import { describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../../src/config.ts";
import { AuditFile, auditLine, clientLogLine, isSecretName, REDACTED, redactParams } from "../../src/policy/audit.ts";
import type { WriteIntent } from "../../src/proxmox/client.ts";
import { createRedactor } from "../../src/proxmox/redact.ts";

const TOKEN_ID = "audit@pve!probe";
const SECRET = "a0d17000-7f42-4b9e-9c1a-5ecre7c0ffee";
const redact = createRedactor(TOKEN_ID, SECRET);

describe("secret-looking parameters", () => {
  test.each([
    "password",
    "cipassword",
    "secret",
    "key",
    "token",
    "sshkeys",
    "encryption-key",
    "client-key",
    "eab-hmac-key",
    "keyring",
    "lock-token",
    "confirmation-password",
    "vncticket",
    "header",
    "otp",
    "totp",
    "master-pubkey",
  ])("%p is redacted", (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  test.each([
    "keyboard",
    "authid",
    "tokenid",
    "token-coefficient",
    "generate-password",
    "vmid",
    "net0",
    "name",
    "data",
    "description",
  ])("%p is kept", (name) => {
    expect(isSecretName(name)).toBe(false);
  });

  test("ACME plugin data holds credentials", () => {
    expect(isSecretName("data", "/cluster/acme/plugins/dns1")).toBe(true);
  });

  test("redactParams replaces secret values, arrays and secrets inside property strings", () => {
    expect(
      redactParams({
        vmid: 100,
        cipassword: "hunter22",
        sshkeys: ["ssh-ed25519 AAAA"],
        net0: "virtio,bridge=vmbr0,tag=5",
        rule: "user=me,password=hunter22,keep=1",
        nested: "a=1,api-token=abc,secret=x",
      }),
    ).toEqual({
      vmid: 100,
      cipassword: REDACTED,
      sshkeys: REDACTED,
      net0: "virtio,bridge=vmbr0,tag=5",
      rule: `user=me,password=${REDACTED},keep=1`,
      nested: `a=1,api-token=${REDACTED},secret=${REDACTED}`,
    });
  });
});

describe("auditLine", () => {
  const time = new Date("2025-06-01T12:00:00.000Z");
  const intent: WriteIntent = {
    tool: "proxmox_request",
    method: "PUT",
    path: "/nodes/pve1/qemu/100/config",
    params: { cipassword: "hunter22-long", memory: 2048, description: SECRET },
  };

  test("a sent write: time, tool, method, path, redacted params, status and UPID", () => {
    const upid = `UPID:pve1:00001F40:000186A0:68DB1F00:qmconfig:100:${TOKEN_ID}:`;
    const line = JSON.parse(auditLine(intent, { status: 200, upid }, time, redact));
    expect(line).toEqual({
      time: "2025-06-01T12:00:00.000Z",
      tool: "proxmox_request",
      method: "PUT",
      path: "/nodes/pve1/qemu/100/config",
      params: { cipassword: REDACTED, memory: 2048, description: "[redacted secret]" },
      outcome: {
        result: "ok",
        status: 200,
        upid: "UPID:pve1:00001F40:000186A0:68DB1F00:qmconfig:100:[redacted token id]:",
      },
    });
  });

  test("a refusal carries its code; an error text never echoes a secret parameter", () => {
    const line = JSON.parse(
      auditLine(intent, { refusal: "refused_rule", error: "PUT refused; cipassword hunter22-long" }, time, redact),
    );
    expect(line.outcome).toEqual({
      result: "refused",
      refusal: "refused_rule",
      error: `PUT refused; cipassword ${REDACTED}`,
    });
  });

  test("HTTP failures and transport failures are 'failed'", () => {
    expect(JSON.parse(auditLine(intent, { status: 500, error: "boom" }, time, redact)).outcome.result).toBe("failed");
    expect(JSON.parse(auditLine(intent, { error: "connection refused" }, time, redact)).outcome.result).toBe("failed");
  });

  test("uploads are described by name and size", () => {
    const upload: WriteIntent = {
      ...intent,
      method: "POST",
      path: "/nodes/pve1/storage/local/upload",
      params: { content: "iso" },
      upload: { fileName: "a.iso", bytes: 5 },
    };
    expect(JSON.parse(auditLine(upload, { status: 200 }, time, redact)).upload).toEqual({
      fileName: "a.iso",
      bytes: 5,
    });
  });

  test("over HTTP the client's label comes right after the time; stdio lines have no client", () => {
    const fromAlice: WriteIntent = { ...intent, caller: { label: "alice", readOnly: false } };
    const line = auditLine(fromAlice, { status: 200 }, time, redact);
    expect(Object.keys(JSON.parse(line)).slice(0, 3)).toEqual(["time", "client", "tool"]);
    expect(JSON.parse(line).client).toBe("alice");
    expect(JSON.parse(auditLine(intent, { status: 200 }, time, redact))).not.toHaveProperty("client");
  });

  test.each([
    [{ status: 200 }, "client alice: proxmox_request PUT /nodes/pve1/qemu/100/config ok (200)"],
    [{ status: 500, error: "boom" }, "client alice: proxmox_request PUT /nodes/pve1/qemu/100/config failed (500)"],
    [{ error: "connection refused" }, "client alice: proxmox_request PUT /nodes/pve1/qemu/100/config failed"],
    [
      { refusal: "refused_rule", error: "x" },
      "client alice: proxmox_request PUT /nodes/pve1/qemu/100/config refused (refused_rule)",
    ],
  ])("the stderr line for %j names the client and no parameter", (outcome, text) => {
    expect(clientLogLine({ ...intent, caller: { label: "alice", readOnly: false } }, outcome)).toBe(text);
    expect(clientLogLine(intent, outcome)).toBeUndefined();
  });

  test("the token never appears, whatever the parameters hold", () => {
    const leaky: WriteIntent = {
      ...intent,
      params: { comment: `PVEAPIToken=${TOKEN_ID}=${SECRET}`, other: encodeURIComponent(SECRET) },
    };
    const line = auditLine(leaky, { status: 200 }, time, redact);
    for (const form of [SECRET, TOKEN_ID, encodeURIComponent(SECRET), encodeURIComponent(TOKEN_ID)])
      expect(line).not.toContain(form);
  });
});

describe("AuditFile", () => {
  const dir = mkdtempSync(join(tmpdir(), "pve-mcp-audit-"));

  test("creates the file with mode 0600 and appends lines", () => {
    const path = join(dir, "new.log");
    const file = new AuditFile(path);
    expect(file.open()).toBeUndefined();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    file.append('{"a":1}');
    file.append('{"b":2}');
    expect(readFileSync(path, "utf8")).toBe('{"a":1}\n{"b":2}\n');
    expect(file.problem()).toBeUndefined();
  });

  test("keeps what an existing file holds and warns when others can read it", () => {
    const path = join(dir, "existing.log");
    writeFileSync(path, "old\n");
    chmodSync(path, 0o644);
    const file = new AuditFile(path);
    expect(file.open()).toMatch(/mode 0644, so other users can read it; chmod 600/);
    file.append("new");
    expect(readFileSync(path, "utf8")).toBe("old\nnew\n");
  });

  test("a directory that does not exist is a ConfigError", () => {
    expect(() => new AuditFile(join(dir, "missing", "a.log")).open()).toThrow(ConfigError);
    expect(new AuditFile(join(dir, "missing", "a.log")).problem()).toBe("ENOENT");
  });

  test("a symbolic link is not followed", () => {
    const target = join(dir, "target.log");
    writeFileSync(target, "");
    const link = join(dir, "link.log");
    symlinkSync(target, link);
    expect(() => new AuditFile(link).open()).toThrow(/symbolic link/);
  });
});
