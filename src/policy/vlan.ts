// A guest NIC with tag= (or trunks=) on a Linux bridge without bridge-vlan-aware is accepted by
// Proxmox and then the tag is not carried. The rules here are pure; the reads are in checkVlan.
import type { ApiReader, WriteIntent } from "../proxmox/calls.ts";
import { LocalRefusal } from "../proxmox/errors.ts";
import type { Params } from "../proxmox/params.ts";
import { nodeOfPath } from "../proxmox/path.ts";

export interface TaggedNic {
  /** The parameter, e.g. net0. */
  key: string;
  bridge: string;
  /** "tag=10" or "trunks=10;20", as written. */
  vlan: string;
}

const NET_KEY = /^net\d+$/;

/** Key/value pairs of a property string such as "virtio=AA:BB:..,bridge=vmbr0,tag=10". */
function propertyPairs(text: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const part of text.split(",")) {
    const eq = part.indexOf("=");
    if (eq > 0) pairs.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  return pairs;
}

/** The netN parameters that put a VLAN tag (or trunks) on a bridge. */
export function taggedNics(params: Params): TaggedNic[] {
  const nics: TaggedNic[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (!NET_KEY.test(key)) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item !== "string") continue;
      const pairs = propertyPairs(item);
      const bridge = pairs.get("bridge");
      if (!bridge) continue;
      const tag = pairs.get("tag");
      const trunks = pairs.get("trunks");
      if (tag) nics.push({ key, bridge, vlan: `tag=${tag}` });
      else if (trunks) nics.push({ key, bridge, vlan: `trunks=${trunks}` });
    }
  }
  return nics;
}

function flag(value: unknown): boolean {
  return value === true || value === 1 || value === "1";
}

function listOf(data: unknown): Record<string, unknown>[] {
  return Array.isArray(data)
    ? data.filter((item): item is Record<string, unknown> => item !== null && typeof item === "object")
    : [];
}

export type BridgeVerdict =
  | { kind: "ok" }
  | { kind: "refuse"; why: string }
  /** Not a bridge of the node: the answer depends on the SDN vnets. */
  | { kind: "vnet" };

/** Judges a bridge from GET /nodes/{node}/network. */
export function judgeNodeBridge(bridge: string, node: string, network: unknown): BridgeVerdict {
  const iface = listOf(network).find((item) => item.iface === bridge);
  if (!iface || iface.type === "vnet") return { kind: "vnet" };
  if (iface.type === "OVSBridge") return { kind: "ok" };
  if (iface.type === "bridge") {
    return flag(iface.bridge_vlan_aware)
      ? { kind: "ok" }
      : {
          kind: "refuse",
          why: `bridge ${bridge} on node ${node} is not VLAN-aware (bridge_vlan_aware is off), so Proxmox would accept the tag and then not carry it. Use a VLAN-aware bridge, drop the tag, or ask the operator to enable "VLAN aware" on ${bridge} (PUT /nodes/${node}/network/${bridge} bridge_vlan_aware=1, then apply the network configuration)`,
        };
  }
  return {
    kind: "refuse",
    why: `${bridge} on node ${node} is a ${String(iface.type)} interface, not a bridge a guest NIC can attach to`,
  };
}

/** Judges a bridge that is not a node bridge from GET /cluster/sdn/vnets. */
export function judgeVnet(bridge: string, node: string, vnets: unknown): BridgeVerdict {
  const vnet = listOf(vnets).find((item) => item.vnet === bridge);
  if (!vnet)
    return {
      kind: "refuse",
      why: `bridge ${bridge} is neither a bridge of node ${node} nor an SDN vnet; GET /nodes/${node}/network lists the bridges`,
    };
  if (flag(vnet.vlanaware)) return { kind: "ok" };
  return {
    kind: "refuse",
    why: `SDN vnet ${bridge} is not VLAN-aware (vlanaware is off), so a tag on the guest NIC would not be carried. Drop the tag (the vnet carries its own), or ask the operator to set vlanaware on the vnet`,
  };
}

function refuse(intent: WriteIntent, nic: TaggedNic, why: string): LocalRefusal {
  return new LocalRefusal(
    "refused_vlan",
    `${intent.method} ${intent.path} refused: ${nic.key} sets ${nic.vlan} on ${nic.bridge}, but ${why}.`,
  );
}

/**
 * Refuses a write that tags a guest NIC on a bridge that would not carry the tag. Reads the
 * node's network configuration (and SDN vnets when needed); a failed read refuses with why.
 */
export async function checkVlan(intent: WriteIntent, client: ApiReader, signal?: AbortSignal): Promise<void> {
  if (intent.method !== "POST" && intent.method !== "PUT") return;
  const nics = taggedNics(intent.params);
  if (nics.length === 0) return;
  const node = nodeOfPath(intent.path);
  if (!node) {
    throw new LocalRefusal(
      "refused_vlan",
      `${intent.method} ${intent.path} refused: it sets a VLAN tag on ${nics[0]!.key}, but the path names no node, so the bridge cannot be checked for VLAN awareness. Use the /nodes/{node}/... form of the endpoint.`,
    );
  }
  const reads = new Map<string, Promise<unknown>>();
  const read = (path: string) => {
    let pending = reads.get(path);
    if (!pending) {
      pending = client.getData(path, {}, signal, "policy");
      reads.set(path, pending);
    }
    return pending;
  };
  const readOrRefuse = async (path: string, nic: TaggedNic, privilege: string): Promise<unknown> => {
    try {
      return await read(path);
    } catch (error) {
      if (signal?.aborted) throw error;
      const detail = client.redact(error instanceof Error ? error.message : String(error));
      throw refuse(
        intent,
        nic,
        `whether ${nic.bridge} carries VLAN tags could not be checked: GET ${path} failed (${detail}). Give the token ${privilege}, or leave out the tag`,
      );
    }
  };
  for (const nic of nics) {
    const networkPath = `/nodes/${encodeURIComponent(node)}/network`;
    let verdict = judgeNodeBridge(
      nic.bridge,
      node,
      await readOrRefuse(networkPath, nic, `Sys.Audit on /nodes/${node}`),
    );
    if (verdict.kind === "vnet") {
      verdict = judgeVnet(nic.bridge, node, await readOrRefuse("/cluster/sdn/vnets", nic, "SDN.Audit on /sdn"));
    }
    if (verdict.kind === "refuse") throw refuse(intent, nic, verdict.why);
  }
}
