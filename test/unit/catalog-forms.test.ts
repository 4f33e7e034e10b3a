// Issue 11: queries that name their endpoint (a CLI command, a pvesh call, a literal API path),
// the docs settings, and the path prefix test used for browsing.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Catalog } from "../../src/catalog/catalog.ts";
import { parseDocsSetting } from "../../src/catalog/config.ts";
import { parseDocsPage } from "../../src/catalog/docs-html.ts";
import { describedFiles, fileNamed, fileNamePattern } from "../../src/catalog/docs-knowledge.ts";
import { fileWords, placeholderCalls, recognizeForm, withoutAsides } from "../../src/catalog/search-forms.ts";
import { besideSchema } from "../../src/catalog/loader.ts";
import { isUnder } from "../../src/catalog/model.ts";
import { ConfigError } from "../../src/settings.ts";
import { FIXTURE_DOCS } from "../support/docs.ts";
import { miniCatalog } from "../support/catalog.ts";
import { DOCS_DIR, haveSharedData, SCHEMA_FILES } from "../support/shared.ts";

async function withDocs(catalog: Catalog, pages: Record<string, string>): Promise<Catalog> {
  const parsed = await Promise.all(Object.entries(pages).map(([name, html]) => parseDocsPage(name, html)));
  catalog.attachDocs({ kind: "inline", location: "fixture" }, parsed);
  return catalog;
}

const first = (catalog: Catalog, query: string) => {
  const page = catalog.search(query, { limit: 3 });
  const hit = page.hits[0];
  return { first: hit ? `${hit.method} ${hit.path}` : undefined, notes: page.notes ?? [] };
};

describe("pvesh and literal paths (no docs needed)", () => {
  const catalog = miniCatalog();
  test.each([
    ["pvesh get /nodes/pve1/qemu/100/status/current", "GET /nodes/{node}/qemu/{vmid}/status/current"],
    ["pvesh create /nodes/pve1/qemu/100/snapshot --snapname x", "POST /nodes/{node}/qemu/{vmid}/snapshot"],
    ["pvesh set /access/acl --path /vms --roles PVEAuditor", "PUT /access/acl"],
    ["pvesh delete /nodes/pve1/qemu/100", "DELETE /nodes/{node}/qemu/{vmid}"],
    ["pvesh ls /nodes/pve1/qemu/100", "GET /nodes/{node}/qemu/{vmid}"],
    ["DELETE /nodes/pve1/qemu/100/snapshot/before", "DELETE /nodes/{node}/qemu/{vmid}/snapshot/{snapname}"],
    ["POST /api2/json/nodes/pve1/lxc/105/status/start", "POST /nodes/{node}/lxc/{vmid}/status/start"],
    ["https://pve:8006/api2/json/access/acl", "GET /access/acl"],
  ])("%s -> %s", (query, expected) => {
    const { first: hit, notes } = first(catalog, query);
    expect(hit).toBe(expected);
    expect(notes).toHaveLength(1);
  });

  test("a path that is no API path is just words", () => {
    expect(first(catalog, "give bob access to /vms").notes).toEqual([]);
    expect(first(catalog, "read /etc/hosts").notes).toEqual([]);
  });
});

describe("CLI commands from the docs", async () => {
  const catalog = await withDocs(miniCatalog(), FIXTURE_DOCS);

  test("a mapped command puts its endpoint first and says which", () => {
    expect(first(catalog, "qm stop 100")).toEqual({
      first: "POST /nodes/{node}/qemu/{vmid}/status/stop",
      notes: ["qm stop calls POST /nodes/{node}/qemu/{vmid}/status/stop (from the qm man page)"],
    });
    expect(first(catalog, "how do I run pct start 105").first).toBe("POST /nodes/{node}/lxc/{vmid}/status/start");
  });

  test("a command with no API twin says so; the tool's name still says the kind of guest", () => {
    const { notes } = first(catalog, "qm terminal 100");
    expect(notes).toEqual([
      expect.stringContaining("qm terminal is a CLI-only command with no API endpoint of its own"),
    ]);
    expect(catalog.search("pct shut down", { limit: 1 }).hits[0]?.path).toBe(
      "/nodes/{node}/lxc/{vmid}/status/shutdown",
    );
  });

  test("without docs, a command is plain words", () => {
    expect(first(miniCatalog(), "qm stop 100").notes).toEqual([]);
  });
});

