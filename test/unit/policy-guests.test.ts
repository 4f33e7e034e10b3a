import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { guestIds, guestsTouched, haGuestIds, isTruthy, volumeGuests } from "../../src/policy/guests.ts";
import type { Params } from "../../src/proxmox/params.ts";
import { haveSharedData, SCHEMA_FILES } from "../support/shared.ts";

const ids = (path: string, params: Params = {}) =>
  [...new Set(guestsTouched(path, params).guests.map((t) => t.vmid))].sort();

describe("guestsTouched: path forms", () => {
  const cases: [string, number[]][] = [
    ["/nodes/pve1/qemu/100/status/stop", [100]],
    ["/nodes/pve1/lxc/100/config", [100]],
    ["/nodes/pve1/qemu/%31%30%30/status/stop", [100]],
    ["/nodes/pve1/qemu/100", [100]],
    ["/nodes/pve1/qemu/100/firewall/rules/0", [100]],
    ["/nodes/pve1/qemu", []],
    ["/nodes/pve1/qemu/", []],
    ["/cluster/ha/resources/vm:100", [100]],
    ["/cluster/ha/resources/vm%3A100", [100]],
    ["/cluster/ha/resources/ct:101/migrate", [101]],
    ["/cluster/ha/resources/102", [102]],
    ["/cluster/replication/100-0", [100]],
    ["/nodes/pve1/replication/100-1/schedule_now", [100]],
    ["/nodes/pve1/storage/local-lvm/content/vm-100-disk-0", [100]],
    ["/nodes/pve1/storage/local/content/local%3A100%2Fvm-100-disk-0.qcow2", [100]],
    ["/nodes/pve1/storage/local/content/local%3Abackup%2Fvzdump-qemu-100-2025_01_01-00_00_00.vma.zst", [100]],
    ["/nodes/pve1/storage/local/content/local%3Aiso%2Fdebian.iso", []],
    ["/nodes/pve1/network/vmbr0", []],
    ["/access/users/root@pam", []],
  ];
  test.each(cases)("%p touches %p", (path, expected) => {
    expect(ids(path)).toEqual(expected);
  });
});

