// What the ranking knows about each endpoint besides its words: what it is named by, whether
// it sets things, acts on every guest, lists a collection, is a guest-agent twin or a mere
// directory index. Read from the schema alone; the score factors (search-score.ts) use them.
import { METHOD_HINTS } from "./synonyms.ts";
import { collectionPath, endsInPlaceholder, isDeprecated, propertyStringKeys, type Endpoint } from "./model.ts";
import { stem, type StemMemo } from "./stem.ts";
import type { TermCache } from "./search-terms.ts";
import { STOPWORDS, words } from "./text.ts";

/** Words of handler names that say what is done, which the method already tells, or which guest. */
const IDENTITY_GENERIC = new Set(
  "index idx get read list create update delete set add remove new vm vms ct qemu lxc cmd dir diridx".split(" "),
);

/**
 * What each endpoint is, in words: those of its last segment and handler name that say more
 * than the method or the guest type. A unit holds a word's stem and those of its parts.
 */
export function identityUnits(
  lastWords: readonly string[][],
  nameWords: readonly string[][],
  terms: TermCache,
  vocabulary: Map<string, number>,
  stems: StemMemo,
  kinds: readonly (readonly string[])[] = [],
): string[][][] {
  const generic = (w: string) => STOPWORDS.has(w) || IDENTITY_GENERIC.has(w) || /^\d+$/.test(w);
  // A path's plural whose singular the descriptions use ("repositories": "APT repository information").
  const singular = (w: string) => (w.endsWith("ies") ? `${w.slice(0, -3)}y` : w.replace(/e?s$/, ""));
  const describedSingular = (w: string) =>
    [singular(w), w.slice(0, -1)].some((one) => one.length >= 3 && !STOPWORDS.has(one) && vocabulary.has(one));
  const described = (w: string, inPath: boolean) =>
    vocabulary.has(w) || (inPath && /s$/.test(w) && describedSingular(w));
  const unitOf = new Map<string, string[] | null>();
  const unit = (w: string, inPath: boolean): string[] | null => {
    const key = `${inPath ? "p" : "n"}${w}`;
    let found = unitOf.get(key);
    if (found !== undefined) return found;
    const pieces = terms.split(w)?.filter((p) => !generic(p));
    // Jargon of handler names that no description uses ("async") is no one's word for it, and
    // a compound of generic words ("vmlist") is generic.
    found =
      generic(w) || (pieces ? pieces.length === 0 : !described(w, inPath))
        ? null
        : [stem(w, stems), ...actionFirst(w, pieces ?? [], vocabulary).map((p) => stem(p, stems))];
    unitOf.set(key, found);
    return found;
  };
  return lastWords.map((last, id) => {
    const units: string[][] = [];
    const seen = new Set<string>();
    // "protect last night's backup": a kind of an item names it as its list's noun would (a
    // backup is a volume of a storage's content), and names the list that filters by it
    // ("snippets": the content listing). Guest types ("vm", "ct" of the HA resources) are
    // said of any guest.
    const kindStems = (kinds[id] ?? [])
      .filter((k) => !generic(k.toLowerCase()))
      .map((k) => stem(k.toLowerCase(), stems));
    const lastStems = new Set(last.map((w) => stem(w, stems)));
    for (const w of [...last, ...nameWords[id]!]) {
      if (seen.has(w)) continue;
      seen.add(w);
      const u = unit(w, last.includes(w));
      // One unit per word, whatever its form ("repositories", "repository").
      if (u && !units.some((other) => other[0] === u[0])) units.push(lastStems.has(u[0]!) ? [...u, ...kindStems] : u);
    }
    return units;
  });
}

/**
 * The pieces of a run-together name that name it: all of them, except for an action run together
 * with what it acts on ("prunebackups", "wipedisk", "migrateall"), which only its action names:
 * "backups" alone names the backups, not their pruning. A name the descriptions use as a word of
 * its own ("sendmail", "changelog") keeps every piece.
 */
const actionFirst = (word: string, pieces: readonly string[], vocabulary: ReadonlyMap<string, number>) => {
  const action = METHOD_HINTS[pieces[0] ?? ""];
  return pieces.length >= 2 && action !== undefined && action !== "GET" && !vocabulary.has(word)
    ? pieces.slice(0, 1)
    : pieces;
};