describe("shell commands the docs show", () => {
  const example = (line: string, paragraph: string, title = "Section") => ({
    words: line.split(" "),
    title,
    paragraph,
  });
  const shell = new Map([
    ["vgs", [example("vgs", "The installer uses LVM. The following output is from a test installation:", "LVM")]],
    [
      "ceph",
      [
        example(
          "ceph -s",
          "Stop the guests first. Verify that the Ceph cluster is healthy. Either via the Web UI or the CLI:",
        ),
        example(
          "ceph osd set noout",
          "To avoid recovery, enable the noout OSD flag with the Manage Global Flags button or the CLI:",
        ),
      ],
    ],
    [
      "systemctl",
      ["a", "b", "c", "d"].map((unit) => example(`systemctl restart ${unit}`, `Restart ${unit}.`, `About ${unit}`)),
    ],
    [
      "lspci",
      ["-nn", "-k", "-nnk", "-v"].map((option) =>
        example(`lspci ${option}`, "Find the card:", "Host Device Passthrough / Host Configuration"),
      ),
    ],
  ]);
  const ctx = {
    endpoints: [],
    match: () => undefined,
    methodsOf: () => [],
    cli: { commands: new Map(), binaries: new Map(), maxWords: 1, shell },
  };

  test.each([
    ["vgs", "LVM. The installer uses LVM. The following output is from a test installation:"],
    // The examples sharing most of the words typed; a sentence that only points brings the one before it.
    ["ceph -s", "Section. Verify that the Ceph cluster is healthy. Either via the Web UI or the CLI:"],
    [
      "ceph osd set noscrub",
      "Section. To avoid recovery, enable the noout OSD flag with the Manage Global Flags button or the CLI:",
    ],
  ])("%s is described by its examples' words: %s", (query, described) => {
    const form = recognizeForm(query, ctx);
    expect(form?.described).toBe(described);
    expect(form?.query).toBe(query);
    expect(form?.notes).toEqual([
      expect.stringContaining(`${query.split(" ")[0]} is a shell command on the node, not an API call`),
    ]);
  });

  // A command line in backticks inside a sentence is that command line; other quotes hold values.
  test.each<[string, string | undefined]>([
    [
      "how do I run `ceph osd set noout` through the API?",
      "Section. To avoid recovery, enable the noout OSD flag with the Manage Global Flags button or the CLI:",
    ],
    // One word in backticks is as often a value or a key: the next span is read.
    [
      "is there an API call for `vgs` or `ceph -s`",
      "Section. Verify that the Ceph cluster is healthy. Either via the Web UI or the CLI:",
    ],
    ["set the `vgs` option of node pve1", undefined],
    ['set the notes of VM 101 to "ceph osd set noout"', undefined],
    // A command the docs show no example of is no shell command they describe.
    ["what does `zpool status` return", undefined],
  ])("%s: described %j", (query, described) => {
    const form = recognizeForm(query, ctx);
    expect(form?.described).toBe(described);
    if (described) expect(form?.query).toBe(query);
  });

  test("many examples under one section: its title describes them; the host after the command line is no argument", () => {
    const form = recognizeForm("lspci on pve1", ctx);
    expect(form?.described).toBe("Host Device Passthrough / Host Configuration");
    expect(form?.query).toBe("lspci on pve1");
  });

  test.each([
    // Not a command line: a word, not an option or an argument its examples have, follows.
    ["vgs of the node"],
    // Only the command word matches and words follow: its examples are about other uses.
    ["ceph health detail"],
    // Too many examples alike, under too many sections, to say which use is meant.
    ["systemctl restart pvedaemon"],
  ])("%s is not described", (query) => {
    expect(recognizeForm(query, ctx)).toBeUndefined();
  });

  test("a file of /etc/pve: its description when the docs have one, else the shell command as before", () => {
    const files = describedFiles([
      {
        name: "chapter-pmxcfs.html",
        commands: [],
        examples: [],
        sections: [],
        files: [["storage.cfg", "Proxmox VE storage configuration"]],
      },
    ]);
    const withFiles = { ...ctx, files };
    const form = recognizeForm("cat /etc/pve/storage.cfg.", withFiles);
    expect(form?.described).toBe("Proxmox VE storage configuration");
    // The file's words below /etc/pve stay, its extension left out.
    expect(form?.query).toBe("show storage");
    expect(form?.notes).toEqual(['/etc/pve/storage.cfg is "Proxmox VE storage configuration" (chapter-pmxcfs.html)']);
    // Without the chapter (not served, or a 404), no file is known.
    expect(recognizeForm("cat /etc/pve/storage.cfg", ctx)).toBeUndefined();
    // A path outside /etc/pve is no file of pmxcfs.
    expect(recognizeForm("cat /root/storage.cfg", withFiles)).toBeUndefined();
    // An API path without its first slash is still that path, not a file.
    const apiCtx = {
      ...withFiles,
      files: describedFiles([{ name: "p", commands: [], examples: [], sections: [], files: [["sdn/*", "SDN"]] }]),
      match: (path: string) =>
        path === "/cluster/sdn/vnets" ? { template: "/cluster/sdn/vnets", params: {} } : undefined,
      methodsOf: (t: string) => (t === "/cluster/sdn/vnets" ? [0] : []),
      endpoints: [{ method: "GET", path: "/cluster/sdn/vnets" }] as never,
    };
    expect(recognizeForm("GET cluster/sdn/vnets", apiCtx)?.described).toBeUndefined();
    expect(recognizeForm("cat /etc/pve/sdn/zones.cfg", apiCtx)?.described).toBe("SDN");
  });

  test("a value of a path placeholder with the segment after it spells an API call: the words search as they are", () => {
    const one = {
      ...ctx,
      cli: {
        ...ctx.cli,
        shell: new Map([["systemctl", [example("systemctl restart pveproxy", "Restart the proxy.", "Certificates")]]]),
      },
    };
    expect(recognizeForm("systemctl restart pveproxy", one)?.described).toBe("Certificates. Restart the proxy.");
    const spelled = {
      ...one,
      endpoints: [{ method: "POST", path: "/nodes/{node}/services/{service}/restart" }] as never,
      methodsOf: (t: string) => (t === "/nodes/{node}/services/{service}/restart" ? [0] : []),
      placeholderCalls: new Map([["pveproxy", new Map([["restart", "/nodes/{node}/services/{service}/restart"]])]]),
    };
    const form = recognizeForm("systemctl restart pveproxy", spelled);
    expect(form?.pinned).toEqual([0]);
    expect(form?.described).toBeUndefined();
    expect(form?.notes).toEqual([
      "the service pveproxy and restart: POST /nodes/{node}/services/{service}/restart with service=pveproxy",
    ]);
  });

  // A service and its action name the call only as a command line: systemd's, SysV's, or the two
  // words alone, a host after them allowed. In a sentence the service's name may be a word of its own.
  const serviceEndpoints = [
    { method: "POST", path: "/nodes/{node}/services/{service}/stop", parameters: { service: { enum: ["corosync"] } } },
    { method: "GET", path: "/nodes/{node}/services/{service}/state", parameters: { service: { enum: ["corosync"] } } },
  ] as never;
  const services = {
    ...ctx,
    endpoints: serviceEndpoints,
    methodsOf: (t: string) =>
      t === "/nodes/{node}/services/{service}/stop" ? [0] : t === "/nodes/{node}/services/{service}/state" ? [1] : [],
    placeholderCalls: placeholderCalls(serviceEndpoints),
  };
  test.each([
    ["stop corosync on pve2", [0]],
    ["systemctl stop corosync", [0]],
    ["systemctl stop corosync.service on pve2", [0]],
    ["service corosync stop", [0]],
    ["corosync stop", [0]],
    ["corosync state", [1]],
    // systemd's word for the state, the lead of the synonym group that holds `state`.
    ["systemctl status corosync", [1]],
    ["`systemctl stop corosync`", [0]],
    ["stop the corosync service", undefined],
    ["why did corosync stop", undefined],
    ["corosync stop times", undefined],
    ["what does systemctl stop corosync call in the API", [0]],
    ["systemctl stop the corosync unit", undefined],
  ])("%s: pinned %p", (query, pinned) => {
    expect(recognizeForm(query, services)?.pinned).toEqual(pinned as never);
  });
});

