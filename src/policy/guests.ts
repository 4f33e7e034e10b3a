// Which guests a write touches, read from its path and parameters alone (pure, no I/O).
// Forms follow the PVE 9.1 API schema: pve-vmid / pve-vmid-list parameters, HA resource ids,
// replication job ids, volume ids of every storage type, and the all-guests actions.
import { scalarText, type ParamValue, type Params } from "../proxmox/params.ts";
import { pathSegments } from "../proxmox/path.ts";

export interface GuestTouch {
  vmid: number;
  /** How the write names the guest, for the refusal message, e.g. "parameter vms". */
  via: string;
}

/** An action on every guest of a node or of the cluster, minus those explicitly left out. */
export interface AllGuestsAction {
  action: string;
  /** Guests an explicit exclusion list leaves out. */
  except: number[];
}

export interface Touches {
  guests: GuestTouch[];
  all?: AllGuestsAction;
}

/** Parameters whose values are guest ids or lists of them (pve-vmid, pve-vmid-list). */
const GUEST_ID_PARAMS = new Set(["vmid", "newid", "target-vmid", "vms", "guest"]);
/** Parameters holding HA resource ids (vm:100, ct:100, or a bare 100). */
const HA_SID_PARAMS = new Set(["sid", "resources"]);
/**
 * Never read as volume ids: names and free text (a VM called vm-101-web, a note that mentions a
 * disk), and the JSON commands of /nodes/{node}/execute, which the gate checks one by one.
 */
const NOT_VOLUMES = new Set([
  "description",
  "comment",
  "comments",
  "notes",
  "notes-template",
  "name",
  "hostname",
  "alias",
  "tags",
  "commands",
]);
const ALL_GUEST_ACTIONS = new Set(["startall", "stopall", "suspendall", "migrateall"]);
const FALSE_VALUES = new Set(["", "0", "false", "no", "off"]);

const LIST_SEPARATORS = /[\s,;]+/;
const VMID = /^\d{1,9}$/;
const HA_SID = /^(?:(?:vm|ct):)?(\d{1,9})$/;
const REPLICATION_JOB = /^(\d{1,9})-\d+$/;
const STORAGE_PREFIX = /^[A-Za-z][A-Za-z0-9._-]*:/;
const VOLUME_FORMS = [
  // vm-100-disk-0, vm-100-cloudinit, vm-100-state-x, base-100-disk-0, subvol-100-disk-0, basevol-...
  /(?:^|\/)(?:vm|base|subvol|basevol)-(\d{1,9})-/g,
  // the guest's directory in file storages: local:100/vm-100-disk-0.qcow2
  /^(\d{1,9})\//g,
  // vzdump archives: local:backup/vzdump-qemu-100-2025_01_01-00_00_00.vma.zst
  /(?:^|\/)vzdump-(?:qemu|lxc|openvz)-(\d{1,9})-/g,
  // Proxmox Backup Server snapshots: pbs:backup/vm/100/2025-01-01T00:00:00Z, also inside namespaces
  /^backup\/(?:ns\/[^/]+\/)*(?:vm|ct)\/(\d{1,9})(?:\/|$)/g,
];

function scalars(value: ParamValue): string[] {
  return (Array.isArray(value) ? value : [value]).map(scalarText);
}

function listItems(value: ParamValue): string[] {
  return scalars(value)
    .flatMap((text) => text.split(LIST_SEPARATORS))
    .filter((item) => item !== "");
}

export function isTruthy(value: ParamValue | undefined): boolean {
  if (value === undefined) return false;
  return scalars(value).some((text) => !FALSE_VALUES.has(text.trim().toLowerCase()));
}

/** Guest ids a volume id belongs to (a linked clone belongs to its own guest and its base). */
export function volumeGuests(text: string): number[] {
  const volname = text.trim().replace(STORAGE_PREFIX, "");
  const found = new Set<number>();
  for (const form of VOLUME_FORMS) {
    for (const match of volname.matchAll(form)) found.add(Number(match[1]));
  }
  return [...found];
}

/** The guest ids named by a vmid-list value: 100, "100,101", ["100", 101]. */
export function guestIds(value: ParamValue): number[] {
  return listItems(value)
    .filter((item) => VMID.test(item))
    .map(Number);
}

