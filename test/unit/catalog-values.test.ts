// Issue 11: values typed in a query, recognised by the kind of parameter that takes them.
import { describe, expect, test } from "bun:test";
import type { Endpoint } from "../../src/catalog/model.ts";
import {
  endpointValueKinds,
  measuredWords,
  namesGuests,
  namesOneBackup,
  namesStorageByName,
  namesPort,
  namesRecurrence,
  namesSize,
  namesTargetNode,
  speaksOfAccess,
  valueKinds,
} from "../../src/catalog/search-values.ts";

describe("valueKinds", () => {
  test.each<[string, string[]]>([
    ["local:vztmpl/debian-12-standard.tar.zst", ["volume"]],
    ["local-lvm:vm-100-disk-0", ["volume"]],
    ["vm:100", ["ha"]],
    ["ct:200,", ["ha"]],
    ["alice@pve", ["user"]],
    ["bob@pam's", ["user"]],
    ["(root@pam!ci),", ["token"]],
    ["root@pam!ci", ["token"]],
    ["UPID:pve1:00001234:00ABCDEF:65000000:vzdump:100:root@pam:", ["task"]],
    ["100-0", ["replication"]],
    ["10.1.0.0/16", ["cidr"]],
    ["10.0.0.5", ["ip"]],
    ["aa:bb:cc:dd:ee:ff", ["mac"]],
    ["/dev/sdb", ["device"]],
    // Network devices as the admin guide names them; "enable" is a word.
    ["vmbr0", ["iface"]],
    ["eno1.50", ["iface"]],
    ["bond1", ["iface"]],
    ["enable", []],
    // A URL, what download-url's `url` and a webhook's take.
    ["https://example.com/x.iso", ["url"]],
    ["http://mirror.local/ubuntu.iso,", ["url"]],
    ["https:", []],
    // An ACL path, as PVE::AccessControl::check_path accepts it and the schema's permission checks name
    // them; those an API path starts with are left to the API path.
    ["/vms/100", ["acl"]],
    ["/vms/100?", ["acl"]],
    ["/vms", ["acl"]],
    ["/pool/prod", ["acl"]],
    ["/sdn/zones/office", ["acl"]],
    ["/sdn/zones/office/vnet10", ["acl"]],
    ["/access/realm/corp-ad", ["acl"]],
    ["/sdn/ipams/pve", ["acl"]],
    ["/mapping/pci/gpu-a", ["acl"]],
    ["/pool/prod/web", ["acl"]],
    ["/sdn/zones/office/vnet10/20", ["acl"]],
    ["/mapping/notifications", ["acl"]],
    ["/sdn", ["acl"]],
    ["/sdn/ipams/pve/x", []],
    ["/access/realms/ldap", []],
    ["/mapping", []],
    ["/vms/99", []],
    ["/vms/web", []],
    ["/nodes/pve1", []],
    ["/storage/local", []],
    // A file's path (which of Proxmox's files it is, its words say on a node).
    ["/etc/hosts", ["file"]],
    ["100", []],
    ["backups", []],
    // A volume's name without its storage, as pve-storage names what it stores.
    ["vzdump-qemu-101-2024_12_01-00_00_03.vma.zst", ["volume"]],
    ["vzdump-lxc-200-2025_01_02-03_04_05.tar.gz,", ["volume"]],
    ["vzdump-openvz-300-2020_01_01-00_00_00.tgz", ["volume"]],
    ["vzdump-qemu-101.log", []],
    ["ubuntu-24.04-live-server-amd64.iso", ["volume"]],
    ["virtio-win.IMG", ["volume"]],
    ["debian-12-standard_12.7-1_amd64.tar.zst", ["volume"]],
    ["notes.tar", []],
    ["vm-100-disk-0", ["volume"]],
    ["base-9000-disk-1.qcow2", ["volume"]],
    ["vm-100-cloudinit", ["volume"]],
    ["vm-100", []],
    // A calendar event's parts, as Proxmox's schedules write them; a lone weekday is also a Ceph "mon".
    ["'mon..fri", ["calendar"]],
    ["sat,sun", ["calendar"]],
    ["22:00'", ["calendar"]],
    ["02:30:00", ["calendar"]],
    ["*-*-01", ["calendar"]],
    ["mon", []],
    ["12:34:56:78", []],
    // A host PCI device's address, as qemu-server writes it; its function tells it from a time of day.
    ["0000:41:00.0", ["pci"]],
    ["01:00.0,", ["pci"]],
    ["01:00", ["calendar"]],
    // An address with its port, not a volume ID on a storage named like a host; a storage and a
    // size ("local-lvm:32", a new 32 GiB volume) stays a volume.
    ["mail.corp.local:587", ["port", "server"]],
    ["10.1.1.9:8089", ["port", "server"]],
    ["influx.lan:8089,", ["port", "server"]],
    ["local-lvm:32", ["volume"]],
    ["ceph-pool:8", ["volume"]],
    ["local:100/vm-100-disk-0.qcow2", ["volume"]],
    // A path in a file system; not an API path, a device or an ACL path, which are kinds of their own.
    ["/etc/resolv.conf", ["file"]],
    ["/srv/media", ["file"]],
    ["/var/lib/vz/", ["file"]],
    ["(/root/app.conf),", ["file"]],
    ["/root/disk.qcow2", ["file", "image"]],
    ["/srv/images/win.vmdk", ["file", "image"]],
    ["/var/lib/vz/import/disk.raw", ["file", "image"]],
    ["/var/lib/vz/template/iso/debian.iso", ["file"]],
    ["/root/disk.qcow2.bak", ["file"]],
    ["/nodes/pve1/qemu", []],
    ["/storage", []],
    ["/api2/json/version", []],
    ["/vms/100", ["acl"]],
    ["/dev/sdb1", ["device"]],
    ["/24", []],
    ["/", []],
  ])("%s", (chunk, kinds) => {
    expect(valueKinds(chunk)).toEqual(kinds as never);
  });
});

