// Reads that reach beyond the cluster's own state (pure). Most GETs return what Proxmox keeps;
// these make a node contact another host, or read inside a guest or a backup. Derived from the
// PVE 9.1 API schema; test/unit/policy-reads.test.ts walks it and fails on any unclassified
// candidate (a GET with a host, URL or repository parameter, anything under /agent/, a volume
// or file parameter).
import type { Params } from "../proxmox/params.ts";
import { matchTemplate } from "./template.ts";
import { volumeGuests } from "./volumes.ts";

export type ReadReach =
  /** The node contacts a host the caller names (or a foreign hypervisor): SSRF-like reach. */
  | "outbound"
  /** The answer is data from inside a guest or a backup of one. */
  | "guest-content";

export interface ReadRule {
  template: string;
  reach: ReadReach;
  /** Why it is in the table, for the documentation and the refusal. */
  what: string;
  /** For guest-content reads: where the guest is named. */
  guestFrom?: "path" | "volume";
}

export const READ_TABLE: readonly ReadRule[] = [
  { template: "/nodes/{node}/query-url-metadata", reach: "outbound", what: "makes the node fetch a URL" },
  { template: "/nodes/{node}/query-oci-repo-tags", reach: "outbound", what: "makes the node query an OCI registry" },
  { template: "/nodes/{node}/scan/nfs", reach: "outbound", what: "makes the node query an NFS server" },
  { template: "/nodes/{node}/scan/cifs", reach: "outbound", what: "makes the node log in to an SMB server" },
  { template: "/nodes/{node}/scan/pbs", reach: "outbound", what: "makes the node log in to a Proxmox Backup Server" },
  { template: "/nodes/{node}/scan/iscsi", reach: "outbound", what: "makes the node query an iSCSI portal" },
  { template: "/cluster/acme/meta", reach: "outbound", what: "makes the node fetch an ACME directory URL" },
  { template: "/cluster/acme/tos", reach: "outbound", what: "makes the node fetch an ACME directory URL" },
  {
    template: "/nodes/{node}/storage/{storage}/import-metadata",
    reach: "outbound",
    what: "makes the node read a guest's settings from a foreign hypervisor (ESXi)",
  },
  {
    template: "/nodes/{node}/qemu/{vmid}/agent/file-read",
    reach: "guest-content",
    what: "reads a file inside the guest",
    guestFrom: "path",
  },
  {
    template: "/nodes/{node}/qemu/{vmid}/agent/exec-status",
    reach: "guest-content",
    what: "returns the output of a command run inside the guest",
    guestFrom: "path",
  },
  {
    // list and download today; any other file-restore action reads the same backup
    template: "/nodes/{node}/storage/{storage}/file-restore/{action}",
    reach: "guest-content",
    what: "lists or reads files inside a backup",
    guestFrom: "volume",
  },
  {
    // the user data holds the password hash and SSH keys the guest gets at boot
    template: "/nodes/{node}/qemu/{vmid}/cloudinit/dump",
    reach: "guest-content",
    what: "reads the cloud-init data handed to the guest (password hash, SSH keys)",
    guestFrom: "path",
  },
  {
    template: "/nodes/{node}/vzdump/extractconfig",
    reach: "guest-content",
    what: "reads the configuration inside a backup archive",
    guestFrom: "volume",
  },
];

/**
 * Reads of older Proxmox VE versions that 9.1 no longer has: the server may be any of them. Found
 * by the same walk over the 6.4, 7.4 and 8.4 schemas (test/unit/policy-reads.test.ts).
 */
export const RETIRED_READS: readonly ReadRule[] = [
  // PVE 6.4 to 8.4
  { template: "/nodes/{node}/scan/glusterfs", reach: "outbound", what: "makes the node query a GlusterFS server" },
];

/**
 * Guest agent reads that return facts about the guest, not its data: "what is the IP of VM 100"
 * is a read-only question. Every other GET under /agent/ counts as a read inside the guest, so a
 * command added to Proxmox later is refused until it is classified here.
 */
export const AGENT_INFO_READS: readonly string[] = [
  "info",
  "get-fsinfo",
  "get-host-name",
  "get-memory-block-info",
  "get-memory-blocks",
  "get-osinfo",
  "get-time",
  "get-timezone",
  "get-users",
  "get-vcpus",
  "network-get-interfaces",
];

/** Today's reads and the retired ones, in the order they are tried. */
const ALL_READS: readonly ReadRule[] = [...READ_TABLE, ...RETIRED_READS];

export interface JudgedRead {
  rule: ReadRule;
  /** The guests whose inside it reads (guest-content reads). */
  guests: number[];
}

const UNKNOWN_AGENT_READ: Omit<ReadRule, "template"> = {
  reach: "guest-content",
  what: "runs a guest agent command that is not known to return only facts about the guest",
  guestFrom: "path",
};

function judgeAgent(segments: readonly string[]): ReadRule | undefined {
  const values = matchTemplate("/nodes/{node}/qemu/{vmid}/agent/{command}", segments);
  if (!values || AGENT_INFO_READS.includes(values.command!)) return undefined;
  return { template: "/nodes/{node}/qemu/{vmid}/agent/{command}", ...UNKNOWN_AGENT_READ };
}

function guestsOf(rule: ReadRule, segments: readonly string[], params: Params): number[] {
  if (rule.guestFrom === "path") {
    const values = matchTemplate(rule.template, segments);
    return values?.vmid !== undefined && /^\d+$/.test(values.vmid) ? [Number(values.vmid)] : [];
  }
  if (rule.guestFrom === "volume" && params.volume !== undefined) {
    const volumes = Array.isArray(params.volume) ? params.volume : [params.volume];
    return [...new Set(volumes.flatMap((volume) => volumeGuests(String(volume))))];
  }
  return [];
}

/** The table entry a GET falls under, and whose inside it reads; undefined for ordinary reads. */
export function judgeRead(segments: readonly string[], params: Params): JudgedRead | undefined {
  const rule = ALL_READS.find((entry) => matchTemplate(entry.template, segments) !== undefined) ?? judgeAgent(segments);
  return rule ? { rule, guests: guestsOf(rule, segments, params) } : undefined;
}
