// Which guests a write touches, read from its path and parameters alone (pure, no I/O).
// Forms follow the PVE 9.1 API schema: pve-vmid / pve-vmid-list parameters (split as Proxmox
// splits lists), HA resource ids, replication job ids, task ids, volume ids and device paths of
// every storage type, ACL paths, and the actions on all guests (all-guests.ts).
import type { HttpMethod } from "../proxmox/calls.ts";
import { scalarTexts, type ParamValue, type Params } from "../proxmox/params.ts";
import { pathSegments } from "../proxmox/path.ts";
import { parseUpid } from "../tasks/upid.ts";
import { aclReach } from "./acl.ts";
import { allGuestsAction, type AllGuestsAction } from "./all-guests.ts";
import { isTruthy, listItems, readGuestIds, readHaGuestIds, type ReadList } from "./lists.ts";
import { volumeCandidates, volumeGuests } from "./volumes.ts";

export { isTruthy, volumeGuests, type AllGuestsAction };

export interface GuestTouch {
  vmid: number;
  /** How the write names the guest, for the refusal message, e.g. "parameter vms". */
  via: string;
}

/** A value that could name guests but cannot be read, so the policy cannot tell which. */
export interface Unreadable {
  /** Where it is, e.g. "parameter vms". */
  where: string;
  value: string;
}

export interface Touches {
  guests: GuestTouch[];
  all?: AllGuestsAction;
  unreadable?: Unreadable[];
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

const DIGITS = /^\d+$/;
/** pve-replication-job-id: <guest>-<job number> (PVE::ReplicationConfig::parse_replication_job_id). */
const REPLICATION_JOB = /^(\d+)-\d+$/;

/** The guest ids named by a vmid-list value: 100, "100,101", ["100", 101]; items that are not ids are left out. */
export function guestIds(value: ParamValue): number[] {
  return readGuestIds(value).found;
}

/** The guest ids named by HA resource ids: "vm:100", "ct:101", "102", lists of them. */
export function haGuestIds(value: ParamValue): number[] {
  return readHaGuestIds(value).found;
}

/**
 * The guest a task belongs to, from its UPID: guest tasks (qmstart, vzdump, ...) carry the guest
 * id as the UPID's id, and tasks on a guest's volumes carry <guest>@<storage> (pve-storage:
 * imgdel in PVE::API2::Storage::Content delete, prunebackups in PruneBackups). Ceph tasks carry
 * OSD numbers there, which are not guests.
 */
const TASK_GUEST = /^(\d+)(?:@|$)/;

function taskGuest(segment: string): number | undefined {
  const upid = parseUpid(segment);
  const id = upid ? TASK_GUEST.exec(upid.id)?.[1] : undefined;
  if (!upid || id === undefined || upid.type.startsWith("ceph")) return undefined;
  return Number(id);
}

/** Every guest a write with this path and these parameters would touch; `method` narrows the all-guests table. */
export function guestsTouched(path: string, params: Params, method?: HttpMethod): Touches {
  const guests: GuestTouch[] = [];
  const unreadable: Unreadable[] = [];
  const add = (ids: readonly number[], via: string) => {
    for (const vmid of ids) guests.push({ vmid, via });
  };
  const read = (list: ReadList<number>, via: string, where: string) => {
    add(list.found, via);
    for (const value of list.unreadable) unreadable.push({ where, value });
  };
  const segments = pathSegments(path);

  segments.forEach((segment, i) => {
    const next = segments[i + 1];
    if ((segment === "qemu" || segment === "lxc") && next !== undefined && DIGITS.test(next)) {
      add([Number(next)], `the path (/${segment}/${next})`);
    }
    add(volumeGuests(segment), `the volume ${segment} in the path`);
  });
  if (segments[0] === "cluster" && segments[1] === "ha" && segments[2] === "resources" && segments[3] !== undefined) {
    read(readHaGuestIds(segments[3]), `the HA resource ${segments[3]} in the path`, "the HA resource in the path");
  }
  const replicationIndex = segments.indexOf("replication");
  const replicationJob = replicationIndex >= 0 ? REPLICATION_JOB.exec(segments[replicationIndex + 1] ?? "") : null;
  if (replicationJob)
    add([Number(replicationJob[1])], `the replication job ${segments[replicationIndex + 1]} in the path`);
  if (segments[0] === "nodes" && segments[2] === "tasks" && segments[3] !== undefined) {
    const vmid = taskGuest(segments[3]);
    if (vmid !== undefined) add([vmid], `the task ${segments[3]} in the path`);
  }

  if (segments[0] === "access" && segments[1] === "acl") {
    // granting or revoking rights on a guest changes who may act on it
    const propagate = params.propagate === undefined || isTruthy(params.propagate);
    for (const aclPath of params.path === undefined ? [] : scalarTexts(params.path)) {
      const reach = aclReach(aclPath, propagate);
      if (reach.kind === "guest") add([reach.vmid], `the ACL path ${aclPath}`);
      if (reach.kind === "unreadable") unreadable.push({ where: "parameter path", value: aclPath });
    }
  }
  for (const [name, value] of Object.entries(params)) {
    if (GUEST_ID_PARAMS.has(name)) read(readGuestIds(value), `parameter ${name}`, `parameter ${name}`);
    // an exclusion list leaves guests out (all-guests.ts); one that cannot be read leaves out nothing
    if (name === "exclude") read({ found: [], unreadable: readGuestIds(value).unreadable }, "", `parameter ${name}`);
    if (HA_SID_PARAMS.has(name))
      read(readHaGuestIds(value), `the HA resource in parameter ${name}`, `parameter ${name}`);
    if (name === "id" && replicationIndex >= 0) {
      for (const item of listItems(value)) {
        const job = REPLICATION_JOB.exec(item);
        if (job) add([Number(job[1])], `the replication job ${item} in parameter id`);
        else unreadable.push({ where: "parameter id", value: item });
      }
    }
    if (NOT_VOLUMES.has(name)) continue;
    for (const text of scalarTexts(value)) {
      for (const candidate of volumeCandidates(text)) {
        add(volumeGuests(candidate), `the volume ${candidate} in parameter ${name}`);
      }
    }
  }
  const all = allGuestsAction(segments, params, method);
  return {
    guests,
    ...(all ? { all } : {}),
    ...(unreadable.length > 0 ? { unreadable } : {}),
  };
}
