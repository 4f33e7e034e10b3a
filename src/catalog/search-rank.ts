// Ranking: order by score, keep the top five free of VM/container twins, page.
import type { ItemNames } from "./search-facts.ts";
import { stem } from "./stem.ts";

/** How many of the first results are kept free of near-duplicates. */
const DIVERSE_TOP = 5;
/**
 * How far down diversify may reorder: a family holds two endpoints (the VM and the container
 * variant), so the top five different answers are found among the first ten.
 */
export const TWINS_REORDERED = 2 * DIVERSE_TOP;

/**
 * The VM and the container variant of one endpoint are one answer twice: a twin of a result
 * already in the top five moves to just after the top five, so those show five different answers.
 */
export function diversify(results: { id: number }[], families: Int32Array): void {
  const seen = new Set<number>();
  const top: { id: number }[] = [];
  const later: { id: number }[] = [];
  let i = 0;
  for (; i < results.length && top.length < DIVERSE_TOP; i++) {
    const r = results[i]!;
    const family = families[r.id]!;
    if (seen.has(family)) later.push(r);
    else {
      seen.add(family);
      top.push(r);
    }
  }
  if (later.length === 0) return;
  results.splice(0, i, ...top, ...later);
}

/**
 * Whether a directory index lists a path that answers better: one that covers more of the query
 * and a concept the index does not cover at all (a child repeats its index's words, so covering
 * more of the same concepts is no better answer). `concepts` holds, per endpoint, a bit for each
 * of the first 32 concepts it matched.
 */
export function listsBetter(
  children: readonly number[],
  index: number,
  matched: ArrayLike<number>,
  concepts: ArrayLike<number>,
): boolean {
  return children.some((child) => matched[child]! > matched[index]! && (concepts[child]! & ~concepts[index]!) !== 0);
}

/**
 * How many of an endpoint's naming units no word of the query asks for. A unit is a word of its
 * name, then the words that stand for it: its parts when it is run together (["changelog",
 * "chang", "log"]) or the kinds of item its list holds (["content", "backup", "iso", …]). The
 * word is asked by any term of the query (a synonym too); what stands for it only by a term the
 * query typed (`typed`): "pending" may mean changes, but it names no change log. `deletes` is the
 * verb a DELETE asked says itself ("revert" of the network's DELETE), which needs no word.
 */
export function unitsMissed(
  units: readonly (readonly string[])[],
  asked: ReadonlySet<string>,
  typed: ReadonlySet<string>,
  deletes?: string,
): number {
  let missing = 0;
  for (const unit of units) {
    const whole = unit[0]!;
    if (whole === deletes || asked.has(whole) || standsIn(unit, typed)) continue;
    missing++;
  }
  return missing;
}

/** Whether a term typed is one of what stands for the unit's word (all but its first). */
function standsIn(unit: readonly string[], typed: ReadonlySet<string>): boolean {
  for (let k = 1; k < unit.length; k++) if (typed.has(unit[k]!)) return true;
  return false;
}

/**
 * The terms the words typed say themselves, for unitsMissed: a word's stem, the API's own word
 * for it (its group's lead, weight 1: "wipe" for "get rid of"), a part of it ("vnc" of noVNC),
 * the kind of object a value names ("user" of carol@pve), the parts of a run-together name
 * typed; not a lesser synonym ("chang" for "pending", 0.8).
 */
export function typedTerms(
  concepts: readonly { terms: ReadonlyMap<string, number>; primaries: ReadonlySet<string>; names?: string }[],
  compoundParts: readonly string[],
): Set<string> {
  const typed = new Set<string>(compoundParts);
  for (const concept of concepts) {
    const primaries = [...concept.primaries];
    for (const [t, w] of concept.terms) if (w >= 1 || primaries.some((p) => p.includes(t))) typed.add(t);
    if (concept.names) typed.add(concept.names);
  }
  return typed;
}

/**
 * Lists whose item a query need not name: every guest, volume, service and disk is on a node,
 * and a backup, an ISO or a disk image lies on a storage.
 */
const IMPLIED_LISTS: ReadonlySet<string> = new Set(["node", "storage"].map((w) => stem(w)));
/** The lists of guests, which any guest word names. */
const GUEST_LISTS: ReadonlySet<string> = new Set(["qemu", "lxc"]);

/** What a query says that may name the item an endpoint belongs to. */
export interface ItemMention {
  /** Every term the query asks, synonyms included, and the stem of each word typed. */
  asked: ReadonlySet<string>;
  /** It speaks of a guest, of either kind. */
  guest: boolean;
  /** The endpoint takes a value the query types ("vzdump-qemu-…vma.zst": a storage's content). */
  takesTypedValue: boolean;
}

/**
 * Whether the query speaks of the item an endpoint is or lies below (`itemOf`, the stem of its
 * list: "backup" for /cluster/backup/{id} and its included_volumes): by the list's word or a
 * synonym of it, by any guest word for a VM or a container, by a value typed that the endpoint
 * takes, or by one of the values its placeholder enumerates (`names.values`: "corosync" of
 * {service}). A node's or a storage's item is always spoken of.
 */
export function itemSpokenOf(itemOf: string | undefined, names: ItemNames, mention: ItemMention): boolean {
  if (itemOf === undefined || IMPLIED_LISTS.has(itemOf)) return true;
  if (mention.asked.has(itemOf)) return true;
  if (GUEST_LISTS.has(itemOf) && mention.guest) return true;
  if (mention.takesTypedValue) return true;
  return names.values?.some((value) => value.every((w) => mention.asked.has(w))) ?? false;
}
