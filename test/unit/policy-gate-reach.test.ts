// The gate on forms Proxmox accepts and the first policy missed: NUL lists, unreadable lists,
// actions on guests chosen by storage, pool, HA group or ACL path, and batches carrying them.
import { describe, expect, test } from "bun:test";
import { loadPolicyConfig } from "../../src/policy/config.ts";
import { expandCommands, PolicyGate } from "../../src/policy/gate.ts";
import { silentLogger } from "../../src/log.ts";
import type { WriteIntent } from "../../src/proxmox/client.ts";
import { LocalRefusal } from "../../src/proxmox/errors.ts";
import type { Params } from "../../src/proxmox/params.ts";

const PROTECTED = JSON.stringify({
  protected_vms: [
    { vmid: 100, name: "mcp-host", reason: "the VM this server runs in" },
    { vmid: 105, name: "dns", reason: "DNS for the office" },
  ],
});

function gate(env: Record<string, string> = {}): PolicyGate {
  const policy = loadPolicyConfig({ PROXMOX_PROTECTED_VMS_FILE: "/etc/pve-mcp/protected.json", ...env });
  return new PolicyGate({ policy, log: silentLogger, redact: (t) => t, readFile: () => PROTECTED });
}

function intent(method: WriteIntent["method"], path: string, params: Params = {}): WriteIntent {
  return { tool: "proxmox_request", method, path, params };
}

/** Runs every check the gate makes before a request leaves (the VLAN guard is off: no client needed). */
function refusal(g: PolicyGate, i: WriteIntent): LocalRefusal | undefined {
  try {
    for (const each of expandCommands(i)) {
      if (each.method === "GET") g.checkRead(each);
      else g.checkLocal(each);
    }
  } catch (error) {
    if (error instanceof LocalRefusal) return error;
    throw error;
  }
  return undefined;
}

describe("lists split as Proxmox splits them", () => {
  test.each([
    [
      "vms with a NUL",
      "POST",
      "/nodes/pve1/startall",
      { vms: "101\u0000100" },
      "protected guest 100 (mcp-host) through parameter vms",
    ],
    [
      "vzdump vmid with a NUL",
      "POST",
      "/nodes/pve1/vzdump",
      { vmid: "101\u0000105" },
      "protected guest 105 (dns) through parameter vmid",
    ],
    ["pool membership with a NUL", "PUT", "/pools/prod", { vms: "101\u0000100" }, "through parameter vms"],
    [
      "bulk vms array item with a NUL",
      "POST",
      "/cluster/bulk-action/guest/shutdown",
      { vms: [101, "102\u0000100"] },
      "through parameter vms",
    ],
    [
      "HA rule resources with a NUL",
      "POST",
      "/cluster/ha/rules",
      { rule: "r", type: "node-affinity", resources: "vm:101\u0000ct:100", nodes: "pve1" },
      "the HA resource in parameter resources",
    ],
    ["a leading-zero id", "POST", "/nodes/pve1/stopall", { vms: "0100" }, "through parameter vms"],
    ["Unicode whitespace", "POST", "/nodes/pve1/stopall", { vms: "101\u00a0100" }, "through parameter vms"],
  ] as [string, WriteIntent["method"], string, Params, string][])("%s", (_label, method, path, params, via) => {
    const error = refusal(gate(), intent(method, path, params))!;
    expect(error.code).toBe("refused_protected_guest");
    expect(error.message).toContain(via);
  });

  test.each([
    ["an item that is no id", { vms: "101,1O0" }, '"1O0" in parameter vms'],
    ["a NUL item with a space", { vms: "101\u0000 100" }, '" 100" in parameter vms'],
    ["commas inside a NUL list", { vms: "101,100\u0000102" }, '"101,100" in parameter vms'],
    ["a zero-width space", { vms: "101\u200b100" }, '"101\u200b100" in parameter vms'],
    ["an exclusion that cannot be read", { all: 1, exclude: "100;10S" }, '"10S" in parameter exclude'],
  ] as [string, Params, string][])("%s fails closed", (_label, params, shown) => {
    const error = refusal(gate(), intent("POST", "/nodes/pve1/stopall", params))!;
    expect(error.code).toBe("refused_protected_guest");
    expect(error.message).toContain(`it names guests in a form the local policy cannot read (${shown})`);
    expect(error.message).toContain("send plain ids such as vms=101,102");
  });

  test("without protected guests nothing needs reading", () => {
    const policy = loadPolicyConfig({});
    const g = new PolicyGate({ policy, log: silentLogger, redact: (t) => t });
    expect(refusal(g, intent("POST", "/nodes/pve1/stopall", { vms: "101,1O0" }))).toBeUndefined();
  });

  test("inside a batch too", () => {
    const commands = JSON.stringify([{ method: "POST", path: "startall", args: { vms: "101\u0000100" } }]);
    const error = refusal(gate(), intent("POST", "/nodes/pve1/execute", { commands }))!;
    expect(error.message).toContain("POST /nodes/pve1/startall refused: it touches protected guest 100");
    const unreadable = JSON.stringify([{ method: "POST", path: "stopall", args: { vms: "101\u0000 100" } }]);
    expect(refusal(gate(), intent("POST", "/nodes/pve1/execute", { commands: unreadable }))?.message).toContain(
      "cannot read",
    );
  });
});

