// Issue 11: CLI commands mapped to endpoints from the man pages alone, on the real pve-docs
// 9.1.3 pages and the real PVE 9.1 schema; the pure parts on small inputs.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Catalog } from "../../src/catalog/catalog.ts";
import { descriptionForm, descriptionSimilarity, homeOf, mapCommands } from "../../src/catalog/cli-map.ts";
import { parseDocsPage } from "../../src/catalog/docs-html.ts";
import { buildDocsKnowledge, definingWords, readsLike, returnedKeys } from "../../src/catalog/docs-knowledge.ts";
import { DOCS_PAGES } from "../../src/catalog/docs-loader.ts";
import type { DocsPage, Endpoint } from "../../src/catalog/model.ts";
import { stem } from "../../src/catalog/stem.ts";
import { DOCS_DIR, haveSharedData, SCHEMA_FILES, SHARED_DIR } from "../support/shared.ts";

describe("the pure parts", () => {
  // What a section's first sentence defines its resource by: the content words of a sentence
  // that names the resource first, less the words of its own path.
  test.each<[string, string, string, string[]]>([
    [
      "the first sentence, less the path's words",
      "/cluster/notifications/matchers",
      "Notification matchers route notifications to notification targets based on their matching rules. These rules can match certain properties.",
      ["route", "targets", "based", "matching", "rules"],
    ],
    [
      "the subject after an article",
      "/cluster/sdn/vnets/{vnet}/subnets",
      "A subnet define a specific IP range: each VNet can have one.",
      ["define", "specific", "ip", "range"],
    ],
    [
      "its first clause only",
      "/cluster/acme/plugins",
      "The ACME plugins task is to provide automatic verification that you, and thus the cluster, are the real owner.",
      ["task", "provide", "automatic", "verification"],
    ],
    [
      "a sentence that names something else first defines nothing",
      "/nodes/{node}/hardware",
      "We highly recommend to use a hardware RAID controller (with BBU) for such setups.",
      [],
    ],
  ])("definingWords: %s", (_, path, text, expected) => {
    const e = { method: "POST", path, name: "x" } as unknown as Endpoint;
    const title = path
      .split("/")
      .filter((s) => s && !s.startsWith("{"))
      .slice(-1)
      .map((s) => stem(s));
    expect(definingWords(text, title, [e])).toEqual(expected);
  });

  const get = (path: string, fields: string[]) =>
    ({
      method: "GET",
      path,
      returns: { type: "array", items: { type: "object", properties: Object.fromEntries(fields.map((f) => [f, {}])) } },
    }) as unknown as Endpoint;
  test.each<[string, string[], string | undefined]>([
    // Names compare without case, spaces or punctuation: "Node ID" is nodeid.
    ["three names, two ahead", ["Name", "Node ID", "Quorate", "Transport"], "/cluster/status"],
    ["two names are not enough", ["Name", "Quorate"], undefined],
    ["level with another", ["Name", "Nodes", "Quorate", "Votes"], undefined],
    ["a lead of one is not enough", ["Name", "Node ID", "Nodes", "Quorate", "Votes"], undefined],
  ])("readsLike: %s", (_, printed, expected) => {
    const endpoints = [
      get("/cluster/status", ["name", "nodeid", "nodes", "quorate"]),
      get("/cluster/config/nodes", ["name", "nodes", "votes"]),
      { ...get("/cluster/options", ["name", "nodeid", "nodes", "quorate"]), method: "PUT" },
    ];
    const found = readsLike(printed, returnedKeys(endpoints));
    expect(found === undefined ? undefined : endpoints[found.endpoint]!.path).toBe(expected);
  });

  test.each([
    ["Create a Template.", "Create a Template.", 1],
    ["Get Ceph Status.", "Get ceph status.", 1],
    [
      "Generate new cluster configuration. If no links given, default to local IP address as link0.",
      "Generate new cluster configuration.",
      0.9,
    ],
    [
      "Executes the given command via the guest agent",
      "Executes the given command in the vm via the guest-agent and returns an object with the pid.",
      0.9,
    ],
  ])("similarity of %j and %j is %d", (cli, api, expected) => {
    expect(descriptionSimilarity(descriptionForm(cli), descriptionForm(api))).toBeCloseTo(expected, 1);
  });

  test.each([
    [
      "Request the service to be stopped.",
      "Request resource relocation to another node. This stops the service on the old node, and restarts it on the target node.",
    ],
    ["Launch a shell for the specified container.", "Get container configuration."],
    ["Show VM status.", "Get virtual machine status."],
  ])("different sentences stay under the match bar: %j, %j", (cli, api) => {
    expect(descriptionSimilarity(descriptionForm(cli), descriptionForm(api))).toBeLessThan(0.75);
  });

  test.each([
    ["/nodes/{node}/qemu/{vmid}/config", "/nodes/{node}/qemu"],
    ["/cluster/ha/resources/{sid}", "/cluster/ha"],
    ["/storage/{storage}", "/storage/{storage}"],
    ["/version", "/version"],
  ])("home of %s is %s", (path, home) => {
    expect(homeOf(path)).toBe(home);
  });
});

