import { expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { loadPolicyConfig } from "../../src/policy/config.ts";

test("defaults: writes allowed, no protection, no rules, no audit, VLAN guard on", () => {
  expect(loadPolicyConfig({})).toEqual({
    readOnly: false,
    protectedVmsFile: undefined,
    deny: [],
    allow: undefined,
    auditLog: undefined,
    vlanGuard: true,
  });
});

test("every setting is read", () => {
  const policy = loadPolicyConfig({
    PROXMOX_READ_ONLY: "yes",
    PROXMOX_PROTECTED_VMS_FILE: " /etc/pve-mcp/protected.json ",
    PROXMOX_DENY: "DELETE /**",
    PROXMOX_ALLOW: "POST /nodes/*/qemu/*/status/start",
    PROXMOX_AUDIT_LOG: "/var/log/pve-mcp.jsonl",
    PROXMOX_VLAN_GUARD: "off",
  });
  expect(policy).toMatchObject({ readOnly: true, protectedVmsFile: "/etc/pve-mcp/protected.json", auditLog: "/var/log/pve-mcp.jsonl", vlanGuard: false });
  expect(policy.deny.map((r) => r.text)).toEqual(["DELETE /**"]);
  expect(policy.allow?.map((r) => r.text)).toEqual(["POST /nodes/*/qemu/*/status/start"]);
});

test("a blank allow list counts as unset, not as 'allow nothing'", () => {
  expect(loadPolicyConfig({ PROXMOX_ALLOW: " \n" }).allow).toBeUndefined();
});

test("invalid values name their variable", () => {
  expect(() => loadPolicyConfig({ PROXMOX_READ_ONLY: "sometimes" })).toThrow("PROXMOX_READ_ONLY: expected true or false");
  expect(() => loadPolicyConfig({ PROXMOX_VLAN_GUARD: "2" })).toThrow("PROXMOX_VLAN_GUARD");
  expect(() => loadPolicyConfig({ PROXMOX_AUDIT_LOG: "/tmp/a\nb" })).toThrow("PROXMOX_AUDIT_LOG: contains control characters");
});

test("loadConfig carries the policy", () => {
  const config = loadConfig({
    PROXMOX_URL: "https://pve.example.com:8006",
    PROXMOX_TOKEN_ID: "mcp@pve!agent",
    PROXMOX_TOKEN_SECRET: "5a8c1d3e-7f42-4b9e-9c1a-d2e3f4a5b6c7",
    PROXMOX_READ_ONLY: "true",
  });
  expect(config.policy.readOnly).toBe(true);
});
