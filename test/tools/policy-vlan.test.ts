// The VLAN guard through the real MCP client: the fake serves the node's network and SDN vnets.
import { beforeEach, describe, expect, test } from "bun:test";
import type { FakeReply } from "../fake/pve-fake.ts";
import { expectRefusal, policySuite } from "../support/policy.ts";

const NETWORK = [
  { iface: "eno1", type: "eth", active: 1 },
  { iface: "vmbr0", type: "bridge", bridge_ports: "eno1", autostart: 1 },
  { iface: "vmbr1", type: "bridge", bridge_vlan_aware: 1, bridge_vids: "2-4094" },
  { iface: "ovs0", type: "OVSBridge" },
];
const VNETS = [
  { vnet: "plain", zone: "vlanzone", tag: 30, type: "vnet" },
  { vnet: "trunk", zone: "vlanzone", tag: 31, type: "vnet", vlanaware: 1 },
];

let networkReply: FakeReply;
let vnetsReply: FakeReply;

const suite = policySuite((fake) => {
  fake.route("GET", "/nodes/{node}/network", () => networkReply);
  fake.route("GET", "/cluster/sdn/vnets", () => vnetsReply);
  fake.route("PUT", "/nodes/{node}/qemu/{vmid}/config", () => ({ data: null }));
  fake.route("POST", "/nodes/{node}/qemu/{vmid}/config", (req) => ({ data: fake.startTask(req.pathParams.node!, "qmconfig", req.pathParams.vmid!) }));
  fake.route("POST", "/nodes/{node}/lxc", (req) => ({ data: fake.startTask(req.pathParams.node!, "vzcreate", String(req.params.vmid)) }));
});
beforeEach(() => {
  networkReply = { data: NETWORK };
  vnetsReply = { data: VNETS };
});
async function put(net0: string, env: Record<string, string> = {}) {
  const harness = await suite.open(env);
  return harness.call("proxmox_request", { method: "PUT", path: "/nodes/pve1/qemu/101/config", parameters: { net0 } });
}

const seen = () => suite.seen();

describe("refused: the tag would not be carried", () => {
  test("a tag on a bridge that is not VLAN-aware", async () => {
    const text = expectRefusal(await put("virtio=BC:24:11:00:00:01,bridge=vmbr0,tag=10"), "refused_vlan");
    expect(text).toContain("net0 sets tag=10 on vmbr0, but bridge vmbr0 on node pve1 is not VLAN-aware");
    expect(text).toContain("bridge_vlan_aware=1");
    expect(seen()).toEqual(["GET /nodes/pve1/network"]);
  });

  test("trunks on a bridge that is not VLAN-aware, read from the node in the path", async () => {
    const result = await (await suite.open({})).call("proxmox_request", { method: "POST", path: "/nodes/pve2/qemu/101/config", parameters: { net1: "virtio,bridge=vmbr0,trunks=10;20" } });
    expect(expectRefusal(result, "refused_vlan")).toContain("net1 sets trunks=10;20 on vmbr0");
    expect(seen()).toEqual(["GET /nodes/pve2/network"]);
  });

  test("a container created with a tagged NIC", async () => {
    const result = await (await suite.open({})).call("proxmox_request", {
      method: "POST",
      path: "/nodes/pve1/lxc",
      parameters: { vmid: 300, ostemplate: "local:vztmpl/debian.tar.zst", net0: "name=eth0,bridge=vmbr0,ip=dhcp,tag=5" },
    });
    expectRefusal(result, "refused_vlan");
    expect(seen()).toEqual(["GET /nodes/pve1/network"]);
  });

  test("a tag on an SDN vnet that is not VLAN-aware", async () => {
    const text = expectRefusal(await put("virtio,bridge=plain,tag=10"), "refused_vlan");
    expect(text).toContain("SDN vnet plain is not VLAN-aware");
    expect(seen()).toEqual(["GET /nodes/pve1/network", "GET /cluster/sdn/vnets"]);
  });

  test("a bridge that exists nowhere", async () => {
    expect(expectRefusal(await put("virtio,bridge=vmbr9,tag=10"), "refused_vlan")).toContain("neither a bridge of node pve1 nor an SDN vnet");
  });

  test("a node network that cannot be read refuses and says why", async () => {
    networkReply = { status: 403, message: "Permission check failed (/nodes/pve1, Sys.Audit)" };
    const text = expectRefusal(await put("virtio,bridge=vmbr1,tag=10"), "refused_vlan");
    expect(text).toContain("could not be checked: GET /nodes/pve1/network failed");
    expect(text).toContain("HTTP 403 Permission check failed (/nodes/pve1, Sys.Audit)");
    expect(text).toContain("Give the token Sys.Audit on /nodes/pve1");
    expect(seen()).toEqual(["GET /nodes/pve1/network"]);
  });

  test("SDN vnets that cannot be read refuse and say why", async () => {
    vnetsReply = { status: 403, message: "Permission check failed (/sdn, SDN.Audit)" };
    const text = expectRefusal(await put("virtio,bridge=trunk,tag=10"), "refused_vlan");
    expect(text).toContain("GET /cluster/sdn/vnets failed");
    expect(seen()).toEqual(["GET /nodes/pve1/network", "GET /cluster/sdn/vnets"]);
  });

  test("a tagged NIC on a path without a node", async () => {
    const result = await (await suite.open({})).call("proxmox_request", { method: "POST", path: "/cluster/somewhere", parameters: { net0: "virtio,bridge=vmbr1,tag=3" } });
    expect(expectRefusal(result, "refused_vlan")).toContain("the path names no node");
    expect(suite.fake.apiRequests().length).toBe(0);
  });
});

describe("allowed", () => {
  test.each([
    ["a VLAN-aware bridge", "virtio,bridge=vmbr1,tag=10", ["GET /nodes/pve1/network", "PUT /nodes/pve1/qemu/101/config"]],
    ["an OVS bridge", "virtio,bridge=ovs0,tag=10", ["GET /nodes/pve1/network", "PUT /nodes/pve1/qemu/101/config"]],
    ["a VLAN-aware vnet", "virtio,bridge=trunk,tag=10", ["GET /nodes/pve1/network", "GET /cluster/sdn/vnets", "PUT /nodes/pve1/qemu/101/config"]],
    ["no tag: nothing is read", "virtio,bridge=vmbr0,firewall=1", ["PUT /nodes/pve1/qemu/101/config"]],
  ])("%s", async (_label, net0, requests) => {
    const result = await put(net0);
    expect(result.isError).toBeFalsy();
    expect(seen()).toEqual(requests);
  });

  test("PROXMOX_VLAN_GUARD=false turns the check off", async () => {
    const result = await put("virtio,bridge=vmbr0,tag=10", { PROXMOX_VLAN_GUARD: "false" });
    expect(result.isError).toBeFalsy();
    expect(seen()).toEqual(["PUT /nodes/pve1/qemu/101/config"]);
  });
});
