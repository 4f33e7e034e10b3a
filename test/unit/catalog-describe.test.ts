// Issue 3: matching paths to templates and describing endpoints in readable form.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { Catalog, normalizeInputPath, segmentDistance } from "../../src/catalog/catalog.ts";
import { describePermissions, summarizePropertyString, type EndpointDescription } from "../../src/catalog/describe.ts";
import { firstSentence, markupToText } from "../../src/catalog/text.ts";
import { miniCatalog } from "../support/catalog.ts";
import { haveSharedData, SCHEMA_DIR, SCHEMA_FILES } from "../support/shared.ts";

const catalog = miniCatalog();

function found(path: string, method?: string): EndpointDescription {
  const outcome = catalog.describe(path, method);
  if (!outcome.found) throw new Error(`expected ${path} to be found: ${outcome.message}`);
  return outcome.description;
}

describe("normalizeInputPath", () => {
  test.each([
    ["/nodes/pve1/qemu/100", "/nodes/pve1/qemu/100"],
    ["nodes/pve1/", "/nodes/pve1"],
    ["/api2/json/nodes/pve1", "/nodes/pve1"],
    ["api2/json/nodes", "/nodes"],
    ["https://pve:8006/api2/json/nodes?x=1#y", "/nodes"],
    ["/nodes//pve1///qemu", "/nodes/pve1/qemu"],
    ["/", "/"],
    ["  /access/acl  ", "/access/acl"],
  ])("%j -> %j", (input, expected) => {
    expect(normalizeInputPath(input)).toBe(expected);
  });
});

describe("match: concrete paths to templates, segment by segment", () => {
  test.each([
    ["/nodes/pve1/qemu/100/snapshot", "/nodes/{node}/qemu/{vmid}/snapshot", { node: "pve1", vmid: "100" }],
    ["/nodes/{node}/qemu/{vmid}/snapshot", "/nodes/{node}/qemu/{vmid}/snapshot", {}],
    [
      "/nodes/pve1/qemu/100/snapshot/before-upgrade/rollback",
      "/nodes/{node}/qemu/{vmid}/snapshot/{snapname}/rollback",
      { node: "pve1", vmid: "100", snapname: "before-upgrade" },
    ],
    ["/nodes/pve1/qemu/100/status/current", "/nodes/{node}/qemu/{vmid}/status/current", { node: "pve1", vmid: "100" }],
    [
      "/nodes/my%20node/lxc/200/status/start",
      "/nodes/{node}/lxc/{vmid}/status/start",
      { node: "my node", vmid: "200" },
    ],
    ["/api2/json/access/acl/", "/access/acl", {}],
    ["/nodes/qemu", "/nodes/{node}", { node: "qemu" }],
  ])("%s", (path, template, params) => {
    expect(catalog.match(path)).toEqual({ template, params });
  });

  test("a literal segment wins over a placeholder", () => {
    // /nodes/{node}/qemu exists; "qemu" under /nodes/{node} is the literal, not a second node name.
    expect(catalog.match("/nodes/pve1/qemu")?.template).toBe("/nodes/{node}/qemu");
  });

  test.each([
    ["/nodes/pve1/qemu/100/snapshots"],
    ["/cluster/resources"],
    ["/nodes/pve1/qemu/100/status/current/extra"],
  ])("%s matches nothing", (path) => {
    expect(catalog.match(path)).toBeUndefined();
  });
});

describe("closest paths for unknown ones", () => {
  test.each([
    ["/nodes/pve1/qemu/100/snapshots", "/nodes/{node}/qemu/{vmid}/snapshot"],
    ["/nodes/pve1/qemu/100/status/curent", "/nodes/{node}/qemu/{vmid}/status/current"],
    ["/access/acls", "/access/acl"],
    ["/nodes/pve1/lxc/200/status/shutdwn", "/nodes/{node}/lxc/{vmid}/status/shutdown"],
  ])("%s -> %s first", (path, best) => {
    expect(catalog.closest(path, 3)[0]).toBe(best);
  });

  test("segment distance: placeholders accept any value, near-miss literals cost less than a wrong one", () => {
    expect(segmentDistance(["nodes", "pve1"], ["nodes", "{node}"])).toBeLessThan(0.5);
    expect(segmentDistance(["snapshots"], ["snapshot"])).toBeLessThan(segmentDistance(["snapshots"], ["rollback"]));
    expect(segmentDistance([], ["a", "b"])).toBe(2);
  });
});

