// What the query's noun phrases say of the objects they name: where something goes ("to the
// admins group"), what stays when something leaves it ("remove VM 100 from HA"), which items
// exist ("the nightly backup job"), whose setting is changed ("the notes of snapshot
// pre-upgrade") and which lists are asked whole ("every IP set"). Pure functions of the query's
// words and the index's collection nouns.
import { stem } from "./stem.ts";
import { LXC_WORDS, METHOD_HINTS, QEMU_WORDS } from "./synonyms.ts";
import { STOPWORDS } from "./text.ts";
import type { SearchIndex } from "./search-index.ts";
import { ALL_WORDS, CLUSTER_WORDS, DETERMINERS, NODE_WORDS, PREPOSITIONS, isEnglishVerb } from "./search-tokens.ts";
import { inflectedVerb } from "./search-clauses.ts";

/** Words that make what follows a new object, not an existing one. */
const NEW_OBJECT = new Set(["a", "an", "another", "new", "some"]);
/** Prepositions of where something is ("the files inside a backup"): an indefinite there still names one that exists. */
const LOCATIONS = new Set(["in", "on", "inside", "within"]);
/** Words that make what follows every one of a kind, not one place ("the free space on each storage"). */
const EVERY_ONE = new Set(["each", "every", "all"]);

/** "to create", "to reboot": "to" before a verb that says a method marks an infinitive, not a place or a target. */
export function infinitive(raw: readonly string[], at: number): boolean {
  return raw[at] === "to" && METHOD_HINTS[raw[at + 1] ?? ""] !== undefined;
}

/** "VM 100", "container 200": a guest of one kind named by its number at `i`. */
export function guestByNumber(raw: readonly string[], i: number): boolean {
  return (QEMU_WORDS.has(raw[i] ?? "") || LXC_WORDS.has(raw[i] ?? "")) && /^\d+$/.test(raw[i + 1] ?? "");
}

/** The place a "from" or an "out of" at `at` names ("from the HA group": "ha"), if one does. */
function placeLeft(raw: readonly string[], at: number): string | undefined {
  const from = raw[at] === "from" ? at + 1 : raw[at] === "out" && raw[at + 1] === "of" ? at + 2 : -1;
  if (from < 0) return undefined;
  return DETERMINERS.has(raw[from] ?? "") ? raw[from + 1] : raw[from];
}

/**
 * Where guests named by their numbers go: the index of the "to" or "into" right after them ("add
 * VM 100 to HA", "put container 200 into pool dev", "add VMs 400 through 405 to the lab pool",
 * "add VM 101 and container 202 to pool web"), or -1.
 */
export function guestsGoTo(raw: readonly string[]): number {
  for (let i = 0; i < raw.length; i++) {
    if (!guestByNumber(raw, i)) continue;
    let j = i + 2;
    while (j < raw.length && (/^\d+$/.test(raw[j]!) || GUEST_SPANS.has(raw[j]!) || isGuestWord(raw[j]!))) j++;
    if ((raw[j] === "to" || raw[j] === "into") && !infinitive(raw, j)) return j;
  }
  return -1;
}

/** Words that join guest numbers into one list ("VMs 400 through 405", "VMs 101 and 102"). */
const GUEST_SPANS = new Set(["and", "through", "or", "until", "till"]);

const isGuestWord = (w: string) => QEMU_WORDS.has(w) || LXC_WORDS.has(w);

/** Determiners of a thing that exists: "the lab pool", "our pool". */
const EXISTING = new Set(["the", "this", "our", "my", "your", "their"]);

/**
 * Whether the place after a "to" at `at` is one object that exists: the noun of a collection
 * within the next three words (the last of several: "backup job"), after a determiner of one
 * that exists ("to the lab pool", "to the nightly backup job") or before its name ("to pool
 * sandbox"). "to replication", "to HA", "to a pool" name none.
 */