/**
 * PUT, or a POST whose handler or description creates, adds or changes (create_vm,
 * add_tfa_entry, change_repository; ipcreate: "Create IP Mapping in a VNet").
 */
export function isSetter(e: Endpoint): boolean {
  if (e.method === "PUT") return true;
  return (
    e.method === "POST" &&
    (/^(create|add|new|update|change|set|write|register|generate)(_|$|[a-z])/.test(e.name) ||
      /^(create|add|update|change|set|write|register|generate)\b/i.test(e.description))
  );
}

/** A write on every guest at once: "Start all VMs and containers located on this node", "Bulk shutdown all guests". */
export function isBulk(e: Endpoint): boolean {
  return e.method !== "GET" && /\b(bulk|all (vms|guests|containers))\b/i.test(e.description);
}

/** A node's name or a list of them, by format (PVE::JSONSchema's pve-node, pve-node-list; pve-ha-manager's pve-ha-node-list). */
const nodeFormat = (prop: unknown) =>
  /^pve-(?:ha-)?node(?:-list)?$/.test(String((prop as { format?: unknown } | null)?.format ?? ""));

/** A field or parameter that holds node names: by format, or by name when it is a string ("node" of /cluster/ha/status/current). */
const holdsNodes = (name: string, prop: unknown) => {
  const type = (prop as { type?: unknown } | null)?.type;
  return nodeFormat(prop) || (/^node(?:s|-list)?$/.test(name) && (type === undefined || type === "string"));
};

/** The formats of a guest's ID (pve-common's PVE::JSONSchema, pve-ha-manager's PVE::HA::Tools). */
const GUEST_ID_FORMATS = new Set(["pve-vmid", "pve-ha-resource-or-vm-id"]);
/**
 * Whether an endpoint takes an existing guest by its ID: a filter ("Only list tasks for this
 * VM"), an HA resource's `sid`; not the `vmid` a POST requires, which is the new guest's or the
 * owner of a new volume ("Allocate disk images"). Or one guest's backup by its volume.
 */
export const takesGuest = (e: Endpoint) =>
  Object.values(e.parameters).some(
    (p) =>
      (typeof p.format === "string" &&
        GUEST_ID_FORMATS.has(p.format) &&
        !(e.method === "POST" && p.format === "pve-vmid" && !p.optional)) ||
      isBackupVolume(p),
  );

/**
 * A parameter that takes a backup by its volume ("Backup volume ID or name" of file-restore):
 * a backup is one guest's (PVE::Storage::archive_info reads the guest's ID from its name), so
 * "the files in the PBS backup of VM 120" speaks of that guest.
 */
const isBackupVolume = (p: Endpoint["parameters"][string]) =>
  typeof p.description === "string" && /^backup volume\b/i.test(p.description);

/**
 * A node's name has a place in it: the path's {node}; a parameter that holds node names
 * (`target`, `nodes`, `node-list`), or a key of one of its property strings (the `node` of a
 * mapping's `map`); a field of what it returns that holds them (the items of GET /nodes and
 * /cluster/resources), or a `name` beside a `type` that may be "node" (/cluster/status), by
 * which the answer is one node's. A node's number (corosync's `nodeid`) or count is none.
 */
export function takesNode(e: Endpoint): boolean {
  if (e.path.includes("{node}")) return true;
  for (const [name, p] of Object.entries(e.parameters)) {
    if (holdsNodes(name, p)) return true;
    if (Object.entries(propertyStringKeys(p) ?? {}).some(([key, sub]) => holdsNodes(key, sub))) return true;
  }
  return returnsNodes(e.returns);
}

/** Whether a schema of what is returned holds node names, its items' and properties' three levels deep. */
function returnsNodes(returns: unknown, depth = 0): boolean {
  if (!returns || typeof returns !== "object" || depth > 3) return false;
  const { properties, items } = returns as { properties?: Record<string, unknown>; items?: unknown };
  if (properties && typeof properties === "object") {
    const kinds = (properties.type as { enum?: unknown } | undefined)?.enum;
    if (properties.name && Array.isArray(kinds) && kinds.includes("node")) return true;
    for (const [name, prop] of Object.entries(properties))
      if (holdsNodes(name, prop) || returnsNodes(prop, depth + 1)) return true;
  }
  return returnsNodes(items, depth + 1);
}