describe("describe", () => {
  test("a concrete path names its template, the values taken and every method with children", () => {
    const d = found("/nodes/pve1/qemu/100/snapshot");
    expect(d.path).toBe("/nodes/{node}/qemu/{vmid}/snapshot");
    expect(d.matched).toEqual({ input: "/nodes/pve1/qemu/100/snapshot", params: { node: "pve1", vmid: "100" } });
    expect(d.methods.map((m) => m.method)).toEqual(["GET", "POST"]);
    expect(d.children).toEqual(["/nodes/{node}/qemu/{vmid}/snapshot/{snapname}"]);
  });

  test("one method; placeholders first and marked, then required, then optional", () => {
    const [post] = found("/nodes/{node}/qemu", "POST").methods;
    expect(post!.parameters.map((p) => [p.name, p.in_path ?? false, p.optional])).toEqual([
      ["node", true, false],
      ["vmid", false, false],
      ["memory", false, true],
      ["net[n]", false, true],
    ]);
    expect(post!.protected).toBe(true);
    expect(post!.proxyto).toBe("node");
    expect(post!.allowtoken).toBe(true);
    expect(post!.permissions).toEqual({
      check: "VM.Allocate on /vms/{vmid} or VM.Allocate on /pool/{pool}",
      description: "You need 'VM.Allocate' permissions on /vms/{vmid}.",
    });
  });

  test('"METHOD /path" as the path works too, as search results print it', () => {
    expect(found("DELETE /nodes/pve1/qemu/100").methods.map((m) => m.method)).toEqual(["DELETE"]);
  });

  test("property-string formats are summarised key by key", () => {
    const net = found("/nodes/{node}/qemu", "POST").methods[0]!.parameters.find((p) => p.name === "net[n]")!;
    expect(net.optional).toBe(true);
    expect(net.format).toBe("property string");
    expect(net.format_keys).toEqual({
      model:
        "<string>, one of e1000|virtio, the key may be left out - Network Card Model. (written as <model>=<macaddr>, e.g. virtio=<macaddr>)",
      macaddr: "<XX:XX:XX:XX:XX:XX>, optional - MAC address.",
      bridge: "<string>, optional - Bridge to attach the network device to.",
    });
    const memory = found("/nodes/{node}/qemu", "POST").methods[0]!.parameters.find((p) => p.name === "memory")!;
    expect(memory.format_keys).toEqual({
      current: "<integer>, the key may be left out, range 16..inf - Current amount of online RAM for the VM in MiB.",
    });
  });

  test("a token-refusing endpoint says so", () => {
    const [ticket] = found("/access/ticket").methods;
    expect(ticket!.allowtoken).toBe(false);
    expect(ticket!.permissions).toEqual({
      check: "anyone, even without login",
      description: "You need to pass valid credentials.",
    });
  });

  test("an unknown method lists the ones there are", () => {
    const outcome = catalog.describe("/access/acl", "DELETE");
    expect(outcome).toMatchObject({ found: false, reason: "unknown_method", methods: ["GET", "PUT"] });
  });

  test("an unknown path suggests the closest existing ones", () => {
    const outcome = catalog.describe("/nodes/pve1/qemu/100/snapshots");
    expect(outcome.found).toBe(false);
    if (outcome.found || outcome.reason !== "unknown_path") throw new Error("expected unknown_path");
    expect(outcome.message).toContain("/nodes/pve1/qemu/100/snapshots is not a path");
    expect(outcome.closest[0]).toBe("/nodes/{node}/qemu/{vmid}/snapshot");
    expect(outcome.closest.length).toBe(5);
  });
});

