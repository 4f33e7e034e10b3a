// Protected guests through the real MCP client: every form is refused before a byte leaves.
import { describe, expect, test } from "bun:test";
import { expectRefusal, policySuite, protectedFile, PROTECTED_REASON, routeGuestActions } from "../support/policy.ts";

const file = protectedFile();
const suite = policySuite((fake) => {
  routeGuestActions(fake, "*");
  fake.route("POST", "/nodes/{node}/stopall", (req) => ({ data: fake.startTask(req.pathParams.node!, "stopall", "") }));
});

async function request(method: string, path: string, parameters?: Record<string, unknown>) {
  const harness = suite.harness ?? (await suite.open({ PROXMOX_PROTECTED_VMS_FILE: file }));
  return harness.call("proxmox_request", { method, path, ...(parameters ? { parameters } : {}) });
}

const refused: [string, string, string, Record<string, unknown> | undefined, string][] = [
  ["path /qemu/{vmid}", "POST", "/nodes/pve1/qemu/100/status/stop", undefined, "through the path (/qemu/100)"],
  ["path /lxc/{vmid}", "DELETE", "/nodes/pve1/lxc/105", undefined, "protected guest 105 (dns) through the path (/lxc/105)"],
  ["parameter vmid", "POST", "/nodes/pve1/qemu", { vmid: 100, force: 1, archive: "local:backup/x.vma" }, "through parameter vmid"],
  ["parameter newid", "POST", "/nodes/pve1/qemu/200/clone", { newid: 100 }, "through parameter newid"],
  ["parameter target-vmid", "POST", "/nodes/pve1/qemu/200/move_disk", { disk: "scsi0", "target-vmid": 100 }, "through parameter target-vmid"],
  ["parameter vms comma list", "POST", "/nodes/pve1/startall", { vms: "101,100" }, "through parameter vms"],
  ["parameter vms array", "POST", "/cluster/bulk-action/guest/shutdown", { vms: [101, 105] }, "protected guest 105 (dns) through parameter vms"],
  ["parameter guest", "POST", "/cluster/somewhere", { guest: 100 }, "through parameter guest"],
  ["volume id in a disk", "PUT", "/nodes/pve1/qemu/200/config", { scsi1: "local-lvm:vm-100-disk-0,size=32G" }, "through the volume local-lvm:vm-100-disk-0 in parameter scsi1"],
  ["base volume", "POST", "/nodes/pve1/qemu/200/config", { scsi0: "local-zfs:base-100-disk-0" }, "the volume local-zfs:base-100-disk-0"],
  ["container subvol", "PUT", "/nodes/pve1/lxc/200/config", { mp0: "local-zfs:subvol-105-disk-0,mp=/srv" }, "protected guest 105 (dns) through the volume local-zfs:subvol-105-disk-0"],
  ["volume in a file storage dir", "DELETE", "/nodes/pve1/storage/local/content/local%3A100%2Fvm-100-disk-0.qcow2", undefined, "the volume local:100/vm-100-disk-0.qcow2 in the path"],
  ["backup archive of the guest", "DELETE", "/nodes/pve1/storage/local/content/local:backup%2Fvzdump-qemu-100-2025_01_01-00_00_00.vma.zst", undefined, "vzdump-qemu-100"],
  ["HA resource path", "DELETE", "/cluster/ha/resources/vm:100", undefined, "the HA resource vm:100 in the path"],
  ["HA resource migrate", "POST", "/cluster/ha/resources/ct%3A105/migrate", { node: "pve2" }, "the HA resource ct:105 in the path"],
  ["HA sid parameter", "POST", "/cluster/ha/resources", { sid: "vm:100", state: "started" }, "the HA resource in parameter sid"],
  ["encoded slash hiding the guest segment", "POST", "/nodes/pve1/qemu%2F100/status/stop", undefined, "through the path (/qemu/100)"],
  ["encoded slash hiding a batch", "POST", "/nodes/pve1%2Fexecute", { commands: JSON.stringify([{ method: "POST", path: "/qemu/100/status/stop" }]) }, "through the path (/qemu/100)"],
  ["ACL on the guest", "PUT", "/access/acl", { path: "/vms/100", roles: "PVEVMAdmin", users: "eve@pve" }, "protected guest 100 (mcp-host, host pve1) through the ACL path /vms/100"],
  ["HA rule resources", "POST", "/cluster/ha/rules", { rule: "r1", type: "node-affinity", resources: "vm:101,ct:100", nodes: "pve1" }, "the HA resource in parameter resources"],
];

