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
  /** It takes one guest by its ID in a parameter (an HA resource's `sid`, the task list's `vmid` filter). */
  takesGuests: boolean;
  /** One item of a collection (the path ends with a placeholder, one object comes back). */
  item: boolean;
  /** For a list whose items have an endpoint of their own: the stem of what it lists ("role" for /access/roles). */
  collectionOf: string | undefined;
  /** A directory index that only lists child paths. */
  navigation: boolean;
  websocket: boolean;
  /** Share (0..1) of the words naming the endpoint (last segment, handler name) the query did not ask for. */
  identityMiss: number;
  /** Where it acts: the whole cluster, one node, or elsewhere (a guest, /access, /storage). */
  scope: "cluster" | "node" | "other";
  /** Acts on every guest at once (startall, bulk-action). */
  bulk: boolean;
  /** A guest-agent command named like one of the guest's own actions (agent/shutdown beside status/shutdown). */
  agentTwin: boolean;
  /** The guest's own action that a guest-agent command is named like (status/shutdown beside agent/shutdown). */
  ownTwin?: boolean;
  /** A command of the guest agent (under .../agent). */
  agentCommand?: boolean;
  /** One of a guest's own power actions (.../{vmid}/status/reboot). */
  powerAction?: boolean;
  /** Creates (or restores) a guest: POST on the VM or container collection. */
  createsGuest: boolean;
  /** For a POST that adds an item to a list: the stem of what it adds ("group"). */
  creates?: string | undefined;
  /** It takes no parameter for some value the query types (an address, a calendar event, a volume). */
  missesValue?: boolean;
  /** For an index, the stem of what it indexes by its summary. */
  indexes?: string | undefined;
  /** A node's name has a place in it (takesNode in search-facts.ts); unknown when missing. */
  takesNode?: boolean;
  /** It is named by the verb a causative introduces ("start" in "make VM 118 start when the host boots"). */
  doesCausedVerb?: boolean;
  /** A directory index that lists a path covering more of the query and a concept it does not (listsBetter). */
  listsBetter?: boolean;
  /** It does what the query keeps from happening (a DELETE for "stop anyone from deleting container 310"). */
  doesPrevented?: boolean;
  /** It undoes what the query's verb does: "unlock" for "lock out the account of eve@pve". */
  undoesVerb?: boolean;
  /** It is, or lies below, one item of a list the query speaks nothing of (itemSpokenOf in search-rank.ts). */
  itemUnspoken?: boolean;
  /** For an item of a list, or an endpoint below one: the stem of what the list holds ("plugin" for /cluster/acme/plugins/{id}). */
  itemOf?: string | undefined;
  /**
   * The stem of what an item's last placeholder names ("user" of /access/tfa/{userid}): the
   * item is that one object's, so a query asking for all of them ("which users have 2FA")
   * wants the list.
   */
  keyOf?: string | undefined;
  /** It has a place for a storage's name: a `storage` parameter, or {storage} in its path. */
  takesStorage?: boolean;
  /** It is named by a word of a subordinate clause ("reboot" in "start VM 160 whenever its host reboots"). */
  doesSubordinate?: boolean;
  /** It answers with a picture ("Read VM RRD statistics (returns PNG)"), not data. */
  returnsImage?: boolean;
  /** How many of the subsystems the query names by their word ("ceph", "sdn") its path lies outside of. */
  subsystemsMissed?: number;
}

