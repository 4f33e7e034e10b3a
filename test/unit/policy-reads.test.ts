// Reads that reach beyond the cluster's state: the table, the gate's decisions, and a walk of
// the PVE 9.1 schema that finds every candidate and makes sure each is classified.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { loadPolicyConfig } from "../../src/policy/config.ts";
import { PolicyGate } from "../../src/policy/gate.ts";
import { AGENT_INFO_READS, judgeRead, READ_TABLE, RETIRED_READS } from "../../src/policy/reads.ts";
import { silentLogger } from "../../src/log.ts";
import { LocalRefusal } from "../../src/proxmox/errors.ts";
import type { Params } from "../../src/proxmox/params.ts";
import { pathSegments } from "../../src/proxmox/path.ts";
import { haveSharedData, SCHEMA_FILES } from "../support/shared.ts";

const PBS_100 = "pbs:backup/vm/100/2025-01-01T00:00:00Z";
const judge = (path: string, params: Params = {}) => judgeRead(pathSegments(path), params);

describe("judgeRead", () => {
  test.each([
    ["/nodes/pve1/query-url-metadata", { url: "https://example.com/x.iso" }, "outbound", []],
    ["/nodes/pve1/query-oci-repo-tags", { reference: "docker.io/library/alpine" }, "outbound", []],
    ["/nodes/pve1/scan/nfs", { server: "10.0.0.5" }, "outbound", []],
    ["/nodes/pve1/scan/cifs", { server: "fs" }, "outbound", []],
    ["/nodes/pve1/scan/pbs", { server: "pbs", username: "u@pbs", password: "x" }, "outbound", []],
    ["/nodes/pve1/scan/iscsi", { portal: "10.0.0.6" }, "outbound", []],
    ["/cluster/acme/meta", { directory: "https://acme.example/dir" }, "outbound", []],
    ["/cluster/acme/tos", {}, "outbound", []],
    ["/nodes/pve1/storage/esxi/import-metadata", { volume: "esxi:ha-datacenter/ds1/vm1/vm1.vmx" }, "outbound", []],
    ["/nodes/pve1/qemu/100/agent/file-read", { file: "/etc/shadow" }, "guest-content", [100]],
    ["/nodes/pve1/qemu/0100/agent/exec-status", { pid: 1 }, "guest-content", [100]],
    ["/nodes/pve1/qemu/100/agent/some-future-command", {}, "guest-content", [100]],
    ["/nodes/pve1/storage/pbs/file-restore/list", { volume: PBS_100, filepath: "/" }, "guest-content", [100]],
    [
      "/nodes/pve1/storage/pbs/file-restore/download",
      { volume: "backup/ct/105/2025-01-01T00:00:00Z", filepath: "L2V0Yw==" },
      "guest-content",
      [105],
    ],
    ["/nodes/pve1/qemu/100/cloudinit/dump", { type: "user" }, "guest-content", [100]],
    [
      "/nodes/pve1/vzdump/extractconfig",
      { volume: "local:backup/vzdump-qemu-100-2025_01_01-00_00_00.vma.zst" },
      "guest-content",
      [100],
    ],
    ["/nodes/pve1/vzdump/extractconfig", { volume: "pbs:backup/host/web/2025-01-01T00:00:00Z" }, "guest-content", []],
  ] as [string, Params, string, number[]][])("%s is %s of %j", (path, params, reach, guests) => {
    const judged = judge(path, params);
    expect(judged?.rule.reach).toBe(reach as "outbound");
    expect(judged?.guests).toEqual(guests);
  });

  test.each([
    "/nodes/pve1/qemu/100/agent/network-get-interfaces",
    "/nodes/pve1/qemu/100/agent/get-osinfo",
    "/nodes/pve1/qemu/100/agent/info",
    "/nodes/pve1/qemu/100/agent",
    "/nodes/pve1/qemu/100/config",
    "/nodes/pve1/storage/pbs/content",
    `/nodes/pve1/storage/pbs/content/${encodeURIComponent(PBS_100)}`,
    "/nodes/pve1/scan/zfs",
    "/nodes/pve1/apt/changelog",
  ])("%s is an ordinary read", (path) => {
    expect(judge(path)).toBeUndefined();
  });
});

const PROTECTED = JSON.stringify({
  protected_vms: [{ vmid: 100, name: "mcp-host", reason: "the VM this server runs in" }],
});

function gate(env: Record<string, string> = {}, file = PROTECTED): PolicyGate {
  const policy = loadPolicyConfig({ PROXMOX_PROTECTED_VMS_FILE: "/etc/pve-mcp/protected.json", ...env });
  return new PolicyGate({ policy, log: silentLogger, redact: (t) => t, readFile: () => file });
}

function refusal(g: PolicyGate, path: string, params: Params = {}): LocalRefusal | undefined {
  try {
    g.authorizeRead({ tool: "proxmox_get", method: "GET", path, params });
  } catch (error) {
    if (error instanceof LocalRefusal) return error;
    throw error;
  }
  return undefined;
}

