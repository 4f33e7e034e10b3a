// Which guest a volume belongs to, by any name Proxmox or the host gives it: a volume id of any
// storage type, its block device or dataset, its directory, a backup of it (pure, no I/O).
import { posix } from "node:path";

const STORAGE_PREFIX = /^[A-Za-z][A-Za-z0-9._-]*:/;

/**
 * Names that carry the owning guest, as pve-storage builds them (parse_volname of each plugin in
 * src/PVE/Storage/*Plugin.pm). Each form starts at the beginning of a volume name or after a
 * '/', so it also matches the device and dataset paths the plugins' path() and filesystem_path()
 * return: /dev/<vg>/vm-100-disk-0 (LVM, LVM-thin), /dev/zvol/<pool>/vm-100-disk-0 (ZFS),
 * /dev/rbd/<pool>/vm-100-disk-0 and /dev/rbd-pve/<fsid>/<pool>/... (krbd), rbd:<pool>/... (librbd).
 */
const VOLUME_FORMS = [
  // vm-100-disk-0, vm-100-cloudinit, vm-100-state-x, base-100-disk-0, subvol-100-disk-0,
  // basevol-100-disk-0; after '_' too: LVM snapshots are snap_vm-100-disk-0_<snap>
  // (LvmThinPlugin, and LVMPlugin's volume chains: snap_vm-100-disk-0_<snap>.qcow2)
  /(?:^|[/_])(?:vm|base|subvol|basevol)-(\d+)-/g,
  // the guest's directory in file storages: local:100/vm-100-disk-0.qcow2
  /^(\d+)\//g,
  // the same directory as a path: <storage path>/images/100/..., or the directory itself
  /(?:^|\/)images\/(\d+)(?:\/|$)/g,
  // vzdump archives: local:backup/vzdump-qemu-100-2025_01_01-00_00_00.vma.zst
  /(?:^|\/)vzdump-(?:qemu|lxc|openvz)-(\d+)-/g,
  // Proxmox Backup Server snapshots: pbs:backup/vm/100/2025-01-01T00:00:00Z, also inside namespaces
  /^backup\/(?:ns\/[^/]+\/)*(?:vm|ct)\/(\d+)(?:\/|$)/g,
];
/** Directory storages name snapshots snap-<snap>-<volume> (Plugin.pm get_snap_name); <snap> may hold '-vm-'. */
const DIR_SNAPSHOT = /(?:^|\/)snap-/;
const DIR_SNAPSHOT_VOLUME = /-(?:vm|base)-(\d+)-/g;
/** Device-mapper names, as /dev/mapper/<name> and udev's /dev/disk/by-id/dm-name-<name>. */
const DM_NAME = /(?:\/dev\/mapper\/|(?:^|\/)dm-name-)([^/]+)/g;

/**
 * The logical volume inside a device-mapper name. lvm2 builds it as <vg>-<lv>[-<layer>] with
 * every '-' inside the VG and LV names doubled (libdm dm_build_dm_name, _quote_hyphens), so
 * pve-vm--100--disk--0 is VG pve, LV vm-100-disk-0.
 */
export function dmLogicalVolume(name: string): string | undefined {
  const parts: string[] = [];
  let current = "";
  for (let i = 0; i < name.length; i++) {
    if (name[i] !== "-") current += name[i];
    else if (name[i + 1] === "-") {
      current += "-";
      i++;
    } else {
      parts.push(current);
      current = "";
    }
  }
  parts.push(current);
  return parts.length >= 2 ? parts[1] : undefined;
}

function formGuests(name: string, found: Set<number>): void {
  for (const form of VOLUME_FORMS) for (const match of name.matchAll(form)) found.add(Number(match[1]));
  if (DIR_SNAPSHOT.test(name)) for (const match of name.matchAll(DIR_SNAPSHOT_VOLUME)) found.add(Number(match[1]));
}

/**
 * Guest ids one volume name or path belongs to (a linked clone belongs to its own guest and its
 * base). A path is also judged as the kernel resolves it (// and . and .. removed).
 */
export function volumeGuests(text: string): number[] {
  const trimmed = text.trim();
  const names = new Set([trimmed, trimmed.replace(STORAGE_PREFIX, "")]);
  if (trimmed.startsWith("/")) names.add(posix.normalize(trimmed));
  const found = new Set<number>();
  for (const name of names) {
    formGuests(name, found);
    for (const match of name.matchAll(DM_NAME)) {
      const lv = dmLogicalVolume(match[1]!);
      if (lv) formGuests(lv, found);
    }
  }
  return [...found];
}

/**
 * The parts of a free-form value that could name a volume: property strings split on ',', QEMU
 * `args` on whitespace (-drive file=...), JSON (-blockdev {"filename": ...}) on quotes and
 * brackets; a leading `key=` is removed (file=, mp=, import-from=).
 */
export function volumeCandidates(text: string): string[] {
  return text
    .split(/[\s,;"'{}[\]()]+/)
    .map((part) => part.replace(/^[A-Za-z0-9_-]+=/, ""))
    .filter((part) => part !== "");
}
