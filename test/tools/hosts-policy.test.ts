// Several hosts: the local policy, waiting and file transfer each act on the host the call
// names. Two loopback fakes; every test asserts what each of them received.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileAccess } from "../../src/files/resolver.ts";
import type { FakeProxmox } from "../fake/pve-fake.ts";
import { installFileRoutes, type FileRoutes } from "../fake/upload.ts";
import { SITE_B, useTwoHosts } from "../support/hosts.ts";
import { textOf } from "../support/mcp.ts";
import { expectRefusal, PROTECTED_REASON, routeGuestActions } from "../support/policy.ts";

const NETWORK_PLAIN = [{ iface: "vmbr0", type: "bridge", bridge_ports: "eno1" }];
const NETWORK_VLAN_AWARE = [{ iface: "vmbr0", type: "bridge", bridge_ports: "eno1", bridge_vlan_aware: 1 }];
const routes = new Map<FakeProxmox, FileRoutes>();

const two = useTwoHosts((fake) => {
  routeGuestActions(fake);
  fake.route("DELETE", "/nodes/{node}/qemu/{vmid}", (req) => ({
    data: fake.startTask(req.pathParams.node!, "qmdestroy", req.pathParams.vmid!),
  }));
  fake.route("PUT", "/nodes/{node}/qemu/{vmid}/config", () => ({ data: null }));
  routes.set(fake, installFileRoutes(fake));
});

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "pve-mcp-hosts-")));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const fileRoutes of routes.values()) fileRoutes.uploads.length = 0;
});

function protectedFile(guests: unknown[]): string {
  const file = join(dir, "protected.json");
  writeFileSync(file, JSON.stringify({ protected_vms: guests }));
  return file;
}

const stop = (host: string, node: string, vmid: number) => ({
  host,
  method: "POST",
  path: `/nodes/${node}/qemu/${vmid}/status/stop`,
});

describe("protected guests per host", () => {
  const guests = [
    { vmid: 100, name: "mcp-host", reason: PROTECTED_REASON, host: "site-a" },
    { vmid: 105, name: "dns", reason: "office DNS" },
  ];

  test("a guest protected on site-a is refused there and allowed on site-b; one without host is protected on both", async () => {
    const h = await two.open(two.env({ PROXMOX_PROTECTED_VMS_FILE: protectedFile(guests) }));
    const onA = expectRefusal(
      await h.call("proxmox_request", stop("site-a", "alpha1", 100)),
      "refused_protected_guest",
    );
    expect(onA).toStartWith("Host site-a: POST /nodes/alpha1/qemu/100/status/stop refused");
    expect(onA).toContain(`100 (mcp-host, host site-a)`);
    expect(two.seen(two.a)).toEqual([]);

    const onB = await h.call("proxmox_request", stop("site-b", "beta1", 100));
    expect(onB.isError).toBeFalsy();
    expect(two.seen(two.b)).toEqual(["POST /nodes/beta1/qemu/100/status/stop"]);

    for (const [host, node] of [
      ["site-a", "alpha1"],
      ["site-b", "beta1"],
    ] as const) {
      expectRefusal(await h.call("proxmox_request", stop(host, node, 105)), "refused_protected_guest");
    }
    expect(two.seen(two.a)).toEqual([]);
    expect(two.seen(two.b)).toEqual(["POST /nodes/beta1/qemu/100/status/stop"]);
  });

  test("an entry naming an unknown label fails closed: every write on every host is refused", async () => {
    const file = protectedFile([...guests, { vmid: 200, name: "x", reason: "typo", host: "site-c" }]);
    const h = await two.open(two.env({ PROXMOX_PROTECTED_VMS_FILE: file }));
    for (const [host, node] of [
      ["site-a", "alpha2"],
      ["site-b", "beta2"],
    ] as const) {
      const text = expectRefusal(await h.call("proxmox_request", stop(host, node, 300)), "refused_protected_guest");
      expect(text).toContain("names host 'site-c', which is not in PROXMOX_HOSTS (site-a, site-b)");
    }
    expect([...two.seen(two.a), ...two.seen(two.b)]).toEqual([]);
  });
});