/** What the ranking knows about the query. */
export interface QueryFacts {
  method: MethodName | undefined;
  /** The method was said (a verb), not assumed. */
  methodStated: boolean;
  guest: "qemu" | "lxc" | "any" | "none";
  /** Its verb acts on something that is no guest ("reset the root password", "reboot the host"). */
  verbOnOther?: boolean;
  /** It names a machine by a number, which may be a guest ("reboot the server 101"). */
  machineByNumber?: boolean;
  /** It names both kinds of guest ("every VM and container"). */
  bothKinds?: boolean;
  /** The query is about one particular object (a number, an ID, a path, "details"). */
  oneItem: boolean;
  /** Stems of the words next to a name the query gives ("role" in "PVEAuditor role"). */
  named: ReadonlySet<string>;
  /** The same, for names that are not bare numbers ("storage" in "storage nfs1", not "snapshot" in "snapshot 105"). */
  namedByName?: ReadonlySet<string>;
  /** It names one guest by number ("VM 100"). */
  namesGuest: boolean;
  /** It speaks of the node (host) itself. */
  namesNode: boolean;
  /** It names a node by its name ("on pve2", "node pve2"; hostsByName). */
  nodeByName?: boolean;
  /** It names a storage by its name after the word ("storage pbs01"; namesStorageByName). */
  storageByName?: boolean;
  /** It speaks of the whole cluster or datacenter. */
  namesCluster: boolean;
  /** It asks for all or many ("all", "every", a plural of guests). */
  asksForAll: boolean;
  /** It speaks of the guest agent. */
  namesAgent: boolean;
  /** It opens with a verb of no known method: an action is asked for, not a read. */
  acts?: boolean;
  /** It is a question about what is ("which ISO images are on local"). */
  question: boolean;
  /** It names an existing guest as the place of what it asks ("to VM 120", "in container 101"). */
  guestIsPlace: boolean;
  /** Stems of the kinds of object it adds something to or puts in ("group" in "add carol to the admins group"). */
  places?: ReadonlySet<string>;
  /** Stems of the kinds of object whose contents it asks about, one of them named ("backup" in "the files inside a PBS backup"). */
  holders?: ReadonlySet<string>;
  /** Stems of the collections whose item a definite noun phrase names ("the nightly backup job"). */
  definite?: ReadonlySet<string>;
  /** Its verb creates ("create", "add", "new"): a named object may be the new one. */
  createVerb?: boolean;
  /** Stems of what a verb of creation creates ("pool" in "create a resource pool for the intern VMs"). */
  created?: ReadonlySet<string>;
  /** A verb of creation is said anywhere, the request's or not ("show me how to create users"). */
  createSaid?: boolean;
  /** Stems of the lists it asks for whole: a collection's noun in the plural, or after "all"/"every". */
  listsAsked?: ReadonlySet<string>;
  /** Stems of the words typed in the plural ("command" of "commands"). */
  plurals?: ReadonlySet<string>;
  /** It asks for a picture (a graph, a chart, a PNG). */
  asksImage?: boolean;
  /** Stems of the action the query keeps from happening ("delet", "remov"... for "guard VM 123 against removal"). */
  prevented?: ReadonlySet<string>;
  /** Stems of the collections whose item it names and keeps ("qemu" for "remove VM 100 from HA", "user" for "remove user bob@pve from group admins"). */
  staying?: ReadonlySet<string>;
  /** Stems of the words of a subordinate clause ("whenever its host reboots", "a role that can start VMs"). */
  subordinates?: ReadonlySet<string>;
  /** Stems of the verb after a causative ("start" in "make VM 118 start automatically"): a behaviour to set, not an action to take. */
  causedVerb?: ReadonlySet<string>;
}