/** GET lists whose items have a GET: the stem of what they list. */
export function collections(endpoints: readonly Endpoint[], stems: StemMemo): (string | undefined)[] {
  const itemGets = new Set(
    endpoints.filter((e) => e.method === "GET" && endsInPlaceholder(e.path)).map((e) => collectionPath(e.path)),
  );
  return endpoints.map((e) => {
    if (e.method !== "GET" || !itemGets.has(e.path)) return undefined;
    const last = e.path.split("/").pop()!;
    return last.startsWith("{") ? undefined : stem(words(last).join(""), stems);
  });
}

/** In agentTwins: the agent's command (agent/shutdown), and the guest's own action it is named like (status/shutdown). */
export const AGENT_TWIN = 1;
export const OWN_TWIN = 2;

/** Agent commands named like one of the guest's own actions (agent/suspend-ram beside status/suspend), and those actions. */
export function agentTwins(endpoints: readonly Endpoint[]): Uint8Array {
  const paths = new Set(endpoints.map((e) => e.path));
  const owned = new Set<string>();
  const twins = Uint8Array.from(endpoints, (e) => {
    const m = /^(.*)\/agent\/([a-z]+)[^/]*$/.exec(e.path);
    if (!m || !paths.has(`${m[1]}/status/${m[2]}`)) return 0;
    owned.add(`${m[1]}/status/${m[2]}`);
    return AGENT_TWIN;
  });
  endpoints.forEach((e, id) => {
    if (owned.has(e.path)) twins[id] = OWN_TWIN;
  });
  return twins;
}

/**
 * A list's parameter that filters it by kind: "Only list content of this type.", "Only list
 * storage of specific type", "Only list specific interface types." (not "Only list stores which
 * support this content type": that filters by what an item holds).
 */
const KIND_FILTER = /^only list (?:[\w ]+? of (?:a |this |specific |specified )+types?|specific (?:\w+ )?types?)\b/i;

/**
 * Per list path, the kinds of its items: the values of the list's filter by kind, from the
 * schema's enum and from the values the docs define (`listValues`). A volume of a storage's
 * content is a backup, an ISO image, a container template...
 */
function kindsByList(
  endpoints: readonly Endpoint[],
  listValues: readonly (readonly string[])[],
): Map<string, string[]> {
  const kindsOf = new Map<string, string[]>();
  endpoints.forEach((e, id) => {
    if (e.method !== "GET") return;
    const filters = Object.values(e.parameters).filter((p) => KIND_FILTER.test(p.description ?? ""));
    if (filters.length === 0) return;
    const kinds = filters.flatMap((p) => (p.enum ?? []).filter((v): v is string => typeof v === "string"));
    // The docs define values by parameter name; a list with a kind filter is read as defining its kinds.
    kindsOf.set(e.path, [...kinds, ...(listValues[id] ?? [])]);
  });
  return kindsOf;
}

/**
 * Per endpoint, the kinds its object may be when it is an item of a list (the list's path and a
 * placeholder), and (`list`) the kinds of the items a GET list filters by.
 */
export function itemKinds(
  endpoints: readonly Endpoint[],
  listValues: readonly (readonly string[])[] = [],
): { item: string[][]; list: string[][] } {
  const kindsOf = kindsByList(endpoints, listValues);
  return {
    item: endpoints.map((e) => (endsInPlaceholder(e.path) ? (kindsOf.get(collectionPath(e.path)) ?? []) : [])),
    list: endpoints.map((e) => (e.method === "GET" ? (kindsOf.get(e.path) ?? []) : [])),
  };
}

const GUEST_PATH = /^\/nodes\/\{node\}\/(qemu|lxc)\/\{vmid\}\/(.+)$/;

/**
 * Endpoints of one guest that answer one question for the two kinds of guest under different
 * names: one has no same-path twin of the other kind, and the other's last segment, of the same
 * method, names it among more words (a container's "interfaces", a VM agent's
 * "network-get-interfaces").
 */
