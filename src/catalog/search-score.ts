// The score factors: how much an endpoint's match with the query's words is worth, given what
// the query asks (method, guest, scope, one item or all) and what the endpoint is. One pure
// function over plain facts, so every rule can be read and table-tested in one place.
import type { MethodName } from "./synonyms.ts";

/** What the ranking knows about one endpoint. */
export interface EndpointFacts {
  method: string;
  /** 1 VM, 2 container, 0 neither. */
  guestKind: number;
  /** The path holds {vmid}. */
  oneGuest: boolean;
  /** One item of a collection (the path ends with a placeholder, one object comes back). */
  item: boolean;
  /** A directory index that only lists child paths. */
  navigation: boolean;
  websocket: boolean;
  /** Share (0..1) of the words naming the endpoint (last segment, handler name) the query did not ask for. */
  identityMiss: number;
}

/** What the ranking knows about the query. */
export interface QueryFacts {
  method: MethodName | undefined;
  /** The method was said (a verb), not assumed. */
  methodStated: boolean;
  guest: "qemu" | "lxc" | "any" | "none";
  /** The query is about one particular object (a number, an ID, a path, "details"). */
  oneItem: boolean;
  /** It names one guest by number ("VM 100"). */
  namesGuest: boolean;
  /** It speaks of the node (host) itself. */
  namesNode: boolean;
}

export const FACTOR = {
  statedMethod: 1.5,
  assumedMethod: 1.15,
  /** Proxmox writes with POST and PUT alike ("edit /etc/hosts" is a POST, "add a repository" a PUT). */
  otherWrite: 1.2,
  navigation: 0.8,
  websocket: 0.7,
  /** A list is likelier wanted than one item of it when nothing names one. */
  itemUnasked: 0.9,
  notTheGuest: 0.85,
  otherGuest: 0.75,
  /** Either kind of guest will do: the VM variant is the canonical one. */
  eitherGuestLxc: 0.95,
  unaskedGuest: 0.85,
  nodeNotGuest: 0.7,
  /** Score lost, in proportion, for the naming words not asked for. */
  identityMiss: 0.3,
} as const;

const WRITES = new Set(["POST", "PUT"]);

/** The product of every factor that applies. */
export function scoreFactor(e: EndpointFacts, q: QueryFacts): number {
  let f = 1;
  if (q.method && e.method === q.method) f *= q.methodStated ? FACTOR.statedMethod : FACTOR.assumedMethod;
  else if (q.methodStated && WRITES.has(q.method!) && WRITES.has(e.method)) f *= FACTOR.otherWrite;
  if (e.navigation) f *= FACTOR.navigation;
  // "back up VM 100 now": vzdump is a backup, the backup job (create_job) is also a job.
  f *= 1 - FACTOR.identityMiss * e.identityMiss;
  // A websocket upgrade cannot be used through these tools; the proxy ticket endpoints can.
  if (e.websocket) f *= FACTOR.websocket;
  if (!q.oneItem && e.method === "GET" && e.item) f *= FACTOR.itemUnasked;
  // "container 105": one guest is meant, so node-wide endpoints that merely mention guests step back.
  if (!e.oneGuest && q.namesGuest && (q.guest === "qemu" || q.guest === "lxc")) f *= FACTOR.notTheGuest;
  if (e.guestKind !== 0) {
    if ((q.guest === "qemu" && e.guestKind === 2) || (q.guest === "lxc" && e.guestKind === 1)) f *= FACTOR.otherGuest;
    else if (q.guest === "none") f *= q.namesNode ? FACTOR.nodeNotGuest : FACTOR.unaskedGuest;
    if (e.guestKind === 2 && (q.guest === "none" || q.guest === "any")) f *= FACTOR.eitherGuestLxc;
  }
  return f;
}