describe("rules, read-only and the audit trail per host", () => {
  test("a rule labelled site-a applies on site-a only; an unlabelled rule on both", async () => {
    const h = await two.open(two.env({ PROXMOX_DENY: "site-a: DELETE /**, POST /nodes/*/qemu/*/status/reset" }));
    const del = (host: string, node: string) =>
      h.call("proxmox_request", { host, method: "DELETE", path: `/nodes/${node}/qemu/101` });
    expect(expectRefusal(await del("site-a", "alpha1"), "refused_rule")).toContain(
      "'site-a: DELETE /**' in PROXMOX_DENY",
    );
    expect((await del("site-b", "beta1")).isError).toBeFalsy();
    for (const [host, node] of [
      ["site-a", "alpha1"],
      ["site-b", "beta1"],
    ] as const) {
      const reset = { host, method: "POST", path: `/nodes/${node}/qemu/101/status/reset` };
      expectRefusal(await h.call("proxmox_request", reset), "refused_rule");
    }
    expect(two.seen(two.a)).toEqual([]);
    expect(two.seen(two.b)).toEqual(["DELETE /nodes/beta1/qemu/101"]);
  });

  test("an allow list labelled site-b restricts site-b only", async () => {
    const h = await two.open(two.env({ PROXMOX_ALLOW: "site-b: POST /nodes/*/qemu/*/status/start" }));
    expect((await h.call("proxmox_request", stop("site-a", "alpha1", 101))).isError).toBeFalsy();
    expectRefusal(await h.call("proxmox_request", stop("site-b", "beta1", 101)), "refused_rule");
    expect(two.seen(two.a)).toEqual(["POST /nodes/alpha1/qemu/101/status/stop"]);
    expect(two.seen(two.b)).toEqual([]);
  });

  test("a host's own read-only setting: its client refuses writes even when asked directly", async () => {
    const h = await two.open(two.env({ PROXMOX_SITE_B_READ_ONLY: "true" }));
    const client = h.hosts.resolve("site-b").client;
    const error = await client.call({ tool: "test", method: "POST", path: "/nodes/beta1/qemu/101/status/stop" }).then(
      () => undefined,
      (e: unknown) => e as { code?: string; message: string },
    );
    expect(error?.code).toBe("refused_read_only");
    expect((await h.call("proxmox_get", { host: "site-b", path: "/version" })).isError).toBeFalsy();
    expect((await h.call("proxmox_request", stop("site-a", "alpha1", 101))).isError).toBeFalsy();
    expect(two.seen(two.b)).toEqual(["GET /version"]);
    expect(two.seen(two.a)).toEqual(["POST /nodes/alpha1/qemu/101/status/stop"]);
  });

  test("the audit log records the host of every write and every refusal", async () => {
    const audit = join(dir, "audit.jsonl");
    const h = await two.open(two.env({ PROXMOX_AUDIT_LOG: audit, PROXMOX_DENY: "site-b: POST /**" }));
    // a parameter that happens to hold the other host's token is not written out either
    const leak = `${SITE_B.tokenId} ${SITE_B.tokenSecret}`;
    await h.call("proxmox_request", { ...stop("site-a", "alpha1", 101), parameters: { timeout: 30, note: leak } });
    await h.call("proxmox_request", stop("site-b", "beta1", 101));
    const text = readFileSync(audit, "utf8");
    expect(text).not.toContain(SITE_B.tokenSecret);
    expect(text).not.toContain(SITE_B.tokenId);
    expect(text).toContain("[redacted token id] [redacted secret]");
    const lines = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { host: string; path: string; outcome: { result: string } });
    expect(lines.map((l) => [l.host, l.path, l.outcome.result])).toEqual([
      ["site-a", "/nodes/alpha1/qemu/101/status/stop", "ok"],
      ["site-b", "/nodes/beta1/qemu/101/status/stop", "refused"],
    ]);
  });

  test("the VLAN guard reads the bridges of the host written to", async () => {
    two.a.route("GET", "/nodes/{node}/network", () => ({ data: NETWORK_PLAIN }));
    two.b.route("GET", "/nodes/{node}/network", () => ({ data: NETWORK_VLAN_AWARE }));
    const h = await two.open();
    const tag = (host: string, node: string) =>
      h.call("proxmox_request", {
        host,
        method: "PUT",
        path: `/nodes/${node}/qemu/101/config`,
        parameters: { net0: "virtio,bridge=vmbr0,tag=10" },
      });
    expect((await tag("site-b", "beta1")).isError).toBeFalsy();
    expect(two.seen(two.b)).toEqual(["GET /nodes/beta1/network", "PUT /nodes/beta1/qemu/101/config"]);
    expect(two.seen(two.a)).toEqual([]);
    expect(expectRefusal(await tag("site-a", "alpha1"), "refused_vlan")).toContain("on node alpha1 is not VLAN-aware");
    expect(two.seen(two.a)).toEqual(["GET /nodes/alpha1/network"]);
  });
});