describe("keys pressed together are what sendkey takes", () => {
  test.each<[string, string[]]>([
    ["ctrl-alt-delete", ["key"]],
    ["ctrl+alt+del", ["key"]],
    ["Ctrl-Alt-F2", ["key"]],
    ["alt-tab,", ["key"]],
    // A modifier alone, or a word that starts like one, is no combination.
    ["ctrl", []],
    ["alternative", []],
    ["shift-work", []],
  ])("%s: %j", (chunk, kinds) => {
    expect(valueKinds(chunk)).toEqual(kinds as never);
  });

  test("sendkey's key, in qemu monitor encoding, takes them", () => {
    const e = {
      method: "PUT",
      path: "/nodes/{node}/qemu/{vmid}/sendkey",
      name: "vm_sendkey",
      description: "Send key event to virtual machine.",
      parameters: { key: { type: "string", description: "The key (qemu monitor encoding)." } },
    } as unknown as Endpoint;
    expect([...endpointValueKinds(e).keys()]).toEqual(["key"]);
  });
});

describe("a time zone is what the node's timezone takes", () => {
  test.each<[string, string[]]>([
    ["Europe/Berlin", ["timezone"]],
    ["America/New_York.", ["timezone"]],
    ["America/Argentina/Buenos_Aires", ["timezone"]],
    ["UTC", ["timezone"]],
    ["Etc/GMT+5", ["timezone"]],
    // An area alone, or a path of the same shape in lower case, is none.
    ["Europe", []],
    ["europe/berlin", []],
    ["Storage/Local", []],
  ])("%s: %j", (chunk, kinds) => {
    expect(valueKinds(chunk)).toEqual(kinds as never);
  });

  test("a parameter named timezone takes it", () => {
    const e = {
      method: "PUT",
      path: "/nodes/{node}/time",
      name: "set_timezone",
      description: "Set time zone.",
      parameters: {
        timezone: {
          type: "string",
          description: "Time zone. The file '/usr/share/zoneinfo/zone.tab' contains the list of valid names.",
        },
      },
    } as unknown as Endpoint;
    expect([...endpointValueKinds(e).keys()]).toEqual(["timezone"]);
  });
});

