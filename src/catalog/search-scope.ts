// Where a query is about: one node or the whole cluster, one guest or all of them, a guest as the
// place something happens, the guest agent. Pure functions over the query's words; the score
// factors read what they find (search-score.ts).
import { stem } from "./stem.ts";
import { STOPWORDS } from "./text.ts";
import type { SearchIndex } from "./search-index.ts";
import { guestByNumber, infinitive } from "./search-objects.ts";
import { nodeName } from "./search-clauses.ts";
import {
  ALL_WORDS,
  anyDestinationAt,
  CLUSTER_WORDS,
  DETERMINERS,
  EVERY_NODE,
  GUEST_WORDS,
  NODE_WORDS,
  PLACE_WORDS,
  PLURAL_GUESTS,
  PREPOSITIONS,
  numberedStorage,
  queryChunks,
  TARGET_WORDS,
} from "./search-tokens.ts";

/**
 * Names of hosts: a word for one, or Proxmox's, and a number ("pve2", "hv-03", "node1",
 * "pvenode1"); Proxmox's may follow another part ("srv-pve-01"), a word for a host may not
 * ("web-server-01" is a guest's).
 * Each part after the first begins with its hyphen, so matching never backtracks far.
 */
const HOST_NAMES =
  /^(?:(?:[a-z]+-)?(?:pve|proxmox)|prox|px|pmx|node|host|hv|hyp|hypervisor|srv|server|kvm|compute)[a-z]*(?:-[a-z]+)*-?\d+$/;

/** Words before "node pve2" or "host hv3" that make it where the request happens ("on node pve2", "the syslog of host hv3"). */
const PLACE_OF_NODE = new Set(["on", "of", "at", "in"]);

/**
 * Whether a query names a host by its name (`any`), and whether surely a Proxmox node (`surely`).
 * - Any: "list the tasks on pve1", "syslog from hv02", "the DNS servers of pve1": a name of
 *   letters and a number after "on", "from", "at" or "of", that the API does not know; one named
 *   like a host (HOST_NAMES) that opens the request or follows its first word ("pve2 needs new
 *   RAM, …", "reboot pve4"; "start web01" may be a guest's); one after "node" or "host" where the
 *   request happens ("stop every guest on node pve2", "host hv3 is down"), not one something goes
 *   to ("migrate VM 100 to node pve2") or that is a value ("add host hv3 to the ipset").
 * - Surely: one after "node" or "host" so, or one named like a host; "at mail01" may be a mail
 *   server's.
 * Not one named like one of the API's collections ("zone1", "pool2": an SDN zone, a pool).
 */
export function hostsByName(query: string, index: SearchIndex): { any: boolean; surely: boolean } {
  const chunks = queryChunks(query).map((c) => c.toLowerCase().replace(/[.,;:!?]+$/, ""));
  const collection = (name: string) => {
    const letters = name.replace(/-?\d+$/, "");
    return letters !== "node" && index.collectionStems.has(stem(letters, index.stems));
  };
  const afterNodeWord = (i: number) => {
    if (!/^(node|host)$/.test(chunks[i - 1] ?? "")) return false;
    const before = chunks[i - 2] === "the" ? i - 3 : i - 2;
    return before < 0 || PLACE_OF_NODE.has(chunks[before]!);
  };
  let any = false;
  let surely = false;
  chunks.forEach((c, i) => {
    // "pbs1", "nfs-2": a kind of storage numbered names a storage, unless "node" or "host" says otherwise.
    if (!nodeName(c) || collection(c) || index.postings.has(c)) return;
    if (numberedStorage(c, index.storageTypes) && !afterNodeWord(i)) return;
    const afterPlace = /^(on|from|at|of)$/.test(chunks[i - 1] ?? "");
    // Where a guest's name may stand as well ("start web01", "db1 is frozen"), only a name that
    // says it is a host's: a word for one or Proxmox's own ("pve2", "hv3", "node1").
    const opening = i <= 1 && HOST_NAMES.test(c);
    const introduced = afterNodeWord(i);
    if (afterPlace || opening || introduced) any = true;
    if (introduced || ((afterPlace || opening) && HOST_NAMES.test(c))) surely = true;
  });
  return { any, surely };
}