describe("tasks and files on the host named", () => {
  test("wait polls the task's node on the same host", async () => {
    two.b.route("POST", "/nodes/{node}/qemu/{vmid}/snapshot", (req) => ({
      data: two.b.startTask(req.pathParams.node!, "qmsnapshot", req.pathParams.vmid!, { pollsUntilDone: 2 }),
    }));
    const h = await two.open();
    const result = await h.call("proxmox_request", {
      host: "site-b",
      method: "POST",
      path: "/nodes/beta2/qemu/101/snapshot",
      parameters: { snapname: "before" },
      wait: true,
    });
    expect((result.structuredContent as { task: { ok: boolean } }).task.ok).toBe(true);
    const seen = two.seen(two.b);
    expect(seen[0]).toBe("POST /nodes/beta2/qemu/101/snapshot");
    expect(seen.slice(1).length).toBe(3);
    for (const poll of seen.slice(1))
      expect(poll).toMatch(/^GET \/nodes\/beta2\/tasks\/UPID:beta2:.*:ops@pam!site-b:\/status$/);
    expect(two.seen(two.a)).toEqual([]);
  });

  test("uploads and downloads go to the host named; PROXMOX_FILE_ROOTS is shared", async () => {
    const root = join(dir, "files");
    mkdirSync(root, { mode: 0o755 });
    writeFileSync(join(root, "tiny.iso"), "ISO bytes");
    const h = await two.open(two.env(), { files: new FileAccess({ roots: [root] }) });

    const upload = await h.call("proxmox_upload", {
      host: "site-b",
      path: "/nodes/beta1/storage/local/upload",
      file_path: join(root, "tiny.iso"),
      parameters: { content: "iso" },
    });
    expect(upload.isError).toBeFalsy();
    expect((upload.structuredContent as { host: string }).host).toBe("site-b");
    expect(routes.get(two.b)!.uploads.map((u) => [u.node, u.fileName, u.size])).toEqual([["beta1", "tiny.iso", 9]]);
    expect(routes.get(two.a)!.uploads).toEqual([]);

    const download = await h.call("proxmox_download", {
      host: "site-a",
      path: "/version",
      destination: join(root, "version.json"),
    });
    expect(download.isError).toBeFalsy();
    expect(JSON.parse(readFileSync(join(root, "version.json"), "utf8")).data.version).toBe("8.4.1");
    expect(two.seen(two.a)).toEqual(["GET /version"]);
    expect(two.seen(two.b)).toEqual(["POST /nodes/beta1/storage/local/upload"]);
    expect(textOf(download)).toContain('"host":"site-a"');
  });
});