describe("actions on guests chosen by something other than an id", () => {
  test.each([
    [
      "prune every guest's backups",
      "DELETE",
      "/nodes/pve1/storage/pbs/prunebackups",
      { "prune-backups": "keep-last=1" },
    ],
    ["destroy a ZFS pool", "DELETE", "/nodes/pve1/disks/zfs/tank", { "cleanup-disks": 1 }],
    ["change an HA group", "PUT", "/cluster/ha/groups/prod", { nodes: "pve2" }],
    ["ACL on /", "PUT", "/access/acl", { path: "/", roles: "Administrator", users: "eve@pve" }],
    ["ACL on a pool", "PUT", "/access/acl", { path: "//pool/prod/", roles: "PVEVMAdmin", users: "eve@pve" }],
  ] as [string, WriteIntent["method"], string, Params][])(
    "%s is refused while guests are protected",
    (_label, method, path, params) => {
      const error = refusal(gate(), intent(method, path, params))!;
      expect(error.code).toBe("refused_protected_guest");
      expect(error.message).toContain(
        "would also touch protected guest 100 (mcp-host). Reason: the VM this server runs in; 105 (dns)",
      );
    },
  );

  test("prune with vmid touches that guest only", () => {
    const path = "/nodes/pve1/storage/pbs/prunebackups";
    expect(refusal(gate(), intent("DELETE", path, { vmid: 101 }))).toBeUndefined();
    expect(refusal(gate(), intent("DELETE", path, { vmid: 105 }))?.message).toContain(
      "protected guest 105 (dns) through parameter vmid",
    );
  });

  test("an allow rule that spells out the endpoint lets the action through; a broad one does not", () => {
    const prune = intent("DELETE", "/nodes/pve1/storage/pbs/prunebackups");
    const broad = refusal(gate({ PROXMOX_ALLOW: "* /**, DELETE /nodes/**, DELETE /nodes/*/storage/*/*" }), prune)!;
    expect(broad.code).toBe("refused_protected_guest");
    expect(broad.message).toContain(
      "ask the operator to allow exactly this endpoint in PROXMOX_ALLOW (e.g. 'DELETE /nodes/*/storage/*/prunebackups')",
    );
    expect(refusal(gate({ PROXMOX_ALLOW: "DELETE /nodes/*/storage/*/prunebackups" }), prune)).toBeUndefined();
    expect(refusal(gate({ PROXMOX_ALLOW: "* /nodes/pve1/storage/pbs/prunebackups" }), prune)).toBeUndefined();
    expect(refusal(gate({ PROXMOX_ALLOW: "DELETE /nodes/pve2/storage/pbs/prunebackups" }), prune)?.code).toBe(
      "refused_rule",
    );
  });

  test("the explicit allow never lets a named protected guest through", () => {
    const g = gate({ PROXMOX_ALLOW: "POST /nodes/*/stopall" });
    expect(refusal(g, intent("POST", "/nodes/pve1/stopall"))).toBeUndefined();
    expect(refusal(g, intent("POST", "/nodes/pve1/stopall", { vms: "101,100" }))?.message).toContain(
      "through parameter vms",
    );
  });

  test("stopping a protected guest's task is refused", () => {
    const upid = "UPID:pve1:00001234:00005678:65A0B0C0:qmstart:100:root@pam:";
    const error = refusal(gate(), intent("DELETE", `/nodes/pve1/tasks/${encodeURIComponent(upid)}`))!;
    expect(error.message).toContain(`protected guest 100 (mcp-host) through the task ${upid} in the path`);
  });
});

describe("reads inside a batch", () => {
  test("a batch carrying a read inside a protected guest is refused", () => {
    const commands = JSON.stringify([
      { method: "GET", path: "qemu/100/agent/file-read", args: { file: "/etc/shadow" } },
    ]);
    const error = refusal(gate(), intent("POST", "/nodes/pve1/execute", { commands }))!;
    expect(error.code).toBe("refused_protected_guest");
    expect(error.message).toContain(
      "GET /nodes/pve1/qemu/100/agent/file-read refused: it reads a file inside the guest",
    );
  });

  test("ordinary reads in a batch still pass", () => {
    const commands = JSON.stringify([{ method: "GET", path: "qemu/100/status/current" }]);
    expect(refusal(gate(), intent("POST", "/nodes/pve1/execute", { commands }))).toBeUndefined();
  });
});