/**
 * A guest in the singular, and the words that point at one both sides know: "the VM's
 * filesystems", "reboot my container". Not a guest's word that qualifies a noun after it ("the
 * guest agent", "the VM list"), which names no one guest.
 */
const ONE_GUEST = new Set(["vm", "container", "ct", "guest"]);
const THAT_ONE = new Set(["the", "this", "that", "my", "our"]);
/** The phrase ends before this word: none, or a word that opens no noun ("the VM to pve2"). */
const endsPhrase = (next: string | undefined) => next === undefined || STOPWORDS.has(next) || PREPOSITIONS.has(next);

export interface ScopeFacts {
  /** It speaks of a node (host) itself, by a word or by a host's name. */
  namesNode: boolean;
  /** It speaks of the whole cluster or datacenter, or of every node. */
  namesCluster: boolean;
  /** It asks for all or many ("all", "every", a plural of guests). */
  asksForAll: boolean;
  /** It speaks of the guest agent. */
  namesAgent: boolean;
  /** It names one guest: by number ("VM 100"), or as one both sides know ("the VM's filesystems"). */
  namesGuest: boolean;
  /** It names an existing guest as the place of what it asks ("to VM 120", "in container 101"). */
  guestIsPlace: boolean;
}

/**
 * The scope of a query. `raw` holds its words; `spoken` the same less the words of values
 * ("/vms", "/etc/hosts"), which name no node; `hostByName` whether it names a host by its name;
 * `possessed` the words before a possessive "'s" (possessors).
 */
export function scopeOf(
  raw: readonly string[],
  spoken: readonly string[],
  hostByName: boolean,
  possessed: ReadonlySet<string> = new Set(),
): ScopeFacts {
  // "on all nodes", "every node", "on any node": the whole cluster. Where the quantifier is, if any.
  const quantifierOf = (i: number) =>
    EVERY_NODE.has(spoken[i - 1] ?? "") ? i - 1 : EVERY_NODE.has(spoken[i - 2] ?? "") ? i - 2 : -1;
  const everyNode = (i: number) => quantifierOf(i) >= 0;
  // "to node pve2", "from pve1", "to another node": a node the query moves something to or from
  // is a target, not the scope.
  const target = (i: number) =>
    TARGET_WORDS.has(spoken[i - 1] ?? "") || (TARGET_WORDS.has(spoken[i - 2] ?? "") && !infinitive(spoken, i - 2));
  return {
    namesNode: spoken.some((w, i) => NODE_WORDS.has(w) && !target(i) && !everyNode(i)) || hostByName,
    // "push the config to all nodes" reaches every node, "the tasks from any node" come from all;
    // "migrate VM 100 to any node" goes to one.
    namesCluster: spoken.some(
      (w, i) =>
        CLUSTER_WORDS.has(w) ||
        (w === "data" && spoken[i + 1] === "center") ||
        (NODE_WORDS.has(w) && everyNode(i) && !anyDestinationAt(spoken, quantifierOf(i))),
    ),
    asksForAll: spoken.some((w) => ALL_WORDS.has(w) || PLURAL_GUESTS.has(w)),
    namesAgent: spoken.some((w) => w === "agent" || w === "qga"),
    namesGuest: raw.some(
      (w, i) =>
        guestByNumber(raw, i) ||
        (GUEST_WORDS.has(w) && /^\d+$/.test(raw[i + 1] ?? "")) ||
        (ONE_GUEST.has(w) && THAT_ONE.has(raw[i - 1] ?? "") && (possessed.has(w) || endsPhrase(raw[i + 1]))),
    ),
    // "to VM 120", "in container 101": an existing guest is where it happens.
    guestIsPlace: raw.some(
      (_, i) =>
        guestByNumber(raw, i) &&
        (PLACE_WORDS.has(raw[i - 1] ?? "") || (DETERMINERS.has(raw[i - 1] ?? "") && PLACE_WORDS.has(raw[i - 2] ?? ""))),
    ),
  };
}