describe("placeholderCalls: a listed value of a path placeholder and the segment after it", () => {
  const endpoint = (path: string, values: unknown[]) =>
    ({ method: "GET", path, parameters: { service: { enum: values } } }) as never;
  const groups = [
    ["status", "state", "~running"],
    ["reboot", "restart", "bounce"],
    ["start up", "start"],
  ];
  const calls = placeholderCalls(
    [
      endpoint("/nodes/{node}/services/{service}/state", ["Corosync", "cron", 7]),
      endpoint("/nodes/{node}/services/{service}/restart", ["corosync"]),
      endpoint("/nodes/{node}/services/{service}/start", ["corosync"]),
      endpoint("/nodes/{node}/services/{service}", ["corosync"]),
      endpoint("/x/{service}/status", ["cron"]),
    ],
    groups,
  );
  test.each([
    ["corosync", "state", "/nodes/{node}/services/{service}/state"],
    ["corosync", "restart", "/nodes/{node}/services/{service}/restart"],
    // A group's lead spells its members' segments.
    ["corosync", "status", "/nodes/{node}/services/{service}/state"],
    ["corosync", "reboot", "/nodes/{node}/services/{service}/restart"],
    // Not a member's word, nor a lead of several words, nor a lead-only member ("~").
    ["corosync", "bounce", undefined],
    ["corosync", "start up", undefined],
    ["corosync", "running", undefined],
    // A segment of the lead's own name is what it spells.
    ["cron", "status", "/x/{service}/status"],
    // A value that is no string is no service's name; a placeholder last in its path spells nothing.
    ["7", "state", undefined],
    ["corosync", "", undefined],
  ])("%s %s -> %p", (value, action, template) => {
    expect(calls.get(value)?.get(action)).toBe(template as never);
  });
});