const present =
  haveSharedData("CLI mapping on the real pages", DOCS_DIR) && haveSharedData("CLI mapping", SCHEMA_FILES["9.1"].file);

describe.skipIf(!present)("PVE 9.1.3 man pages against the PVE 9.1 schema", async () => {
  const pages: DocsPage[] = present
    ? await Promise.all(DOCS_PAGES.map(async (p) => parseDocsPage(p, readFileSync(join(DOCS_DIR, p), "utf8"))))
    : [];
  const catalog = present
    ? Catalog.fromText(readFileSync(SCHEMA_FILES["9.1"].file, "utf8"), { kind: "inline", location: "9.1" })
    : undefined;
  const mapped = present
    ? mapCommands(
        pages.flatMap((p) => p.commands),
        catalog!.endpoints,
      )
    : new Map();
  const target = (command: string) => {
    const m = mapped.get(command);
    if (!m) return "not listed";
    return m.endpoint === undefined
      ? "no endpoint"
      : `${catalog!.endpoints[m.endpoint]!.method} ${catalog!.endpoints[m.endpoint]!.path}`;
  };

  test.each([
    ["qm set", "PUT /nodes/{node}/qemu/{vmid}/config"],
    ["pct set", "PUT /nodes/{node}/lxc/{vmid}/config"],
    ["pvesm set", "PUT /storage/{storage}"],
    ["ha-manager add", "POST /cluster/ha/resources"],
    ["qm migrate", "POST /nodes/{node}/qemu/{vmid}/migrate"],
    ["pveam download", "POST /nodes/{node}/aplinfo"],
    ["pvesr schedule-now", "POST /nodes/{node}/replication/{id}/schedule_now"],
    // Twins with one text are told apart by where each tool's other commands live.
    ["qm template", "POST /nodes/{node}/qemu/{vmid}/template"],
    ["pct template", "POST /nodes/{node}/lxc/{vmid}/template"],
    ["qm snapshot", "POST /nodes/{node}/qemu/{vmid}/snapshot"],
    ["pct snapshot", "POST /nodes/{node}/lxc/{vmid}/snapshot"],
    // The command's own words pick among endpoints of one description.
    ["qm guest exec", "POST /nodes/{node}/qemu/{vmid}/agent/exec"],
    ["pvenode acme account list", "GET /cluster/acme/account"],
    // The verb picks the method among endpoints of one description.
    ["pveum user tfa delete", "DELETE /access/tfa/{userid}/{id}"],
    // Worded differently, but its options are nearly all one endpoint's parameters ("--link[n]" is link[n]).
    ["pvecm add", "POST /cluster/config/join"],
    ["qmrestore", "POST /nodes/{node}/qemu"],
    // ... and not when the descriptions are about different things (move_disk shares four options).
    ["qm disk import", "no endpoint"],
    // Aliases follow their target.
    ["qm move-disk", "POST /nodes/{node}/qemu/{vmid}/move_disk"],
    ["pveum useradd", "POST /access/users"],
    ["pveceph createosd", "POST /nodes/{node}/ceph/osd"],
    // Commands with no API twin map to nothing rather than to a near miss.
    ["pct enter", "no endpoint"],
    ["qm terminal", "no endpoint"],
    ["qm unlock", "no endpoint"],
    ["pvecm nodes", "no endpoint"],
    ["ha-manager crm-command stop", "no endpoint"],
    ["pve-firewall status", "no endpoint"],
  ])("%s -> %s", (command, expected) => {
    expect(target(command)).toBe(expected);
  });

  test("shell commands: words typed after a prompt or inline, not the Proxmox tools, not a comment's first word", () => {
    const knowledge = buildDocsKnowledge({ kind: "inline", location: "9.1.3" }, pages, catalog!.endpoints, {
      match: () => undefined,
      indexOf: () => undefined,
    });
    const shell = knowledge.cli.shell!;
    for (const command of ["vgs", "ceph", "ifreload", "lspci", "zpool", "systemctl"])
      expect(shell.has(command)).toBe(true);
    for (const word of ["qm", "pct", "pvesm", "create", "iface", "auto"]) expect(shell.has(word)).toBe(false);
    expect(shell.get("ceph")!.find((e) => e.words.join(" ") === "ceph osd set noout")?.paragraph).toContain(
      "enable the noout OSD flag",
    );
    // What an example prints names the GET that returns it: `zpool status`, a pool's details.
    const zpool = shell.get("zpool")!.find((e) => e.words.join(" ") === "zpool status")!.readsLike!;
    expect(catalog!.endpoints[zpool.endpoint]!.path).toBe("/nodes/{node}/disks/zfs/{name}");
  });

  test("a command with no API twin stands for the GET that returns what its examples print", () => {
    const knowledge = buildDocsKnowledge({ kind: "inline", location: "9.1.3" }, pages, catalog!.endpoints, {
      match: () => undefined,
      indexOf: () => undefined,
    });
    const status = knowledge.cli.commands.get("pvecm status")!;
    expect(status.endpoint).toBeUndefined();
    expect(status.output).toEqual(expect.arrayContaining(["Quorate", "Expected votes", "Config Version"]));
    const reads = status.readsLike!;
    expect(`${catalog!.endpoints[reads.endpoint]!.method} ${catalog!.endpoints[reads.endpoint]!.path}`).toBe(
      "GET /cluster/status",
    );
    expect(reads.fields).toEqual(expect.arrayContaining(["Name", "Nodes", "Quorate"]));
    // A command the docs show printing nothing of the kind stands for nothing.
    expect(knowledge.cli.commands.get("pvecm nodes")!.readsLike).toBeUndefined();
  });

  // A chapter's section titled by a resource's name gives it the section's words, also when a
  // resource beside it shares some of them ("Notification Matchers", not the matcher-fields).
  test("a section titled by a resource's name: the one whose own name the title says whole", () => {
    const knowledge = buildDocsKnowledge({ kind: "inline", location: "9.1.3" }, pages, catalog!.endpoints, {
      match: () => undefined,
      indexOf: () => undefined,
    });
    const textsOf = (method: string, path: string) =>
      knowledge.texts[catalog!.endpoints.findIndex((e) => e.method === method && e.path === path)]!;
    expect(textsOf("POST", "/cluster/notifications/matchers")).toContain("Notification Matchers");
    expect(textsOf("POST", "/cluster/notifications/matchers").join(" ")).toContain(
      "route notifications to notification targets",
    );
    expect(textsOf("GET", "/cluster/notifications/matcher-fields")).not.toContain("Notification Matchers");
  });

  test("most commands map, to many endpoints", () => {
    const values = [...mapped.values()];
    const endpoints = new Set(values.filter((m) => m.endpoint !== undefined).map((m) => m.endpoint));
    expect(values.length).toBeGreaterThan(300);
    expect(values.filter((m) => m.endpoint !== undefined).length).toBeGreaterThan(200);
    expect(endpoints.size).toBeGreaterThan(170);
  });
});