describe("a built-in role is granted, never made, changed or deleted", () => {
  test.each<[string, string[]]>([
    ["PVEVMAdmin", ["role"]],
    ["PVEAuditor,", ["role"]],
    ["NoAccess", ["role"]],
    // The product's name, or a word in capitals, is no role.
    ["PVE", []],
    ["PVE9", []],
    ["PVEProxy", []],
    ["PVEStatd", []],
    ["PVEVMAdminx", []],
    ["pveadmin", []],
  ])("%s: %j", (chunk, kinds) => {
    expect(valueKinds(chunk)).toEqual(kinds as never);
  });

  const role = (method: string, path: string, parameters: Record<string, unknown>) =>
    endpointValueKinds({ method, path, name: "x", description: "", parameters } as unknown as Endpoint).get("role");
  test("the ACL's roles take it; one role's own endpoints do not (reading needs no value's help)", () => {
    expect(role("PUT", "/access/acl", { roles: { type: "string", format: "pve-roleid-list" } })).toBe(1);
    const roleid = { roleid: { type: "string", format: "pve-roleid" } };
    expect(role("GET", "/access/roles/{roleid}", roleid)).toBeUndefined();
    expect(role("PUT", "/access/roles/{roleid}", roleid)).toBeUndefined();
    expect(role("DELETE", "/access/roles/{roleid}", roleid)).toBeUndefined();
    expect(role("POST", "/access/roles", roleid)).toBeUndefined();
  });
});

describe("a path an ACL shares with the API is the ACL's in a query about access", () => {
  test.each<[string, boolean]>([
    ["revoke joe@pve's access to /storage/backup", true],
    ["take away a user's permission on /storage", true],
    ["give bob the PVEVMUser role on /nodes/pve1", true],
    ["revoke PVEAdmin from bob@pve on /storage", true],
    ["grant the auditors read-only on /access/groups", true],
    ["what is svc-backup@pve allowed to do on /storage/nas", true],
    // Words inside the path typed say nothing; nor does a query about something else.
    ["show /access/groups/admins", false],
    ["what is configured for /storage/local", false],
    ["GET /nodes/pve1/status", false],
    ["the Administrator password of the Windows VM", false],
    // A service named like a role, access without anyone to grant it to, or calling the API.
    ["restart PVEProxy on /nodes/pve1", false],
    ["I can't access /nodes/pve1, show its status", false],
    ["what does /nodes/pve1 return, I keep getting permission denied", false],
    ["list /access/groups, who can access them", false],
  ])("%s: %p", (query, access) => {
    expect(speaksOfAccess(query)).toBe(access);
  });

  test.each<[string, boolean, string[]]>([
    ["/storage/backup", true, ["acl"]],
    ["/nodes/pve1", true, ["acl"]],
    ["/access/groups/admins", true, ["acl"]],
    ["/storage", true, ["acl"]],
    ["/storage/backup", false, []],
    ["/nodes/pve1", false, []],
    // Deeper than an ACL goes: the API's path.
    ["/nodes/pve1/qemu", true, []],
    ["/vms/100", false, ["acl"]],
  ])("%s (about access: %p): %j", (chunk, access, kinds) => {
    expect(valueKinds(chunk, access)).toEqual(kinds as never);
  });
});

