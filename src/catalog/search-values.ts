// Values typed in a query, recognised by the kind of parameter that takes them: a volume ID
// ("local:vztmpl/debian.tar.zst"), a user or token ID ("alice@pve", "root@pam!ci"), an HA
// resource ("vm:100"), a task's UPID, a replication job ("100-0"), an address, a MAC, a block
// device. Which parameters take which kind is read from the schema (formats, patterns, names
// and descriptions of parameters), so "pveam remove local:vztmpl/x" leans to the endpoints that
// take a volume ID, and "add carol@pve to a group" to those that take a user.
import type { Endpoint } from "./model.ts";
import { eachReturnedField, placeholders, propertyStringKeys } from "./model.ts";
import { STOPWORDS } from "./text.ts";

export type ValueKind =
  | "volume"
  | "user"
  | "role"
  | "token"
  | "ha"
  | "task"
  | "replication"
  | "cidr"
  | "ip"
  | "mac"
  | "device"
  | "calendar"
  | "guests"
  | "target"
  | "port"
  | "iface"
  | "pci"
  | "key"
  | "timezone"
  | "acl"
  | "server"
  | "file"
  | "image"
  | "size"
  | "url";

/**
 * The kinds of value a path in a file system is: counted only in a query about a guest, and
 * never a value an endpoint must take (a path may only say where or why).
 */
export const PATH_KINDS: ReadonlySet<ValueKind> = new Set(["file", "image"]);

/** The index term that stands for a kind of value (no word can look like it). */
export const valueTerm = (kind: ValueKind) => `#${kind}`;

/**
 * An ACL path: those PVE::AccessControl::check_path accepts and those the 9.1 schema's permission
 * checks name ("/vms/100", "/pool/dev", "/sdn/zones/office/vnet10", "/access/realm/ldap",
 * "/mapping/pci/gpu", "/mapping/notifications"), less those an API path also starts with
 * ("/nodes/pve1", "/storage/local", "/access/groups/x"), which name an endpoint.
 */
const ACL_PATH = new RegExp(
  "^/(?:" +
    [
      "vms(?:/[1-9]\\d{2,})?",
      "pool(?:/[\\w.-]+)*",
      "sdn(?:/zones(?:/[\\w.-]+(?:/[\\w.-]+(?:/\\d+)?)?)?|/vnets/[\\w.-]+|/(?:fabrics|ipams|dns|controllers)(?:/[\\w.-]+)?)?",
      "access/realm(?:/[\\w.-]+)?",
      "mapping/(?:notifications|pci|usb|dir)(?:/[\\w.-]+)?",
    ].join("|") +
    ")$",
);

/**
 * The ACL paths check_path accepts that an API path spells too: /access, /access/groups and a
 * group, /nodes and a node, /storage and a storage. They name an endpoint, unless the query
 * speaks of access ("revoke joe@pve's access to /storage/backup").
 */
const SHARED_ACL_PATH = /^\/(?:access(?:\/groups(?:\/[\w.-]+)?)?|nodes(?:\/[\w.-]+)?|storage(?:\/[\w.-]+)?)\/?$/;

/**
 * The words the ACL's endpoints describe what they grant with: "Access control path", "List of
 * roles", "Allow to propagate (inherit) permissions" (PUT /access/acl), "Retrieve effective
 * permissions" (GET /access/permissions), the privileges a role holds, and granting and revoking
 * them. Each says on its own that a path is an ACL's.
 */
const GRANTING_WORDS = /^(?:acls?|permissions?|roles?|privileges?|grant(?:s|ed)?|revoked?|revokes)$/i;
/** Words that say so only with someone to grant to (a user, a token, a role): "revoke joe@pve's access to …". */
const ACCESS_WORDS = /^(?:access|allowed|permitted)$/i;
/** Words of calling the API, whose path is then the API's ("what does /nodes/pve1 return, permission denied"). */
const CALLING_WORDS = /^(?:endpoint|endpoints|returns?|returned|call|calls|calling|denied|forbidden|response|40[13])$/i;

/**
 * A built-in role's name, as pve-access-control's create_roles makes them: PVE<category>Admin and,
 * where the category has user privileges, PVE<category>User (VM, Sys, Datastore, SDN, User, Pool,
 * Mapping), PVEAdmin, PVEAuditor, PVETemplateUser, and NoAccess (role_is_special). "Administrator"
 * is left out: it is also a person or a Windows account ("the Administrator password").
 */
