// Writes that act on every guest, or on guests chosen by something other than a guest id (a
// node, a storage, a pool, an HA group or rule, an ACL path), found by walking the PVE 9.1 API
// schema (test/unit/policy-all-guests.test.ts derives the candidates and checks this table).
// Pure: the path, the parameters and the method decide.
import type { HttpMethod } from "../proxmox/calls.ts";
import { scalarTexts, type ParamValue, type Params } from "../proxmox/params.ts";
import { aclReach } from "./acl.ts";
import { isTruthy, readGuestIds } from "./lists.ts";
import { matchTemplate } from "./template.ts";

export interface AllGuestsAction {
  action: string;
  /** Guests an explicit exclusion list leaves out. */
  except: number[];
  /** The table entry's template, e.g. /nodes/{node}/storage/{storage}/prunebackups. */
  template: string;
  /** How to narrow the request so that it leaves out the guests `ids`; `rule` is an allow rule naming the endpoint. */
  narrow: (ids: string, rule: string) => string;
}

interface Request {
  values: Record<string, string>;
  params: Params;
}

export interface AllGuestsEntry {
  methods: readonly HttpMethod[];
  template: string;
  /** The action when this request reaches guests it does not name; undefined when it names them all. */
  judge: (request: Request) => Omit<AllGuestsAction, "template"> | undefined;
}

const BY_HAND = "make this change by hand";
const byList = (ids: string) =>
  `Name the guests explicitly and leave out ${ids} (vms= for startall, stopall, suspendall, migrateall and bulk actions; vmid= or exclude= for backups), or ${BY_HAND}.`;
const explicitAllow = (rule: string) =>
  `ask the operator to allow exactly this endpoint in PROXMOX_ALLOW (e.g. '${rule}')`;
const noList = (what: string) => (_ids: string, rule: string) =>
  `${what} cannot leave guests out: ${BY_HAND}, or ${explicitAllow(rule)}.`;

function text(value: ParamValue | undefined): string {
  return value === undefined ? "" : scalarTexts(value).join(",");
}

/** True when a guest-id list names at least one guest (an empty `vms` means all). */
function names(value: ParamValue | undefined): boolean {
  return value !== undefined && readGuestIds(value).found.length > 0;
}

function all(action: string, narrow: AllGuestsAction["narrow"] = byList, except: number[] = []) {
  return { action, except, narrow };
}

function backupSelection({ params }: Request, job?: string) {
  if (isTruthy(params.all) || params.exclude !== undefined) {
    return all(
      "a backup of all guests",
      byList,
      params.exclude === undefined ? [] : readGuestIds(params.exclude).found,
    );
  }
  if (params.pool !== undefined) {
    return all(`a backup of pool ${text(params.pool)} (its members cannot be checked locally)`);
  }
  if (job !== undefined && params.vmid === undefined) {
    return all(
      `a change to backup job ${job}, whose guests cannot be checked locally`,
      (ids, rule) =>
        `Give the job's guests explicitly with vmid= (leaving out ${ids}), or ${BY_HAND}, or ${explicitAllow(rule)}.`,
    );
  }
  return undefined;
}

const NODE_BULK = ["startall", "stopall", "suspendall", "migrateall"] as const;
const CLUSTER_BULK = ["start", "shutdown", "suspend", "migrate"] as const;
const DISK_STORAGES = {
  lvm: "LVM volume group",
  lvmthin: "LVM thin pool",
  zfs: "ZFS pool",
  directory: "directory storage",
};

const destroyCephPool: AllGuestsEntry["judge"] = ({ values }) =>
  all(`destroying Ceph pool ${values.name}, with every guest disk image in it`, noList("It"));