export function existingPlaceAt(
  raw: readonly string[],
  at: number,
  index: Pick<SearchIndex, "collectionStems" | "collectionAliases" | "stems">,
  isName: (i: number) => boolean,
): boolean {
  const isCollection = (w: string) => collectionNamed(w, index) !== undefined;
  for (let j = at + 1; j < Math.min(raw.length, at + 4); j++) {
    if (!isCollection(raw[j]!)) continue;
    // The phrase's head is its last noun ("backup job").
    while (j + 1 < raw.length && isCollection(raw[j + 1]!)) j++;
    const next = raw[j + 1];
    const named = next !== undefined && (isName(j + 1) || !(STOPWORDS.has(next) || PREPOSITIONS.has(next)));
    return EXISTING.has(raw[at + 1] ?? "") || named;
  }
  return false;
}

/**
 * Whether "add" at `verbAt` adds a property to something rather than making a new thing: "add a
 * note to the backup archive", "add a description to container 200". What it adds, up to the
 * "to", is at most PHRASE_WORDS words, none of which says what a POST makes or does (`made`:
 * SearchIndex.postWords, "token", "ldap", "pool"), a guest's word, a preposition, a name or a
 * number; something follows the "to", which is no infinitive's ("add a hook script to run at
 * boot"). What is added is then set on what it is added to.
 */
export function addsProperty(
  raw: readonly string[],
  index: Pick<SearchIndex, "collectionStems" | "collectionAliases" | "stems">,
  made: ReadonlySet<string>,
  verbAt: number,
  isName: (i: number) => boolean,
): boolean {
  const to = raw.indexOf("to", verbAt + 1);
  if (verbAt < 0 || to < 0) return false;
  // "to backup job daily": a verb's word that names a collection is its noun there.
  if (infinitive(raw, to) && collectionNamed(raw[to + 1] ?? "", index) === undefined) return false;
  const words = raw
    .slice(verbAt + 1, to)
    .map((w, k) => [w, verbAt + 1 + k] as const)
    .filter(([w]) => !STOPWORDS.has(w));
  if (words.length === 0 || words.length > PHRASE_WORDS || !raw.slice(to + 1).some((w) => !STOPWORDS.has(w)))
    return false;
  return words.every(
    ([w, i]) =>
      !isName(i) && !/\d/.test(w) && !isGuestWord(w) && !PREPOSITIONS.has(w) && !made.has(stem(w, index.stems)),
  );
}

/** The stem of the collection a word names, by its noun or by what its items are called ("realm": domain). */
function collectionNamed(
  word: string,
  index: Pick<SearchIndex, "collectionStems" | "collectionAliases" | "stems">,
): string | undefined {
  const s = stem(word, index.stems);
  return index.collectionStems.has(s) ? s : index.collectionAliases.get(s);
}

/** Words for the whole system: what leaves it is gone ("remove the user from proxmox"). */
const WHOLE_SYSTEM = new Set([...CLUSTER_WORDS, "proxmox", "pve", "system", "server", "host", "node"]);

/** The collections of guests, one per kind (/nodes/{node}/qemu, /nodes/{node}/lxc). */
const GUEST_KINDS = ["qemu", "lxc"];

/** Whether what leaves the place a "from" names stays: not from a node, where it is, nor from the whole system, nor "from being removed". */
function leavesAndStays(place: string | undefined): boolean {
  return (
    place !== undefined &&
    !NODE_WORDS.has(place) &&
    !WHOLE_SYSTEM.has(place) &&
    !/\d/.test(place) &&
    !/(?:ing|ed)$/.test(place)
  );
}

/**
 * The stems of the collections whose item the query names and keeps, so that deleting it steps
 * back: a guest named by its number that leaves something ("remove VM 100 from HA", "take
 * container 200 out of pool dev") or that something leaves ("remove the CD-ROM from VM 100"), and
 * an item named by its name that leaves something ("remove user bob@pve from group admins").
 */