const present =
  haveSharedData("CLI forms on the real pages", DOCS_DIR) && haveSharedData("CLI forms", SCHEMA_FILES["9.1"].file);

describe.skipIf(!present)("PVE 9.1 with its docs", async () => {
  const pages: Record<string, string> = {};
  if (present)
    for (const page of [
      "qm.1.html",
      "pct.1.html",
      "pvesm.1.html",
      "pveam.1.html",
      "pvecm.1.html",
      "pveum.1.html",
      "pveceph.1.html",
      "chapter-sysadmin.html",
      "vzdump.1.html",
      "chapter-pmxcfs.html",
    ])
      pages[page] = readFileSync(join(DOCS_DIR, page), "utf8");
  const catalog = present
    ? await withDocs(
        Catalog.fromText(readFileSync(SCHEMA_FILES["9.1"].file, "utf8"), { kind: "inline", location: "9.1" }),
        pages,
      )
    : miniCatalog();

  test.each([
    ["qm guest cmd 100 fstrim", "POST /nodes/{node}/qemu/{vmid}/agent/fstrim"],
    ["qm agent 100 ping", "POST /nodes/{node}/qemu/{vmid}/agent/ping"],
    ["qm guest cmd 100", "POST /nodes/{node}/qemu/{vmid}/agent"],
    ["qm move-disk 100 scsi0 local-lvm", "POST /nodes/{node}/qemu/{vmid}/move_disk"],
    ["pvesm scan nfs 10.0.0.5", "GET /nodes/{node}/scan/nfs"],
    // Mapped by its options: pvecm add's are join's parameters.
    ["pvecm add 10.0.0.1 --fingerprint AA:BB", "POST /cluster/config/join"],
    // A CLI-only command's home (aplinfo) gives way to the endpoints that take the volume ID typed.
    ["pveam remove local:vztmpl/debian-12-standard.tar.zst", "DELETE /nodes/{node}/storage/{storage}/content/{volume}"],
    // A CLI-only command acts on what its first argument names: `pct status <vmid>` one
    // container, `pveam list <storage>` one storage, `qm unlock <vmid>` one VM's config.
    ["pct status 100", "GET /nodes/{node}/lxc/{vmid}/status/current"],
    ["qm status 100 --verbose", "GET /nodes/{node}/qemu/{vmid}/status/current"],
    ["pct df 100", "GET /nodes/{node}/lxc/{vmid}/status/current"],
    ["qm unlock 100", "PUT /nodes/{node}/qemu/{vmid}/config"],
    ["pvesm path local:iso/debian.iso", "GET /nodes/{node}/storage/{storage}/content/{volume}"],
    // ... unless it creates that object ("Create a new VM using parameters read from an OVF manifest").
    ["qm importovf 200 vm.ovf local-lvm", "POST /nodes/{node}/qemu"],
    // A path after a command is its argument, not an API path.
    ["pveum acl delete /storage/nfs1 --groups devs --roles PVEDatastoreUser", "PUT /access/acl"],
    // Quotes around a command line are no part of it; words before a CLI-only command only frame it.
    ["`pvesm list local`", "GET /nodes/{node}/storage/{storage}/content"],
    ['"qm migrate 100 pve2 --online"', "POST /nodes/{node}/qemu/{vmid}/migrate"],
    ["run pveam available", "GET /nodes/{node}/aplinfo"],
    // pve-manager's tools with no page in the docs, by the endpoint their code calls.
    ["pveversion -v", "GET /nodes/{node}/apt/versions"],
    ["what does pvereport collect", "GET /nodes/{node}/report"],
    // Shell commands, by what the docs say around their examples.
    ["ifreload -a", "PUT /nodes/{node}/network"],
    ["ceph osd set noout", "PUT /cluster/ceph/flags"],
    ["lspci -nn | grep -i nvidia", "GET /nodes/{node}/hardware/pci"],
  ])("%s -> %s", (query, expected) => {
    expect(first(catalog, query).first).toBe(expected);
  });

  // A file of /etc/pve is what pmxcfs(8)'s table of files says it is.
  test.each([
    ["cat /etc/pve/datacenter.cfg", "GET /cluster/options"],
    ["show ceph.conf", "GET /nodes/{node}/ceph/cfg/raw"],
    ["what does /etc/pve/status.cfg hold", "GET /cluster/metrics/server"],
    ["less /etc/pve/nodes/pve1/qemu-server/100.conf", "GET /nodes/{node}/qemu/{vmid}/config"],
    // Through the link to the node's own folder.
    ["cat /etc/pve/qemu-server/100.conf", "GET /nodes/{node}/qemu/{vmid}/config"],
    // An API path is that path, though "sdn/*" and "nodes/<NAME>/config" fit it.
    ["GET /cluster/sdn/vnets", "GET /cluster/sdn/vnets"],
    ["what does /nodes/pve1/config return", "GET /nodes/{node}/config"],
    // The file's own words stay: zones.cfg holds the SDN zones.
    ["cat /etc/pve/sdn/zones.cfg", "GET /cluster/sdn/zones"],
  ])("%s -> %s", (query, expected) => {
    expect(first(catalog, query).first).toBe(expected);
  });
  test("a file of /etc/pve says what the docs call it", () => {
    expect(first(catalog, "cat /etc/pve/datacenter.cfg").notes).toEqual([
      '/etc/pve/datacenter.cfg is "Proxmox VE datacenter-wide configuration (keyboard layout, proxy, …)" (chapter-pmxcfs.html)',
    ]);
  });

  test("a tool named mid-sentence before a plain word is a noun there, not its command", () => {
    const { first: top, notes } = first(catalog, "print the guest config kept in a vzdump archive");
    expect(top).toBe("GET /nodes/{node}/vzdump/extractconfig");
    expect(notes).toEqual([]);
    // Before an argument, or opening the query, it is still the command.
    expect(first(catalog, "please run vzdump 100 --mode snapshot").first).toBe("POST /nodes/{node}/vzdump");
  });

  test("a tool without docs says which endpoint its code calls", () => {
    expect(first(catalog, "pveversion -v").notes).toEqual([
      "pveversion calls GET /nodes/{node}/apt/versions (from its code in pve-manager; it has no man page)",
    ]);
  });

  test("pveam list <storage>: the storage's endpoints before the tool's home", () => {
    const top = catalog.search("pveam list local", { limit: 5 }).hits.map((h) => `${h.method} ${h.path}`);
    expect(top).toContain("GET /nodes/{node}/storage/{storage}/content");
    expect(top.every((hit) => hit.includes("{storage}"))).toBe(true);
  });
});

