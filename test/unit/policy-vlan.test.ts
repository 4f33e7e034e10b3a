import { describe, expect, test } from "bun:test";
import { nodeOfPath } from "../../src/proxmox/path.ts";
import { judgeNodeBridge, judgeVnet, taggedNics, type TaggedNic } from "../../src/policy/vlan.ts";

describe("taggedNics", () => {
  test.each([
    [
      "qemu NIC with a tag",
      { net0: "virtio=BC:24:11:00:00:01,bridge=vmbr0,tag=10" },
      [{ key: "net0", bridge: "vmbr0", vlan: "tag=10" }],
    ],
    [
      "container NIC with a tag",
      { net1: "name=eth0,bridge=vmbr1,ip=dhcp,tag=20" },
      [{ key: "net1", bridge: "vmbr1", vlan: "tag=20" }],
    ],
    ["trunks", { net0: "virtio,bridge=vmbr0,trunks=10;20" }, [{ key: "net0", bridge: "vmbr0", vlan: "trunks=10;20" }]],
    ["no tag", { net0: "virtio,bridge=vmbr0,firewall=1" }, []],
    ["tag without a bridge", { net0: "virtio,tag=10" }, []],
    ["not a netN", { ipconfig0: "ip=dhcp", netx: "bridge=vmbr0,tag=1" }, []],
    [
      "several NICs",
      { net0: "virtio,bridge=vmbr0,tag=1", net3: "e1000,bridge=vnet1,tag=2" },
      [
        { key: "net0", bridge: "vmbr0", vlan: "tag=1" },
        { key: "net3", bridge: "vnet1", vlan: "tag=2" },
      ],
    ],
  ] as [string, Record<string, string>, TaggedNic[]][])("%s", (_label, params, expected) => {
    expect(taggedNics(params)).toEqual(expected);
  });
});

test("nodeOfPath", () => {
  expect(nodeOfPath("/nodes/pve1/qemu/100/config")).toBe("pve1");
  expect(nodeOfPath("/cluster/ha/resources")).toBeUndefined();
  expect(nodeOfPath("/nodes")).toBeUndefined();
});

describe("judging bridges", () => {
  const network = [
    { iface: "vmbr0", type: "bridge", bridge_vlan_aware: 1 },
    { iface: "vmbr1", type: "bridge" },
    { iface: "vmbr2", type: "bridge", bridge_vlan_aware: 0 },
    { iface: "ovs0", type: "OVSBridge" },
    { iface: "eno1", type: "eth" },
    { iface: "vnet1", type: "vnet" },
  ];
  test.each([
    ["vmbr0", "ok"],
    ["vmbr1", "refuse"],
    ["vmbr2", "refuse"],
    ["ovs0", "ok"],
    ["eno1", "refuse"],
    ["vnet1", "vnet"],
    ["vnet2", "vnet"],
  ])("node bridge %s -> %s", (bridge, kind) => {
    expect(judgeNodeBridge(bridge, "pve1", network).kind).toBe(kind as "ok");
  });

  test("the refusal says what to do", () => {
    const verdict = judgeNodeBridge("vmbr1", "pve1", network);
    expect(verdict).toEqual({
      kind: "refuse",
      why: expect.stringContaining("bridge vmbr1 on node pve1 is not VLAN-aware"),
    });
    expect(verdict.kind === "refuse" && verdict.why).toContain("bridge_vlan_aware=1");
  });

  test.each([
    ["aware", "ok"],
    ["plain", "refuse"],
    ["missing", "refuse"],
  ])("vnet %s -> %s", (vnet, kind) => {
    const vnets = [
      { vnet: "aware", zone: "z", vlanaware: 1 },
      { vnet: "plain", zone: "z", tag: 30 },
    ];
    expect(judgeVnet(vnet, "pve1", vnets).kind).toBe(kind as "ok");
  });

  test("unexpected data is treated as no interfaces", () => {
    expect(judgeNodeBridge("vmbr0", "pve1", null).kind).toBe("vnet");
    expect(judgeVnet("vmbr0", "pve1", { not: "a list" })).toEqual({
      kind: "refuse",
      why: expect.stringContaining("neither a bridge of node pve1 nor an SDN vnet"),
    });
  });
});
