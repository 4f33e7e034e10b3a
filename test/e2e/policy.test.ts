// The policy as the built server applies it: settings read at startup, the gate wired into the
// client, read-only mode into the tool list.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { cleanEnv, connectStdio, ensureBuilt, runToExit, spawnRaw, type StdioSession } from "../support/stdio.ts";

let fake: FakeProxmox;
const sessions: StdioSession[] = [];
const dir = mkdtempSync(join(tmpdir(), "pve-mcp-e2e-policy-"));

/** Stderr arrives on its own pipe; wait (bounded) until it holds `text`. */
async function stderrContains(s: StdioSession, text: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!s.stderr().includes(text) && Date.now() < deadline) await Bun.sleep(10);
  expect(s.stderr()).toContain(text);
}

async function session(env: Record<string, string>): Promise<StdioSession> {
  const s = await connectStdio(cleanEnv(fake.env(env)));
  sessions.push(s);
  return s;
}

beforeAll(async () => {
  ensureBuilt();
  fake = await FakeProxmox.start();
});
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await fake?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("startup", () => {
  test.each([
    ["an invalid deny rule", { PROXMOX_DENY: "DELETE /nodes/**, GET /version" }, "PROXMOX_DENY: rule 'GET /version' names GET"],
    ["an invalid allow rule", { PROXMOX_ALLOW: "POST /nodes/pve*" }, "PROXMOX_ALLOW: rule 'POST /nodes/pve*'"],
    ["an audit log in a missing directory", { PROXMOX_AUDIT_LOG: join(dir, "missing", "audit.jsonl") }, "PROXMOX_AUDIT_LOG: cannot open"],
    ["a bad PROXMOX_READ_ONLY", { PROXMOX_READ_ONLY: "maybe" }, "PROXMOX_READ_ONLY: expected true or false"],
  ])("%s stops startup with one clear line", async (_label, env, message) => {
    const result = await runToExit(cleanEnv(fake.env(env)));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toStartWith(`proxmox-ve-mcp: configuration error: ${message}`);
  });
});

describe("read-only mode", () => {
  test("lists no writing tool and says so on stderr", async () => {
    const s = await session({ PROXMOX_READ_ONLY: "true" });
    const names = (await s.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("proxmox_get");
    expect(names).not.toContain("proxmox_request");
    expect(names).not.toContain("proxmox_upload");
    await stderrContains(s, "read-only mode (PROXMOX_READ_ONLY=true)");
  });
});

describe("protection file", () => {
  test("a malformed file does not stop startup, is reported, and refuses every write", async () => {
    const file = join(dir, "bad.json");
    writeFileSync(file, '{"protected_vms": [{"vmid": "abc"}]}');
    const before = fake.apiRequests().length;
    const s = await session({ PROXMOX_PROTECTED_VMS_FILE: file });
    await stderrContains(s, `PROXMOX_PROTECTED_VMS_FILE ${file} is unusable: protected_vms[0].vmid must be a guest id`);
    const result = (await s.client.callTool({
      name: "proxmox_request",
      arguments: { method: "POST", path: "/nodes/pve1/qemu/101/status/start" },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { error: { code: string } }).error.code).toBe("refused_protected_guest");
    expect(fake.apiRequests().length).toBe(before);
  });

  test("an empty list starts with a warning", async () => {
    const file = join(dir, "empty.json");
    writeFileSync(file, '{"protected_vms": []}');
    const s = await session({ PROXMOX_PROTECTED_VMS_FILE: file });
    await stderrContains(s, `warn: PROXMOX_PROTECTED_VMS_FILE ${file} lists no guests`);
  });
});

test("the audit log is created 0600 at startup", async () => {
  const path = join(dir, "audit.jsonl");
  const s = await session({ PROXMOX_AUDIT_LOG: path });
  await s.client.listTools();
  expect(statSync(path).mode & 0o777).toBe(0o600);
});

test("a raw __proto__ key in parameters is refused by name, and nothing reaches Proxmox", async () => {
  const raw = spawnRaw(cleanEnv(fake.env()));
  try {
    raw.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    });
    await raw.response(1);
    raw.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const call = JSON.parse(
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"proxmox_request","arguments":{"method":"POST","path":"/nodes/pve1/qemu/101/status/stop","parameters":{"__proto__":{"vmid":100},"timeout":5}}}}',
    ) as Record<string, unknown>;
    expect(JSON.stringify(call)).toContain('"__proto__":{"vmid":100}');
    const before = fake.apiRequests().length;
    raw.send(call);
    const result = (await raw.response(2)).result as CallToolResult;
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { error: { code: string } }).error.code).toBe("invalid_parameters");
    expect((result.content[0] as { text: string }).text).toContain("parameter '__proto__' is refused");
    expect(fake.apiRequests().length).toBe(before);
  } finally {
    raw.kill();
  }
});