export const FACTOR = {
  statedMethod: 1.5,
  assumedMethod: 1.15,
  /** Proxmox writes with POST and PUT alike ("edit /etc/hosts" is a POST, "add a repository" a PUT). */
  otherWrite: 1.2,
  /**
   * A directory index that only lists child paths: half as likely the answer as what it lists
   * (0.7 from the ninth round, recalibrated on the opened sets in the twenty-first, as were
   * itemForList, otherGuest, eitherGuestLxc, oneGuestForAll, bulkUnasked, agentUnasked and otherSubsystem).
   */
  navigation: 0.5,
  websocket: 0.7,
  /** A list is likelier wanted than one item of it when nothing names one. */
  itemUnasked: 0.9,
  /** One item, when the query names its list in the plural or asks for all of them ("which DNS plugins are configured"). */
  itemForList: 0.7,
  /** The list, when the query names one of its items ("the PVEAuditor role"). */
  collectionForOne: 0.8,
  notTheGuest: 0.85,
  otherGuest: 0.65,
  /** One kind of guest's endpoint, when the query names both kinds ("every VM and container"). */
  oneKindForBoth: 0.6,
  /** A guest's power action, when the verb acts on something else ("reset the root password inside VM 155"). */
  powerActionOnOther: 0.6,
  /** Either kind of guest will do: the VM variant is the canonical one. */
  eitherGuestLxc: 0.85,
  unaskedGuest: 0.85,
  nodeNotGuest: 0.5,
  /** Score lost, in proportion, for the naming words not asked for. */
  identityMiss: 0.3,
  /** The query names the cluster and the endpoint is one node's, or the other way round. */
  otherScope: 0.8,
  /** One node's endpoint, when the query asks for all of something across the cluster ("every VM and container in the cluster"). */
  nodeForWholeCluster: 0.5,
  /** One guest's endpoint, when the query asks for all guests and names none. */
  oneGuestForAll: 0.6,
  /** Every guest at once, when the query does not ask for all. */
  bulkUnasked: 0.6,
  /** The agent's command rather than the guest's own action of that name, when the agent is not mentioned. */
  agentUnasked: 0.65,
  /** The guest's own action rather than the agent's command of that name, when the agent is asked. */
  ownActionForAgent: 0.75,
  /** A guest-agent command, when the query names neither a guest nor the agent. */
  agentWithoutGuest: 0.75,
  /** A write, when the query is a question about what is. */
  writeForQuestion: 0.6,
  /** An item of the kind the query creates: it does not exist yet ("create a user alice@pve" changes no account). */
  itemNotYet: 0.85,
  /** Creating a guest, when the query names an existing guest as the place of what it asks. */
  createInExisting: 0.7,
  /** Listing the kind of object the query names as where the things it asks for are ("the files inside a PBS backup"). */
  listOfPlace: 0.5,
  /** Creating a guest, when no verb of creation is said. */
  guestNotCreated: 0.6,
  /** Adding an item to a list, when the query states a read of that list ("show every snapshot of CT 311"). */
  createForList: 0.6,
  /** A read, when the query states a verb that changes something. */
  readForWrite: 0.8,
  /** Any write, when the query opens with a verb of no known method. */
  unknownAction: 1.3,
  /**
   * An endpoint with no place for the node the query names by its name ("start all guests on host
   * hv3": not the cluster's bulk start). Softer than a value with no place: a cluster endpoint may
   * concern one node without saying so (the Ceph flags, applying the SDN).
   */
  nodeNowhere: 0.6,
  /** A read with no place for the storage the query names by its name ("list all backups on storage pbs01": not the backup jobs). */
  storageNowhere: 0.6,
  /** An endpoint with nowhere to put a value the query types ("add 203.0.113.7 to the blocklist IP set": not the set's creation). */
  missesValue: 0.55,
  /** The action a causative's verb names: "make VM 118 start when the host boots" sets a behaviour, it does not start VM 118. */
  causedAction: 0.7,
  /** What the query keeps from happening: "guard VM 123 against removal" does not remove VM 123. */
  preventedAction: 0.6,
  /** The reverse of the action asked ("un" and its verb): "lock out eve@pve" unlocks nothing. */
  reversedAction: 0.6,
  /** What a subordinate clause says: "come back up whenever its host reboots" reboots nothing; "a role that can start VMs" starts none. */
  subordinateAction: 0.7,
  /**
   * One item, or below one, that the query never speaks of: "every VM and container in the cluster with their
   * node and status" asks no backup job's included volumes, whatever fields the two share.
   */
  itemUnspoken: 0.75,
  /** Deleting what stays: "remove VM 100 from HA" keeps VM 100, "remove user bob@pve from group admins" keeps bob. */
  deletesWhatStays: 0.5,
  /** A picture, when data is asked for: "usage history of storage local-zfs" is rrddata, not the rrd PNG. */
  imageUnasked: 0.9,
  /** Per subsystem the query names and the endpoint lies outside of: "what's the health of my Ceph cluster" is not SMART. */
  otherSubsystem: 0.6,
} as const;

const WRITES = new Set(["POST", "PUT"]);