/** The guest ids named by HA resource ids: "vm:100", "ct:101", "102", comma lists. */
export function haGuestIds(value: ParamValue): number[] {
  return listItems(value).flatMap((item) => {
    const match = HA_SID.exec(item);
    return match ? [Number(match[1])] : [];
  });
}

/** Parts of a (property) string value that could be volume ids: split on commas, `key=` removed. */
function volumeCandidates(text: string): string[] {
  return text.split(",").map((part) => part.replace(/^[A-Za-z0-9_-]+=/, ""));
}

function allGuestsAction(segments: readonly string[], params: Params): AllGuestsAction | undefined {
  const last = segments[segments.length - 1] ?? "";
  const explicit = params.vms !== undefined && guestIds(params.vms).length > 0;
  if (segments[0] === "nodes" && segments.length === 3 && ALL_GUEST_ACTIONS.has(last)) {
    return explicit ? undefined : { action: `${last} on node ${segments[1]}`, except: [] };
  }
  if (segments[0] === "cluster" && segments[1] === "bulk-action" && segments[2] === "guest") {
    return explicit ? undefined : { action: `the cluster-wide bulk ${last}`, except: [] };
  }
  if (segments[0] === "nodes" && segments.length === 3 && last === "status") {
    const command = params.command === undefined ? "" : scalars(params.command).join(",");
    if (/reboot|shutdown/.test(command))
      return { action: `${command} of node ${segments[1]}, which stops every guest on it`, except: [] };
  }
  const isBackup =
    (segments[0] === "nodes" && segments.length === 3 && last === "vzdump") ||
    (segments[0] === "cluster" && segments[1] === "backup" && segments.length <= 3);
  if (isBackup) {
    const except = params.exclude === undefined ? [] : guestIds(params.exclude);
    if (isTruthy(params.all) || params.exclude !== undefined) {
      return { action: "a backup of all guests", except };
    }
    if (params.pool !== undefined) {
      return {
        action: `a backup of pool ${scalars(params.pool).join(",")} (its members cannot be checked locally)`,
        except: [],
      };
    }
  }
  return undefined;
}

/** Every guest a write with this path and these parameters would touch. */
export function guestsTouched(path: string, params: Params): Touches {
  const guests: GuestTouch[] = [];
  const add = (ids: readonly number[], via: string) => {
    for (const vmid of ids) guests.push({ vmid, via });
  };
  const segments = pathSegments(path);

  segments.forEach((segment, i) => {
    const next = segments[i + 1];
    if ((segment === "qemu" || segment === "lxc") && next !== undefined && VMID.test(next)) {
      add([Number(next)], `the path (/${segment}/${next})`);
    }
    add(volumeGuests(segment), `the volume ${segment} in the path`);
  });
  if (segments[0] === "cluster" && segments[1] === "ha" && segments[2] === "resources" && segments[3] !== undefined) {
    add(haGuestIds(segments[3]), `the HA resource ${segments[3]} in the path`);
  }
  const replicationIndex = segments.indexOf("replication");
  const replicationJob = replicationIndex >= 0 ? REPLICATION_JOB.exec(segments[replicationIndex + 1] ?? "") : null;
  if (replicationJob)
    add([Number(replicationJob[1])], `the replication job ${segments[replicationIndex + 1]} in the path`);

  if (segments[0] === "access" && segments[1] === "acl") {
    // granting or revoking rights on a guest changes who may act on it
    for (const aclPath of scalars(params.path ?? [])) {
      const guest = /^\/vms\/(\d+)\/?$/.exec(aclPath);
      if (guest) add([Number(guest[1])], `the ACL path ${aclPath}`);
    }
  }
  for (const [name, value] of Object.entries(params)) {
    if (GUEST_ID_PARAMS.has(name)) add(guestIds(value), `parameter ${name}`);
    if (HA_SID_PARAMS.has(name)) add(haGuestIds(value), `the HA resource in parameter ${name}`);
    if (name === "id" && replicationIndex >= 0) {
      for (const item of listItems(value)) {
        const job = REPLICATION_JOB.exec(item);
        if (job) add([Number(job[1])], `the replication job ${item} in parameter id`);
      }
    }
    if (NOT_VOLUMES.has(name)) continue;
    for (const text of scalars(value)) {
      for (const candidate of volumeCandidates(text)) {
        add(volumeGuests(candidate), `the volume ${candidate} in parameter ${name}`);
      }
    }
  }
  const all = allGuestsAction(segments, params);
  return all ? { guests, all } : { guests };
}
