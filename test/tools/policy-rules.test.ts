// PROXMOX_DENY / PROXMOX_ALLOW and batches, through the real MCP client against the fake.
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileAccess } from "../../src/files/resolver.ts";
import type { Harness } from "../support/mcp.ts";
import { expectRefusal, policySuite, protectedFile, routeGuestActions } from "../support/policy.ts";

const suite = policySuite((fake) => {
  routeGuestActions(fake);
  fake.route("POST", "/nodes/{node}/execute", () => ({ data: [] }));
});

function open(env: Record<string, string>, files?: FileAccess): Promise<Harness> {
  return suite.open(env, files ? { files } : {});
}

describe("deny rules", () => {
  test("a matching write is refused and nothing is sent", async () => {
    const h = await open({ PROXMOX_DENY: "DELETE /nodes/**, POST /nodes/*/qemu/*/status/stop" });
    for (const [method, path] of [["DELETE", "/nodes/pve1/qemu/101"], ["POST", "/nodes/pve1/qemu/101/status/stop"]] as const) {
      const text = expectRefusal(await h.call("proxmox_request", { method, path }), "refused_rule");
      expect(text).toContain("in PROXMOX_DENY");
    }
    expect(suite.fake.apiRequests().length).toBe(0);
  });

  test("an encoded '/' does not dodge a deny rule, nor an allow list", async () => {
    const deny = await open({ PROXMOX_DENY: "* /nodes/*/qemu/**" });
    expectRefusal(await deny.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu%2F101/status/stop" }), "refused_rule");
    await deny.close();
    const allow = await open({ PROXMOX_ALLOW: "POST /nodes/*/qemu%2F101/status/stop" });
    expectRefusal(await allow.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu%2F101/status/stop" }), "refused_rule");
    expect(suite.fake.apiRequests().length).toBe(0);
  });

  test("a write no rule matches passes", async () => {
    const h = await open({ PROXMOX_DENY: "DELETE /nodes/**" });
    expect((await h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/101/status/start" })).isError).toBeFalsy();
    expect(suite.fake.apiRequests().map((r) => r.method)).toEqual(["POST"]);
  });

  test("reads are never subject to rules", async () => {
    const h = await open({ PROXMOX_DENY: "* /**" });
    expect((await h.call("proxmox_request", { method: "GET", path: "/version" })).isError).toBeFalsy();
    expect(suite.fake.apiRequests().length).toBe(1);
  });
});

describe("allow rules", () => {
  test("only matching writes pass", async () => {
    const h = await open({ PROXMOX_ALLOW: "POST /nodes/*/qemu/*/status/start\nPOST /nodes/*/qemu/*/status/shutdown" });
    const text = expectRefusal(await h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/101/status/stop" }), "refused_rule");
    expect(text).toContain("matches no rule in PROXMOX_ALLOW");
    expect(suite.fake.apiRequests().length).toBe(0);
    expect((await h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/101/status/start" })).isError).toBeFalsy();
    expect(suite.fake.apiRequests().length).toBe(1);
  });
});

describe("batches through /nodes/{node}/execute", () => {
  const execute = (commands: unknown) => ({
    method: "POST",
    path: "/nodes/pve1/execute",
    parameters: { commands: JSON.stringify(commands) },
  });

  test("a protected guest inside a batch is refused", async () => {
    const h = await open({ PROXMOX_PROTECTED_VMS_FILE: protectedFile() });
    const text = expectRefusal(await h.call("proxmox_request", execute([{ method: "POST", path: "qemu/100/status/stop" }])), "refused_protected_guest");
    expect(text).toContain("POST /nodes/pve1/qemu/100/status/stop refused");
    expect(suite.fake.apiRequests().length).toBe(0);
  });

  test("a denied call inside an allowed batch is refused", async () => {
    const h = await open({ PROXMOX_DENY: "DELETE /nodes/*/qemu/*" });
    const text = expectRefusal(await h.call("proxmox_request", execute([{ method: "DELETE", path: "qemu/101" }])), "refused_rule");
    expect(text).toContain("DELETE /nodes/pve1/qemu/101 refused by the rule");
    expect(suite.fake.apiRequests().length).toBe(0);
  });

  test("a batch that cannot be read is refused", async () => {
    const h = await open({ PROXMOX_DENY: "DELETE /access/**" });
    const result = await h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/execute", parameters: { commands: "[{" } });
    expect(expectRefusal(result, "refused_rule")).toContain("are not valid JSON");
    expect(suite.fake.apiRequests().length).toBe(0);
  });

  test("a harmless batch passes", async () => {
    const h = await open({ PROXMOX_PROTECTED_VMS_FILE: protectedFile() });
    const result = await h.call("proxmox_request", execute([{ method: "POST", path: "qemu/101/status/start" }, { method: "GET", path: "qemu/100/status/current" }]));
    expect(result.isError).toBeFalsy();
    expect(suite.fake.apiRequests().map((r) => `${r.method} ${r.path}`)).toEqual(["POST /nodes/pve1/execute"]);
  });
});

describe("uploads go through the same gate", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "pve-mcp-policy-upload-")));
  chmodSync(root, 0o700);
  const iso = join(root, "tiny.iso");
  writeFileSync(iso, "not really an iso");

  test("a deny rule on the upload endpoint refuses proxmox_upload before anything is sent", async () => {
    const h = await open({ PROXMOX_DENY: "POST /nodes/*/storage/*/upload" }, new FileAccess({ roots: [root] }));
    const result = await h.call("proxmox_upload", { path: "/nodes/pve1/storage/local/upload", file_path: iso, parameters: { content: "iso" } });
    expect(expectRefusal(result, "refused_rule")).toContain("POST /nodes/pve1/storage/local/upload refused by the rule");
    expect(suite.fake.apiRequests().length).toBe(0);
  });

  test("an allow list without the upload endpoint refuses it too", async () => {
    const h = await open({ PROXMOX_ALLOW: "POST /nodes/*/qemu/*/status/start" }, new FileAccess({ roots: [root] }));
    const result = await h.call("proxmox_upload", { path: "/nodes/pve1/storage/local/upload", file_path: iso, parameters: { content: "iso" } });
    expectRefusal(result, "refused_rule");
    expect(suite.fake.apiRequests().length).toBe(0);
  });
});
