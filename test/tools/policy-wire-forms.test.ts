// Forms that Proxmox's own request parsing accepts, found in an adversarial review of the policy:
// how pve-http-server and PVE::RESTHandler route a path and decode parameters, and the aliases
// they resolve. Each goes through the real MCP client; a refusal means the fake received nothing.
import { describe, expect, test } from "bun:test";
import { textOf } from "../support/mcp.ts";
import { expectRefusal, policySuite, protectedFile } from "../support/policy.ts";

const file = protectedFile();
const suite = policySuite();
const PBS_100 = "pbs:backup/vm/100/2025-01-01T00:00:00Z";

async function request(
  env: Record<string, string>,
  method: string,
  path: string,
  parameters?: Record<string, unknown>,
) {
  const harness = await suite.open(env);
  return harness.call("proxmox_request", { method, path, ...(parameters ? { parameters } : {}) });
}

describe("a volume id after /storage/{storage}/content is one segment, '/' and all (PVE::RESTHandler fragmentDelimiter)", () => {
  test.each([
    [
      "a PBS snapshot of the guest",
      `/nodes/pve1/storage/pbs/content/${PBS_100}`,
      "the volume pbs:backup/vm/100/2025-01-01T00:00:00Z in the path",
    ],
    [
      "the same without the storage prefix",
      "/nodes/pve1/storage/pbs/content/backup/vm/100/2025-01-01T00:00:00Z",
      "the volume backup/vm/100/2025-01-01T00:00:00Z in the path",
    ],
    [
      "a disk in the guest's directory",
      "/nodes/pve1/storage/local/content/local:100/data.qcow2",
      "the volume local:100/data.qcow2 in the path",
    ],
  ])("%s, written with plain slashes, is the protected guest's", async (_label, path, via) => {
    const text = expectRefusal(
      await request({ PROXMOX_PROTECTED_VMS_FILE: file }, "DELETE", path),
      "refused_protected_guest",
    );
    expect(text).toContain(`protected guest 100 (mcp-host, host pve1) through ${via}`);
    expect(suite.seen()).toEqual([]);
  });

  test("another guest's volume written with plain slashes still reaches Proxmox, exactly as written", async () => {
    await request(
      { PROXMOX_PROTECTED_VMS_FILE: file },
      "DELETE",
      "/nodes/pve1/storage/pbs/content/pbs:backup/vm/101/2025-01-01T00:00:00Z",
    );
    expect(suite.seen()).toEqual(["DELETE /nodes/pve1/storage/pbs/content/pbs:backup/vm/101/2025-01-01T00:00:00Z"]);
  });

  test("a deny rule on '…/content/*' covers a volume id written with plain slashes", async () => {
    const result = await request(
      { PROXMOX_DENY: "DELETE /nodes/*/storage/*/content/*" },
      "DELETE",
      "/nodes/pve1/storage/local/content/local:iso/debian.iso",
    );
    expect(expectRefusal(result, "refused_rule")).toContain("'DELETE /nodes/*/storage/*/content/*' in PROXMOX_DENY");
    expect(suite.seen()).toEqual([]);
  });

  test("a rule that spells the volume out with '/' still matches it in both spellings", async () => {
    const env = { PROXMOX_DENY: "DELETE /nodes/*/storage/*/content/local:backup/**" };
    for (const path of [
      "/nodes/pve1/storage/local/content/local:backup/vzdump-qemu-101.vma.zst",
      "/nodes/pve1/storage/local/content/local:backup%2Fvzdump-qemu-101.vma.zst",
    ]) {
      expectRefusal(await request(env, "DELETE", path), "refused_rule");
    }
    expect(suite.seen()).toEqual([]);
  });

  test("a PROXMOX_CONFIRM rule on '…/content/*' holds it too (a client that cannot ask: refused, nothing sent)", async () => {
    const result = await request(
      { PROXMOX_CONFIRM: "DELETE /nodes/*/storage/*/content/*" },
      "DELETE",
      "/nodes/pve1/storage/local/content/local:iso/debian.iso",
    );
    expectRefusal(result, "refused_confirmation_unavailable");
    expect(suite.seen()).toEqual([]);
  });

  test("dry_run says so as well", async () => {
    const harness = await suite.open({ PROXMOX_PROTECTED_VMS_FILE: file });
    const result = await harness.call("proxmox_request", {
      method: "DELETE",
      path: `/nodes/pve1/storage/pbs/content/${PBS_100}`,
      dry_run: true,
    });
    const report = JSON.parse(textOf(result)) as { would_send: boolean; policy: { code?: string } };
    expect(report.would_send).toBe(false);
    expect(report.policy.code).toBe("refused_protected_guest");
    expect(suite.seen()).toEqual([]);
  });
});

describe("an empty value is no value to Proxmox (pve-http-server decode_urlencoded)", () => {
  test.each([
    [
      "prunebackups with vmid=''",
      "DELETE",
      "/nodes/pve1/storage/local/prunebackups",
      { vmid: "" },
      "pruning the backups of every guest on storage local",
    ],
    [
      "an ACL on /vms with propagate='' (Proxmox's default: propagate)",
      "PUT",
      "/access/acl",
      { path: "/vms", roles: "PVEVMAdmin", users: "eve@pve", propagate: "" },
      "the ACL on /vms, which propagates to every guest",
    ],
    [
      "a bulk stop whose list ends with an empty value",
      "POST",
      "/nodes/pve1/stopall",
      { vms: ["101", ""] },
      "stopall on node pve1",
    ],
    [
      "a backup job change with vmid=''",
      "PUT",
      "/cluster/backup/nightly",
      { vmid: "", schedule: "daily" },
      "a change to backup job nightly",
    ],
  ])("%s reaches every guest", async (_label, method, path, parameters, action) => {
    const text = expectRefusal(
      await request({ PROXMOX_PROTECTED_VMS_FILE: file }, method, path, parameters),
      "refused_protected_guest",
    );
    expect(text).toContain(`${action}`);
    expect(text).toContain("would also touch protected guest 100");
    expect(suite.seen()).toEqual([]);
  });
});