const ROLE_NAME =
  /^(?:PVE(?:(?:VM|Sys|Datastore|SDN|User|Pool|Mapping)(?:Admin|User)|Admin|Auditor|TemplateUser)|NoAccess)$/;

/**
 * Whether a query speaks of who may do what, by a word of its own (not one inside a path it
 * types: "/access/groups" says nothing of access): then a path check_path accepts is an ACL path.
 * A word of granting says so; "access", "allowed" or "permitted" only with a user, a token or a
 * role typed; and no query that speaks of calling the API ("returns", "403", "denied") does.
 */
export function speaksOfAccess(query: string): boolean {
  const chunks = query.split(/\s+/).filter((chunk) => !chunk.includes("/"));
  const words = chunks.map((chunk) => valueText(chunk).replace(/[^a-z0-9]+$/i, ""));
  if (words.some((word) => CALLING_WORDS.test(word))) return false;
  if (words.some((word) => GRANTING_WORDS.test(word) || ROLE_NAME.test(word))) return true;
  const grantee = chunks.some((chunk) => {
    const kinds = valueKinds(chunk);
    return kinds.includes("user") || kinds.includes("token");
  });
  return grantee && words.some((word) => ACCESS_WORDS.test(word));
}

/**
 * A path in a file system ("/etc/resolv.conf", "/srv/media"): absolute, its first segment
 * starting with a letter, and no API path (those open with the API's top-level directories,
 * PVE::API2's children), ACL path (check_path's roots) or device (/dev/...), which are kinds of
 * their own or none.
 */
const FILE_PATH =
  /^\/(?!(?:access|cluster|nodes|pools?|storage|version|api2|vms|sdn|mapping|dev)(?:\/|$))[a-z][\w.@+-]*(?:\/[\w.@+-]+)*\/?$/i;

/**
 * A parameter that takes a path in a file system: a guest's file (agent file-read/-write), a
 * file inside a backup (file-restore), a directory shared or mounted (mapping/dir, a container's
 * mount point), a storage's directory, a backup's excluded paths and its directories, an archive
 * to restore. A command that "may start with an absolute path" (entrypoint) takes no path; a
 * disk imported from a path takes a disk image (IMAGE_PARAMETER).
 */
const FILE_PATH_PARAMETER =
  /^(?:the )?path to the (?:file|mount point)\b|\babsolute directory path\b|\bfile system path\b|^base64-path to the directory or file\b|\bfiles\/directories\b|\bto specified directory\b/i;

/** The formats of a disk image as qemu-img reads them (raw, qcow2, vmdk and the rest). */
const DISK_IMAGE = /\.(?:qcow2|raw|img|vmdk|vdi|vhdx?)$/i;

/** A parameter that takes a disk image by a path: "volume ID or absolute path" (import-from). */
const IMAGE_PARAMETER = /\bvolume id or absolute path\b/i;

const IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;

/**
 * A time zone as the node's `timezone` takes it ("The file '/usr/share/zoneinfo/zone.tab' contains
 * the list of valid names"): an area and a location (Europe/Berlin, America/New_York), or UTC.
 */
const TIME_ZONE =
  /^(?:UTC|GMT|(?:Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)\/[A-Z][A-Za-z_]*(?:[+-]\d{1,2})?(?:\/[A-Z][A-Za-z_]*)?)$/;

/**
 * Keys pressed together, as sendkey's `key` takes them ("The key (qemu monitor encoding)":
 * ctrl-alt-delete) or as people write them (ctrl+alt+del): a modifier first, then keys.
 */
const KEY_COMBINATION =
  /^(?:ctrl|alt|shift|meta)(?:[-+](?:ctrl|alt|shift|meta|del|delete|esc|tab|ret|[a-z0-9]|f\d{1,2}))+$/i;