describe("endpointValueKinds", () => {
  const endpoint = (path: string, parameters: Record<string, unknown>) =>
    ({ method: "PUT", path, name: "x", description: "", parameters }) as unknown as Endpoint;

  test.each<[string, Record<string, unknown>, [string, number][]]>([
    // A guest's file (agent file-read), a file in a backup, a storage's directory.
    [
      "/nodes/{node}/qemu/{vmid}/agent/file-read",
      { file: { type: "string", description: "The path to the file" } },
      [["file", 1]],
    ],
    [
      "/nodes/{node}/storage/{storage}/file-restore/list",
      { filepath: { type: "string", description: 'base64-path to the directory or file being listed, or "/".' } },
      [["file", 1]],
    ],
    [
      "/storage",
      { path: { type: "string", format: "pve-storage-path", description: "File system path." } },
      [["file", 1]],
    ],
    // A directory shared with guests, in the node maps' property string.
    [
      "/cluster/mapping/dir",
      {
        map: {
          type: "array",
          items: {
            type: "string",
            format: {
              path: { type: "string", description: "Absolute directory path that should be shared with the guest." },
            },
          },
        },
      },
      [["file", 1]],
    ],
    [
      "/nodes/{node}/vzdump",
      { "exclude-path": { type: "array", description: "Exclude certain files/directories (shell globs)." } },
      [["file", 1]],
    ],
    // A disk imported from a volume or a path takes a disk image.
    [
      "/nodes/{node}/qemu/{vmid}/config",
      {
        scsi0: {
          type: "string",
          format: {
            "import-from": {
              type: "string",
              description: "Create a new disk, importing from this source (volume ID or absolute path).",
            },
          },
        },
      },
      [["image", 1]],
    ],
    [
      "/nodes/{node}/vzdump",
      { dumpdir: { type: "string", description: "Store resulting files to specified directory." } },
      [["file", 1]],
    ],
    ["/storage/{storage}", { path: { type: "string", description: "File system path." } }, [["file", 1]]],
    [
      "/nodes/{node}/lxc/{vmid}/config",
      {
        mp0: {
          type: "string",
          format: { mp: { type: "string", description: "Path to the mount point as seen from inside the container." } },
        },
      },
      [["file", 1]],
    ],
    // A command that may start with a path, a path to a containing file the API names (apt's
    // sources), a graphite root: no file typed.
    [
      "/nodes/{node}/lxc",
      { entrypoint: { type: "string", description: "Command to run as init; may start with an absolute path." } },
      [],
    ],
    ["/nodes/{node}/apt/repositories", { path: { type: "string", description: "Path to the containing file." } }, []],
    [
      "/cluster/metrics/server/{id}",
      { path: { type: "string", description: "root graphite path (ex: proxmox.mycluster.mykey)" } },
      [],
    ],
  ])("a path in a file system: %s", (path, parameters, kinds) => {
    expect([...endpointValueKinds(endpoint(path, parameters))]).toEqual(kinds as never);
  });

  test.each<[string, Record<string, unknown>, [string, number][]]>([
    // A size parameter whose pattern takes an amount with its unit (qemu-server's and
    // pve-container's resize, a Ceph pool's target size).
    [
      "/nodes/{node}/qemu/{vmid}/resize",
      { size: { type: "string", description: "The new size.", pattern: "\\+?\\d+(\\.\\d+)?[KMGT]?" } },
      [["size", 1]],
    ],
    [
      "/nodes/{node}/ceph/pool/{name}",
      {
        target_size: {
          type: "string",
          description: "The estimated target size.",
          pattern: "^(\\d+(\\.\\d+)?)([KMGT])?$",
        },
      },
      [["size", 1]],
    ],
    // ... not a size in plain numbers, nor another parameter whose pattern takes "20G".
    ["/nodes/{node}/lxc/{vmid}/config", { memory: { type: "integer", description: "Amount of RAM in MB." } }, []],
    ["/cluster/backup/{id}", { id: { type: "string", description: "The job ID.", pattern: "\\S+" } }, []],
  ])("an amount of space: %s", (path, parameters, kinds) => {
    expect([...endpointValueKinds(endpoint(path, parameters))]).toEqual(kinds as never);
  });

  test("a path placeholder names the object (2), a body parameter only takes the value (1)", () => {
    const e = endpoint("/nodes/{node}/storage/{storage}/content/{volume}", {
      node: { type: "string", format: "pve-node" },
      storage: { type: "string", format: "pve-storage-id" },
      volume: { type: "string", description: "Volume identifier" },
    });
    expect([...endpointValueKinds(e)]).toEqual([["volume", 2]]);
    const restore = endpoint("/nodes/{node}/qemu", {
      archive: { type: "string", description: "... or a proxmox storage backup volume identifier." },
    });
    expect([...endpointValueKinds(restore)]).toEqual([["volume", 1]]);
  });

  test("formats, patterns, names and the keys of property strings", () => {
    const e = endpoint("/x/{userid}", {
      userid: { type: "string", format: "pve-userid" },
      sid: { type: "string", format: "pve-ha-resource-or-vm-id" },
      disk: { type: "string", pattern: "^/dev/[a-zA-Z0-9\\/]+$" },
      cidr: { type: "string", format: "IPorCIDR" },
      "net[n]": {
        type: "string",
        format: { macaddr: { type: "string" }, bridge: { type: "string", format: "pve-bridge-id" } },
      },
      permissions: { type: "string", description: "User ID or full API token ID" },
      schedule: { type: "string", format: "pve-calendar-event" },
    });
    expect(Object.fromEntries(endpointValueKinds(e))).toEqual({
      user: 2,
      ha: 1,
      device: 1,
      cidr: 1,
      ip: 1,
      mac: 1,
      iface: 1,
      token: 1,
      calendar: 1,
    });
  });

  test("an ACL path: a `path` under /access and the ACL list's returned path; not a ticket's, a storage's or a metric server's", () => {
    const path = { type: "string", description: "Access control path" };
    expect([...endpointValueKinds(endpoint("/access/acl", { path }))]).toEqual([["acl", 1]]);
    const dump = { type: "string", description: "Only dump this specific path, not the whole tree." };
    expect([...endpointValueKinds(endpoint("/access/permissions", { path: dump }))]).toEqual([["acl", 1]]);
    const checked = { type: "string", description: "Verify ticket, and check if user have access 'privs' on 'path'" };
    expect([...endpointValueKinds(endpoint("/access/ticket", { path: checked }))]).toEqual([]);
    const fsPath = { type: "string", format: "pve-storage-path", description: "File system path." };
    expect([...endpointValueKinds(endpoint("/storage", { path: fsPath }))]).toEqual([["file", 1]]);
    const graphite = { type: "string", format: "graphite-path", description: "root graphite path" };
    expect([...endpointValueKinds(endpoint("/cluster/metrics/server/{id}", { path: graphite }))]).toEqual([]);
    const list = {
      ...endpoint("/access/acl", {}),
      returns: { type: "array", items: { type: "object", properties: { path: path, roleid: { type: "string" } } } },
    } as Endpoint;
    expect([...endpointValueKinds(list)]).toEqual([["acl", 1]]);
  });

  test("a port: the firewall's port formats; a server's port: a parameter named port", () => {
    expect([
      ...endpointValueKinds(endpoint("/cluster/notifications/endpoints/smtp", { port: { type: "integer" } })),
    ]).toEqual([["server", 0.5]]);
    const dport = { type: "string", format: "pve-fw-dport-spec" };
    expect([...endpointValueKinds(endpoint("/cluster/firewall/rules", { dport }))]).toEqual([["port", 1]]);
  });

  test("a PCI address by pattern: the path's, or a key's of an array's property strings; not a fingerprint's", () => {
    const hex = "[0-9a-fA-F]";
    const e = endpoint("/nodes/{node}/hardware/pci/{pci-id-or-mapping}", {
      "pci-id-or-mapping": { type: "string", pattern: `(?:(?:${hex}{4}:)?${hex}{2}:${hex}{2}\\.${hex})|(\\w+)` },
    });
    expect([...endpointValueKinds(e)]).toEqual([["pci", 2]]);
    const mapping = endpoint("/cluster/mapping/pci", {
      map: {
        type: "array",
        items: {
          type: "string",
          format: { path: { type: "string", pattern: "[a-f0-9]{4,}:[a-f0-9]{2}:[a-f0-9]{2}" } },
        },
      },
    });
    expect([...endpointValueKinds(mapping)]).toEqual([["pci", 1]]);
    const fingerprint = endpoint("/x", {
      fingerprint: { type: "string", pattern: "([A-Fa-f0-9]{2}:){31}[A-Fa-f0-9]{2}" },
    });
    expect([...endpointValueKinds(fingerprint)]).toEqual([]);
  });

  test.each<[string, string[]]>([
    // One address is an IP set entry, a firewall rule's source, a DNS server.
    ["IPorCIDR", ["cidr", "ip"]],
    ["IPorCIDRorAlias", ["cidr", "ip"]],
    ["pve-fw-addr-spec", ["cidr", "ip"]],
    ["ip", ["ip"]],
    ["address-list", ["ip"]],
    // A storage's server: as often a name as an address, no IP of its own.
    ["pve-storage-server", []],
    // A container's DNS server (PVE::LXC::Config::verify_ip_with_ll_iface).
    ["lxc-ip-with-ll-iface-list", ["ip"]],
    // A network only.
    ["CIDRv4", ["cidr"]],
    // A list of guests.
    ["pve-vmid-list", ["guests"]],
    ["pve-ha-resource-id-list", ["guests", "ha"]],
    ["pve-node", []],
    // A firewall rule's ports; a network device's name, alone, in a list, or as a NIC's bridge.
    ["pve-fw-dport-spec", ["port"]],
    ["pve-fw-sport-spec", ["port"]],
    ["pve-iface", ["iface"]],
    ["pve-iface-list", ["iface"]],
    ["pve-bridge-id", ["iface"]],
    // qemu-server's hostpci[n].
    ["pve-qm-hostpci", ["pci"]],
  ])("format %s takes %j", (format, kinds) => {
    const e = endpoint("/x", { value: { type: "string", format } });
    expect([...endpointValueKinds(e).keys()].sort()).toEqual(kinds as ReturnType<typeof valueKinds>);
  });
});

