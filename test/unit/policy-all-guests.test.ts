// Writes that reach guests they do not name: the table, and a walk of the PVE 9.1 schema that
// finds every candidate and makes sure each is either in the table or reviewed with a reason.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { ALL_GUESTS_TABLE, allGuestsAction, RETIRED_ALL_GUESTS } from "../../src/policy/all-guests.ts";
import { guestsTouched } from "../../src/policy/guests.ts";
import type { HttpMethod } from "../../src/proxmox/client.ts";
import type { Params } from "../../src/proxmox/params.ts";
import { pathSegments } from "../../src/proxmox/path.ts";
import { haveSharedData, SCHEMA_FILES } from "../support/shared.ts";

const judge = (method: HttpMethod, path: string, params: Params = {}) =>
  allGuestsAction(pathSegments(path), params, method);

describe("the all-guests table", () => {
  const reaches: [string, HttpMethod, string, Params, RegExp][] = [
    [
      "prune without vmid",
      "DELETE",
      "/nodes/pve1/storage/pbs/prunebackups",
      {},
      /pruning the backups of every guest on storage pbs/,
    ],
    [
      "prune of one type",
      "DELETE",
      "/nodes/pve1/storage/pbs/prunebackups",
      { type: "qemu" },
      /every qemu guest on storage pbs/,
    ],
    [
      "remove an LVM volume group",
      "DELETE",
      "/nodes/pve1/disks/lvm/vg0",
      { "cleanup-disks": 1 },
      /removing LVM volume group vg0 on node pve1, with every guest volume on it/,
    ],
    [
      "remove an LVM thin pool",
      "DELETE",
      "/nodes/pve1/disks/lvmthin/data",
      { "volume-group": "pve" },
      /LVM thin pool data/,
    ],
    ["destroy a ZFS pool", "DELETE", "/nodes/pve1/disks/zfs/tank", {}, /ZFS pool tank/],
    ["remove a directory storage", "DELETE", "/nodes/pve1/disks/directory/store", {}, /directory storage store/],
    ["wipe a disk", "PUT", "/nodes/pve1/disks/wipedisk", { disk: "/dev/sdb" }, /wiping disk \/dev\/sdb on node pve1/],
    [
      "destroy a Ceph pool",
      "DELETE",
      "/nodes/pve1/ceph/pool/vms",
      { remove_storages: 1 },
      /Ceph pool vms, with every guest disk image/,
    ],
    [
      "change an HA group",
      "PUT",
      "/cluster/ha/groups/prod",
      { nodes: "pve2" },
      /HA group prod, whose guests cannot be checked locally/,
    ],
    ["delete an HA group", "DELETE", "/cluster/ha/groups/prod", {}, /HA group prod/],
    ["change an HA rule", "PUT", "/cluster/ha/rules/keep-apart", { resources: "vm:101" }, /HA rule keep-apart/],
    ["delete an HA rule", "DELETE", "/cluster/ha/rules/keep-apart", {}, /HA rule keep-apart/],
    [
      "disarm HA",
      "POST",
      "/cluster/ha/status/disarm-ha",
      { "resource-mode": "freeze" },
      /disarm-ha, which changes how HA handles every HA-managed guest/,
    ],
    ["arm HA", "POST", "/cluster/ha/status/arm-ha", {}, /arm-ha/],
    [
      "change a backup job without naming its guests",
      "PUT",
      "/cluster/backup/job1",
      { mode: "stop" },
      /backup job job1, whose guests cannot be checked locally/,
    ],
    ["backup job of a pool", "PUT", "/cluster/backup/job1", { pool: "prod" }, /pool prod/],
    ["ACL on /", "PUT", "/access/acl", { path: "/", roles: "Administrator", users: "eve@pve" }, /ACL on \//],
    ["ACL on a pool", "PUT", "/access/acl", { path: "/pool/prod", roles: "PVEVMAdmin", users: "eve@pve" }, /pool prod/],
  ];
  test.each(reaches)("%s", (_label, method, path, params, action) => {
    const judged = judge(method, path, params);
    expect(judged?.action).toMatch(action);
    expect(judged?.template).toBeString();
  });

  const narrow: [string, HttpMethod, string, Params][] = [
    ["prune of one guest", "DELETE", "/nodes/pve1/storage/pbs/prunebackups", { vmid: 101 }],
    ["a backup job naming its guests", "PUT", "/cluster/backup/job1", { vmid: "101,102", mode: "stop" }],
    ["creating an HA group (no members yet)", "POST", "/cluster/ha/groups", { group: "prod", nodes: "pve1" }],
    [
      "a non-propagating ACL on /vms",
      "PUT",
      "/access/acl",
      { path: "/vms", propagate: 0, roles: "PVEVMAdmin", users: "eve@pve" },
    ],
    [
      "an ACL on a storage",
      "PUT",
      "/access/acl",
      { path: "/storage/local", roles: "PVEDatastoreUser", users: "eve@pve" },
    ],
    ["a node's status read by mistake as a write", "POST", "/nodes/pve1/status", { command: "wakeup" }],
    ["deleting a backup job", "DELETE", "/cluster/backup/job1", {}],
  ];
  test.each(narrow)("%s reaches only what it names", (_label, method, path, params) => {
    expect(judge(method, path, params)).toBeUndefined();
  });

  test("the method counts; without one every entry of the path does", () => {
    expect(judge("POST", "/nodes/pve1/storage/pbs/prunebackups")).toBeUndefined();
    expect(guestsTouched("/nodes/pve1/storage/pbs/prunebackups", {}).all?.action).toMatch(/pruning/);
  });

  test("each refusal says how to narrow the request or whom to ask", () => {
    const judged = judge("DELETE", "/nodes/pve1/disks/zfs/tank")!;
    expect(judged.narrow("100,105", "DELETE /nodes/*/disks/zfs/*")).toBe(
      "It cannot leave guests out: make this change by hand, or ask the operator to allow exactly this endpoint in PROXMOX_ALLOW (e.g. 'DELETE /nodes/*/disks/zfs/*').",
    );
    expect(judge("POST", "/nodes/pve1/stopall")!.narrow("100", "POST /nodes/*/stopall")).toContain(
      "Name the guests explicitly and leave out 100",
    );
  });

  test("a task of a protected guest is named by its UPID", () => {
    const upid = "UPID:pve1:00001234:00005678:65A0B0C0:vzdump:100:root@pam:";
    expect(guestsTouched(`/nodes/pve1/tasks/${encodeURIComponent(upid)}`, {}, "DELETE").guests).toEqual([
      { vmid: 100, via: `the task ${upid} in the path` },
    ]);
    const ceph = "UPID:pve1:00001234:00005678:65A0B0C0:cephdestroyosd:100:root@pam:";
    expect(guestsTouched(`/nodes/pve1/tasks/${encodeURIComponent(ceph)}`, {}, "DELETE").guests).toEqual([]);
    const all = "UPID:pve1:00001234:00005678:65A0B0C0:vzdump::root@pam:";
    expect(guestsTouched(`/nodes/pve1/tasks/${encodeURIComponent(all)}`, {}, "DELETE").guests).toEqual([]);
  });

  test("a task on a guest's volumes names it as <guest>@<storage>", () => {
    const imgdel = "UPID:pve1:00001234:00005678:65A0B0C0:imgdel:100@local-lvm:root@pam:";
    expect(guestsTouched(`/nodes/pve1/tasks/${encodeURIComponent(imgdel)}`, {}, "DELETE").guests).toEqual([
      { vmid: 100, via: `the task ${imgdel} in the path` },
    ]);
    const storage = "UPID:pve1:00001234:00005678:65A0B0C0:prunebackups:pbs:root@pam:";
    expect(guestsTouched(`/nodes/pve1/tasks/${encodeURIComponent(storage)}`, {}, "DELETE").guests).toEqual([]);
  });
});

// Candidates: writes outside /qemu/{vmid} and /lxc/{vmid} whose description speaks of all or
// many guests, of pruning, destroying, wiping or removing, of deleting a pool or a storage, of
// rebooting a node or of access control; that take a guest-selecting parameter (vms, all, pool, exclude, resources) or
// a storage-destroying one (cleanup-disks, remove_storages, disk); that change HA groups,
// rules or the HA stack; or that stop a task. Each is in the table or reviewed here.
const REVIEWED: Record<string, string> = {
  "POST /cluster/ha/rules": "a new rule lists its resources, which are checked as guest ids",
  "POST /nodes/{node}/qemu": "pool= adds the new guest, named by vmid, to a pool",
  "POST /nodes/{node}/lxc": "pool= adds the new guest, named by vmid, to a pool",
  "PUT /pools": "vms= names the guests added or removed, checked as guest ids",
  "PUT /pools/{poolid}": "vms= names the guests added or removed, checked as guest ids",
  "DELETE /pools": "Proxmox deletes only empty pools (PVE::API2::Pool delete_pool)",
  "DELETE /pools/{poolid}": "Proxmox deletes only empty pools (PVE::API2::Pool delete_pool)",
  "POST /storage": "pool= is the Ceph or ZFS pool of a new storage definition: configuration only",
  "PUT /storage/{storage}": "pool= and the rest change a storage definition: an indirect effect, not covered",
  "DELETE /storage/{storage}": "removes the storage definition, not its volumes: an indirect effect, not covered",
  "POST /nodes/{node}/disks/initgpt": "Proxmox refuses a disk that is in use",
  "DELETE /nodes/{node}/ceph/osd/{osdid}":
    "replicated pools keep the data: an indirect effect on shared storage, not covered",
  "DELETE /nodes/{node}/ceph/mds/{name}": "a Ceph service: an indirect effect on shared storage, not covered",
  "DELETE /nodes/{node}/ceph/mgr/{id}": "a Ceph service: an indirect effect on shared storage, not covered",
  "DELETE /nodes/{node}/ceph/mon/{monid}": "a Ceph service: an indirect effect on shared storage, not covered",
  "DELETE /nodes/{node}/tasks/{upid}": "stops one task; a guest task's UPID names its guest, checked as a guest id",
  "PUT /access/acl": "in the table: judged by the ACL path (guest, every guest, a pool)",
};

interface SchemaNode {
  path: string;
  info?: Record<string, { description?: string; parameters?: { properties?: Record<string, unknown> } }>;
  children?: SchemaNode[];
}

function candidates(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const tree = JSON.parse(text.slice(text.indexOf("["), text.lastIndexOf("]") + 1)) as SchemaNode[];
  const found: string[] = [];
  const SELECTING = ["vms", "all", "pool", "exclude", "resources", "cleanup-disks", "remove_storages", "disk"];
  const DESCRIPTION =
    /\b(all|every|bulk)\b[^.]*\b(VMs?|guests?|containers?|watchdogs)\b|\bprune|\bdestroy|\bwipe|\bremove an? |\bunmount|\bdelete (pool|storage)\b|\breboot|\bshutdown a node|access control|stop a task/i;
  const walk = (node: SchemaNode) => {
    for (const [method, info] of Object.entries(node.info ?? {})) {
      if (method === "GET" || node.path.includes("{vmid}")) continue;
      const params = Object.keys(info.parameters?.properties ?? {});
      if (
        DESCRIPTION.test(info.description ?? "") ||
        params.some((p) => SELECTING.includes(p)) ||
        /^\/cluster\/ha\/(groups|rules)\/|^\/cluster\/ha\/status\//.test(node.path)
      )
        found.push(`${method} ${node.path}`);
    }
    node.children?.forEach(walk);
  };
  tree.forEach(walk);
  return found;
}

describe.skipIf(!haveSharedData("the all-guests table against the PVE 9.1 schema"))("the PVE 9.1 schema", () => {
  const found = candidates(SCHEMA_FILES["9.1"].file);
  const inTable = new Set(ALL_GUESTS_TABLE.flatMap((entry) => entry.methods.map((m) => `${m} ${entry.template}`)));

  test("every candidate is in the table or reviewed", () => {
    expect(found.length).toBeGreaterThan(30);
    expect(found.filter((c) => !inTable.has(c) && !(c in REVIEWED))).toEqual([]);
  });

  test("every table entry is one of the schema's candidates", () => {
    const all = new Set(candidates(SCHEMA_FILES["9.1"].file));
    expect([...inTable].filter((entry) => !all.has(entry))).toEqual([]);
  });

  test("nothing reviewed is stale", () => {
    expect(Object.keys(REVIEWED).filter((c) => !found.includes(c))).toEqual([]);
  });
});

describe.skipIf(!haveSharedData("the retired all-guests entries against the PVE 6.4, 7.4 and 8.4 schemas"))(
  "older schemas",
  () => {
    const current = new Set(candidates(SCHEMA_FILES["9.1"].file));
    const older = [...new Set((["6.4", "7.4", "8.4"] as const).flatMap((v) => candidates(SCHEMA_FILES[v].file)))];
    const retired = new Set(RETIRED_ALL_GUESTS.flatMap((entry) => entry.methods.map((m) => `${m} ${entry.template}`)));

    test("every candidate that 9.1 no longer has is in the retired table or reviewed", () => {
      expect(older.filter((c) => !current.has(c) && !retired.has(c) && !(c in REVIEWED))).toEqual([]);
    });

    test("every retired entry is gone from 9.1 and a candidate of an older version", () => {
      expect([...retired].filter((entry) => current.has(entry) || !older.includes(entry))).toEqual([]);
    });
  },
);