describe("names Proxmox resolves to the same node or HA resource", () => {
  test("'localhost' is the node the request reaches: a deny rule naming a node covers it", async () => {
    const result = await request({ PROXMOX_DENY: "* /nodes/pve1/**" }, "POST", "/nodes/localhost/qemu/101/status/stop");
    expect(expectRefusal(result, "refused_rule")).toContain("'* /nodes/pve1/**' in PROXMOX_DENY");
    expect(suite.seen()).toEqual([]);
  });

  test("and so does a PROXMOX_CONFIRM rule naming a node", async () => {
    const result = await request(
      { PROXMOX_CONFIRM: "POST /nodes/pve1/qemu/*/status/stop" },
      "POST",
      "/nodes/localhost/qemu/101/status/stop",
    );
    expectRefusal(result, "refused_confirmation_unavailable");
    expect(suite.seen()).toEqual([]);
  });

  test("an allow rule naming a node does not let 'localhost' through", async () => {
    const result = await request(
      { PROXMOX_ALLOW: "POST /nodes/pve2/qemu/*/status/start" },
      "POST",
      "/nodes/localhost/qemu/101/status/start",
    );
    expectRefusal(result, "refused_rule");
    expect(suite.seen()).toEqual([]);
  });

  test.each(["101", "ct:101", "vm:101"])("a deny rule on HA resource vm:101 covers %s", async (sid) => {
    const result = await request(
      { PROXMOX_DENY: "* /cluster/ha/resources/vm:101" },
      "PUT",
      `/cluster/ha/resources/${sid}`,
      { state: "stopped" },
    );
    expectRefusal(result, "refused_rule");
    expect(suite.seen()).toEqual([]);
  });
});
describe("endpoints that older Proxmox VE versions still have", () => {
  test("GET scan/glusterfs (PVE 8.4 and older) makes the node contact a server: refused in read-only mode", async () => {
    const harness = await suite.open({ PROXMOX_READ_ONLY: "true" });
    const result = await harness.call("proxmox_get", {
      path: "/nodes/pve1/scan/glusterfs",
      parameters: { server: "10.0.0.9" },
    });
    expect(expectRefusal(result, "refused_read_only_outbound")).toContain("GlusterFS");
    expect(suite.seen()).toEqual([]);
  });

  test("DELETE ceph/pools/{name} (PVE 7.4 and older) destroys every guest disk in the pool", async () => {
    const text = expectRefusal(
      await request({ PROXMOX_PROTECTED_VMS_FILE: file }, "DELETE", "/nodes/pve1/ceph/pools/rbd"),
      "refused_protected_guest",
    );
    expect(text).toContain("destroying Ceph pool rbd");
    expect(suite.seen()).toEqual([]);
  });
});

describe("tasks on a guest's volumes", () => {
  test("stopping an imgdel task of the guest's volume (UPID id 100@local-lvm) is refused", async () => {
    const upid = "UPID:pve1:00001234:00005678:65A0B0C0:imgdel:100@local-lvm:root@pam:";
    const path = `/nodes/pve1/tasks/${encodeURIComponent(upid)}`;
    const text = expectRefusal(
      await request({ PROXMOX_PROTECTED_VMS_FILE: file }, "DELETE", path),
      "refused_protected_guest",
    );
    expect(text).toContain(`through the task ${upid} in the path`);
    expect(suite.seen()).toEqual([]);
  });
});

describe("PROXMOX_CONFIRM holds a write however Proxmox would run it", () => {
  const env = { PROXMOX_CONFIRM: "POST /nodes/*/qemu/*/status/stop" };
  const stop = JSON.stringify([{ method: "POST", path: "qemu/101/status/stop" }]);
  const nested = JSON.stringify([{ method: "POST", path: "/execute", args: { commands: stop } }]);

  test.each([
    ["inside a batch", "/nodes/pve1/execute", { commands: stop }],
    ["inside a batch inside a batch", "/nodes/pve1/execute", { commands: nested }],
    ["behind an encoded '/'", "/nodes/pve1/qemu%2F101/status/stop", undefined],
    ["with a trailing '/'", "/nodes/pve1/qemu/101/status/stop/", undefined],
  ])("%s", async (_label, path, parameters) => {
    expectRefusal(await request(env, "POST", path, parameters), "refused_confirmation_unavailable");
    expect(suite.seen()).toEqual([]);
  });

  test("dry_run of the batch says it needs confirmation", async () => {
    const harness = await suite.open(env);
    const result = await harness.call("proxmox_request", {
      method: "POST",
      path: "/nodes/pve1/execute",
      parameters: { commands: stop },
      dry_run: true,
    });
    expect((JSON.parse(textOf(result)) as { policy: { verdict: string } }).policy.verdict).toBe("needs_confirmation");
    expect(suite.seen()).toEqual([]);
  });
});