describe("refused forms send nothing", () => {
  test.each(refused)("%s", async (_label, method, path, parameters, via) => {
    const result = await request(method, path, parameters);
    const text = expectRefusal(result, "refused_protected_guest");
    expect(text).toContain(via);
    expect(text).toContain("Reason: ");
    expect(suite.fake.apiRequests().length).toBe(0);
  });

  test("the entry's reason is shown verbatim", async () => {
    const text = expectRefusal(await request("POST", "/nodes/pve1/qemu/100/status/shutdown"), "refused_protected_guest");
    expect(text).toContain(`protected guest 100 (mcp-host, host pve1) through the path (/qemu/100). Reason: ${PROTECTED_REASON}`);
    expect(text).toContain(file);
    expect(suite.fake.apiRequests().length).toBe(0);
  });
});

describe("actions on all guests", () => {
  test.each([
    ["stopall", "/nodes/pve1/stopall", {}],
    ["startall", "/nodes/pve2/startall", { force: 1 }],
    ["suspendall", "/nodes/pve1/suspendall", {}],
    ["migrateall", "/nodes/pve1/migrateall", { target: "pve2" }],
    ["bulk start", "/cluster/bulk-action/guest/start", {}],
    ["bulk migrate", "/cluster/bulk-action/guest/migrate", { target: "pve2" }],
    ["vzdump all", "/nodes/pve1/vzdump", { all: 1, storage: "local" }],
    ["vzdump excluding only one", "/nodes/pve1/vzdump", { all: 1, exclude: "100" }],
    ["node reboot", "/nodes/pve1/status", { command: "reboot" }],
  ] as [string, string, Record<string, unknown>][])("%s without a list that leaves the protected guests out", async (_label, path, parameters) => {
    const text = expectRefusal(await request("POST", path, parameters), "refused_protected_guest");
    expect(text).toContain("would also touch protected guest");
    expect(text).toContain("Name the guests explicitly");
    expect(suite.fake.apiRequests().length).toBe(0);
  });

  test("an explicit list without protected guests passes and reaches Proxmox", async () => {
    const result = await request("POST", "/nodes/pve1/stopall", { vms: "101,102" });
    expect(result.isError).toBeFalsy();
    expect(suite.fake.apiRequests().map((r) => `${r.method} ${r.path}`)).toEqual(["POST /nodes/pve1/stopall"]);
    expect(suite.fake.apiRequests()[0]!.params.vms).toBe("101,102");
  });
});

test("writes to other guests and all reads pass", async () => {
  const write = await request("POST", "/nodes/pve1/qemu/101/status/start");
  expect(write.isError).toBeFalsy();
  const read = await suite.harness!.call("proxmox_get", { path: "/nodes" });
  expect(read.isError).toBeFalsy();
  const readOfProtected = await request("GET", "/nodes/pve1/qemu/100/status/current");
  expect(readOfProtected.isError).toBeFalsy();
  expect(suite.fake.apiRequests().map((r) => `${r.method} ${r.path}`)).toEqual([
    "POST /nodes/pve1/qemu/101/status/start",
    "GET /nodes",
    "GET /nodes/pve1/qemu/100/status/current",
  ]);
});

describe("a protection file that cannot be used refuses every write", () => {
  test.each([
    ["malformed", protectedFile('{"protected_vms": [{"vmid": 100, "name": "x"}]}'), "protected_vms[0].reason must be a non-empty string"],
    ["not JSON", protectedFile("protected_vms: [100]"), "it is not valid JSON"],
    ["missing", "/nonexistent/pve-mcp/protected.json", "it cannot be read (ENOENT)"],
  ])("%s", async (_label, path, problem) => {
    const harness = await suite.open({ PROXMOX_PROTECTED_VMS_FILE: path });
    for (const [method, target, parameters] of [
      ["POST", "/nodes/pve1/qemu/101/status/start", {}],
      ["PUT", "/cluster/options", { keyboard: "de" }],
      ["DELETE", "/pools/test", {}],
    ] as const) {
      const text = expectRefusal(await harness.call("proxmox_request", { method, path: target, parameters }), "refused_protected_guest");
      expect(text).toContain(problem);
      expect(text).toContain("every write is refused");
    }
    expect(suite.fake.apiRequests().length).toBe(0);
    const read = await harness.call("proxmox_get", { path: "/version" });
    expect(read.isError).toBeFalsy();
  });
});