describe("the gate on reads", () => {
  test("reads inside a protected guest or its backups are refused, with the reason", () => {
    const g = gate();
    const read = refusal(g, "/nodes/pve1/qemu/100/agent/file-read", { file: "/etc/shadow" })!;
    expect(read.code).toBe("refused_protected_guest");
    expect(read.message).toBe(
      "GET /nodes/pve1/qemu/100/agent/file-read refused: it reads a file inside the guest, and the guest is protected: 100 (mcp-host). Reason: the VM this server runs in\nReads inside protected guests and their backups are refused; facts such as agent/network-get-interfaces stay readable. Protected guests are listed in /etc/pve-mcp/protected.json.",
    );
    expect(refusal(g, "/nodes/pve1/storage/pbs/file-restore/list", { volume: PBS_100, filepath: "/" })?.code).toBe(
      "refused_protected_guest",
    );
    expect(
      refusal(g, "/nodes/pve1/vzdump/extractconfig", {
        volume: "local:backup/vzdump-lxc-100-2025_01_01-00_00_00.tar.zst",
      })?.code,
    ).toBe("refused_protected_guest");
    expect(refusal(g, "/nodes/pve1/qemu%2F100/agent/exec-status", { pid: 7 })?.code).toBe("refused_protected_guest");
  });

  test("other guests, facts and outbound reads pass when not read-only", () => {
    const g = gate();
    expect(refusal(g, "/nodes/pve1/qemu/101/agent/file-read", { file: "/etc/hostname" })).toBeUndefined();
    expect(refusal(g, "/nodes/pve1/qemu/100/agent/network-get-interfaces")).toBeUndefined();
    expect(refusal(g, "/nodes/pve1/query-url-metadata", { url: "https://example.com" })).toBeUndefined();
  });

  test("read-only mode refuses outbound reads and reads inside guests, each with its own code and setting", () => {
    const g = gate({ PROXMOX_READ_ONLY: "true" });
    const outbound = refusal(g, "/nodes/pve1/scan/nfs", { server: "10.0.0.5" })!;
    expect(outbound.code).toBe("refused_read_only_outbound");
    expect(outbound.message).toContain("it makes the node query an NFS server");
    expect(outbound.message).toContain("PROXMOX_READ_ONLY_ALLOW_OUTBOUND=true");
    const inside = refusal(g, "/nodes/pve1/qemu/101/agent/file-read", { file: "/etc/hostname" })!;
    expect(inside.code).toBe("refused_read_only_guest_content");
    expect(inside.message).toContain("PROXMOX_READ_ONLY_ALLOW_GUEST_CONTENT=true");
    expect(refusal(g, "/nodes/pve1/qemu/101/agent/get-fsinfo")).toBeUndefined();
    expect(refusal(g, "/nodes/pve1/qemu/101/status/current")).toBeUndefined();
  });

  test("the opt-in settings lift the read-only refusals, never the protection", () => {
    const g = gate({
      PROXMOX_READ_ONLY: "true",
      PROXMOX_READ_ONLY_ALLOW_OUTBOUND: "true",
      PROXMOX_READ_ONLY_ALLOW_GUEST_CONTENT: "true",
    });
    expect(refusal(g, "/nodes/pve1/scan/nfs", { server: "10.0.0.5" })).toBeUndefined();
    expect(refusal(g, "/nodes/pve1/qemu/101/agent/file-read", { file: "/etc/hostname" })).toBeUndefined();
    expect(refusal(g, "/nodes/pve1/qemu/100/agent/file-read", { file: "/etc/hostname" })?.code).toBe(
      "refused_protected_guest",
    );
  });

  test("an unusable protection file refuses reads inside any guest, and nothing else", () => {
    const g = gate({}, "not json");
    const error = refusal(g, "/nodes/pve1/qemu/101/agent/file-read", { file: "/etc/hostname" })!;
    expect(error.code).toBe("refused_protected_guest");
    expect(error.message).toContain("reads inside guests and backups are refused");
    expect(refusal(g, "/nodes/pve1/query-url-metadata", { url: "https://example.com" })).toBeUndefined();
    expect(refusal(g, "/version")).toBeUndefined();
  });
});

test("read-only mode says at startup which reads it also refuses", () => {
  const lines: string[] = [];
  const log = { info: (m: string) => lines.push(m), warn() {}, error() {} };
  const start = (env: Record<string, string>) => {
    lines.length = 0;
    new PolicyGate({ policy: loadPolicyConfig(env), log, redact: (t) => t }).start();
    return lines.filter((line) => line.startsWith("read-only mode also"));
  };
  expect(start({ PROXMOX_READ_ONLY: "true" })).toEqual([
    "read-only mode also refuses reads that make a node contact other hosts and reads inside guests and backups",
  ]);
  expect(start({ PROXMOX_READ_ONLY: "true", PROXMOX_READ_ONLY_ALLOW_OUTBOUND: "1" })).toEqual([
    "read-only mode also refuses reads inside guests and backups",
  ]);
  expect(
    start({
      PROXMOX_READ_ONLY: "true",
      PROXMOX_READ_ONLY_ALLOW_OUTBOUND: "1",
      PROXMOX_READ_ONLY_ALLOW_GUEST_CONTENT: "1",
    }),
  ).toEqual([]);
  expect(start({})).toEqual([]);
});