describe("fileNamePattern: whether a path typed names a file the docs describe", () => {
  test.each<[string, string, boolean]>([
    ["storage.cfg", "/etc/pve/storage.cfg", true],
    ["storage.cfg", "storage.cfg", true],
    ["storage.cfg", "/etc/pve/mystorage.cfg", false],
    ["storage.cfg", "/etc/pve/storage.cfg.bak", false],
    // A placeholder is one segment; "*" any part of one.
    ["nodes/<NAME>/qemu-server/<VMID>.conf", "/etc/pve/nodes/pve1/qemu-server/100.conf", true],
    ["nodes/<NAME>/qemu-server/<VMID>.conf", "/etc/pve/nodes/pve1/lxc/100.conf", false],
    ["nodes/<NAME>/qemu-server/<VMID>.conf", "/etc/pve/nodes/a/b/qemu-server/100.conf", false],
    ["sdn/*", "/etc/pve/sdn/zones.cfg", true],
    ["sdn/*", "/etc/pve/sdn/zones/a.cfg", false],
    ["priv/ceph*", "/etc/pve/priv/ceph.client.admin.keyring", true],
    // The name's dots are dots.
    ["user.cfg", "/etc/pve/userxcfg", false],
  ])("%s, %s: %p", (file, typed, named) => {
    expect(fileNamePattern(file).test(typed)).toBe(named);
  });
});