describe("guestsTouched: parameter forms", () => {
  const cases: [string, string, Params, number[]][] = [
    ["vmid on create", "/nodes/pve1/qemu", { vmid: 100 }, [100]],
    ["vmid as string", "/nodes/pve1/lxc", { vmid: "100" }, [100]],
    ["newid of a clone", "/nodes/pve1/qemu/200/clone", { newid: 100 }, [100, 200]],
    ["target-vmid", "/nodes/pve1/qemu/200/move_disk", { "target-vmid": 100, disk: "scsi0" }, [100, 200]],
    ["vms comma list", "/nodes/pve1/startall", { vms: "101,100" }, [100, 101]],
    ["vms semicolon and space list", "/nodes/pve1/stopall", { vms: "101; 100 102" }, [100, 101, 102]],
    ["vms array (bulk action)", "/cluster/bulk-action/guest/start", { vms: [101, 100] }, [100, 101]],
    ["vms on pool membership", "/pools/prod", { vms: "100" }, [100]],
    ["guest", "/cluster/anything", { guest: 100 }, [100]],
    ["vzdump vmid list", "/nodes/pve1/vzdump", { vmid: "100,105" }, [100, 105]],
    ["HA sid vm:", "/cluster/ha/resources", { sid: "vm:100" }, [100]],
    ["HA sid ct:", "/cluster/ha/resources", { sid: "ct:100" }, [100]],
    ["HA sid bare", "/cluster/ha/resources", { sid: "100" }, [100]],
    ["HA rule resources list", "/cluster/ha/rules", { resources: "vm:100,ct:101" }, [100, 101]],
    ["replication job id", "/cluster/replication", { id: "100-0", target: "pve2" }, [100]],
    ["id elsewhere is not a guest", "/cluster/mapping/pci", { id: "100-0" }, []],
    ["disk property string", "/nodes/pve1/qemu/200/config", { scsi1: "local-lvm:vm-100-disk-0,size=32G" }, [100, 200]],
    [
      "import-from in a file storage",
      "/nodes/pve1/qemu/200/config",
      { scsi1: "local-lvm:0,import-from=local:100/vm-100-disk-0.qcow2" },
      [100, 200],
    ],
    ["base volume", "/nodes/pve1/qemu/200/config", { scsi0: "local-zfs:base-100-disk-0" }, [100, 200]],
    [
      "subvol of a container",
      "/nodes/pve1/lxc/200/config",
      { mp0: "local-zfs:subvol-100-disk-0,mp=/data" },
      [100, 200],
    ],
    [
      "linked clone belongs to its base too",
      "/nodes/pve1/storage/local/content/x",
      { volume: "local:100/base-100-disk-0.qcow2/101/vm-101-disk-0.qcow2" },
      [100, 101],
    ],
    [
      "restore from a vzdump archive",
      "/nodes/pve1/qemu",
      { vmid: 300, archive: "local:backup/vzdump-qemu-100-2025_01_01-00_00_00.vma.zst" },
      [100, 300],
    ],
    ["PBS snapshot", "/nodes/pve1/qemu", { vmid: 300, archive: "pbs:backup/vm/100/2025-01-01T00:00:00Z" }, [100, 300]],
    [
      "PBS snapshot in a namespace",
      "/nodes/pve1/lxc",
      { vmid: 300, ostemplate: "pbs:backup/ns/prod/ct/100/2025-01-01T00:00:00Z" },
      [100, 300],
    ],
    ["volume in move_volume", "/nodes/pve1/lxc/200/move_volume", { volume: "mp0" }, [200]],
    ["VM names are not volumes", "/nodes/pve1/qemu", { vmid: 300, name: "vm-100-web" }, [300]],
    [
      "descriptions are not volumes",
      "/nodes/pve1/qemu/300/config",
      { description: "vm-100-disk-0 copied here" },
      [300],
    ],
    ["CIDRs are not directories", "/cluster/firewall/rules", { source: "10.0.100/24", dest: "fd00::100/64" }, []],
    [
      "ip config is not a volume",
      "/nodes/pve1/lxc/300/config",
      { net0: "name=eth0,bridge=vmbr0,ip=10.0.0.100/24" },
      [300],
    ],
    [
      "a download URL with numbers",
      "/nodes/pve1/storage/local/download-url",
      { url: "https://mirror.example/100/debian-100.iso", filename: "debian-100.iso", content: "iso" },
      [],
    ],
    [
      "batch commands are checked one by one, not as volumes",
      "/nodes/pve1/execute",
      { commands: '[{"method":"POST","path":"qemu/100/status/stop"}]' },
      [],
    ],
    ["ISO in a cdrom", "/nodes/pve1/qemu/300/config", { ide2: "local:iso/debian-100-netinst.iso,media=cdrom" }, [300]],
  ];
  test.each(cases)("%s", (_label, path, params, expected) => {
    expect(ids(path, params)).toEqual(expected);
  });

  test("each touch says how the guest was named", () => {
    const vias = guestsTouched("/nodes/pve1/qemu/200/config", { scsi1: "local-lvm:vm-100-disk-0" }).guests.map(
      (t) => t.via,
    );
    expect(vias).toEqual(["the path (/qemu/200)", "the volume local-lvm:vm-100-disk-0 in parameter scsi1"]);
  });
});