describe("values a query says in words", () => {
  test.each<[string, (query: string) => boolean, string, boolean]>([
    // Two guests or more are a list of guests.
    ["namesGuests", namesGuests, "never run VMs 101 and 102 on the same node", true],
    ["namesGuests", namesGuests, "HA: VM 100 and VM 101 must never run on the same node", true],
    ["namesGuests", namesGuests, "VMs db1 (vm:201) and db2 (vm:202) must never run on the same host", true],
    ["namesGuests", namesGuests, "add VMs 200, 201 and 202 to the prod pool", true],
    // ... not one guest, nor numbers that are no guests.
    ["namesGuests", namesGuests, "migrate VM 100 to pve2", false],
    ["namesGuests", namesGuests, "resize disk of VM 100 to 20 GB and restart", false],
    ["namesGuests", namesGuests, "VM 100 and VM 100 again", false],
    // A schedule said in words is a calendar event.
    ["namesRecurrence", namesRecurrence, "replicate VM 101's disks to pve2 every 15 minutes", true],
    ["namesRecurrence", namesRecurrence, "sync users from the LDAP realm automatically every night", true],
    ["namesRecurrence", namesRecurrence, "schedule a nightly backup of all guests", true],
    ["namesRecurrence", namesRecurrence, "run it each sunday", true],
    // ... "every node" is no time; a job named or described as nightly exists; "daily" counts backups to keep.
    ["namesRecurrence", namesRecurrence, "enable the firewall on every node", false],
    ["namesRecurrence", namesRecurrence, "delete the nightly backup job", false],
    ["namesRecurrence", namesRecurrence, "keep 7 daily and 4 weekly backups", false],
    // A port said with its word or its protocol.
    ["namesPort", namesPort, "block port 8006 on pve3 only", true],
    ["namesPort", namesPort, "allow inbound HTTPS (tcp 443) in the datacenter firewall", true],
    ["namesPort", namesPort, "open udp/53 to the resolver", true],
    // ... not a number with no port word or protocol, nor an address's port after a colon.
    ["namesPort", namesPort, "resize VM 100 to 443 GB", false],
    ["namesPort", namesPort, "send metrics to 10.1.2.3:8089", false],
  ])("%s: %s %p", (_name, says, query, expected) => {
    expect(says(query)).toBe(expected);
  });
});

