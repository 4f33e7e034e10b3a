// The facts the index keeps beside its postings (the SearchIndex fields the query's reading
// uses): the checks the API offers, the flags that turn an action off, the other names of
// lists' items, the files descriptions name, storage types, the words of what POSTs create and
// the order among equal ranks. Per-endpoint facts for the score factors are in search-facts.ts.
import type { Endpoint } from "./model.ts";
import { stem, type StemMemo } from "./stem.ts";
import { firstSentence, identifierWords, words } from "./text.ts";
import { valueKinds } from "./search-values.ts";

/** A read that checks whether an action can be done: "Check if …", "Get preconditions for …". */
const CHECK = /\bcheck if\b|\bpreconditions?\b/i;

/** An action the API can check before it is done, and the objects it checks it for (none: any). */
export interface Check {
  actions: Set<string>;
  objects: Set<string>;
}

/** Parameters of a check that say which action it checks ("action" of cmd-safety, "feature" of a guest's feature check). */
const CHECKED_ACTION = /^(?:action|feature)$/;

export function checksOf(endpoints: readonly Endpoint[], identity: readonly string[][][], stems: StemMemo): Check[] {
  const checks: Check[] = [];
  endpoints.forEach((e, id) => {
    if (e.method !== "GET" || !CHECK.test(e.description)) return;
    const actions = new Set<string>();
    const objects = new Set<string>();
    for (const [name, p] of Object.entries(e.parameters))
      for (const value of p.enum ?? [])
        if (typeof value === "string")
          (CHECKED_ACTION.test(name) ? actions : objects).add(stem(value.toLowerCase(), stems));
    // Without a parameter naming the action, the endpoint's own name does ("migrate").
    if (actions.size === 0) for (const unit of identity[id]!) actions.add(unit[0]!);
    checks.push({ actions, objects });
  });
  return checks;
}

/**
 * For each placeholder of a path, the stem of what the list before it holds, or undefined when
 * that list has no noun ("vnet" and "subnet" for …/vnets/{vnet}/subnets/{subnet}; the last is the
 * endpoint's own item, or the item it is below).
 */
export function listsThrough(path: string, listed: ReadonlyMap<string, string>): (string | undefined)[] {
  const segments = path.split("/");
  return segments.flatMap((s, at) => (s.startsWith("{") ? [listed.get(segments.slice(0, at).join("/"))] : []));
}

/** Per collection's stem, the stems of the path words above it ("usb": "mapping" of /cluster/mapping/usb). */
export function collectionParents(listed: ReadonlyMap<string, string>, stems: StemMemo): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [path, collection] of listed) {
    const above = path
      .split("/")
      .slice(0, -1)
      .filter((s) => s && !s.startsWith("{"));
    const set = out.get(collection) ?? new Set<string>();
    for (const segment of above) for (const w of identifierWords(segment)) set.add(stem(w, stems));
    out.set(collection, set);
  }
  return out;
}

/** Words by which a flag's description says its action is off. */
const OFF = /\b(?:not|no|never|suspend\w*|disabl\w*|ignor\w*|prevent\w*|paus\w*)\b/i;

/**
 * Whether two stems are one action: equal, or the first the second with at most three letters
 * more that the stemmer kept ("rebalanc" of rebalancing and "rebal" of rebalance). "download" is
 * no "down", "write" no "writecach".
 */
export function sameAction(stemmed: string, action: string): boolean {
  return (
    stemmed === action || (action.length >= 4 && stemmed.startsWith(action) && stemmed.length - action.length <= 3)
  );
}

/** A flag that turns an action off: its term, and the stems of its description ("mark" and "out" of noout's). */
export interface NegatedFlag {
  flag: string;
  described: ReadonlySet<string>;
}

/**
 * Parameters named "no" and an action that their own description says is off: Ceph's `noout`
 * ("OSDs will not automatically be marked out"), `norebalance` ("Rebalancing of PGs is
 * suspended"). By the stem of the action. "nodes", "notes" or `nocow` ("Set the NOCOW flag")
 * say no action of theirs.
 */
export function negatedFlags(endpoints: readonly Endpoint[], stems?: Map<string, string>): Map<string, NegatedFlag> {
  const out = new Map<string, NegatedFlag>();
  for (const e of endpoints) {
    for (const [name, p] of Object.entries(e.parameters)) {
      const action = /^no([a-z]{3,})$/.exec(name)?.[1];
      const key = action === undefined ? undefined : stem(action, stems);
      if (key === undefined || out.has(key)) continue;
      const text = typeof p.description === "string" ? p.description : "";
      // Its description says the action is off ("will not", "suspended", "disabled", "ignored"),
      // not merely that a flag exists ("Enable SMURFS filter.").
      if (!OFF.test(text)) continue;
      const described = words(text).map((w) => stem(w, stems));
      if (described.some((d) => sameAction(d, key)))
        out.set(key, { flag: stem(name, stems), described: new Set(described) });
    }
  }
  return out;
}