describe("guestsTouched: actions on all guests", () => {
  const cases: [string, string, Params, { action: RegExp; except: number[] } | undefined][] = [
    ["startall without a list", "/nodes/pve1/startall", {}, { action: /startall on node pve1/, except: [] }],
    ["stopall without a list", "/nodes/pve1/stopall", { "force-stop": 1 }, { action: /stopall/, except: [] }],
    ["suspendall without a list", "/nodes/pve1/suspendall", {}, { action: /suspendall/, except: [] }],
    ["migrateall without a list", "/nodes/pve1/migrateall", { target: "pve2" }, { action: /migrateall/, except: [] }],
    [
      "migrateall with an empty list",
      "/nodes/pve1/migrateall",
      { target: "pve2", vms: "" },
      { action: /migrateall/, except: [] },
    ],
    ["startall with a list", "/nodes/pve1/startall", { vms: "101" }, undefined],
    ["bulk start without a list", "/cluster/bulk-action/guest/start", {}, { action: /bulk start/, except: [] }],
    [
      "bulk shutdown without a list",
      "/cluster/bulk-action/guest/shutdown",
      {},
      { action: /bulk shutdown/, except: [] },
    ],
    ["bulk suspend without a list", "/cluster/bulk-action/guest/suspend", {}, { action: /bulk suspend/, except: [] }],
    [
      "bulk migrate without a list",
      "/cluster/bulk-action/guest/migrate",
      { target: "pve2" },
      { action: /bulk migrate/, except: [] },
    ],
    ["bulk migrate with a list", "/cluster/bulk-action/guest/migrate", { target: "pve2", vms: [101] }, undefined],
    ["vzdump all", "/nodes/pve1/vzdump", { all: 1 }, { action: /backup of all/, except: [] }],
    ["vzdump all=true", "/nodes/pve1/vzdump", { all: true }, { action: /backup of all/, except: [] }],
    ["vzdump all=0 with a vmid", "/nodes/pve1/vzdump", { all: 0, vmid: "101" }, undefined],
    [
      "vzdump all with exclusions",
      "/nodes/pve1/vzdump",
      { all: 1, exclude: "100,102" },
      { action: /backup of all/, except: [100, 102] },
    ],
    [
      "vzdump exclude implies all",
      "/nodes/pve1/vzdump",
      { exclude: "100" },
      { action: /backup of all/, except: [100] },
    ],
    ["vzdump of a pool", "/nodes/pve1/vzdump", { pool: "prod" }, { action: /pool prod/, except: [] }],
    ["backup job for all", "/cluster/backup", { all: 1, schedule: "daily" }, { action: /backup of all/, except: [] }],
    ["backup job update", "/cluster/backup/backup-1", { all: 1 }, { action: /backup of all/, except: [] }],
    ["node reboot", "/nodes/pve1/status", { command: "reboot" }, { action: /reboot of node pve1/, except: [] }],
    ["node shutdown", "/nodes/pve1/status", { command: "shutdown" }, { action: /shutdown of node pve1/, except: [] }],
    ["a guest's status is not the node's", "/nodes/pve1/qemu/101/status/shutdown", {}, undefined],
  ];
  test.each(cases)("%s", (_label, path, params, expected) => {
    const all = guestsTouched(path, params).all;
    if (expected === undefined) {
      expect(all).toBeUndefined();
    } else {
      expect(all?.action).toMatch(expected.action);
      expect(all?.except).toEqual(expected.except);
    }
  });
});

describe("helpers", () => {
  test.each([
    ["vm-100-disk-0", [100]],
    ["local-lvm:vm-100-disk-0", [100]],
    ["ceph:vm-100-cloudinit", [100]],
    ["local-zfs:vm-100-state-snap1", [100]],
    ["local:100/vm-100-disk-0.raw", [100]],
    ["local-zfs:basevol-100-disk-0", [100]],
    ["local:backup/vzdump-lxc-100-2025_01_01-00_00_00.tar.zst", [100]],
    ["local:backup/vzdump-openvz-100-2015_01_01-00_00_00.tar", [100]],
    ["local:iso/debian.iso", []],
    ["local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst", []],
    ["size=32G", []],
    ["vmbr0", []],
    ["https://mirror.example/releases/100/debian.iso", []],
    ["https://mirror.example/vm/100/x.iso", []],
    ["qemu/100/status/stop", []],
  ] as [string, number[]][])("volumeGuests(%p) = %p", (volume, expected) => {
    expect(volumeGuests(volume)).toEqual(expected);
  });

  test("guestIds reads lists and ignores what is not an id", () => {
    expect(guestIds("100,101;102 103")).toEqual([100, 101, 102, 103]);
    expect(guestIds([100, "101"])).toEqual([100, 101]);
    expect(guestIds("abc, 100")).toEqual([100]);
  });

  test("haGuestIds reads vm:, ct: and bare ids", () => {
    expect(haGuestIds("vm:100,ct:101,102,other:103")).toEqual([100, 101, 102]);
  });

  test("isTruthy treats anything but an explicit false as true", () => {
    for (const value of [1, "1", true, "yes", "true"]) expect(isTruthy(value)).toBe(true);
    for (const value of [0, "0", false, "", "no", "off", "false"]) expect(isTruthy(value)).toBe(false);
    expect(isTruthy(undefined)).toBe(false);
  });
});