describe("namesSize: an amount of space by itself", () => {
  const measured = new Set(["memory", "ram", "swap", "balloon"]);
  test.each<[string, boolean]>([
    // A change by the amount, to it, or where it goes.
    ["enlarge virtio1 of VM 118 by 35G", true],
    ["put another 12 GB onto the rootfs of CT 205", true],
    ["make mp1 of container 260 1.5T.", true],
    ["VM 411's scsi2 needs to be 30 GiB larger", true],
    ["qm disk resize 133 sata0 +8G", true],
    ["the disk of VM 222 is full, give it 25gb more", true],
    // ... not an amount that says what a thing has, nor one a measure of memory takes.
    ["a new container with 3 GB of RAM", false],
    ["mount a 64G volume from ceph-rbd into CT 140", false],
    ["format the new 8TB drive on pve5 as a directory storage", false],
    ["VM 140 needs 2 GB more memory", false],
    ["raise the swap of CT 150 to 2G", false],
    ["new VM with 16G and 8 cores", false],
    ["qm set 140 --memory 6G", false],
    // ... nor a number in other units: minutes, a block size.
    ["replicate VM 140 to pve2 every 10 m", false],
    ["a zfs storage with a volblocksize of 16k", false],
    ["migrate VM 140 to pve3", false],
  ])("%s: %p", (query, expected) => {
    expect(namesSize(query, measured)).toBe(expected);
  });

  test("the measures the schema gives an amount of", () => {
    const endpoint = (parameters: Record<string, unknown>) =>
      ({ method: "PUT", path: "/x", name: "x", description: "", parameters }) as unknown as Endpoint;
    const words = measuredWords([
      endpoint({ swap: { type: "integer", description: "Amount of SWAP for the container in MB." } }),
      endpoint({ balloon: { type: "integer", description: "Amount of target RAM for the VM in MiB." } }),
      endpoint({ size: { type: "string", description: "The new size." } }),
    ]);
    expect([...words].sort()).toEqual(["balloon", "ram", "swap"]);
  });
});