/** Placeholders that name no kind of object ("{name}", "{id}", "{pos}"). */
const GENERIC_KEYS = new Set(["name", "id", "pos"]);

/**
 * The stem of what an item's last placeholder names, when the API lists such objects
 * (`collections`): "user" for /access/tfa/{userid} (/access/users); nothing for {sid} or {upid},
 * whose "s" and "up" are no list.
 */
export function keyOf(path: string, stems: StemMemo, collections: ReadonlySet<string>): string | undefined {
  const placeholder = /\{([a-z]+)\}$/.exec(path)?.[1];
  if (placeholder === undefined || GENERIC_KEYS.has(placeholder)) return undefined;
  const key = stem(placeholder.replace(/id$/, ""), stems);
  return collections.has(key) ? key : undefined;
}

/**
 * The paths in a file system the endpoints' descriptions say, less the punctuation after them
 * ("/etc/hosts"); not an API path ("/cluster/acme/meta").
 */
export function describedPaths(endpoints: readonly Endpoint[]): Set<string> {
  return new Set(
    endpoints
      .flatMap((e) => e.description.match(/(?<=^|\s)\/[\w.@+-]+(?:\/[\w.@+-]+)*/g) ?? [])
      .map((path) => path.replace(/[.,;:]+$/, ""))
      .filter((path) => valueKinds(path).includes("file")),
  );
}

/** The `type` enum of the endpoint that defines storages (POST /storage): zfs, zfspool, lvm, lvmthin, nfs, pbs... */
export function storageTypes(endpoints: readonly Endpoint[]): Set<string> {
  const define = endpoints.find((e) => e.method === "POST" && e.path === "/storage");
  return new Set((define?.parameters.type?.enum ?? []).filter((v): v is string => typeof v === "string"));
}

/**
 * What the VM and the container variant of one answer share: the method and the path, with the
 * guest's kind left out. At most two endpoints share one (search-rank.ts relies on it).
 */
export function familyKey(e: { method: string; path: string }): string {
  return `${e.method} ${e.path.replace(/^\/nodes\/\{node\}\/(qemu|lxc)(?=\/|$)/, "/nodes/{node}/guest")}`;
}

/**
 * The collections whose item placeholder names their items otherwise than their path does
 * (/access/domains/{realm}: a realm is a domain's item), by the placeholder's stem; not when the
 * placeholder is a collection's own noun, nor when it names items of two collections.
 */
export function collectionAliases(
  endpoints: readonly Endpoint[],
  listed: ReadonlyMap<string, string>,
  stems: StemMemo,
): Map<string, string> {
  const collections = new Set(listed.values());
  const found = new Map<string, Set<string>>();
  for (const e of endpoints) {
    const m = /^(.*)\/\{([a-z]+)\}$/.exec(e.path);
    const collection = m ? listed.get(m[1]!) : undefined;
    if (!m || collection === undefined) continue;
    const noun = stem(m[2]!.replace(/id$/, ""), stems);
    if (noun.length < 3 || noun === collection || collections.has(noun)) continue;
    found.set(noun, (found.get(noun) ?? new Set()).add(collection));
  }
  const aliases = new Map<string, string>();
  for (const [noun, of] of found) if (of.size === 1) aliases.set(noun, [...of][0]!);
  return aliases;
}

/** Each endpoint's place among equal ranks (SearchIndex.tieOrder). */
export function tieOrderOf(endpoints: readonly { path: string }[]): Int32Array {
  const ids = endpoints.map((_, id) => id);
  ids.sort((a, b) => {
    const pa = endpoints[a]!.path;
    const pb = endpoints[b]!.path;
    return pa.length - pb.length || pa.localeCompare(pb) || a - b;
  });
  const order = new Int32Array(endpoints.length);
  ids.forEach((id, place) => (order[id] = place));
  return order;
}

/** The stems of the words of the POSTs' paths and `type` values, and what they create (SearchIndex.postWords). */
export function postWords(
  endpoints: readonly Endpoint[],
  creatable: ReadonlySet<string>,
  stems: StemMemo,
): Set<string> {
  const out = new Set(creatable);
  for (const e of endpoints) {
    if (e.method !== "POST") continue;
    const kinds = (e.parameters.type?.enum ?? []).filter((v): v is string => typeof v === "string");
    const named = [...e.path.split("/").filter((s) => s && !s.startsWith("{")), ...kinds];
    for (const name of named) for (const w of identifierWords(name)) out.add(stem(w, stems));
  }
  return out;
}

/** What an index's summary says it indexes: the word before "index" ("QEMU Guest Agent command index."), not "directory". */
export function indexNoun(description: string, stems: StemMemo): string | undefined {
  const word = /(\w+) index\b/i.exec(firstSentence(description))?.[1]?.toLowerCase();
  return word === undefined || word === "directory" ? undefined : stem(word, stems);
}