/** The factor an endpoint's method gets for the query's: at most one of the three applies. */
function methodFactor(method: string, q: QueryFacts): number {
  if (q.method && method === q.method) return q.methodStated ? FACTOR.statedMethod : FACTOR.assumedMethod;
  if (q.methodStated && WRITES.has(q.method!) && WRITES.has(method)) return FACTOR.otherWrite;
  return 1;
}

/**
 * What the product of the factors is at most for an endpoint of `method`: its method's factor
 * times an unknown action's, the only factors above 1. Ranking scores in full only the
 * endpoints this bound lets reach the page (search.ts); a new factor above 1 belongs here.
 */
export function factorCeiling(method: string, q: QueryFacts): number {
  return methodFactor(method, q) * (q.acts && method !== "GET" ? FACTOR.unknownAction : 1);
}

/** The product of every factor that applies. */
export function scoreFactor(e: EndpointFacts, q: QueryFacts): number {
  let f = 1;
  f *= methodFactor(e.method, q);
  // "list the guest agent commands of VM 412": the command index is asked for.
  if (e.navigation && !(e.indexes !== undefined && q.plurals?.has(e.indexes))) f *= FACTOR.navigation;
  // "which IP addresses does the guest agent report": the agent's command, not its index.
  if (e.listsBetter) f *= FACTOR.navigation;
  // "back up VM 100 now": vzdump is a backup, the backup job (create_job) is also a job.
  f *= 1 - FACTOR.identityMiss * e.identityMiss;
  // A websocket upgrade cannot be used through these tools; the proxy ticket endpoints can.
  if (e.websocket) f *= FACTOR.websocket;
  // "every rule of the host firewall on pve2": "every" asks for the list, whatever the value names.
  if ((!q.oneItem || q.asksForAll) && e.method === "GET" && e.item) f *= FACTOR.itemUnasked;
  if (
    q.listsAsked &&
    e.method === "GET" &&
    ((e.itemOf !== undefined && q.listsAsked.has(e.itemOf)) || (e.keyOf !== undefined && q.listsAsked.has(e.keyOf)))
  )
    f *= FACTOR.itemForList;
  if (e.collectionOf !== undefined && q.named.has(e.collectionOf)) f *= FACTOR.collectionForOne;
  // "container 105": one guest is meant, so node-wide endpoints that merely mention guests step back.
  // An endpoint that takes the guest by its ID in a parameter (an HA resource's `sid`) is of that
  // guest too; creating one is not (its `vmid` is the new guest's).
  const ofOneGuest = e.oneGuest || (e.takesGuests && !e.createsGuest);
  if (!ofOneGuest && q.namesGuest && (q.guest === "qemu" || q.guest === "lxc")) f *= FACTOR.notTheGuest;
  if (e.guestKind !== 0) {
    if ((q.guest === "qemu" && e.guestKind === 2) || (q.guest === "lxc" && e.guestKind === 1)) f *= FACTOR.otherGuest;
    else if (q.guest === "none") f *= q.namesNode ? FACTOR.nodeNotGuest : FACTOR.unaskedGuest;
    if (e.guestKind === 2 && (q.guest === "none" || q.guest === "any")) f *= FACTOR.eitherGuestLxc;
    // "stop every VM and container on pve4": an endpoint of one kind answers half of it.
    if (q.bothKinds) f *= FACTOR.oneKindForBoth;
  }
  // "datacenter firewall" is /cluster/firewall; "host firewall" is /nodes/{node}/firewall.
  if (q.namesCluster !== q.namesNode && e.scope !== "other" && (e.scope === "cluster") !== q.namesCluster)
    f *= q.namesCluster && q.asksForAll ? FACTOR.nodeForWholeCluster : FACTOR.otherScope;
  if (e.bulk && !q.asksForAll) f *= FACTOR.bulkUnasked;
  // "shut down every VM and container in the whole cluster": no one guest is meant.
  if (e.oneGuest && q.asksForAll && !q.namesGuest) f *= FACTOR.oneGuestForAll;
  if (e.powerAction && q.verbOnOther) f *= FACTOR.powerActionOnOther;
  if (e.agentTwin && !q.namesAgent) f *= FACTOR.agentUnasked;
  // "ask the guest agent in VM 580 to power off": the agent's command, not the guest's own action.
  if (e.ownTwin && q.namesAgent) f *= FACTOR.ownActionForAgent;
  // "reset the password of user erin@pve": with no guest named, no guest agent is asked.
  if (e.agentCommand && !q.namesAgent && q.guest === "none") f *= FACTOR.agentWithoutGuest;
  if (q.question && e.method !== "GET") f *= FACTOR.writeForQuestion;
  if (q.methodStated && q.method !== "GET" && e.method === "GET") f *= FACTOR.readForWrite;
  // "show me every snapshot that CT 311 has": the list is read, not one more snapshot made.
  if (q.methodStated && q.method === "GET" && e.creates !== undefined && q.listsAsked?.has(e.creates) && !q.createSaid)
    f *= FACTOR.createForList;
  if (q.acts && e.method !== "GET") f *= FACTOR.unknownAction;
  // "add a second network card to VM 120": VM 120 exists; the create-VM endpoint merely lists NICs.
  if (e.createsGuest && q.guestIsPlace) f *= FACTOR.createInExisting;
  // "add carol to the admins group", "add an IP to the blacklist ipset": the group exists.
  if (e.creates !== undefined && q.places?.has(e.creates)) f *= FACTOR.createInExisting;
  // "list the files inside a PBS backup", "what's on the local storage": the list of the kind
  // of object the things asked for are in is not their list.
  if (e.method === "GET" && e.collectionOf !== undefined && q.holders?.has(e.collectionOf)) f *= FACTOR.listOfPlace;
  // "mark storage nfs1 as shared", "mark container 140 as protected": an object named by its
  // name or number exists unless the verb creates it.
  const namesExisting =
    (e.creates !== undefined && (!!q.namedByName?.has(e.creates) || !!q.definite?.has(e.creates))) ||
    (e.createsGuest && q.namesGuest);
  if (namesExisting && !q.createVerb) f *= FACTOR.createInExisting;
  // "share a host folder with VMs via virtiofs", "pass a GPU through to a VM": a guest is
  // created only when creating is said, whatever settings the creation takes.
  else if (e.createsGuest && !q.createVerb) f *= FACTOR.guestNotCreated;
  if (e.missesValue) f *= FACTOR.missesValue;
  // "create a user alice@pve": alice's account is the one to make, not one to change. Not what is
  // added to something that exists ("add user erin@pve to the admins group"), nor a POST that
  // makes the item at its own path (POST /cluster/metrics/server/{id}).
  if (
    q.createVerb &&
    !q.places?.size &&
    e.method !== "POST" &&
    e.item &&
    e.itemOf !== undefined &&
    q.created?.has(e.itemOf)
  )
    f *= FACTOR.itemNotYet;
  // "start all guests on host hv3": a node's name is a value too, and the cluster's bulk start has
  // nowhere to put it. Unless the cluster is asked as well ("the cluster log from pve2").
  if (q.nodeByName && !q.namesCluster && e.takesNode === false) f *= FACTOR.nodeNowhere;
  // Reads only: a write may set the storage inside a disk's settings ("add a 32G disk on storage
  // local-lvm to VM 100") or name one it has no parameter for.
  if (q.storageByName && q.method === "GET" && e.takesStorage === false) f *= FACTOR.storageNowhere;
  if (e.doesCausedVerb) f *= FACTOR.causedAction;
  if (e.doesPrevented) f *= FACTOR.preventedAction;
  if (e.undoesVerb) f *= FACTOR.reversedAction;
  if (e.doesSubordinate) f *= FACTOR.subordinateAction;
  // "remove VM 100 from HA", "remove user bob@pve from group admins": VM 100 and bob stay.
  if (e.method === "DELETE" && e.item && e.itemOf !== undefined && q.staying?.has(e.itemOf))
    f *= FACTOR.deletesWhatStays;
  if (e.itemUnspoken) f *= FACTOR.itemUnspoken;
  if (e.returnsImage && !q.asksImage) f *= FACTOR.imageUnasked;
  if (e.subsystemsMissed) f *= FACTOR.otherSubsystem ** e.subsystemsMissed;
  return f;
}