describe("fileNamed: the file a path or name typed names", () => {
  const pages = [
    {
      name: "chapter-pmxcfs.html",
      commands: [],
      examples: [],
      sections: [],
      files: [
        ["storage.cfg", "Proxmox VE storage configuration"],
        ["ceph.conf", "Ceph configuration file (note: /etc/ceph/ceph.conf is a symbolic link to this)"],
        ["firewall/<NAME>.fw", "Firewall configuration for individual nodes"],
        ["firewall/<VMID>.fw", "Firewall configuration for VMs and containers"],
        ["nodes/<NAME>/qemu-server/<VMID>.conf", "VM configuration data for KVM VMs"],
      ] as [string, string][],
      fileLinks: [["qemu-server", "nodes/<LOCAL_HOST_NAME>/qemu-server/"]] as [string, string][],
    },
  ];
  const files = describedFiles(pages);
  test.each<[string, string | undefined]>([
    ["/etc/pve/storage.cfg", "storage.cfg"],
    ["storage.cfg", "storage.cfg"],
    // A path from the root is one of /etc/pve, or elsewhere under /etc a file of its top folder.
    ["/root/storage.cfg", undefined],
    ["/etc/ceph/ceph.conf", "ceph.conf"],
    ["/etc/ceph/firewall/105.fw", undefined],
    // The most specific: a number is a guest's ID.
    ["/etc/pve/firewall/105.fw", "firewall/<VMID>.fw"],
    ["/etc/pve/firewall/pve1.fw", "firewall/<NAME>.fw"],
    ["/etc/pve/nodes/pve1/qemu-server/100.conf", "nodes/<NAME>/qemu-server/<VMID>.conf"],
    // Through the link to the node's own folder.
    ["/etc/pve/qemu-server/100.conf", "nodes/<NAME>/qemu-server/<VMID>.conf"],
    ["/etc/pve/lxc/100.conf", undefined],
  ])("%s: %p", (typed, file) => {
    expect(fileNamed(typed, files)?.file).toBe(file);
  });
  test.each<[string, string[]]>([
    ["/etc/pve/sdn/zones.cfg", ["sdn", "zones"]],
    // A number where the name has <VMID> is a guest's, unless its folder says whose.
    ["/etc/pve/firewall/105.fw", ["firewall", "guest 105"]],
    ["/etc/pve/qemu-server/100.conf", ["qemu-server", "guest 100"]],
    ["storage.cfg", ["storage"]],
  ])("the words of %s: %j", (typed, words) => {
    expect(
      fileWords(typed, fileNamed(typed, files.concat(describedFiles([{ ...pages[0]!, files: [["sdn/*", "SDN"]] }])))!),
    ).toEqual(words);
  });
});

describe("withoutAsides: what a file is, without the parentheses", () => {
  test.each([
    [
      "Proxmox VE datacenter-wide configuration (keyboard layout, proxy, …)",
      "Proxmox VE datacenter-wide configuration",
    ],
    [
      "Corosync cluster configuration file (prior to Proxmox VE 4.x, this file was called cluster.conf)",
      "Corosync cluster configuration file",
    ],
    // An acronym stays.
    [
      "Shared configuration files for Software Defined Networking (SDN)",
      "Shared configuration files for Software Defined Networking (SDN)",
    ],
  ])("%s", (description, what) => {
    expect(withoutAsides(description)).toBe(what);
  });
});