describe("permissions as text", () => {
  test.each([
    [{ check: ["perm", "/vms/{vmid}", ["VM.PowerMgmt"]] }, "VM.PowerMgmt on /vms/{vmid}"],
    [{ check: ["perm", "/", ["Sys.Audit", "Datastore.Audit"], "any", 1] }, "any of Sys.Audit, Datastore.Audit on /"],
    [{ check: ["perm", "/", ["Sys.Audit", "Sys.Modify"]] }, "all of Sys.Audit, Sys.Modify on /"],
    [
      {
        check: [
          "or",
          ["userid-param", "self"],
          ["and", ["userid-param", "Realm.AllocateUser"], ["userid-group", ["User.Modify"]]],
        ],
      },
      "the user in 'userid' is the caller or (Realm.AllocateUser on the realm of the user in 'userid' and User.Modify on a group of the user in 'userid')",
    ],
    [{ check: ["perm-modify", "{path}"] }, "may modify permissions on {path}"],
    [{ user: "all" }, "any authenticated user"],
    [{ check: ["something-new", 1] }, '["something-new",1]'],
  ])("%j", (permissions, text) => {
    expect(describePermissions(permissions)?.check).toBe(text);
  });

  test("no permissions, no entry", () => {
    expect(describePermissions(undefined)).toBeUndefined();
    expect(describePermissions({})).toBeUndefined();
  });
});

describe("markup to readable text", () => {
  test.each([
    ["Use `qm` to do it.", "Use qm to do it."],
    ["Line one\nwrapped here.\n\nSecond paragraph.", "Line one wrapped here.\nSecond paragraph."],
    [
      "Options:\n\n[horizontal]\nother;; unspecified OS\nl26;; Linux 2.6 - 6.X Kernel\n",
      "Options:\n- other: unspecified OS\n- l26: Linux 2.6 - 6.X Kernel",
    ],
    [
      "State.\n\n`started`;;\n\nThe CRM tries to start\nthe resource.\n\n`stopped`;;\n\nKeep it stopped.\n",
      "State.\n- started: The CRM tries to start the resource.\n- stopped: Keep it stopped.",
    ],
    ["All {pve} API calls", "All Proxmox VE API calls"],
    ["", ""],
  ])("%j", (input, output) => {
    expect(markupToText(input)).toBe(output);
  });

  test("first sentence, clipped", () => {
    expect(firstSentence("Create a VM. Then more.")).toBe("Create a VM.");
    expect(firstSentence("x".repeat(300), 10)).toBe(`${"x".repeat(9)}…`);
  });

  test("alias keys say what they alias", () => {
    expect(summarizePropertyString({ volume: { alias: "file" }, file: { type: "string", default_key: 1 } })).toEqual({
      volume: "alias of file",
      file: "<string>, the key may be left out",
    });
  });
});

describe("the real PVE 9.1 schema", () => {
  const present = haveSharedData("catalog describe tests", SCHEMA_DIR);
  const real = present
    ? Catalog.fromText(readFileSync(SCHEMA_FILES["9.1"].file, "utf8"), { kind: "inline", location: "9.1" })
    : undefined;

  test.skipIf(!present)("every path describes well under the 512 KiB answer cap", () => {
    let largest = 0;
    for (const path of real!.allPaths()) {
      const outcome = real!.describe(path);
      expect(outcome.found).toBe(true);
      largest = Math.max(largest, JSON.stringify(outcome).length);
    }
    // The result goes out twice (text and structuredContent).
    expect(largest * 2).toBeLessThan(256 * 1024);
  });

  test.skipIf(!present)("the snapshot example of the issue", () => {
    const outcome = real!.describe("/nodes/pve/qemu/100/snapshot", "POST");
    if (!outcome.found) throw new Error(outcome.message);
    const [post] = outcome.description.methods;
    expect(post!.parameters.filter((p) => !p.optional && !p.in_path).map((p) => p.name)).toEqual(["snapname"]);
    expect(post!.permissions?.check).toBe("VM.Snapshot on /vms/{vmid}");
  });

  test.skipIf(!present)("descriptions carry no AsciiDoc markup", () => {
    const outcome = real!.describe("/cluster/ha/resources", "POST");
    if (!outcome.found) throw new Error(outcome.message);
    const state = outcome.description.methods[0]!.parameters.find((p) => p.name === "state")!;
    expect(state.details).toContain("- started: The CRM tries to start the resource.");
    expect(state.details).not.toContain(";;");
    expect(state.details).not.toContain("`");
  });
});