describe("namesTargetNode: the node something goes to", () => {
  test.each<[string, boolean]>([
    ["live-migrate VM 330 over to node pve5", true],
    ["hand VM 137 over to pve3 without downtime", true],
    ["evacuate all guests from node pve3 to pve1 before maintenance", true],
    ["move container 260 to host beta", true],
    // Two hosts of one numbered series: from one to the other.
    ["evacuate all guests from pve2 to pve3 before patching", true],
    ["move everything from hv-03 to hv-04", true],
    ["copy the ISO from nfs1 to local", false],
    // Disks, volumes, bridges and VLANs are numbered too; one host's two spellings are one host.
    ["move the disk from scsi0 to scsi1", false],
    ["move disk scsi0 of vm 100 from nfs1 to nfs2", false],
    ["change bridge from vmbr0 to vmbr1", false],
    ["change the vlan of net0 from vlan10 to vlan20", false],
    ["from pve1 to pve01", false],
    ["from pve2 to pve2", false],
    // A bare name after "to" may be a storage, a new name, anything.
    ["back up all guests every night to pbs01", false],
    ["rename VM 135 to db-primary", false],
    ["add 20 GB to the scsi0 disk", false],
  ])("%s: %p", (query, target) => {
    expect(namesTargetNode(query)).toBe(target);
  });

  test("a node parameter described as the target node takes it; the path's node does not", () => {
    const e = {
      method: "POST",
      path: "/nodes/{node}/migrateall",
      name: "x",
      description: "",
      parameters: {
        node: { type: "string", format: "pve-node", description: "The cluster node name." },
        target: { type: "string", format: "pve-node", description: "Target node." },
      },
    } as unknown as Endpoint;
    expect(Object.fromEntries(endpointValueKinds(e))).toEqual({ target: 1 });
  });
});

