// A guest's volumes by every name the storage plugins and the host give them: volume ids, block
// devices (LVM, device-mapper, ZFS zvols, RBD), directories, snapshots, and the same inside
// QEMU `args` and container mount points.
import { describe, expect, test } from "bun:test";
import { guestsTouched } from "../../src/policy/guests.ts";
import { dmLogicalVolume, volumeCandidates, volumeGuests } from "../../src/policy/volumes.ts";
import type { Params } from "../../src/proxmox/params.ts";

describe("volumeGuests: devices and directories", () => {
  test.each([
    // LVM and LVM-thin: /dev/<vg>/<lv> (LVMPlugin path)
    ["/dev/pve/vm-100-disk-0", [100]],
    ["/dev/pve/snap_vm-100-disk-0_before", [100]],
    ["local-lvm:snap_vm-100-disk-0_before", [100]],
    ["lvm:snap_vm-100-disk-0_s1.qcow2", [100]],
    // device-mapper doubles the dashes inside VG and LV names
    ["/dev/mapper/pve-vm--100--disk--0", [100]],
    ["/dev/mapper/my--vg-vm--100--disk--0", [100]],
    ["/dev/mapper/pve-vm--100--disk--0-real", [100]],
    ["/dev/mapper/pve-snap_vm--100--disk--0_before", [100]],
    ["/dev/disk/by-id/dm-name-pve-vm--100--disk--0", [100]],
    ["/dev/mapper/pve-root", []],
    ["/dev/mapper/pve-data_tdata", []],
    // ZFS: zvols, datasets and their mount points
    ["/dev/zvol/rpool/data/vm-100-disk-0", [100]],
    ["/dev/zvol/rpool/data/vm-100-disk-0-part1", [100]],
    ["rpool/data/subvol-100-disk-0", [100]],
    ["/rpool/data/subvol-100-disk-0", [100]],
    // RBD: krbd devices and librbd paths
    ["/dev/rbd/ceph-vm/vm-100-disk-0", [100]],
    ["/dev/rbd-pve/9f3c1d2e-fsid/ceph-vm/vm-100-disk-1", [100]],
    ["rbd:ceph-vm/vm-100-disk-0:mon_host=10.0.0.1", [100]],
    // directory storages: images/<vmid>/, snapshots snap-<snap>-<volume>
    ["/var/lib/vz/images/100/vm-100-disk-0.qcow2", [100]],
    ["/var/lib/vz/images/100", [100]],
    ["/var/lib/vz/images/100/", [100]],
    ["/mnt/pve/nfs/images/100/disk.raw", [100]],
    ["/var/lib/vz/images//100", [100]],
    ["/var/lib/vz/images/./100/x.raw", [100]],
    ["local:100/snap-before-vm-100-disk-0.qcow2", [100]],
    ["/var/lib/vz/images/200/snap-my-vm-200-x-vm-100-disk-0.qcow2", [200, 100]],
    ["/var/lib/vz/dump/vzdump-qemu-100-2025_01_01-00_00_00.vma.zst", [100]],
    // not guest volumes
    ["/dev/sdb", []],
    ["/dev/dm-3", []],
    ["/var/lib/vz/template/iso/debian-100.iso", []],
    ["/mnt/data/100", []],
    ["10.0.0.100/24", []],
  ] as [string, number[]][])("%s -> %j", (text, expected) => {
    expect(volumeGuests(text).sort()).toEqual(expected.sort());
  });

  test("a path climbing out of another guest's directory is judged where it lands, too", () => {
    expect(volumeGuests("/var/lib/vz/images/101/../100/x.raw")).toContain(100);
  });

  test.each([
    ["pve-vm--100--disk--0", "vm-100-disk-0"],
    ["my--vg-vm--100--disk--0-real", "vm-100-disk-0"],
    ["pve-root", "root"],
    ["single", undefined],
  ])("dmLogicalVolume(%s) = %s", (name, lv) => {
    expect(dmLogicalVolume(name)).toBe(lv);
  });
});

test("volumeCandidates splits property strings, args and JSON, and removes key=", () => {
  expect(
    volumeCandidates('-drive file=/dev/pve/vm-1-disk-0,if=none -blockdev {"filename":"/dev/zvol/p/vm-2-disk-0"}'),
  ).toEqual(["-drive", "/dev/pve/vm-1-disk-0", "none", "-blockdev", "filename", ":", "/dev/zvol/p/vm-2-disk-0"]);
});

describe("guestsTouched: guest config values that carry devices and directories", () => {
  const ids = (path: string, params: Params) =>
    [...new Set(guestsTouched(path, params).guests.map((t) => t.vmid))].sort();
  test.each([
    [
      "args -drive on device-mapper",
      "/nodes/pve1/qemu/200/config",
      { args: "-drive file=/dev/mapper/pve-vm--100--disk--0,if=none,id=d1" },
    ],
    [
      "args -blockdev JSON on a zvol",
      "/nodes/pve1/qemu/200/config",
      { args: '-blockdev {"driver":"host_device","filename":"/dev/zvol/rpool/data/vm-100-disk-0","node-name":"x"}' },
    ],
    [
      "args on a directory image",
      "/nodes/pve1/qemu/200/config",
      { args: "-drive file=/var/lib/vz/images/100/disk.raw,format=raw" },
    ],
    [
      "a disk given as a device path",
      "/nodes/pve1/qemu/200/config",
      { scsi1: "/dev/disk/by-id/dm-name-pve-vm--100--disk--0,backup=0" },
    ],
    [
      "import-from a device",
      "/nodes/pve1/qemu/200/config",
      { scsi2: "local-lvm:0,import-from=/dev/pve/vm-100-disk-0" },
    ],
    [
      "container bind mount of the guest's directory",
      "/nodes/pve1/lxc/200/config",
      { mp0: "/var/lib/vz/images/100,mp=/mnt/x" },
    ],
    ["container mount of an LV", "/nodes/pve1/lxc/200/config", { mp1: "/dev/pve/vm-100-disk-0,mp=/mnt/y,backup=0" }],
    [
      "container device passthrough",
      "/nodes/pve1/lxc/200/config",
      { dev0: "/dev/mapper/pve-vm--100--disk--0,mode=0660" },
    ],
    [
      "container device passthrough with path=",
      "/nodes/pve1/lxc/200/config",
      { dev1: "path=/dev/zvol/rpool/data/vm-100-disk-0" },
    ],
    [
      "creating a container on another's subvolume",
      "/nodes/pve1/lxc",
      { vmid: 200, rootfs: "/rpool/data/subvol-100-disk-0" },
    ],
  ] as [string, string, Params][])("%s", (_label, path, params) => {
    expect(ids(path, params)).toEqual([100, 200]);
  });
});