test("the opt-in settings are booleans, false by default", () => {
  expect(loadPolicyConfig({}).readOnlyAllowOutbound).toBe(false);
  expect(loadPolicyConfig({}).readOnlyAllowGuestContent).toBe(false);
  expect(loadPolicyConfig({ PROXMOX_READ_ONLY_ALLOW_GUEST_CONTENT: "yes" }).readOnlyAllowGuestContent).toBe(true);
  expect(() => loadPolicyConfig({ PROXMOX_READ_ONLY_ALLOW_OUTBOUND: "sometimes" })).toThrow(
    "PROXMOX_READ_ONLY_ALLOW_OUTBOUND: expected true or false",
  );
});

interface SchemaNode {
  path: string;
  info?: Record<
    string,
    { description?: string; parameters?: { properties?: Record<string, { format?: unknown; description?: string }> } }
  >;
  children?: SchemaNode[];
}

// Candidates: GETs with a server or portal parameter, a parameter described as a URL,
// repository or registry, a description speaking of something remote, foreign or a URL, a
// volume, file, filepath or pid parameter, or a path under the guest agent or cloud-init.
const ORDINARY: Record<string, string> = {
  "/nodes/{node}/storage/{storage}/content/{volume}": "a volume's attributes (size, format, notes), not its data",
  "/nodes/{node}/qemu/{vmid}/cloudinit":
    "the cloud-init settings of the guest's configuration (passwords shown as **********)",
};

function candidates(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const tree = JSON.parse(text.slice(text.indexOf("["), text.lastIndexOf("]") + 1)) as SchemaNode[];
  const found: string[] = [];
  const walk = (node: SchemaNode) => {
    const info = node.info?.GET;
    if (info) {
      const params = Object.entries(info.parameters?.properties ?? {});
      const hit =
        /\/agent\/|\/cloudinit\b/.test(node.path) ||
        /\bremote\b|\bforeign\b|\bURL\b/i.test(info.description ?? "") ||
        params.some(
          ([name, p]) =>
            /server|portal/.test(String(p.format ?? "")) ||
            /\bURL\b|repository|registry/i.test(p.description ?? "") ||
            ["volume", "file", "filepath", "pid"].includes(name),
        );
      if (hit) found.push(node.path);
    }
    node.children?.forEach(walk);
  };
  tree.forEach(walk);
  return found;
}

describe.skipIf(!haveSharedData("the read table against the PVE 9.1 schema"))("the PVE 9.1 schema", () => {
  const found = candidates(SCHEMA_FILES["9.1"].file);
  const concrete = (template: string) => template.replace(/\{vmid\}/g, "100").replace(/\{[^}]+\}/g, "x");

  test("every candidate is in the table, a known agent fact, or reviewed as ordinary", () => {
    expect(found.length).toBeGreaterThan(20);
    const unclassified = found.filter((path) => {
      if (path in ORDINARY) return judge(concrete(path)) !== undefined;
      const agent = /\/agent\/([^/]+)$/.exec(path);
      if (agent && AGENT_INFO_READS.includes(agent[1]!)) return judge(concrete(path)) !== undefined;
      return judge(concrete(path), { volume: PBS_100 }) === undefined;
    });
    expect(unclassified).toEqual([]);
  });

  test("every table entry is an endpoint of the schema; the agent's only data reads are file-read and exec-status", () => {
    const hit = new Set(found.map((path) => judge(concrete(path), { volume: PBS_100 })?.rule.template));
    expect(READ_TABLE.map((rule) => rule.template).filter((template) => !hit.has(template))).toEqual([]);
    const agentReads = found.filter((p) => /\/agent\//.test(p)).map((p) => p.split("/").pop()!);
    expect(agentReads.filter((c) => !AGENT_INFO_READS.includes(c)).sort()).toEqual(["exec-status", "file-read"]);
  });
});

describe.skipIf(!haveSharedData("the retired reads against the PVE 6.4, 7.4 and 8.4 schemas"))("older schemas", () => {
  const current = new Set(candidates(SCHEMA_FILES["9.1"].file));
  const older = [...new Set((["6.4", "7.4", "8.4"] as const).flatMap((v) => candidates(SCHEMA_FILES[v].file)))];
  const concrete = (template: string) => template.replace(/\{vmid\}/g, "100").replace(/\{[^}]+\}/g, "x");

  test("every candidate that 9.1 no longer has is classified", () => {
    const gone = older.filter((path) => !current.has(path));
    expect(gone.length).toBeGreaterThan(0);
    expect(gone.filter((path) => judge(concrete(path), { volume: PBS_100 }) === undefined)).toEqual([]);
  });

  test("every retired entry is gone from 9.1 and a candidate of an older version", () => {
    expect(RETIRED_READS.map((rule) => rule.template).filter((t) => current.has(t) || !older.includes(t))).toEqual([]);
  });
});