/** A chunk of a query without the punctuation around it and a possessive ("bob@pam's account"): the value typed. */
export const valueText = (chunk: string) => chunk.replace(/^["'(]+|["'),.;!?]+$/g, "").replace(/'s$/i, "");

/**
 * The kinds of value a chunk of a query is, if any (punctuation around it ignored). `access`: the
 * query speaks of access (speaksOfAccess), so that a path an ACL and an API share is the ACL's.
 */
export function valueKinds(chunk: string, access = false): ValueKind[] {
  const v = valueText(chunk);
  if (access && SHARED_ACL_PATH.test(v)) return ["acl"];
  if (/^UPID:/i.test(v)) return ["task"];
  if (/^https?:\/\/[^\s/]+/i.test(v)) return ["url"];
  if (/^(?:vm|ct):\d+$/i.test(v)) return ["ha"];
  if (/^[^\s:/@!]+@[a-z][\w.-]*![a-z][\w.-]*$/i.test(v)) return ["token"];
  if (/^[^\s:/@!]+@[a-z][\w.-]*$/i.test(v)) return ["user"];
  if (ROLE_NAME.test(v)) return ["role"];
  if (/^(?:[0-9a-f]{2}:){5}[0-9a-f]{2}$/i.test(v)) return ["mac"];
  if (/^\/dev\/\S+$/.test(v)) return ["device"];
  if (/^\d{2,}-\d+$/.test(v)) return ["replication"];
  if (ACL_PATH.test(v)) return ["acl"];
  // A disk image by its path ("/root/disk.qcow2") is what a disk is imported from, too.
  if (FILE_PATH.test(v)) return DISK_IMAGE.test(v) ? ["file", "image"] : ["file"];
  const slash = v.indexOf("/");
  if (slash > 0 && IPV4.test(v.slice(0, slash)) && /^\/\d{1,2}$/.test(v.slice(slash))) return ["cidr"];
  if (IPV4.test(v)) return ["ip"];
  // host:port ("mail.corp.local:587", "10.1.1.9:8089"): an address with its port, though
  // parse_volume_id would read the first as a volume ID. A name without a dot before a number
  // stays a storage ("local-lvm:32" allocates 32 GiB there), and "01:00" a time of day.
  const hostPort = /^([a-z0-9][a-z0-9.-]*):\d{1,5}$/i.exec(v);
  if (hostPort && (/[a-z].*\.|\.[a-z]/i.test(hostPort[1]!) || IPV4.test(hostPort[1]!))) return ["port", "server"];
  // storage:name, as pve-storage parses a volume ID (PVE::Storage::parse_volume_id).
  if (/^[a-z][a-z0-9._-]*[a-z0-9]:[^:/\s][^\s]*$/i.test(v) && !/^https?:/i.test(v)) return ["volume"];
  if (VOLUME_NAMES.some((name) => name.test(v))) return ["volume"];
  if (CALENDAR_PARTS.some((part) => part.test(v))) return ["calendar"];
  if (IFACE_NAME.test(v)) return ["iface"];
  if (PCI_ADDRESS.test(v)) return ["pci"];
  if (KEY_COMBINATION.test(v)) return ["key"];
  if (TIME_ZONE.test(v)) return ["timezone"];
  return [];
}

/** A query's words in lower case, split at spaces, commas, semicolons and brackets. */
const lowerWords = (query: string) =>
  query
    .toLowerCase()
    .split(/[\s,;()]+/)
    .filter(Boolean);

const GUEST_WORD = /^(?:vms?|containers?|cts?|guests?|virtual|machines?)$/i;

/**
 * Whether a query names two guests or more: "VMs 101 and 102", "VM 100 and VM 101", "vm:201
 * and vm:202". Such a request acts on a list of guests (pve-vmid-list, pve-ha-resource-id-list),
 * not on one.
 */
export function namesGuests(query: string): boolean {
  const words = lowerWords(query);
  const ids = new Set<string>();
  let inList = false;
  for (const w of words) {
    const ha = /^(?:vm|ct):(\d+)$/.exec(w);
    if (ha) ids.add(ha[1]!);
    if (/^\d+$/.test(w) && inList) ids.add(w);
    else if (GUEST_WORD.test(w)) inList = true;
    else if (w !== "and" && !/^\d+$/.test(w)) inList = false;
  }
  return ids.size >= 2;
}

/**
 * Whether a query names the node something goes to: "to node pve5", "over to pve3", "from node
 * pve3 to pve1". "to pbs01" or "rename VM 135 to db-primary" may name anything: a bare name is
 * a node only when something moves over to it or from another node to it.
 */
export function namesTargetNode(query: string): boolean {
  const words = lowerWords(query);
  const nameAt = (at: number) => words[at]?.replace(/[.,!?]+$/, "");
  const fromNode = words.some((w, i) => w === "from" && (words[i + 1] === "node" || words[i + 1] === "host"));
  // "from pve2 to pve3": two hosts of one numbered series, when nothing else that is numbered
  // and moved is said ("move disk scsi0 from nfs1 to nfs2", "from vlan10 to vlan20").
  const from = words.findIndex((w) => w === "from");
  const source = from >= 0 && !words.some((w) => NOT_HOSTS.has(w)) ? nameAt(from + 1) : undefined;
  return words.some((w, i) => {
    if (w !== "to" && w !== "onto") return false;
    const said = words[i + 1] === "node" || words[i + 1] === "host";
    const name = nameAt(said ? i + 2 : i + 1);
    if (name === undefined || !/^[a-z][a-z0-9-]*$/.test(name)) return false;
    if (source !== undefined && sameSeries(source, name)) return true;
    return said || (/[0-9-]/.test(name) && (words[i - 1] === "over" || fromNode));
  });
}

/** Two names of one numbered series: "pve2" and "pve3", "hv-03" and "hv-04". */
function sameSeries(a: string, b: string): boolean {
  const series = /^([a-z][a-z-]*?)-?(\d+)$/;
  const x = series.exec(a);
  const y = series.exec(b);
  if (!x || !y || DEVICE_KEY.test(a) || DEVICE_KEY.test(b)) return false;
  return x[1] === y[1] && Number(x[2]) !== Number(y[2]);
}

/** What else is numbered and moved from one to another: disks and volumes, storages, networks. */
const NOT_HOSTS = new Set([
  "disk",
  "disks",
  "volume",
  "volumes",
  "storage",
  "storages",
  "datastore",
  "pool",
  "bridge",
  "vlan",
  "vlans",
  "nic",
  "interface",
  "network",
  "mountpoint",
  "drive",
]);
/** A guest's numbered device keys (scsi0, virtio1, net0, mp0, unused2 …) and a node's bridges and VLANs. */
const DEVICE_KEY = /^(?:scsi|sata|ide|virtio|net|mp|unused|efidisk|tpmstate|usb|hostpci|serial|vmbr|vlan)\d+$/;

/**
 * A schedule said in words: "every 15 minutes", "each night", "nightly", "every sunday at 2am".
 * It is a value for what takes a calendar event (pve-calendar-event), like "mon..fri 02:30".
 * "daily" and "weekly" are left out: they also count backups to keep ("keep 7 daily").
 */
export function namesRecurrence(query: string): boolean {
  const text = query.toLowerCase();
  return (
    /\b(?:every|each)\s+(?:\d+\s+|other\s+|few\s+)?(?:minutes?|hours?|days?|nights?|weeks?|months?|morning|evening|weekend|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b/.test(
      text,
    ) ||
    // "the nightly backup job", "backup job nightly" name a job that exists; "a nightly backup" asks for a schedule.
    /(?:^|\s)(?!(?:the|my|our|this|that|job)\s)\S+\s+(?:nightly|hourly)\b|^(?:nightly|hourly)\b/.test(text)
  );
}

/**
 * "mail.example.com port 587", "graphite host 10.0.0.5 on port 2003": a port given with a server
 * (a dotted name or an address), which is where something connects, not a firewall's port.
 */
export function namesServerPort(query: string): boolean {
  if (!namesPort(query)) return false;
  if (/\b[a-z0-9-]+(?:\.[a-z0-9-]+)+\b/i.test(query)) return true;
  // "our smtp relay on port 587"; "allow port 3306 from the app server" is a firewall rule's.
  return /\b(?:server|relay)s?\b/i.test(query) && !FIREWALL_ACTIONS.test(query);
}

/** The words of a firewall rule's action, and the firewall itself. */
const FIREWALL_ACTIONS = /\b(?:allow|deny|block|permit|reject|drop|open|let|firewall)\b/i;

/**
 * A port said with its word or its protocol: "port 8006", "ports 80 and 443", "tcp 443",
 * "udp/53". It is a value for a firewall rule's ports (pve-fw-dport-spec, pve-fw-sport-spec).
 */
export function namesPort(query: string): boolean {
  return /\bports?\s+\d{1,5}\b|\b(?:tcp|udp)(?:\s+port)?[\s/:]*\d{1,5}\b/i.test(query);
}

/**
 * A network device's name as the admin guide's "Naming Conventions" (chapter-sysadmin) writes
 * them: systemd's en* names (eno1, enp3s0f0, ens18), eth[N], bridges vmbr[N], bonds bond[N], and
 * a VLAN as the device name, a period and its number (eno1.50, bond1.30). An en* name needs a
 * digit: "enable" is a word.
 */
const IFACE_NAME = /^(?:vmbr\d+|bond\d+|eth\d+|en[opsx][a-z0-9]*\d[a-z0-9]*)(?:\.\d+)?$/i;

/**
 * A host PCI device's address as qemu-server writes it ($PCIRE in PVE::QemuServer::PCI: an
 * optional domain, bus:device, and the function): "0000:41:00.0", "01:00.0". The function is
 * required here, so a time of day ("01:00") is no address.
 */
const PCI_ADDRESS = /^(?:[0-9a-f]{4,}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-9a-f]$/i;
/** A parameter pattern that takes a PCI address (bus:device), not a fingerprint's 32 pairs. */
const PCI_PATTERN = /\[(?:a-f0-9|0-9a-f|A-Fa-f0-9|0-9a-fA-F)\]\{2\}:\[(?:a-f0-9|0-9a-f|A-Fa-f0-9|0-9a-fA-F)\]\{2\}/;
/** The formats that take one (qemu-server's hostpci[n]). */
const PCI_FORMATS: ReadonlySet<string> = new Set(["pve-qm-hostpci"]);

/** The formats that take a network device's name (pve-common's PVE::JSONSchema, qemu-server's net[n] bridge). */
const IFACE_FORMATS: ReadonlySet<string> = new Set([
  "pve-iface",
  "pve-iface-list",
  "pve-bridge-id",
  "pve-bridge-id-list",
]);

const WEEKDAY = "(?:mon|tue|wed|thu|fri|sat|sun)";
/**
 * The parts of a calendar event that no word looks like, as Proxmox's schedules write them
 * ("[WEEKDAY] [[YEARS-]MONTH-DAYS] [HOURS:MINUTES[:SECONDS]]", the admin guide's "Schedule
 * Format"; proxmox-time parses it): a weekday range or list ("mon..fri", "sat,sun"), a time of
 * day ("22:00", "02:30:00", "*:0/15"), a date pattern ("*-*-01"). A lone weekday is no value:
 * "mon" is also a Ceph monitor.
 */
const CALENDAR_PARTS = [
  new RegExp(`^${WEEKDAY}(?:\\.\\.|,)${WEEKDAY}(?:[.,]${WEEKDAY})*$`, "i"),
  /^(?:\d{1,2}|\*)(?:\/\d+)?:(?:\d{2}|\*|0\/\d+)(?::\d{2})?$/,
  /^(?:\d{4}|\*)-(?:\d{1,2}|\*)-(?:\d{1,2}|\*)$/,
];

/**
 * A volume's name without its storage, as pve-storage names what it stores: a backup archive
 * (PVE::Storage::archive_info: vzdump-<lxc|openvz|qemu>-..., .tgz or .tar/.vma with an optional
 * .gz/.lzo/.zst of Plugin::COMPRESSOR_RE), an ISO image ($ISO_EXT_RE_0: .iso, .img), a container
 * template ($VZTMPL_EXT_RE_1: .tar.gz/.xz/.zst/.bz2), a guest's disk image (vm-<vmid>-... or a
 * template's base-<vmid>-..., as the plugins' parse_volname reads them).
 */
const VOLUME_NAMES = [
  /^vzdump-(?:lxc|openvz|qemu)-.+\.(?:tgz|(?:tar|vma)(?:\.(?:gz|lzo|zst))?)$/,
  /^[^/\s]+\.(?:iso|img)$/i,
  /^[^/\s]+\.tar\.(?:gz|xz|zst|bz2)$/i,
  /^(?:vm|base)-\d+-(?:disk|cloudinit|state)[^/\s]*$/,
];

/**
 * The formats that take a single address: pve-common's ip, ipv4, ipv6, address, ip-list and
 * address-list (PVE::JSONSchema), IPorCIDR, pve-firewall's IPorCIDRorAlias and
 * pve-fw-addr-spec (an address, a range, a network or an alias: PVE::Firewall::parse_address_list),
 * and pve-container's lxc-ip-with-ll-iface (an IP, a link-local one with its interface:
 * PVE::LXC::Config::verify_ip_with_ll_iface), alone or in a list. A storage's server
 * (pve-storage-server) takes a name as often as an address and is left out.
 */
const IP_FORMATS: ReadonlySet<string> = new Set([
  "ip",
  "ipv4",
  "ipv6",
  "address",
  "ip-list",
  "address-list",
  "IPorCIDR",
  "IPorCIDRorAlias",
  "pve-fw-addr-spec",
  "lxc-ip-with-ll-iface",
  "lxc-ip-with-ll-iface-list",
]);

/**
 * An amount of space with its unit, as a size parameter's pattern writes it (resize's `size`
 * "\\+?\\d+(\\.\\d+)?[KMGT]?", a Ceph pool's `target_size`): "20G", "+10G", "32GB", "1.5T", and
 * said with a space ("20 GB", "8 GiB"). The unit is a capital M, G or T, or is spelled with its
 * B ("20gb"): "5 m" is minutes, "16k" a block size.
 */
const SIZE = /(?:^|\s)\+?\d+(?:\.\d+)?\s?(?:[MGT](?:i?B)?|[mgt]i?b)(?=$|[\s,.;:!?)])/g;

/**
 * The words after an amount that leave it by itself: where it goes ("by 20G", "20 GB to the
 * disk", "12 GB onto the rootfs") and what it changes ("8 GB bigger").
 */
const AFTER_SIZE: ReadonlySet<string> = new Set([
  "to",
  "onto",
  "into",
  "on",
  "in",
  "at",
  "bigger",
  "larger",
  "smaller",
]);
/** "20G more", "30 GB extra", unless a noun follows ("2 GB more memory"). */
const MORE: ReadonlySet<string> = new Set(["more", "extra"]);

/**
 * What the schema measures by an amount other than disk space: the parameters it gives an
 * "Amount of" (`memory`, `swap`, `balloon`: "Amount of target RAM for the VM in MiB") and the
 * noun that follows the words ("ram"). A query that names one gives its amounts to it.
 */
export function measuredWords(endpoints: readonly Endpoint[]): Set<string> {
  const words = new Set<string>();
  for (const e of endpoints)
    for (const [name, p] of Object.entries(e.parameters)) {
      const amount = /^amount of (?:target |online )?(\w+)/i.exec(
        typeof p.description === "string" ? p.description : "",
      );
      if (!amount) continue;
      words.add(name.toLowerCase());
      words.add(amount[1]!.toLowerCase());
    }
  return words;
}

/**
 * Whether a query gives an amount of space by itself ("grow scsi0 by 20G", "add 20 GB to the
 * disk", "make it 8 GB bigger"), the value a size parameter takes. An amount that qualifies
 * the noun after it is what that thing has ("a 50G volume", "8 GB of RAM", "a 4TB drive"), and
 * in a query that names a measure (`measured`: memory, RAM, swap) it is that measure's.
 */
export function namesSize(query: string, measured: ReadonlySet<string> = new Set()): boolean {
  for (const m of query.matchAll(SIZE)) {
    const rest = query.slice(m.index + m[0].length);
    const [next, after] = rest.toLowerCase().match(/[a-z]+/g) ?? [];
    const alone =
      /^\s*(?:[,.;:!?)]|$)/.test(rest) ||
      AFTER_SIZE.has(next!) ||
      (MORE.has(next!) && (after === undefined || STOPWORDS.has(after)));
    // "--memory 4G" names the measure by its option.
    if (alone) return !lowerWords(query).some((w) => measured.has(w.replace(/^[-"'(]+|[.!?:"')]+$/g, "")));
  }
  return false;
}

/** A parameter whose pattern takes a size with its unit ("20G"). */
function takesSize(name: string, pattern: string): boolean {
  if (!pattern || !/size/i.test(name)) return false;
  try {
    return new RegExp(`^(?:${pattern})$`).test("20G");
  } catch {
    return false;
  }
}

/** The kinds of value a parameter takes, by its format, pattern, name or description. */
function parameterKinds(name: string, p: Endpoint["parameters"][string], home: string): ValueKind[] {
  const format = typeof p.format === "string" ? p.format : "";
  const description = typeof p.description === "string" ? p.description : "";
  const pattern = typeof p.pattern === "string" ? p.pattern : "";
  const kinds: ValueKind[] = [];
  if (format === "pve-volume-id" || /\bvolume (?:identifier|id)\b/i.test(description) || name === "volume")
    kinds.push("volume");
  if (format.startsWith("pve-userid") || name === "userid") kinds.push("user");
  // A built-in role is granted (the ACL's `roles`); it cannot be made, changed or deleted
  // (PVE::API2::Role: create_role refuses IDs in the 'PVE' namespace, update_role and delete_role
  // die for role_is_special), and reading one needs no value's help.
  if (format === "pve-roleid-list") kinds.push("role");
  if (/\bAPI token ID\b/i.test(description)) kinds.push("token");
  if (format.startsWith("pve-ha-resource")) kinds.push("ha");
  if (name === "upid") kinds.push("task");
  if (format === "pve-replication-job-id") kinds.push("replication");
  if (/CIDR/.test(format) || format === "pve-fw-addr-spec" || name === "cidr") kinds.push("cidr");
  if (IP_FORMATS.has(format) || /^ip$/.test(name)) kinds.push("ip");
  if (format === "mac-addr" || /^mac(?:addr)?$/.test(name)) kinds.push("mac");
  if (format === "pve-calendar-event") kinds.push("calendar");
  if (format === "pve-vmid-list" || format === "pve-ha-resource-id-list") kinds.push("guests");
  if (format === "pve-node" && /^target node\b/i.test(description)) kinds.push("target");
  if (format === "pve-fw-dport-spec" || format === "pve-fw-sport-spec") kinds.push("port");
  if (IFACE_FORMATS.has(format)) kinds.push("iface");
  if (takesSize(name, pattern)) kinds.push("size");
  if (PCI_FORMATS.has(format) || PCI_PATTERN.test(pattern)) kinds.push("pci");
  if (/\bqemu monitor encoding\b/i.test(description)) kinds.push("key");
  if (name === "timezone") kinds.push("timezone");
  // A URL is what a parameter of a URL's pattern ("https?://.*" of download-url's `url`), named
  // for one (`url`, `issuer-url`, `tos_url`), or described as one ("Server URL", "Redirection
  // Url") takes; not a URL-encoded text.
  if (/https?:\/\//.test(pattern) || /(?:^|[-_])url$/.test(name) || /\burl\b(?!-?encoded)/i.test(description))
    kinds.push("url");
  if (pattern.startsWith("^/dev/") || /\bblock device\b/i.test(description)) kinds.push("device");
  // Under /access a `path` is an ACL path ("Access control path" of PUT /access/acl, the path
  // GET /access/permissions dumps); a ticket's is the path it is checked on, no object of the request.
  if (name === "path" && home.startsWith("/access/") && !home.includes("ticket")) kinds.push("acl");
  // A parameter named `port` takes the port of a server to connect to (an SMTP relay's, a metric
  // server's): a server typed with its port counts for it ("mail.corp.lan port 587").
  if (name === "port") kinds.push("server");
  if (format === "pve-storage-path" || FILE_PATH_PARAMETER.test(description)) kinds.push("file");
  for (const [key, sub] of Object.entries(propertyStringKeys(p) ?? {})) {
    if (/^mac(?:addr)?$/.test(key)) kinds.push("mac");
    const text = (sub as { format?: unknown } | undefined)?.format;
    if (typeof text === "string" && /CIDR/.test(text)) kinds.push("cidr");
    if (typeof text === "string" && IFACE_FORMATS.has(text)) kinds.push("iface");
    const subPattern = (sub as { pattern?: unknown } | undefined)?.pattern;
    if (typeof subPattern === "string" && PCI_PATTERN.test(subPattern)) kinds.push("pci");
    const subDescription = (sub as { description?: unknown } | undefined)?.description;
    if (typeof subDescription === "string" && FILE_PATH_PARAMETER.test(subDescription)) kinds.push("file");
    if (typeof subDescription === "string" && IMAGE_PARAMETER.test(subDescription)) kinds.push("image");
  }
  return kinds;
}

/** How much a parameter named `port` takes a server typed with its port: less than a body parameter of its kind. */
const PORT_BY_NAME = 0.5;

/**
 * Per endpoint, the kinds of value it takes: 2 where a path placeholder takes it (it names the
 * object), else 1; 0.5 for a server's port taken by a parameter's name.
 */
export function endpointValueKinds(e: Endpoint): Map<ValueKind, number> {
  const inPath = new Set(placeholders(e.path));
  const out = new Map<ValueKind, number>();
  for (const [name, p] of Object.entries(e.parameters)) {
    for (const kind of parameterKinds(name, p, e.path)) {
      const where = inPath.has(name) ? 2 : kind === "server" ? PORT_BY_NAME : 1;
      out.set(kind, Math.max(out.get(kind) ?? 0, where));
    }
  }
  // The ACL list returns each entry's "Access control path": a path named asks for those entries too.
  eachReturnedField(e.returns, (name, prop) => {
    const description = (prop as { description?: unknown }).description;
    if (name === "path" && typeof description === "string" && /^access control path/i.test(description))
      out.set("acl", Math.max(out.get("acl") ?? 0, 1));
  });
  return out;
}

/**
 * One backup that exists, said in words: a determiner or an owner's name before it ("a backup",
 * "this one backup", "last Sunday's PBS backup"), maybe "file" or "archive" after it, and then
 * the phrase ends ("… of VM 101", "… so pruning never deletes it"). Not a compound's first
 * word ("the backup job", "a backup has been running"), nor one of many ("every single
 * backup"), nor one whose inside is asked ("the files inside the PBS backup").
 */
const ONE_BACKUP = new RegExp(
  String.raw`(?<!\b(?:every|each|all|any|inside|within|in)\s+)\b(a|an|the|this|that|one|single|[a-z]+['’]s)\s+` +
    String.raw`(?:(?:[a-z]+['’]s|last|latest|newest|oldest|previous|specific|particular|single|pbs|vzdump|full)\s+){0,3}` +
    String.raw`(?:backup|archive|dump)(\s+(?:file|archive))?` +
    String.raw`(?:$|[,.;:?!)]|\s+(?:of|from|on|in|so|to|as|for|and|with|that|which|it|must|should)\b)`,
  "i",
);

/** A time in the past that a backup was made at: "last Sunday", "yesterday", "2025-01-10". */
const WHEN_MADE =
  /\b(?:yesterday|last|ago|earlier|previous|latest|newest|oldest|(?:mon|tues|wednes|thurs|fri|satur|sun)day|\d{4}-\d{2}-\d{2})\b/i;

/** A backup to be made: "take a backup of VM 100", "I'd like a backup", "get me a backup". */
const BACKUP_TO_MAKE =
  /\b(?:take|takes|taking|took|make|makes|making|made|create|creates|creating|run|runs|running|start|starts|do|does|trigger|perform|kick|schedule|need|want|like|get|give|send)\s+(?:\S+\s+){0,2}(?:a|an|the|one)\s+(?:\S+\s+){0,2}?(?:backup|dump)\b/i;

/**
 * A backup that is a run, not a file: what it does ("the backup of VM 100 failed", "a backup …
 * hangs at 45%", "took three hours") or what a run has ("the log of the last backup").
 */
const BACKUP_RUN = new RegExp(
  String.raw`\b(?:backup|dump)\b(?:\s+(?:of|for)\s+(?:vm|ct|container|guest)?\s*\d+)?(?:\s+(?:\S+\s+){0,2}?)?` +
    String.raw`(?:fail|fails|failed|failing|run|runs|ran|running|hang|hangs|hung|hanging|stuck|take|takes|took|taking|finish|finished|start|started|complete|completed|succeed|succeeded)\b` +
    String.raw`|\b(?:log|logs|status|progress|duration|error|errors|task)\s+of\s+(?:\S+\s+){0,3}?(?:backup|dump)\b`,
  "i",
);

/**
 * Whether the query speaks of one backup that was made, not of backing up, a backup's run or a
 * backup job. Such a backup is a volume: pve-storage stores it as one of a storage's volumes,
 * of content type "backup" (PVE::Storage::Plugin::parse_volname answers 'backup' for a vzdump
 * archive), and the admin guide adds notes to backups "via the storage content API"
 * (chapter-vzdump, "Backup Notes"). So "protect last Sunday's backup of VM 330" speaks of what a
 * volume ID names.
 */
export function namesOneBackup(query: string): boolean {
  const one = ONE_BACKUP.exec(query);
  if (!one || BACKUP_TO_MAKE.test(query) || BACKUP_RUN.test(query) || /\bjobs?\b/i.test(query)) return false;
  // "exclude /var/cache from the backup of container 101" may speak of the backups to come.
  return one[1]!.toLowerCase() !== "the" || one[2] !== undefined || WHEN_MADE.test(query);
}

/**
 * A storage named by its name after the word: "storage pbs01", "storage 'isos'", "the storage
 * called nas-backup". A name has a digit, a hyphen or quotes; "the storage team" names none,
 * an option's name ("--target-storage local-zfs") is no word of the query's, and a size ("the
 * storage 10G limit") is no name.
 */
export function namesStorageByName(query: string): boolean {
  return /(?<![-\w])(?:storage|datastore)\s+(?:called\s+|named\s+)?(?:['"‘“][^'"’”\s]+['"’”]|(?!\d+(?:[.,]\d+)?\s*[kmgtp]i?b?\b)(?=[\w.-]*[\d-])[a-z0-9][\w.-]*[a-z0-9])/i.test(
    query,
  );
}