describe.skipIf(!haveSharedData("the files pmxcfs describes", DOCS_DIR))("the files a page's tables describe", () => {
  test("the pmxcfs chapter: each file of /etc/pve with its description, each link with its folder", async () => {
    const page = await parseDocsPage(
      "chapter-pmxcfs.html",
      readFileSync(join(DOCS_DIR, "chapter-pmxcfs.html"), "utf8"),
    );
    const files = new Map(page.files);
    expect(files.get("datacenter.cfg")).toBe("Proxmox VE datacenter-wide configuration (keyboard layout, proxy, …)");
    expect(files.get("nodes/<NAME>/qemu-server/<VMID>.conf")).toBe("VM configuration data for KVM VMs");
    expect(files.get(".members")).toBe("Info about cluster members");
    expect(files.size).toBeGreaterThan(40);
    expect(new Map(page.fileLinks).get("qemu-server")).toBe("nodes/<LOCAL_HOST_NAME>/qemu-server/");
    // The chapter has no SYNOPSIS: pmxcfs is no CLI command here.
    expect(page.commands).toEqual([]);
  });
  test("a table of settings is no table of files (vm.swappiness = 10 has a space)", async () => {
    const page = await parseDocsPage(
      "chapter-sysadmin.html",
      readFileSync(join(DOCS_DIR, "chapter-sysadmin.html"), "utf8"),
    );
    expect(page.files).toEqual([]);
  });
});

describe("PROXMOX_DOCS", () => {
  test.each([[undefined], [""], ["on"], ["true"], ["auto"]])("%j: beside the schema", (value) => {
    expect(parseDocsSetting(value)).toEqual({ kind: "auto" });
  });
  test.each([["off"], ["false"], ["0"], ["no"]])("%j: off", (value) => {
    expect(parseDocsSetting(value)).toEqual({ kind: "off" });
  });
  test("a directory, and an https URL made a directory, credentials dropped", () => {
    expect(parseDocsSetting("/srv/pve-docs", "/work")).toEqual({ kind: "file", path: "/srv/pve-docs" });
    expect(parseDocsSetting("docs", "/work")).toEqual({ kind: "file", path: "/work/docs" });
    const url = parseDocsSetting("https://u:secret-pass@mirror.example/pve-docs?k=v");
    expect(url).toMatchObject({
      kind: "url",
      display: "https://mirror.example/pve-docs/",
      dropped: ["user name and password", "query string"],
    });
  });
  test("http is refused without echoing the value", () => {
    expect(() => parseDocsSetting("http://u:secret-pass@mirror.example/pve-docs/")).toThrow(ConfigError);
    try {
      parseDocsSetting("http://u:secret-pass@mirror.example/pve-docs/");
    } catch (error) {
      expect((error as Error).message).toContain("PROXMOX_DOCS: uses http, not https");
      expect((error as Error).message).not.toContain("secret-pass");
    }
  });
});

describe("the docs beside a schema", () => {
  test.each([
    ["https://m.example/pve-docs/api-viewer/apidoc.js", "https://m.example/pve-docs/"],
    ["https://m.example/pve-docs/api-viewer/index.html", "https://m.example/pve-docs/"],
    ["https://m.example/mirror/apidoc.js", "https://m.example/mirror/"],
  ])("%s -> %s", (schema, docs) => {
    const url = new URL(schema);
    expect(besideSchema({ kind: "url", url, display: url.href, dropped: [], secrets: [] })).toMatchObject({
      kind: "url",
      display: docs,
    });
  });
  test.each([
    ["/opt/pve-docs/api-viewer/apidoc.js", "/opt/pve-docs"],
    ["/opt/mirror/apidoc.js", "/opt/mirror"],
  ])("%s -> %s", (path, dir) => {
    expect(besideSchema({ kind: "file", path })).toEqual({ kind: "file", path: dir });
  });
});

describe("isUnder", () => {
  const seg = (p: string) => p.split("/").filter(Boolean);
  test.each([
    ["/nodes/{node}/storage/{storage}/content", "/nodes/pve1/storage", true],
    ["/nodes/{node}/storage", "/nodes/{node}/storage", true],
    ["/nodes/{node}/storage", "/nodes/{node}/storage/local", false],
    ["/cluster/ha/resources", "/cluster/ha", true],
    ["/cluster/hardware", "/cluster/ha", false],
    ["/nodes/{node}/qemu", "/nodes/{x}/qemu", true],
    ["/access/users", "/", true],
  ])("%s under %s: %p", (template, prefix, expected) => {
    expect(isUnder(seg(template), seg(prefix))).toBe(expected);
  });
});