describe("namesOneBackup: one backup that was made", () => {
  test.each<[string, boolean]>([
    ["mark a backup as protected so pruning keeps it", true],
    ["protect Sunday's backup of VM 100 so pruning never deletes it", true],
    ["make sure pruning never deletes this one backup", true],
    ["add a note to a backup archive", true],
    ["protect a backup file so retention can't delete it", true],
    ["The backup of vm 101 from last Sunday must be kept forever", true],
    ["pull a single file out of last night's PBS backup of VM 101", true],
    // Backing up, a backup to make or one of many, a job, a backup that acts, one whose inside is asked.
    ["take a backup of VM 100 now", false],
    ["I need a full backup of container 200", false],
    ["we get a mail for every single backup", false],
    ["move the backup job to Saturdays", false],
    ["a backup has been hanging for hours, kill it", false],
    ["get an email when a backup fails", false],
    ["browse the files inside the PBS backup of VM 200", false],
    ["list the backup files on storage pbs01", false],
    ["restrict the backup-nfs storage to pve1", false],
    // A backup's run, not its file; one to make; a time to come.
    ["the backup of VM 100 failed last night", false],
    ["a backup of VM 100 hangs at 45%", false],
    ["where's the log of the last backup of VM 100", false],
    ["I'd like a backup of VM 100 before the upgrade", false],
    ["exclude /var/cache from the backup of container 101 before the next run", false],
    ["the last backup of VM 100 is corrupt, delete it", true],
    // "the backup" alone may be the backups to come; a time or a file says it was made.
    ["exclude /var/cache from the backup of container 101", false],
    ["restore the backup of VM 100 from yesterday", true],
    ["protect the backup archive of VM 100", true],
  ])("%s: %p", (query, one) => {
    expect(namesOneBackup(query)).toBe(one);
  });
});

describe("a parameter that takes a URL", () => {
  const endpoint = (parameters: Record<string, unknown>) =>
    ({ method: "POST", path: "/x", name: "x", description: "", parameters }) as unknown as Endpoint;
  test.each<[string, Record<string, unknown>, boolean]>([
    ["a URL's pattern (download-url)", { url: { type: "string", pattern: "https?://.*" } }, true],
    ["a parameter named url (a webhook)", { url: { type: "string" } }, true],
    ["described as a server URL (Gotify)", { server: { type: "string", description: "Server URL" } }, true],
    ["named for one (OpenID)", { "issuer-url": { type: "string", description: "OpenID Issuer Url" } }, true],
    ["a server's name", { server: { type: "string", description: "Server IP or DNS name." } }, false],
    [
      "a URL-encoded model name",
      { model: { type: "string", format: "urlencoded", description: "The drive's model." } },
      false,
    ],
  ])("%s: %p", (_, parameters, takes) => {
    expect(endpointValueKinds(endpoint(parameters)).has("url")).toBe(takes);
  });
});

describe("namesStorageByName: a storage named after its word", () => {
  test.each<[string, boolean]>([
    ["list all backups on storage pbs01", true],
    ["how full is storage nas-backup", true],
    ["put the ISO onto storage 'isos'", true],
    ["the storage called local-zfs", true],
    // A word after "storage" that is no name.
    ["only send failures to the storage team's mail address", false],
    ["list the storage content", false],
    ["add a storage", false],
    ["pct migrate 125 pve3 --restart --target-storage local-zfs", false],
    ["raise the storage 10G limit", false],
  ])("%s: %p", (query, named) => {
    expect(namesStorageByName(query)).toBe(named);
  });
});
