// Words read by their neighbours: "turn on" a machine starts it, a feature is enabled; "to the
// admins group" names an existing group something is added to. Query analysis (search-query.ts)
// uses these.
import { stem } from "./stem.ts";
import { STOPWORDS } from "./text.ts";
import type { SearchIndex } from "./search-index.ts";
import { DETERMINERS, GUEST_WORDS, LXC_WORDS, PARTICLES, QEMU_WORDS } from "./search-tokens.ts";

/** Words that make what follows a new object, not an existing one. */
const NEW_OBJECT = new Set(["a", "an", "another", "new", "some"]);

/** "to the admins group", "into pool dev": the kinds of existing object something is added to (a collection's noun within the next three words). */
export function placesOf(raw: readonly string[], index: SearchIndex): Set<string> {
  const places = new Set<string>();
  raw.forEach((w, i) => {
    // "to a Gotify server" names no existing one.
    if ((w !== "to" && w !== "into") || NEW_OBJECT.has(raw[i + 1] ?? "")) return;
    for (const next of raw.slice(i + 1, i + 4)) {
      const s = stem(next, index.stems);
      if (index.collectionStems.has(s)) {
        places.add(s);
        break;
      }
    }
  });
  return places;
}

/** The groups a verb phrase means when its object is a machine, and when it is a feature. */
const MACHINE_SENSE = new Set(["start", "shutdown"]);
const FEATURE_SENSE = new Set(["enable", "disable"]);
const MACHINE_WORDS = new Set([
  ...QEMU_WORDS,
  ...LXC_WORDS,
  ...GUEST_WORDS,
  "node",
  "nodes",
  "host",
  "hosts",
  "server",
  "servers",
  "machine",
  "machines",
  "it",
  "them",
]);

/**
 * "turn on", "switch off": a machine is started or shut down, a feature is enabled or
 * disabled. The first content word of the object (`after`) tells which sense is meant.
 */
export function senseByObject(index: SearchIndex, ids: number[], after: readonly string[]): number[] {
  const machine = ids.filter((id) => MACHINE_SENSE.has(index.leads[id]!));
  const feature = ids.filter((id) => FEATURE_SENSE.has(index.leads[id]!));
  if (machine.length === 0 || feature.length === 0) return ids;
  const object = after.find((w) => !DETERMINERS.has(w) && !PARTICLES.has(w) && !STOPWORDS.has(w));
  if (object === undefined) return ids;
  const keep = MACHINE_WORDS.has(object) ? feature : machine;
  return ids.filter((id) => !keep.includes(id));
}