describe.skipIf(!present)("the SYNOPSIS as the pages hold it", () => {
  const read = (version: string, page: string) => readFileSync(join(SHARED_DIR, "pve/docs", version, page), "utf8");

  test.each([["9.1.3"], ["8.4.2"]])("qm set in %s: its argument, options and description", async (version) => {
    const page = await parseDocsPage("qm.1.html", read(version, "qm.1.html"));
    const set = page.commands.find((c) => c.command === "qm set")!;
    expect(set.binary).toBe("qm");
    expect(set.args).toEqual(["vmid"]);
    expect(set.options).toEqual(expect.arrayContaining(["memory", "cores", "net", "scsi", "delete", "digest"]));
    expect(set.description).toStartWith("Set virtual machine options (synchronous API)");
    expect(page.commands.find((c) => c.command === "qm move-disk")?.aliasOf).toBe("qm disk move");
    expect(page.commands.find((c) => c.command === "qm guest cmd")?.values?.command).toContain("fstrim");
  });

  test.each([["9.1.3"], ["8.4.2"]])(
    "the firewall macros of %s: the values of `macro`, as pve-firewall(8) defines them",
    async (version) => {
      const page = await parseDocsPage("pve-firewall.8.html", read(version, "pve-firewall.8.html"));
      const macros = page.definitions?.find((d) => d.title === "Macro Definitions");
      expect(macros?.terms).toEqual(expect.arrayContaining(["SSH", "HTTPS", "Ping", "RDP", "DNS"]));
      expect(macros!.terms.length).toBeGreaterThan(50);
    },
  );

  test.each([["9.1.3"], ["8.4.2"]])("the content types of %s: the values pvesm(1) gives `content`", async (version) => {
    const page = await parseDocsPage("pvesm.1.html", read(version, "pvesm.1.html"));
    const content = page.definitions?.find((d) => d.title === "content");
    expect(content?.terms).toEqual(
      expect.arrayContaining(["images", "rootdir", "vztmpl", "backup", "iso", "snippets"]),
    );
  });

  test("examples keep the section titles and the paragraph before them", async () => {
    const page = await parseDocsPage("vzdump.1.html", read("9.1.3", "vzdump.1.html"));
    expect(page.examples).toContainEqual({
      line: "vzdump 777",
      prompted: true,
      title: "vzdump(1) / Examples",
      paragraph: expect.stringContaining("Simply dump guest 777"),
    });
  });
});

