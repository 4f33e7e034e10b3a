import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { loadPolicyConfig } from "../../src/policy/config.ts";
import { firstMatch, parseRules, ruleMatches } from "../../src/policy/rules.ts";
import { haveSharedData, SCHEMA_FILES } from "../support/shared.ts";

test("defaults: writes allowed, no protection, no rules, no audit, VLAN guard on", () => {
  expect(loadPolicyConfig({})).toEqual({
    readOnly: false,
    protectedVmsFile: undefined,
    deny: [],
    allow: undefined,
    auditLog: undefined,
    vlanGuard: true,
    readOnlyAllowOutbound: false,
    readOnlyAllowGuestContent: false,
    confirm: [],
    confirmTimeoutS: 120,
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
  expect(policy).toMatchObject({
    readOnly: true,
    protectedVmsFile: "/etc/pve-mcp/protected.json",
    auditLog: "/var/log/pve-mcp.jsonl",
    vlanGuard: false,
  });
  expect(policy.deny.map((r) => r.text)).toEqual(["DELETE /**"]);
  expect(policy.allow?.map((r) => r.text)).toEqual(["POST /nodes/*/qemu/*/status/start"]);
});

test("a blank allow list counts as unset, not as 'allow nothing'", () => {
  expect(loadPolicyConfig({ PROXMOX_ALLOW: " \n" }).allow).toBeUndefined();
});

test("PROXMOX_CONFIRM takes rules like PROXMOX_DENY; its timeout is whole seconds", () => {
  const policy = loadPolicyConfig({
    PROXMOX_CONFIRM: "POST /nodes/*/qemu/*/status/stop\nDELETE /**",
    PROXMOX_CONFIRM_TIMEOUT_S: "30",
  });
  expect(policy.confirm.map((r) => r.text)).toEqual(["POST /nodes/*/qemu/*/status/stop", "DELETE /**"]);
  expect(policy.confirmTimeoutS).toBe(30);
});

test.each([
  ["PROXMOX_CONFIRM", "GET /version", "PROXMOX_CONFIRM: rule 'GET /version' names GET"],
  ["PROXMOX_CONFIRM", "STOP /nodes", "PROXMOX_CONFIRM: rule 'STOP /nodes' has method"],
  ["PROXMOX_CONFIRM_TIMEOUT_S", "0", "PROXMOX_CONFIRM_TIMEOUT_S: expected a whole number of seconds from 1 to 3600"],
  ["PROXMOX_CONFIRM_TIMEOUT_S", "2m", "PROXMOX_CONFIRM_TIMEOUT_S: expected a whole number"],
  ["PROXMOX_CONFIRM_TIMEOUT_S", "3601", "PROXMOX_CONFIRM_TIMEOUT_S: expected a whole number"],
])("%s=%j is refused", (name, value, message) => {
  expect(() => loadPolicyConfig({ [name]: value })).toThrow(message);
});

test("invalid values name their variable", () => {
  expect(() => loadPolicyConfig({ PROXMOX_READ_ONLY: "sometimes" })).toThrow(
    "PROXMOX_READ_ONLY: expected true or false",
  );
  expect(() => loadPolicyConfig({ PROXMOX_VLAN_GUARD: "2" })).toThrow("PROXMOX_VLAN_GUARD");
  expect(() => loadPolicyConfig({ PROXMOX_AUDIT_LOG: "/tmp/a\nb" })).toThrow(
    "PROXMOX_AUDIT_LOG: contains control characters",
  );
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

describe("the README's recommended PROXMOX_CONFIRM set", () => {
  const readme = readFileSync(join(import.meta.dir, "../../README.md"), "utf8");
  const value = /^PROXMOX_CONFIRM='([^']+)'$/m.exec(readme)?.[1] ?? "";
  const rules = parseRules("PROXMOX_CONFIRM", value);

  test.each([
    ["POST", "/nodes/pve1/qemu/100/status/stop"],
    ["POST", "/nodes/pve1/lxc/200/status/shutdown"],
    ["POST", "/nodes/pve1/qemu/100/status/reboot"],
    ["DELETE", "/nodes/pve1/qemu/100"],
    ["DELETE", "/nodes/pve1/storage/local/content/local:iso/x.iso"],
    ["POST", "/nodes/pve1/qemu/100/snapshot/before/rollback"],
    ["POST", "/nodes/pve1/lxc/200/migrate"],
    ["POST", "/nodes/pve1/migrateall"],
    ["POST", "/nodes/pve1/status"],
    ["PUT", "/access/acl"],
    ["POST", "/access/users"],
    ["POST", "/nodes/pve1/qemu/100/remote_migrate"],
    ["PUT", "/cluster/ha/resources/vm:100"],
    ["POST", "/cluster/ha/resources/vm:100/relocate"],
    ["POST", "/nodes/pve1/qemu/100/agent/shutdown"],
    ["POST", "/nodes/pve1/qemu/100/agent/exec"],
    ["POST", "/nodes/pve1/qemu/100/agent"],
    ["PUT", "/nodes/pve1/qemu/100/sendkey"],
    ["POST", "/nodes/pve1/qemu/100/monitor"],
    ["POST", "/nodes/pve1/lxc/200/status/suspend"],
    ["POST", "/nodes/pve1/suspendall"],
  ])("holds %s %s", (method, path) => {
    expect(firstMatch(rules, method, path)).toBeDefined();
  });

  test.each([
    ["POST", "/nodes/pve1/qemu/100/status/start"],
    ["POST", "/nodes/pve1/qemu/100/snapshot"],
    ["PUT", "/nodes/pve1/qemu/100/config"],
  ])("lets %s %s through without asking", (method, path) => {
    expect(firstMatch(rules, method, path)).toBeUndefined();
  });

  test.skipIf(!haveSharedData("the recommended rules against the PVE 9.1 schema"))(
    "every rule names at least one endpoint of the PVE 9.1 schema (no misspelt path)",
    () => {
      const text = readFileSync(SCHEMA_FILES["9.1"].file, "utf8");
      type Node = { path: string; info?: Record<string, unknown>; children?: Node[] };
      const endpoints: [string, string][] = [];
      const walk = (node: Node): void => {
        for (const method of Object.keys(node.info ?? {}))
          endpoints.push([method, node.path.replace(/\{[^}]+\}/g, "x")]);
        node.children?.forEach(walk);
      };
      (JSON.parse(text.slice(text.indexOf("["), text.lastIndexOf("]") + 1)) as Node[]).forEach(walk);
      expect(
        rules.filter((rule) => !endpoints.some(([method, path]) => ruleMatches(rule, method, path))).map((r) => r.text),
      ).toEqual([]);
    },
  );
});