export const ALL_GUESTS_TABLE: readonly AllGuestsEntry[] = [
  ...NODE_BULK.map((action): AllGuestsEntry => ({
    methods: ["POST"],
    template: `/nodes/{node}/${action}`,
    // reaches every guest on the node unless vms lists them
    judge: ({ values, params }) => (names(params.vms) ? undefined : all(`${action} on node ${values.node}`)),
  })),
  ...CLUSTER_BULK.map((action): AllGuestsEntry => ({
    methods: ["POST"],
    template: `/cluster/bulk-action/guest/${action}`,
    // reaches every guest in the cluster unless vms lists them
    judge: ({ params }) => (names(params.vms) ? undefined : all(`the cluster-wide bulk ${action}`)),
  })),
  {
    methods: ["POST"],
    template: "/nodes/{node}/status",
    // reaches every guest on the node (reboot, shutdown)
    judge: ({ values, params }) => {
      const command = text(params.command);
      return /reboot|shutdown/.test(command)
        ? all(`${command} of node ${values.node}, which stops every guest on it`)
        : undefined;
    },
  },
  {
    methods: ["POST"],
    template: "/nodes/{node}/vzdump",
    // reaches every guest (all=1, exclude=) or the members of a pool (pool=)
    judge: (request) => backupSelection(request),
  },
  {
    methods: ["POST"],
    template: "/cluster/backup",
    // reaches every guest (all=1, exclude=) or the members of a pool (pool=), at every run of the job
    judge: (request) => backupSelection(request),
  },
  {
    methods: ["PUT"],
    template: "/cluster/backup/{id}",
    // reaches the job's guests, unknown locally unless vmid= gives them (a changed mode or schedule acts on them)
    judge: (request) => backupSelection(request, request.values.id),
  },
  {
    methods: ["DELETE"],
    template: "/nodes/{node}/storage/{storage}/prunebackups",
    // reaches the backups of every guest on the storage unless vmid= names one
    judge: ({ values, params }) =>
      params.vmid !== undefined
        ? undefined
        : all(
            `pruning the backups of every ${params.type === undefined ? "guest" : `${text(params.type)} guest`} on storage ${values.storage}`,
            (_ids, rule) =>
              `Prune one guest's backups at a time with vmid= (never a protected one), or ${BY_HAND}, or ${explicitAllow(rule)}.`,
          ),
  },
  ...Object.entries(DISK_STORAGES).map(([kind, label]): AllGuestsEntry => ({
    methods: ["DELETE"],
    template: `/nodes/{node}/disks/${kind}/{name}`,
    // reaches every guest volume on that storage
    judge: ({ values }) =>
      all(`removing ${label} ${values.name} on node ${values.node}, with every guest volume on it`, noList("It")),
  })),
  {
    methods: ["PUT"],
    template: "/nodes/{node}/disks/wipedisk",
    // reaches every guest volume on the disk
    judge: ({ values, params }) =>
      all(
        `wiping disk ${text(params.disk)} on node ${values.node}, which destroys any guest volume on it`,
        noList("It"),
      ),
  },
  {
    methods: ["DELETE"],
    template: "/nodes/{node}/ceph/pool/{name}",
    // reaches every guest disk image in the pool
    judge: destroyCephPool,
  },
  {
    methods: ["PUT", "DELETE"],
    template: "/cluster/ha/groups/{group}",
    // reaches the group's guests, unknown locally (a change relocates them)
    judge: ({ values }) =>
      all(`a change to HA group ${values.group}, whose guests cannot be checked locally`, noList("A group change")),
  },
  {
    methods: ["PUT", "DELETE"],
    template: "/cluster/ha/rules/{rule}",
    // reaches the rule's guests, unknown locally (a change moves them)
    judge: ({ values }) =>
      all(`a change to HA rule ${values.rule}, whose guests cannot be checked locally`, noList("A rule change")),
  },
  ...["disarm-ha", "arm-ha"].map((action): AllGuestsEntry => ({
    methods: ["POST"],
    template: `/cluster/ha/status/${action}`,
    // reaches every HA-managed guest
    judge: () => all(`${action}, which changes how HA handles every HA-managed guest`, noList("It")),
  })),
  {
    methods: ["PUT"],
    template: "/access/acl",
    // reaches every guest (/ or /vms, propagated) or a pool's guests (/pool/...)
    judge: ({ params }) => {
      const propagate = params.propagate === undefined || isTruthy(params.propagate);
      // an ACL path is one value, not a list: each given value whole
      for (const path of params.path === undefined ? [] : scalarTexts(params.path)) {
        const reach = aclReach(path, propagate);
        if (reach.kind === "all") return all(reach.what, noList("An ACL change"));
        if (reach.kind === "pool")
          return all(`the ACL on pool ${reach.pool}, whose guests cannot be checked locally`, noList("An ACL change"));
      }
      return undefined;
    },
  },
];

/**
 * Entries of older Proxmox VE versions that 9.1 no longer has: the server may be any of them.
 * Found by the same walk over the 6.4, 7.4 and 8.4 schemas (test/unit/policy-all-guests.test.ts).
 */
export const RETIRED_ALL_GUESTS: readonly AllGuestsEntry[] = [
  // PVE 6.4 and 7.4 (later /nodes/{node}/ceph/pool/{name})
  { methods: ["DELETE"], template: "/nodes/{node}/ceph/pools/{name}", judge: destroyCephPool },
];

/** Today's entries and the retired ones, in the order they are tried. */
const ALL_ENTRIES: readonly AllGuestsEntry[] = [...ALL_GUESTS_TABLE, ...RETIRED_ALL_GUESTS];

/**
 * The entry of ALL_GUESTS_TABLE this write falls under and what it does, when it reaches guests
 * it does not name. Without a method, every entry of the path counts.
 */
export function allGuestsAction(
  segments: readonly string[],
  params: Params,
  method?: HttpMethod,
): AllGuestsAction | undefined {
  for (const entry of ALL_ENTRIES) {
    if (method !== undefined && !entry.methods.includes(method)) continue;
    const values = matchTemplate(entry.template, segments);
    if (!values) continue;
    const judged = entry.judge({ values, params });
    if (judged) return { ...judged, template: entry.template };
  }
  return undefined;
}