describe("commands in the prose", () => {
  const block = (text: string) => `<div class="listingblock"><div class="content"><pre>${text}</pre></div></div>`;
  const paragraph = (html: string) => `<div class="paragraph">\n<p>${html}</p>\n</div>`;

  test("a word after a prompt is a command; without one it is output; in a block of bare commands # is no prompt", async () => {
    const html = [
      '<h2 id="_lvm">Logical Volume Manager</h2>',
      paragraph("The volume groups:"),
      block("# vgs\n  VG   #PV #LV\n  pve    1   3"),
      paragraph("Output alone:"),
      block("done"),
      paragraph("Import the image:"),
      block("# create a new VM\nqm create 9000 --memory 2048"),
    ].join("\n");
    const page = await parseDocsPage("x.html", html);
    expect(page.examples.map((e) => [e.line, e.prompted ?? false])).toEqual([
      ["vgs", true],
      ["create a new VM", false],
      ["qm create 9000 --memory 2048", false],
    ]);
  });

  test("what a command prints after a prompt gives the names of its values", async () => {
    const html = [
      '<h2 id="_status">Cluster Status</h2>',
      paragraph("To check the state of the cluster use:"),
      block(
        "# pvecm status\nCluster information\n~~~~~~~~~~~~~~~~~~~\nName:             prod\nConfig Version:   3\n\n    Nodeid      Votes Name\n0x00000001          1 192.168.15.91",
      ),
      paragraph("Without a prompt the lines are commands:"),
      block("qm set 100 --name: web"),
    ].join("\n");
    const page = await parseDocsPage("x.html", html);
    expect(page.examples.map((e) => [e.line, e.output])).toEqual([
      ["pvecm status", ["Name", "Config Version"]],
      ["qm set 100 --name: web", undefined],
    ]);
  });

  test("what follows a prompted line that is no command is none of the last command's output; names count once", async () => {
    const page = await parseDocsPage(
      "x.html",
      block("# pvecm status\nName:   prod\nName:   prod\n# ./configure\nQuorate:  Yes"),
    );
    expect(page.examples.map((e) => [e.line, e.output])).toEqual([["pvecm status", ["Name"]]]);
  });

  test("a monospaced command with an option in running text is an inline example; file names and values are not", async () => {
    const html = [
      '<h2 id="_apply">Apply Network Changes</h2>',
      paragraph(
        'Edits to <span class="monospaced">/etc/network/interfaces</span> in <span class="monospaced">interfaces.new</span> apply when you run <span class="monospaced">ifreload -a</span>',
      ),
    ].join("\n");
    const page = await parseDocsPage("x.html", html);
    expect(page.examples).toEqual([
      {
        line: "ifreload -a",
        prompted: true,
        inline: true,
        title: "Apply Network Changes",
        paragraph: "Edits to /etc/network/interfaces in interfaces.new apply when you run ifreload -a",
      },
    ]);
  });
});