export function crossKindTwins(endpoints: readonly Endpoint[]): [number, number][] {
  const keys = new Set(endpoints.map((e) => `${e.method} ${e.path}`));
  const lone: { id: number; kind: string; method: string; last: string }[] = [];
  endpoints.forEach((e, id) => {
    const m = GUEST_PATH.exec(e.path);
    if (!m || keys.has(`${e.method} /nodes/{node}/${m[1] === "qemu" ? "lxc" : "qemu"}/{vmid}/${m[2]}`)) return;
    lone.push({ id, kind: m[1]!, method: e.method, last: m[2]!.split("/").pop()! });
  });
  const names = (a: string, b: string) => a !== b && !a.startsWith("{") && b.split(/[-_]/).includes(a);
  const out: [number, number][] = [];
  for (const a of lone)
    for (const b of lone)
      if (a.id < b.id && a.kind !== b.kind && a.method === b.method && (names(a.last, b.last) || names(b.last, a.last)))
        out.push([a.id, b.id]);
  return out;
}

/** Share of the options two endpoints must have in common to be one action at two scopes. */
const SCOPE_TWIN_OVERLAP = 0.75;
const CLUSTER_SCOPE = /^\/cluster\/[^{}]+$/;
const NODE_SCOPE = /^\/nodes\/\{node\}\/[^{}]+$/;

/**
 * One action offered for the whole cluster and for one node under different names: the same
 * method, a /cluster path without placeholders and a /nodes/{node} path with no other one,
 * neither a collection, another last segment, and nearly the same options besides the node
 * and those the schema deprecates (Jaccard at least SCOPE_TWIN_OVERLAP, three or more each),
 * each the other's closest. In 9.1: bulk-action/guest/shutdown and stopall (each runs a
 * shutdown task per guest, then a hard stop), bulk-action/guest/migrate and migrateall. A POST
 * to a collection makes an item, not the action: the backup job is no twin of vzdump.
 */
export function scopeTwins(endpoints: readonly Endpoint[]): [number, number][] {
  const options = (e: Endpoint) =>
    Object.entries(e.parameters)
      .filter(([k, p]) => !e.path.includes(`{${k}}`) && !isDeprecated(p.description))
      .map(([k]) => k);
  const last = (e: Endpoint) => e.path.slice(e.path.lastIndexOf("/") + 1);
  const collections = new Set(endpoints.filter((e) => endsInPlaceholder(e.path)).map((e) => collectionPath(e.path)));
  const candidates = (test: RegExp) =>
    endpoints.flatMap((e, id) =>
      test.test(e.path) && !collections.has(e.path) && options(e).length >= 3
        ? [{ id, e, options: new Set(options(e)) }]
        : [],
    );
  const clusterSide = candidates(CLUSTER_SCOPE);
  const nodeSide = candidates(NODE_SCOPE);
  const overlap = (a: (typeof clusterSide)[number], b: (typeof nodeSide)[number]) => {
    if (a.e.method !== b.e.method || last(a.e) === last(b.e)) return 0;
    const shared = [...a.options].filter((k) => b.options.has(k)).length;
    return shared / (a.options.size + b.options.size - shared);
  };
  const closest = <U>(others: readonly U[], score: (u: U) => number) => {
    let best: U | undefined;
    let top = SCOPE_TWIN_OVERLAP;
    for (const other of others) {
      const s = score(other);
      if (s > top || (s === top && best === undefined)) [best, top] = [other, s];
    }
    return best;
  };
  const out: [number, number][] = [];
  for (const a of clusterSide) {
    const b = closest(nodeSide, (n) => overlap(a, n));
    if (b && closest(clusterSide, (c) => overlap(c, b)) === a) out.push([a.id, b.id]);
  }
  return out;
}

/**
 * The stems of what a read's summary says it returns: "Get IP addresses of the specified
 * container interface." ip, address. None for a summary of another shape ("Execute
 * network-get-interfaces.").
 */