export function staying(raw: readonly string[], isName: (i: number) => boolean, index: SearchIndex): Set<string> {
  const out = new Set<string>();
  raw.forEach((w, i) => {
    if (guestByNumber(raw, i)) {
      const partLeaves = raw[i - 1] === "from" || (raw[i - 2] === "from" && DETERMINERS.has(raw[i - 1] ?? ""));
      // The request deletes no guest of either kind: the one of the other kind is this one's twin.
      if (partLeaves || leavesAndStays(placeLeft(raw, i + 2)))
        for (const kind of GUEST_KINDS) out.add(stem(kind, index.stems));
      return;
    }
    const s = stem(w, index.stems);
    if (!index.collectionStems.has(s)) return;
    // The name may be several words of a value ("bob@pve").
    let j = i + 1;
    while (j < raw.length && (isName(j) || /\d/.test(raw[j]!))) j++;
    if (j > i + 1 && leavesAndStays(placeLeft(raw, j))) out.add(s);
  });
  return out;
}

/**
 * "log in", "logged in", "turns on": "in" or "on" right after a verb is its particle, no place.
 * After a determiner the word is a noun ("the rules in group web", "the files on a backup").
 */
function verbsParticle(raw: readonly string[], i: number): boolean {
  const before = raw[i - 1];
  if (before === undefined || DETERMINERS.has(raw[i - 2] ?? "")) return false;
  return isEnglishVerb(before) || inflectedVerb(before);
}

/** A kind of existing object named as a place, its preposition's position, and whether "each", "every" or "all" names every one. */
export interface Place {
  kind: string;
  preposition: number;
  everyOne: boolean;
}

/**
 * "to the admins group", "into pool dev", "in the evpn zone", "on storage nas", "inside a PBS
 * backup", "to every group": the existing objects something is added to, put on or kept in (a
 * collection's noun within the next three words, or what its items are called: "in the pve
 * realm" is in a domain). Not "to a Gotify server", which names a new one.
 */
export function placeMentions(
  raw: readonly string[],
  index: Pick<SearchIndex, "collectionStems" | "collectionAliases" | "stems">,
  isName: (i: number) => boolean = () => false,
): Place[] {
  const found: Place[] = [];
  raw.forEach((w, i) => {
    // "user bob in the pve realm": a name before "in" is no verb ("bob" is one in English).
    const particle = (w === "in" || w === "on") && !isName(i - 1) && verbsParticle(raw, i);
    const into = w === "to" || w === "into" || (LOCATIONS.has(w) && !particle);
    const next = raw[i + 1] ?? "";
    const indefinite = (next === "a" || next === "an") && LOCATIONS.has(w) && !NEW_OBJECT.has(raw[i + 2] ?? "");
    if (!into || (NEW_OBJECT.has(next) && !indefinite) || infinitive(raw, i)) return;
    for (let j = i + 1; j < Math.min(raw.length, i + 4); j++) {
      const kind = collectionNamed(raw[j]!, index);
      if (kind === undefined) continue;
      found.push({ kind, preposition: i, everyOne: EVERY_ONE.has(next) });
      break;
    }
  });
  return found;
}

/**
 * The kinds of the places whose contents a query asks about ("the files inside a PBS backup"):
 * not those it names all of ("the free space on each storage"), nor one whose contents are of
 * its own kind ("the sub-pools inside pool prod" asks for pools).
 */
export function holdersOf(
  raw: readonly string[],
  places: readonly Place[],
  index: Pick<SearchIndex, "collectionStems" | "collectionAliases" | "stems">,
): Set<string> {
  const nested = (p: Place) => p.preposition > 0 && collectionNamed(raw[p.preposition - 1]!, index) === p.kind;
  return new Set(places.filter((p) => !p.everyOne && !nested(p)).map((p) => p.kind));
}

/**
 * Determiners that point at a thing both sides know ("the nightly backup job"). Not a possessive:
 * "our Gotify server", "my SMTP relay" are often outside Proxmox, where a new target points; nor
 * "that", which as often opens a clause ("ensure that replication runs").
 */