describe("terms a section defines one by one", () => {
  const list = (...terms: string[]) =>
    `<div class="hdlist"><table>${terms.map((t) => `<tr><td class="hdlist1"><em>${t}</em><br></td><td class="hdlist2"><p>about ${t}</p></td></tr>`).join("")}</table></div>`;

  test("each list belongs to the section it stands in; lists of one section join; none before a heading", async () => {
    const html = [
      list("Orphan"),
      '<h2 id="_macro_definitions">Macro Definitions</h2>',
      list("SSH", "HTTPS"),
      "<p>between</p>",
      list("Ping"),
      '<h3 id="_other">Other Things</h3>',
      list("Thing"),
    ].join("\n");
    const page = await parseDocsPage("x.8.html", html);
    expect(page.definitions).toEqual([
      { title: "Macro Definitions", terms: ["SSH", "HTTPS", "Ping"] },
      { title: "Other Things", terms: ["Thing"] },
    ]);
  });

  test("a term whose definition holds a list of its own titles that list; a plain term does not", async () => {
    const html = [
      '<h3 id="_props">Common Properties</h3><div class="dlist"><dl>',
      '<dt class="hdlist1">\nnodes\n</dt><dd><p>\nList of nodes.\n</p></dd>',
      '<dt class="hdlist1">\ncontent\n</dt><dd><p>\nContent types.\n</p>',
      '<div class="dlist"><dl><dt class="hdlist1">\nimages\n</dt><dd><p>VM images.</p></dd>',
      '<dt class="hdlist1">\nbackup\n</dt><dd><p>Backup files.</p></dd></dl></div></dd>',
      "</dl></div>",
    ].join("\n");
    expect((await parseDocsPage("x.1.html", html)).definitions).toEqual([
      { title: "content", terms: ["images", "backup"] },
    ]);
  });

  test("a page without such lists defines nothing", async () => {
    expect((await parseDocsPage("x.html", "<html><p>not pve-docs</p></html>")).definitions).toEqual([]);
  });
});