export function summaryObject(summary: string, stems: StemMemo): string[] {
  const m = /^(?:get|list|read|return)s?\s+(?:the\s+)?(.+?)(?:\s+(?:of|for|from|on|in|by|with|about)\b|[.(:,]|$)/i.exec(
    summary,
  );
  return m
    ? words(m[1]!)
        .filter((w) => !STOPWORDS.has(w))
        .map((w) => stem(w, stems))
    : [];
}

/** Identity units with more words that stand for each (unitsMissed: only a word typed asks for those). */
export function withStandIns(units: readonly string[][], standIns: readonly string[]): string[][] {
  if (standIns.length === 0) return [...units];
  return units.map((unit) => [...unit, ...standIns.filter((t) => !unit.includes(t))]);
}

/** A command of the guest agent: /nodes/{node}/qemu/{vmid}/agent and below. */
export function isAgentCommand(e: Endpoint): boolean {
  return /\/agent(?:\/|$)/.test(e.path);
}

/**
 * A GET that only lists the child paths below it ("Directory index"): its items hold nothing but
 * the child's name, `subdir`; or, for one item's "Index of" what can be done with it, the one
 * property its link names ("Index of available pci methods" of one PCI device: `method`, linked
 * as "{method}"). The roots of such indexes (/nodes/{node}/hardware) list kinds of things.
 */
export function isNavigation(e: Endpoint): boolean {
  if (e.method !== "GET") return false;
  if (/directory index/i.test(e.description)) return true;
  const r = e.returns as { links?: unknown; items?: { properties?: Record<string, unknown> } } | undefined;
  if (!r || !Array.isArray(r.links) || r.links.length === 0) return false;
  const props = Object.keys(r.items?.properties ?? {});
  if (props.every((p) => p === "subdir")) return true;
  const hrefs = r.links.map((link) => (link as { href?: unknown }).href);
  return (
    endsInPlaceholder(e.path) &&
    /^index of\b/i.test(e.description) &&
    props.length === 1 &&
    hrefs.every((href) => href === `{${props[0]}}`)
  );
}

/** Where the cluster-wide mappings live, one list per kind of device (/cluster/mapping/dir, .../usb, .../pci). */
const MAPPING_LIST = /^\/cluster\/mapping\/([a-z]+)$/;

/**
 * What the cluster-wide mappings are for, in the words of the guest settings that use them: a
 * key of a property string whose format is a "mapping-id" names one (`dirid` of a VM's
 * `virtiofs[n]`: "Mapping identifier of the directory mapping", `mapping` of `usb[n]`: "The ID
 * of a cluster wide mapping"). The mapping's kind is the one its key's description names
 * ("directory mapping": dir), else the setting's own name (usb). Per endpoint of a mapping
 * list or its items: the using setting's name and description.
 */
export function mappingUses(endpoints: readonly Endpoint[]): string[][] {
  const kinds = new Set(endpoints.flatMap((e) => MAPPING_LIST.exec(e.path)?.[1] ?? []));
  const uses = new Map<string, Set<string>>();
  const kindOf = (said: readonly string[]) =>
    [...kinds].find((kind) => said.some((w) => w === kind || (w.length > kind.length && w.startsWith(kind))));
  for (const e of endpoints) {
    for (const [name, p] of Object.entries(e.parameters)) {
      const keys = (propertyStringKeys(p) ?? {}) as Record<
        string,
        { description?: unknown; format_description?: unknown }
      >;
      for (const sub of Object.values(keys)) {
        if (sub?.format_description !== "mapping-id") continue;
        const named = typeof sub.description === "string" ? /\b(\w+) mapping\b/i.exec(sub.description)?.[1] : undefined;
        const setting = name.replace(/\[n\]$/, "");
        const kind = kindOf(named ? [named.toLowerCase()] : []) ?? kindOf([setting]);
        if (!kind) continue;
        const texts = uses.get(kind) ?? new Set<string>();
        texts.add(setting);
        if (p.description) texts.add(p.description);
        uses.set(kind, texts);
      }
    }
  }
  return endpoints.map((e) => {
    const kind = /^\/cluster\/mapping\/([a-z]+)(?:\/|$)/.exec(e.path)?.[1];
    return kind ? [...(uses.get(kind) ?? [])] : [];
  });
}

/**
 * A setting's key named by the words of an action the API also has ("freeze-fs" of a VM's
 * `agent`: "Freeze guest filesystems through QGA for consistent disk state on operations such
 * as snapshots, backups, …") says what that action does, where the action's own description
 * says only "Execute fsfreeze-freeze.". Per endpoint: the descriptions of the keys whose every
 * part (two or more) its last segment holds, when the description says the segment's action.
 */
export function actionKeyTexts(endpoints: readonly Endpoint[]): string[][] {
  const keyTexts: { parts: string[]; text: string; said: Set<string> }[] = [];
  for (const e of endpoints)
    for (const p of Object.values(e.parameters))
      for (const [key, sub] of Object.entries(propertyStringKeys(p) ?? {})) {
        const text = (sub as { description?: unknown } | undefined)?.description;
        const parts = key.split(/[-_]/);
        if (typeof text !== "string" || parts.length < 2 || parts.some((part) => part.length < 2)) continue;
        keyTexts.push({ parts, text, said: new Set(text.toLowerCase().match(/[a-z]+/g) ?? []) });
      }
  return endpoints.map((e) => {
    const last = e.path.split("/").pop()!;
    if (last.startsWith("{")) return [];
    // The action is the segment's last word: fsfreeze-freeze freezes, fsfreeze-thaw thaws.
    const action = last.split(/[-_]/).pop()!;
    const lent = keyTexts.filter((k) => k.said.has(action) && k.parts.every((part) => last.includes(part)));
    return [...new Set(lent.map((k) => k.text))];
  });
}

/** Where endpoints' names hold a closed-class word only inside a phrase ("not-backed-up"). */
export interface PhraseBound {
  /** Stems of the words next to it there ("back", of "backed", beside "not"). */
  neighbours: Set<string>;
  /** The endpoints so named. */
  ids: Set<number>;
}

/**
 * The closed-class words (`closed`: the forms of negations and particles) that the endpoints'
 * names (each endpoint's list of names, as words) hold only inside a phrase, with their
 * neighbours there: /cluster/backup-info/not-backed-up is named by "not", "backed" and "up"
 * together, not by the "not" of "not the whole VM", the "up" of "must stay up" or the "back" of
 * "one file back from last night's backup". A word some name is by itself (the OSD's "out") is
 * no phrase's part. Stopwords are skipped, as queries lose them.
 */
export function phraseBoundWords(
  names: readonly (readonly (readonly string[])[])[],
  closed: (word: string) => boolean,
  stemOf: (word: string) => string,
): Map<string, PhraseBound> {
  const bound = new Map<string, PhraseBound>();
  const alone = new Set<string>();
  names.forEach((ofEndpoint, id) => {
    for (const name of ofEndpoint) {
      const content = name.filter((w) => !STOPWORDS.has(w));
      content.forEach((w, k) => {
        if (!closed(w)) return;
        const s = stemOf(w);
        if (content.length === 1) {
          alone.add(s);
          return;
        }
        const entry = bound.get(s) ?? { neighbours: new Set<string>(), ids: new Set<number>() };
        for (const next of [content[k - 1], content[k + 1]]) if (next !== undefined) entry.neighbours.add(stemOf(next));
        entry.ids.add(id);
        bound.set(s, entry);
      });
    }
  });
  for (const s of alone) bound.delete(s);
  return bound;
}

/**
 * How many of the endpoints that say a subsystem's word must lie in the subsystem for the word to
 * name it: more than half, with a margin. In 9.1 "ceph" is said by 47 endpoints in /ceph of 64
 * with the docs (52 without), "ha" by 23 of 39, "scan" by 8 of 12; "status" (0.46 to 0.51 in
 * 6.4-9.1) falls below.
 */
export const SUBSYSTEM_SHARE = 0.55;

/**
 * How many distinct paths must lie below a subsystem's segment: a part of the API where several
 * things live, not a pair of actions. /access/openid holds only auth-url and login; OpenID realms
 * are configured under /access/domains, so "list the openid realms" asks for no subsystem.
 */
export const SUBSYSTEM_PATHS = 3;

/** A path's segments, placeholders included ("/nodes/{node}/ceph": nodes, {node}, ceph). */
const segmentsOf = (path: string) => path.split("/").filter((segment) => segment !== "");

/** The stems of a path's literal segments and of their parts, split at "-" and "_". */
export function pathStems(path: string, stemOf: (word: string) => string): string[] {
  return segmentsOf(path)
    .filter((segment) => !segment.startsWith("{"))
    .flatMap((segment) => segment.toLowerCase().split(/[-_]/).filter(Boolean).map(stemOf));
}

/**
 * The stems of the words that name a subsystem of the API: a path segment (or a part of one)
 * below the root that groups endpoints, with several paths below it (SUBSYSTEM_PATHS) and never
 * an object's placeholder right after it, that most endpoints saying the word (`usersOf`) lie
 * in (SUBSYSTEM_SHARE). A query
 * that says such a word asks within that subsystem ("the health of my Ceph cluster" is no
 * disk's SMART health). The roots (/cluster, /nodes, /access) are scopes, and a list of objects
 * (qemu of /nodes/{node}/qemu/{vmid}, the vnets) is what the query's facets and names weigh
 * already.
 */
export function subsystemWords(
  paths: readonly string[],
  usersOf: (stem: string) => readonly number[],
  stemOf: (word: string) => string,
): Set<string> {
  const inPath = paths.map((path) => new Set(pathStems(path, stemOf)));
  // Per word that groups endpoints, the distinct paths below it.
  const grouping = new Map<string, Set<string>>();
  // Roots and lists of objects: no subsystem, wherever else they group endpoints.
  const excluded = new Set<string>();
  for (const path of paths) {
    const segments = segmentsOf(path);
    segments.forEach((segment, k) => {
      if (segment.startsWith("{")) return;
      const next = segments[k + 1];
      const parts = pathStems(segment, stemOf);
      if (k === 0 || next?.startsWith("{")) for (const part of parts) excluded.add(part);
      else if (next !== undefined)
        for (const part of parts) grouping.set(part, (grouping.get(part) ?? new Set()).add(path));
    });
  }
  const words = new Set<string>();
  for (const [word, below] of grouping) {
    if (excluded.has(word) || below.size < SUBSYSTEM_PATHS) continue;
    const users = usersOf(word);
    if (users.length === 0) continue;
    const inside = users.filter((id) => inPath[id]!.has(word)).length;
    if (inside / users.length >= SUBSYSTEM_SHARE) words.add(word);
  }
  return words;
}

/**
 * Per subsystem word, the stems of the lists of objects below it: "pool", "osd", "flag" for
 * "ceph"; "zone", "vnet" for "sdn". "the ceph pool" is the subsystem's own; "the ceph storage"
 * is a storage, a top-level list (rootLists) the subsystem does not hold.
 */
export function subsystemLists(
  paths: readonly string[],
  subsystems: ReadonlySet<string>,
  stemOf: (word: string) => string,
): Map<string, Set<string>> {
  const lists = new Map<string, Set<string>>();
  for (const path of paths) {
    const segments = segmentsOf(path);
    const above: string[] = [];
    segments.forEach((segment, k) => {
      if (segment.startsWith("{")) return;
      const parts = pathStems(segment, stemOf);
      if (segments[k + 1]?.startsWith("{")) {
        for (const word of above) {
          const held = lists.get(word) ?? new Set<string>();
          for (const part of parts) held.add(part);
          lists.set(word, held);
        }
      }
      above.push(...parts.filter((part) => subsystems.has(part)));
    });
  }
  return lists;
}

/** The stems of the lists of the API's top level: "storag" of /storage/{storage}, "pool" of /pools/{poolid}, "node". */
export function rootLists(paths: readonly string[], stemOf: (word: string) => string): Set<string> {
  const lists = new Set<string>();
  for (const path of paths) {
    const [root, next] = segmentsOf(path);
    if (root !== undefined && next?.startsWith("{")) for (const part of pathStems(root, stemOf)) lists.add(part);
  }
  return lists;
}

/** How an endpoint's item may be named besides by its list's word. */
export interface ItemNames {
  /** The values its placeholder enumerates, each as the stems of its words (a service's name). */
  values?: readonly string[][];
}

/**
 * How the item an endpoint's last placeholder stands for may be named: by one of the values the
 * schema enumerates for it (the services of /nodes/{node}/services/{service}: corosync; pve-ha-lrm
 * as ha, lrm), unless every word of the value is a word of the API's paths (`pathWords`:
 * pve-cluster's "cluster" names the cluster, not a service).
 */
export function itemNames(e: Endpoint, stems: StemMemo, pathWords: ReadonlySet<string>): ItemNames {
  const placeholder = /\{([^{}]+)\}(?!.*\{)/.exec(e.path)?.[1];
  const param = placeholder === undefined ? undefined : e.parameters[placeholder];
  if (!param) return {};
  const values = (param.enum ?? [])
    .filter((v): v is string => typeof v === "string")
    .map((v) =>
      words(v)
        .filter((w) => !STOPWORDS.has(w))
        .map((w) => stem(w, stems)),
    )
    .filter((ws) => ws.some((w) => !pathWords.has(w)));
  return values.length ? { values } : {};
}