// The real PVE 9.1 schema: every write endpoint under a {vmid}, every parameter whose format names
// guests, and every endpoint with a guest-list parameter must be recognised.
interface SchemaMethod {
  parameters?: { properties?: Record<string, { format?: unknown; type?: string }> };
}
interface SchemaNode {
  path: string;
  info?: Record<string, SchemaMethod>;
  children?: SchemaNode[];
}

function writeEndpoints(
  file: string,
): { method: string; path: string; properties: Record<string, { format?: unknown; type?: string }> }[] {
  const text = readFileSync(file, "utf8");
  const tree = JSON.parse(text.slice(text.indexOf("["), text.lastIndexOf("]") + 1)) as SchemaNode[];
  const out: { method: string; path: string; properties: Record<string, { format?: unknown; type?: string }> }[] = [];
  const walk = (node: SchemaNode) => {
    for (const [method, info] of Object.entries(node.info ?? {})) {
      if (method !== "GET") out.push({ method, path: node.path, properties: info.parameters?.properties ?? {} });
    }
    node.children?.forEach(walk);
  };
  tree.forEach(walk);
  return out;
}

function concrete(path: string, vmid: string): string {
  return path
    .replace(/\{vmid\}/g, vmid)
    .replace(/\{node\}/g, "pve1")
    .replace(/\{[^}]+\}/g, "x");
}

const GUEST_FORMATS: Record<string, string> = {
  "pve-vmid": "100",
  "pve-vmid-list": "100,101",
  "pve-ha-resource-or-vm-id": "vm:100",
  "pve-ha-resource-id-list": "vm:100,ct:101",
  "pve-replication-job-id": "100-0",
};

describe.skipIf(!haveSharedData("policy guest forms against the PVE 9.1 schema"))("the PVE 9.1 schema", () => {
  const endpoints = writeEndpoints(SCHEMA_FILES["9.1"].file);

  test("every write under /qemu/{vmid} or /lxc/{vmid} touches that guest", () => {
    const underGuest = endpoints.filter((e) => e.path.includes("{vmid}"));
    expect(underGuest.length).toBeGreaterThan(80);
    const missed = underGuest.filter((e) => !ids(concrete(e.path, "100")).includes(100));
    expect(missed.map((e) => `${e.method} ${e.path}`)).toEqual([]);
  });

  test("every parameter with a guest-naming format is read (except exclusion lists)", () => {
    const missed: string[] = [];
    let checked = 0;
    for (const e of endpoints) {
      for (const [name, schema] of Object.entries(e.properties)) {
        const value = typeof schema.format === "string" ? GUEST_FORMATS[schema.format] : undefined;
        if (value === undefined || name === "exclude") continue;
        checked++;
        if (!ids(concrete(e.path, "999"), { [name]: value }).includes(100))
          missed.push(`${e.method} ${e.path} ${name}`);
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(missed).toEqual([]);
  });

  test("every endpoint with a vms guest list acts on all guests when the list is left out", () => {
    const withList = endpoints.filter((e) => "vms" in e.properties && !e.path.startsWith("/pools"));
    expect(withList.map((e) => e.path).sort()).toEqual([
      "/cluster/bulk-action/guest/migrate",
      "/cluster/bulk-action/guest/shutdown",
      "/cluster/bulk-action/guest/start",
      "/cluster/bulk-action/guest/suspend",
      "/nodes/{node}/migrateall",
      "/nodes/{node}/startall",
      "/nodes/{node}/stopall",
      "/nodes/{node}/suspendall",
    ]);
    for (const e of withList) {
      expect(guestsTouched(concrete(e.path, "999"), {}).all).toBeDefined();
      const listed = guestsTouched(concrete(e.path, "999"), {
        vms: e.properties.vms?.type === "array" ? [101] : "101",
      });
      expect(listed.all).toBeUndefined();
      expect(listed.guests.map((t) => t.vmid)).toEqual([101]);
    }
  });
});

describe("ACLs on a guest", () => {
  test.each([
    ["/vms/100", [100]],
    ["/vms/100/", [100]],
    ["/vms", []],
    ["/storage/local", []],
    ["/pool/vms100", []],
  ])("PUT /access/acl path=%s touches %j", (aclPath, expected) => {
    expect(
      guestsTouched("/access/acl", { path: aclPath, roles: "PVEVMAdmin", users: "eve@pve" }).guests.map((g) => g.vmid),
    ).toEqual(expected);
  });
});