const DEFINITE = new Set(["the", "this"]);
/** How many words a noun phrase may put between its determiner and its noun ("the nightly backup job"). */
const PHRASE_WORDS = 3;
/**
 * Prepositions of a means, a way or a goal: "with the HA rule", "through the SMTP relay",
 * "against the AD domain", "to the Gotify server", "as the IPAM backend". What they govern is
 * used or pointed at, which a request may be creating ("pin VM 100 to pve1 through the HA rule").
 */
const MEANS = new Set([
  "with",
  "through",
  "via",
  "against",
  "using",
  "by",
  "at",
  "to",
  "into",
  "onto",
  "for",
  "like",
  "as",
]);
/** Words before "'s" that make a contraction, not a possessive ("it's", "that's", "let's"). */
const CONTRACTED = new Set(["it", "that", "what", "there", "here", "let", "who", "he", "she", "where", "how"]);

/** "the host's PCI address", "the nodes' disks", "the host’s": the possessors a query names. */
export function possessors(query: string): Set<string> {
  const found = query.toLowerCase().matchAll(/([\p{L}\p{N}]+)(?:['’]s|s['’])(?![\p{L}\p{N}])/gu);
  return new Set(
    [...found].map((m) => (/['’]$/.test(m[0]) ? `${m[1]}s` : m[1]!)).filter((word) => !CONTRACTED.has(word)),
  );
}

/**
 * The stems of the collections whose item a definite noun phrase names ("backup" in "exclude VM
 * 100 from the nightly backup job", "storag" in "restrict the backup-nfs storage"): an item that
 * exists, unless "new" says otherwise, or it is the object of a verb said as a POST, whose
 * determiner is at `added` ("install the ceph OSD"). Words of names (`isName`) name no collection.
 * `owners`: the query's possessors; "the host's PCI address" is the host's, its determiner no
 * PCI address's (queryChunks drops the "'s").
 */
export function definiteOf(
  raw: readonly string[],
  index: Pick<SearchIndex, "collectionStems" | "stems">,
  owners: ReadonlySet<string>,
  isName: (i: number) => boolean = () => false,
  added = -1,
): Set<string> {
  const known = new Set<string>();
  raw.forEach((w, i) => {
    if (!DEFINITE.has(w) || MEANS.has(raw[i - 1] ?? "") || i === added) return;
    for (let j = i + 1; j < Math.min(raw.length, i + 1 + PHRASE_WORDS); j++) {
      const next = raw[j]!;
      if (NEW_OBJECT.has(next) || STOPWORDS.has(next) || PREPOSITIONS.has(next)) break;
      const s = stem(next, index.stems);
      // "the backup jobs": a plural asks for the list, not for one that exists.
      if (!isName(j) && index.collectionStems.has(s) && !(/[^s]s$/.test(next) && next !== s)) known.add(s);
      if (owners.has(next)) break;
    }
  });
  return known;
}

/**
 * Prepositions that make the noun after them no object of a verb ("create a VM with its disk on
 * storage ceph"); not "as", which says what the object becomes ("add the export as new storage").
 */
const GOVERNING = new Set(
  [...MEANS, "from", "on", "in", "inside", "within", "under", "of", "behind"].filter((w) => w !== "as"),
);

/**
 * The stem of what a verb of creation at `verbAt` creates: the head of the first noun phrase
 * after it that names a collection a POST adds to (`creatable`), a guest's word for its kind's
 * collection, and that no preposition governs ("pool" in "create a resource pool for the intern
 * VMs", "storag" in "add a ZFS storage for the pool tank", "qemu" in "create a VM with its disk on
 * storage ceph"), or what it is added as ("add the existing ceph pool rbd as storage"). One
 * named by a number exists ("add VM 305 to pool dev"), as does one said to exist; `skip` leaves
 * out names and words said aside or for a purpose.
 */
export function createdOf(
  raw: readonly string[],
  index: Pick<SearchIndex, "stems">,
  creatable: ReadonlySet<string>,
  verbAt: number,
  skip: (i: number) => boolean = () => false,
): Set<string> {
  const kindAt = (i: number) => {
    const w = raw[i]!;
    return QEMU_WORDS.has(w) ? "qemu" : LXC_WORDS.has(w) ? "lxc" : stem(w, index.stems);
  };
  // "add the existing ceph pool rbd as storage": what it is added as is what is created.
  const as = raw.indexOf("as", verbAt + 1);
  // Not of a verb after "and" ("create a zfs pool tank and add it as storage").
  if (as > 0 && !raw.slice(verbAt + 1, as).includes("and"))
    for (let j = as + 1; j <= as + PHRASE_WORDS && j < raw.length; j++)
      if (!skip(j) && creatable.has(kindAt(j))) return new Set([kindAt(j)]);
  for (let i = Math.max(0, verbAt + 1); i < raw.length; i++) {
    if (skip(i) || !creatable.has(kindAt(i))) continue;
    const before = raw.slice(Math.max(verbAt + 1, i - PHRASE_WORDS), i);
    if (before.some((word) => GOVERNING.has(word) || word === "existing")) continue;
    // The phrase's head is its last noun: "a ZFS storage", "a backup storage entry".
    let head = i;
    for (let j = i + 1; j < raw.length && j <= i + PHRASE_WORDS; j++) {
      const w = raw[j]!;
      if (skip(j) || STOPWORDS.has(w) || PREPOSITIONS.has(w) || /^\d/.test(w)) break;
      if (creatable.has(kindAt(j))) head = j;
    }
    if (/^\d/.test(raw[head + 1] ?? "")) return new Set();
    return new Set([kindAt(head)]);
  }
  return new Set();
}

/**
 * The stems of the collections whose item, named by its name after "of", owns what the query
 * sets ("snapshot" in "the description of snapshot pre-upgrade on VM 101").
 */
export function ownersOf(
  raw: readonly string[],
  index: Pick<SearchIndex, "collectionStems" | "stems">,
  namedByName: ReadonlySet<string>,
): Set<string> {
  const owners = new Set<string>();
  raw.forEach((w, i) => {
    if (w !== "of") return;
    for (const next of raw.slice(i + 1, i + 1 + PHRASE_WORDS)) {
      const s = stem(next, index.stems);
      if (index.collectionStems.has(s) && namedByName.has(s)) {
        owners.add(s);
        break;
      }
    }
  });
  return owners;
}

/**
 * The lists a query asks for whole: a collection's noun in the plural ("which DNS challenge
 * plugins"), after "all"/"every" ("every IP set"), or before a plural ("the backup jobs").
 */
export function listsAskedOf(raw: readonly string[], index: SearchIndex, isName: (i: number) => boolean): Set<string> {
  const lists = new Set<string>();
  raw.forEach((w, i) => {
    const all = ALL_WORDS.has(raw[i - 1] ?? "") || ALL_WORDS.has(raw[i - 2] ?? "");
    // "the IP sets", "every IP set": a collection's run-together noun, typed apart.
    if (i + 1 < raw.length && (all || /[^s]s$/.test(raw[i + 1]!))) {
      const joined = stem(w + raw[i + 1]!, index.stems);
      if (index.collectionStems.has(joined)) {
        lists.add(joined);
        return;
      }
    }
    const s = stem(w, index.stems);
    if (!index.collectionStems.has(s)) return;
    const plural = w.length > s.length && /s$/.test(w) && !/ss$/.test(w);
    // "the backup jobs": a plural right after the collection's noun is what it holds, in the plural.
    const next = raw[i + 1] ?? "";
    const headPlural = next.length > 3 && /[^s]s$/.test(next) && stem(next, index.stems) !== next && !isName(i + 1);
    if (plural || all || headPlural) lists.add(s);
  });
  return lists;
}
