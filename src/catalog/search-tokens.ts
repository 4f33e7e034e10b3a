// Query words: the chunks of a query as weighted tokens (values such as IDs and paths count
// little), which word is the request's verb and what method it asks for, and which kind of
// guest the words speak of. Query analysis (search-query.ts) builds on these.
import { stem } from "./stem.ts";
import {
  GROUP_METHOD_HINTS,
  LXC_WORDS,
  METHOD_HINTS,
  NOUN_VERBS,
  QEMU_WORDS,
  PHRASAL_VERBS,
  SHORT_WORDS,
  type MethodName,
} from "./synonyms.ts";
import { PARTICLES, STOPWORDS, words } from "./text.ts";
import { valueKinds, valueText } from "./search-values.ts";
import { MIN_COMPOUND_END, respelled, splitCompound } from "./search-terms.ts";
import { ENGLISH_VERBS } from "./wordnet-verbs.ts";
import type { SearchIndex } from "./search-index.ts";

/** Which kind of guest a query is about. */
export type GuestFacet = "qemu" | "lxc" | "any" | "none";

/** Words for a guest of either kind; "vmid" is the number both kinds are known by. */
export const GUEST_WORDS = new Set(["guest", "guests", "vmid", "vmids"]);
export const DETERMINERS = new Set([
  "a",
  "an",
  "the",
  "my",
  "our",
  "your",
  "its",
  "their",
  "this",
  "that",
  "these",
  "those",
  "each",
  "every",
  "all",
  "some",
  "any",
]);
/** Words before the verb of a request ("please", "quickly"). */
export const LEADING_WORDS = new Set([
  "please",
  "lets",
  "quickly",
  "kindly",
  "now",
  "then",
  "also",
  "i",
  "we",
  "want",
  "need",
  "to",
  "how",
]);

/** Words that ask for more about one thing rather than name a thing. */
export const GENERIC_WORDS = new Set([
  "details",
  "detail",
  "information",
  "info",
  "data",
  "entries",
  "entry",
  "properties",
]);

export const NUMBER_WORDS = new Set(["two", "three", "four", "several", "both", "it", "them"]);
export const NODE_WORDS = new Set(["node", "nodes", "host", "hosts", "hypervisor", "physical"]);
export const CLUSTER_WORDS = new Set(["cluster", "datacenter", "datacentre"]);
/** Words before where something goes ("to node pve2"). */
export const DESTINATION_WORDS: ReadonlySet<string> = new Set(["to", "onto", "into"]);
/** Words before a node a request moves something to or from: no scope of it. */
export const TARGET_WORDS: ReadonlySet<string> = new Set([...DESTINATION_WORDS, "from"]);
/** Prepositions that make a named guest the place of the request rather than its object. */
export const PLACE_WORDS = new Set(["to", "in", "into", "inside", "on", "of", "from", "for"]);
/** Words that open a question about what is: its answer is read, not written. */
export const QUESTION_WORDS = new Set([
  "which",
  "what",
  "whats",
  "is",
  "are",
  "does",
  "do",
  "how",
  "who",
  "when",
  "where",
]);
/** Marks the token at `k` as context that counts `share` of its weight, with `marks` besides ("subordinate"). */
export function stepBack(tokens: Token[], k: number, share: number, marks: Partial<Token> = {}): void {
  const t = tokens[k]!;
  tokens[k] = { ...t, ...marks, context: true, weight: t.weight * share };
}

/** Question words that also open a clause of time or place ("when a node reboots, …"). */
const CLAUSE_OPENING_QUESTIONS = new Set(["when", "where"]);
/** A clause of time or place that opens the query and ends at a comma or a semicolon, with more after it. */
const OPENING_CLAUSE = /^\W*(?:when|where)\b[^,;?]*[,;]\s*\w/i;

/**
 * Whether a query opens with a question: a question word first, but not "when" or "where" that
 * opens a clause of time or place ended by a comma before the request ("when a node is rebooted
 * for patching, HA should move its guests"). `query` is the text the words come from.
 */
export function opensQuestion(words: readonly string[], query: string): boolean {
  const first = words[0] ?? "";
  if (!QUESTION_WORDS.has(first)) return false;
  return !CLAUSE_OPENING_QUESTIONS.has(first) || !OPENING_CLAUSE.test(query);
}

/** Words that ask for all of something: "every guest", "all VMs", "VMs" (a plural). */
export const ALL_WORDS = new Set(["all", "every", "each", "everything"]);
/**
 * Words of free choice: "on any node", "whichever node they run on". What holds wherever it may
 * be holds on all; where something goes ("migrate VM 100 to any node") is one place, though.
 */
export const FREE_CHOICE: ReadonlySet<string> = new Set(["any", "whichever"]);
/** Words before a node's noun that take in every node: "all nodes", "every host", "any node". */
export const EVERY_NODE: ReadonlySet<string> = new Set([...ALL_WORDS, ...FREE_CHOICE]);
/**
 * Whether the quantifier at `q` is a free choice after a word of where something goes ("to any
 * node", "onto whichever host"): one node, whichever, that something goes to; not every node.
 */
export function anyDestinationAt(words: readonly string[], q: number): boolean {
  return FREE_CHOICE.has(words[q] ?? "") && DESTINATION_WORDS.has(words[q - 1] ?? "");
}
/** Words for a machine: a guest, a node, or a pronoun that stands for one. */
export const MACHINE_WORDS: ReadonlySet<string> = new Set([
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
export const PLURAL_GUESTS = new Set(["vms", "containers", "cts", "guests", "machines"]);

/** "disks included", "its RAM included.": a participle after what comes along, closing its clause. */
const INCLUDED = /^included[.,;:!?]*$/i;

/** Whether the chunk at `k` ends a word or phrase of accompaniment: "including", "together with", "along with", "as well as", "and its". */
function accompanies(chunks: readonly string[], k: number): boolean {
  const word = (at: number) => (chunks[at] ?? "").toLowerCase();
  if (word(k) === "including") return true;
  // "delete VM 999 and its disks": what a guest named by its number has comes along with it
  // ("show zone evpn1 and its vnets" asks for the vnets).
  const guest = (at: number) => QEMU_WORDS.has(word(at)) || LXC_WORDS.has(word(at));
  if (word(k) === "and" && (word(k + 1) === "its" || word(k + 1) === "their"))
    return /^\d+$/.test(word(k - 1)) && guest(k - 2);
  if (word(k) === "with") return word(k - 1) === "together" || word(k - 1) === "along";
  return word(k) === "as" && word(k - 1) === "well" && word(k - 2) === "as";
}

/** Words said aside: after "rather", "instead", "so", "because", "not" or "don't", or what comes along ("including"). */
export const ASIDE_WEIGHT = 0.5;
/** How much what a thing ignores counts ("ignores the shutdown button"): it was tried and failed. */
const IGNORED_WEIGHT = 0.35;

/** One chunk in straight, curly or back quotes, punctuation after it allowed. */
const QUOTED = /^['"‘“`][^'"’”`]+['"’”`][.,;:!?]*$/;

/** How much a word counts: values such as names, IDs and paths count little. */
function chunkWeight(chunk: string): number {
  // A colon or stop at the end is punctuation ("healthy:"), inside it makes a value ("vm:100").
  if (/[/@:=]/.test(chunk.replace(/[.,;:!?]+$/, ""))) return 0.3;
  // A typed value ("vzdump-qemu-101-….vma.zst", "vm-100-disk-0", "10.0.0.7", "mon..fri") is no words.
  if (valueKinds(chunk).length > 0) return 0.3;
  // A word in quotes ("the 'ops-gotify' target", "storage 'isos'") is a name given, not a word of the request.
  if (QUOTED.test(chunk)) return 0.3;
  return 1;
}

export interface Token {
  word: string;
  weight: number;
  /** The first content word of a clause, where a verb says what is wanted. */
  clauseStart: boolean;
  /** Part of a value such as a path or an ID ("/etc/hosts", "bob@pve"): taken literally. */
  literal: boolean;
  /** Part of a hyphenated name ("apt-get", "pve-firewall"): never a verb of the request. */
  inName?: boolean;
  /** Part of a statement of the situation before the request ("pve7 is powered off, ..."): no verb of it. */
  context?: boolean;
  /** Said aside, after "rather", "instead", "so", "because", "not" or "don't" ("not a guest"), or what comes along ("including its disks"). */
  aside?: boolean;
  /** What the request keeps from happening ("kept": "deleting" in "stop anyone from deleting container 310"), or does without ("without": "applying" in "show the SDN changes without applying them"). */
  prevented?: "kept" | "without";
  /** Part of a clause of purpose ("so it gets restarted elsewhere"): what the request is for, not what it does. */
  purpose?: boolean;
  /** Part of a subordinate clause: when the request applies ("whenever its host reboots") or what its noun is ("a role that can only start VMs"). */
  subordinate?: boolean;
  /** "login" as the head of its noun phrase ("needs a login", "switch off their login"): the account itself. */
  account?: boolean;
}

/**
 * "reload/apply", "start/stop", "up/in": words joined by slashes are each a word of the request,
 * one or the other, not a path or a name, when each is a word the API or English knows and none
 * is written as a name (LVM/ZFS/Ceph, a time zone's Europe/Vienna).
 */
function alternatives(index: SearchIndex, chunk: string): boolean {
  const bare = chunk.replace(/[.,;:!?]+$/, "");
  if (!/^[a-z]{2,}(?:\/[a-z]{2,})+$/i.test(bare)) return false;
  const parts = bare.split("/");
  // Names have capitals (LVM/ZFS/Ceph, Europe/Vienna); a sentence's first word may have one (Reload/apply).
  if (!/^[A-Za-z][a-z]+$/.test(parts[0]!) || parts.slice(1).some((p) => /[A-Z]/.test(p))) return false;
  return parts.every((p) => {
    const w = p.toLowerCase();
    return knowsWord(index, w) || index.vocabulary.has(w) || isEnglishVerb(w);
  });
}

/** How much a name counts ("test" in "a snapshot called test"). */
const NAME_WEIGHT = 0.3;

/**
 * "security group webservers", "vnet prod", "HA rule keep-together": a word the API does not
 * know, right after the noun of one of its collections, names an item of it.
 */
function nameAfterCollection(index: SearchIndex, before: string | undefined, chunk: string): boolean {
  if (before === undefined || !/^[a-z][a-z0-9-]*$/.test(chunk)) return false;
  if (!index.collectionStems.has(stem(before.toLowerCase(), index.stems))) return false;
  const known = (w: string) =>
    STOPWORDS.has(w) ||
    PREPOSITIONS.has(w) ||
    index.vocabulary.has(w) ||
    index.groupsOfWord.has(w) ||
    index.postings.has(stem(w, index.stems));
  // An adverb ("disable a storage temporarily") says how, it names nothing.
  // A hyphenated name may be run together from words ("storage backup-nfs", "pool dev-team"),
  // unless the API knows the compound ("cloud-init", "lvm-thin", "wake-on-lan").
  const hyphenated = chunk.includes("-") && !knownCompound(index, words(chunk));
  return !known(chunk) && (hyphenated || !words(chunk).every(known)) && !/ly$/.test(chunk);
}

/** Whether the API knows the words of a hyphenated chunk as one: a name run together ("cloudinit") or a phrase ("two factor"). */
function knownCompound(index: SearchIndex, parts: readonly string[]): boolean {
  return (
    index.vocabulary.has(parts.join("")) || index.phrases.byStems.has(parts.map((w) => stem(w, index.stems)).join(" "))
  );
}

/**
 * Whether the word after a collection's noun modifies the noun after it, which the API files
 * that collection under ("the USB dongle mappings": /cluster/mapping/usb), rather than naming one
 * of its items ("security group webservers rules", "user alice tfa": what the item has).
 */
function beforeNoun(
  index: SearchIndex,
  collection: string | undefined,
  chunk: string,
  next: string | undefined,
): boolean {
  if (collection === undefined || next === undefined || /[.,;:!?]$/.test(chunk)) return false;
  const parents = index.collectionParents.get(stem(collection.toLowerCase(), index.stems));
  return parents?.has(stem(next.toLowerCase().replace(/[.,;:!?]+$/, ""), index.stems)) ?? false;
}

/** English prepositions the stop words leave out: none of them is a name ("tasks across the cluster"). */
export const PREPOSITIONS = new Set(
  "aboard above across after against along amid among around before behind below beneath beside besides between beyond despite down during except inside near off onto opposite out outside past since through throughout till toward towards underneath unlike until up upon versus within without".split(
    " ",
  ),
);

/** A chunk that is a name rather than a word: a number or ID, a path, CamelCase or quoted ("PVEAuditor", "'web'"). */
function isValue(chunk: string, base: number): boolean {
  // An acronym's plural ("IPs", "VMs", "OSDs") is a word, not CamelCase.
  const camel = /[a-z][A-Z]|[A-Z]{2,}[a-z]/.test(chunk) && !/^[A-Z]{2,}s[.,;:!?]*$/.test(chunk);
  return base < 1 || /\d/.test(chunk) || camel || /^["'].+["'][.,;:!?]*$/.test(chunk);
}

/**
 * Words that put a path inside a guest ("/etc/hosts inside VM 105", "… through the guest
 * agent", "… from the backup of CT 120"); a backup server is a host like any other.
 */
const ELSEWHERE = /\b(?:vms?|containers?|cts?|guests?|agent)\b/i;

/**
 * "edit /etc/hosts on pve4": a file's path that an endpoint's description says ("Write
 * /etc/hosts.") is what that endpoint acts on, a word of the request, not a value it takes.
 * Inside a guest, or a guest's backup, the same path is the guest's own file, a value again.
 */
function describedPath(index: SearchIndex, query: string, chunk: string): boolean {
  return index.describedPaths.has(valueText(chunk).replace(/:$/, "")) && !ELSEWHERE.test(query);
}

/** Words beside a name that make it a program's: "the zfs-zed service", "is rbd-mirror running". */
const PROGRAM_WORDS = new Set(["service", "services", "daemon", "unit", "package", "process", "running", "installed"]);

/**
 * Whether the name at `k` may be a storage's: not a program's ("the zfs-zed service", "is
 * rbd-mirror running"), and of two parts at most ("zfs-import-cache" is a unit's name).
 */
function mayBeStorage(chunks: readonly string[], k: number): boolean {
  const word = (at: number) => (chunks[at] ?? "").toLowerCase().replace(/[.,;:!?]+$/, "");
  if (word(k).split("-").length > 2) return false;
  return !PROGRAM_WORDS.has(word(k - 1)) && !PROGRAM_WORDS.has(word(k + 1));
}

/** Whether a word is a kind of storage numbered ("pbs1", "nfs-2", "zfs02"): a storage's name rather than a host's. */
export function numberedStorage(word: string, storageTypes: ReadonlySet<string>): boolean {
  const kind = /^([a-z]+)-?\d+[.,;:!?]*$/i.exec(word);
  return kind !== null && storageTypes.has(kind[1]!.toLowerCase());
}

/** "named" or "called" with a name after it: it makes no token ("a pool named lab"). */
export function introducesName(chunks: readonly string[], k: number): boolean {
  return /^(called|named)$/i.test(chunks[k]!) && k + 1 < chunks.length;
}

/**
 * The query's words with their weights; `namesValue` when it names an object (a number, an
 * ID, a path, a name); `named` the words next to such a name ("role" in "PVEAuditor role",
 * "group" in "a group called web"), which say what kind of object it is.
 */
export function tokenize(
  index: SearchIndex,
  query: string,
): { tokens: Token[]; namesValue: boolean; named: Set<string>; namedByName: Set<string>; namesStorage: boolean } {
  const tokens: Token[] = [];
  let newClause = true;
  let afterFrom = false;
  let aside = false;
  let ignored = false;
  const ignoredAt: number[] = [];
  // Per token, which clause it is in (they end at a comma or a stop).
  const clauseOf: number[] = [];
  let clauseNumber = 0;
  let purpose = false;
  // Where the clause being read starts, in tokens.
  let clauseAt = 0;
  let namesValue = false;
  let namesStorage = false;
  const named = new Set<string>();
  const namedByName = new Set<string>();
  const chunks = particlesSplit(queryChunks(query), (verb) =>
    index.phrases.byStems.has(`${stem(verb, index.stems)} in`),
  );
  const isWord = (c: string | undefined) => c !== undefined && /^[a-z]+[.,;:!?]*$/i.test(c) && !isValue(c, 1);
  // "the USB dongle mappings": a word before the phrase's noun is part of the phrase, no name.
  const names = chunks.map(
    (chunk, k) =>
      nameAfterCollection(index, chunks[k - 1], chunk) && !beforeNoun(index, chunks[k - 1], chunk, chunks[k + 1]),
  );
  const bases = chunks.map((chunk, k) =>
    /^(called|named)$/i.test(chunks[k - 1] ?? "") || names[k]
      ? NAME_WEIGHT
      : describedPath(index, query, chunk) || alternatives(index, chunk)
        ? 1
        : chunkWeight(chunk),
  );
  chunks.forEach((chunk, k) => {
    if (!isValue(chunk, bases[k]!)) return;
    // "a group called web": the kind is the word before "called"/"named".
    const before = /^(called|named)$/i.test(chunks[k - 1] ?? "") ? chunks[k - 2] : chunks[k - 1];
    for (const near of [before, chunks[k + 1]]) {
      if (!isWord(near)) continue;
      const kind = stem(words(near!)[0]!, index.stems);
      named.add(kind);
      // "storage nfs1" names one by its name; "snapshot 105" may be a command and its guest.
      // "realm corp" names one of /access/domains, whose items are realms.
      if (!/^\d+[.,;:!?]*$/.test(chunk)) {
        namedByName.add(kind);
        const collection = index.collectionAliases.get(kind);
        if (collection) namedByName.add(collection);
      }
    }
    // "backup job backup-7f3a2c1e", "metric server influx01": the noun before the kind's word
    // names the collection the object is of (/cluster/backup, /cluster/metrics).
    const modifier = before === chunks[k - 1] ? chunks[k - 2] : undefined;
    if (isWord(before) && isWord(modifier) && /^(?=.*[a-z])(?=.*[\d-])[a-z0-9][\w.-]*[.,;:!?]*$/i.test(chunk)) {
      const kind = words(before!)[0]!;
      const owner = stem(words(modifier!)[0]!, index.stems);
      if (!STOPWORDS.has(kind) && !PREPOSITIONS.has(kind) && index.collectionStems.has(owner)) namedByName.add(owner);
    }
  });
  chunks.forEach((chunk, k) => {
    // "a pool named lab": "named" only says that a name follows, which the object's key takes
    // whatever the API calls that key (poolid, snapname, name), so it is no word to match.
    if (introducesName(chunks, k)) return;
    // "a snapshot called test", "security group webservers": a name.
    const base = bases[k]!;
    if (isValue(chunk, base)) namesValue = true;
    const chunkWords = words(chunk);
    // "local-lvm" is a name, "cloud-init" a word of the API.
    const hyphenated = chunkWords.length > 1 && /^[a-z0-9]+(-[a-z0-9]+)+[.,;:!?]*$/i.test(chunk);
    // "CD-ROM": a compound the schema writes with a hyphen is its word.
    const known =
      hyphenated && (knownCompound(index, chunkWords) || index.hyphenated.has(chunkWords.join("-").toLowerCase()));
    // "local-zfs", "backup-nfs", "pbs-main": a name built with a kind of storage (the `type` of
    // POST /storage: zfs, lvm, nfs, pbs...) is a storage's name.
    const storageName =
      hyphenated &&
      !known &&
      chunkWords.some((w) => index.storageTypes.has(w.toLowerCase())) &&
      mayBeStorage(chunks, k);
    // "pbs1", "nfs02": a kind of storage numbered is a storage's name too, unless "node" or "host" says otherwise.
    const afterNode = /^(?:node|host)$/i.test(chunks[k - 1] ?? "");
    if (storageName || (numberedStorage(chunk, index.storageTypes) && mayBeStorage(chunks, k) && !afterNode))
      namesStorage = true;
    // "live-migrate VM 330", "force-stop container 200": a compound that opens a request and
    // ends with a verb of change is that verb, qualified ("apt-get" is a tool's name).
    const last = METHOD_HINTS[chunkWords[chunkWords.length - 1]!];
    const verbAtEnd = hyphenated && newClause && last !== undefined && last !== "GET";
    chunkWords.forEach((typed, at) => {
      const w = base < 1 || hyphenated ? typed : (misspelt(index, typed) ?? typed);
      const verb = verbAtEnd && at === chunkWords.length - 1;
      let weight = base;
      if (hyphenated && !known) weight = Math.min(weight, storageName ? NAME_WEIGHT : 0.5);
      // "... from a template", "... with privilege separation": the means, not the goal; "the
      // files inside a PBS backup": the place that holds what is asked, not the thing asked.
      if (afterFrom) weight *= 0.6;
      if (aside) weight *= ASIDE_WEIGHT;
      const content = !STOPWORDS.has(w) && !LEADING_WORDS.has(w);
      tokens.push({
        word: w,
        weight,
        clauseStart: verbAtEnd ? verb : newClause && content,
        literal: base < 1,
        ...(hyphenated && !verb ? { inName: true } : {}),
        ...(aside ? { aside: true } : {}),
        ...(purpose ? { purpose: true } : {}),
      });
      if (content && (!verbAtEnd || verb)) newClause = false;
      if (ignored) ignoredAt.push(tokens.length - 1);
      clauseOf.push(clauseNumber);
    });
    // "delete VM 999, disks included": what comes along, after the object, is said aside.
    if (INCLUDED.test(chunk) && (k === chunks.length - 1 || /[.,;:!?]$/.test(chunk)) && clauseAt > 0) {
      for (let t = clauseAt; t < tokens.length; t++) {
        if (!tokens[t]!.aside) tokens[t] = { ...tokens[t]!, weight: tokens[t]!.weight * ASIDE_WEIGHT, aside: true };
      }
    }
    if (/[:;,.!?]$/.test(chunk)) {
      newClause = true;
      clauseAt = tokens.length;
      // A purpose runs to its clause's end ("so the snapshot is consistent, and thawed afterwards").
      purpose = false;
      ignored = false;
      clauseNumber++;
    }
    // "frozen and ignores the shutdown button, kill it": what a thing ignores was tried and did
    // not work; it is said aside up to the clause's end, where the request may follow.
    if (/^(ignores?|ignored|ignoring)$/i.test(chunk)) ignored = true;
    if (/^(from|with|using|without|for|inside|within)$/i.test(chunk)) afterFrom = true;
    // "... rather than an ACPI button press", "... so I can restore one file", "don't wait for
    // the guest OS to shut down": a contrast, a purpose or a negation is said aside. So is what
    // comes along ("including its disks", "together with its volumes", "as well as its RAM").
    if (/^(rather|instead|so|because|not|don't|dont)$/i.test(chunk) || accompanies(chunks, k)) aside = true;
    // "put VM 100 under HA so it gets restarted elsewhere": "so" right after the request opens
    // what it is for; after a comma ("…, so update it") or before an order ("container 200
    // hangs so stop it") it opens what follows from the clause before.
    if (/^so$/i.test(chunk) && k > 0 && !/[.,;:!?-]$/.test(chunks[k - 1]!) && !opensOrder(chunks, k + 1))
      purpose = true;
  });
  // What was ignored steps back when another clause says what to do instead ("…, it ignores
  // shutdown": kill it); alone ("frozen and ignores the power button") it is all the query says,
  // and an action word beside it is its subject ("the backup ignores the second disk").
  const acts = (w: string) => (METHOD_HINTS[w] ?? GROUP_METHOD_HINTS.get(w) ?? "GET") !== "GET";
  const ignoredIn = new Set(ignoredAt.map((k) => clauseOf[k]));
  const instead = tokens.some((t, k) => !ignoredIn.has(clauseOf[k]) && acts(t.word));
  if (instead)
    for (const k of ignoredAt) tokens[k] = { ...tokens[k]!, weight: tokens[k]!.weight * IGNORED_WEIGHT, aside: true };
  return { tokens, namesValue, named, namedByName, namesStorage };
}

/** Pronouns that stand for an object alone: "reset it", "stop them", "kill everything". */
export const OBJECT_PRONOUNS: ReadonlySet<string> = new Set(["it", "them", "everything"]);

/**
 * The chunks with "into" split into "in" and "to" where the verb before it makes a phrase with
 * "in" (`takesIn`: "logged into VM 230" is "logged in to VM 230": a login, not a log); elsewhere "into"
 * stays ("turn VM 100 into a template"). A mark after it stays with "to" ("logged into,").
 * "onto" is left alone: the phrases with "on" (turn on, switch on) are not what "onto" says
 * ("switch onto another storage").
 */
export function particlesSplit(chunks: readonly string[], takesIn: (verb: string) => boolean): string[] {
  return chunks.flatMap((chunk, k) => {
    const m = /^(into)([.,;:!?]*)$/i.exec(chunk);
    const before = chunks[k - 1]?.toLowerCase().replace(/^[^a-z]+/, "");
    if (!m || !before || !/^[a-z]+$/.test(before) || !takesIn(before)) return [chunk];
    return ["in", `to${m[2]}`];
  });
}

/**
 * Whether `word` begins the object of a verb before it: a determiner, a pronoun, a guest's word
 * or a number ("so stop it", "migrate VM 100", "delete the backups").
 */
export function beginsObject(word: string): boolean {
  return (
    DETERMINERS.has(word) ||
    OBJECT_PRONOUNS.has(word) ||
    GUEST_WORDS.has(word) ||
    QEMU_WORDS.has(word) ||
    LXC_WORDS.has(word) ||
    /\d/.test(word)
  );
}

/**
 * Whether the chunk at `k` opens an order: a verb with its object, or alone at the clause's end
 * ("so stop it", "so prune the backups"); "so shutdown works" has a noun for its subject.
 */
function opensOrder(chunks: readonly string[], k: number): boolean {
  const verb = (chunks[k] ?? "").toLowerCase().replace(/[.,;:!?]+$/, "");
  if (!verb || (!METHOD_HINTS[verb] && !isEnglishVerb(verb))) return false;
  if (/[.,;:!?]$/.test(chunks[k]!) || k + 1 >= chunks.length) return true;
  const after = chunks[k + 1]!.toLowerCase().replace(/[.,;:!?]+$/, "");
  return beginsObject(after);
}

/** The query's whitespace-separated chunks, as tokenize reads them: "S.M.A.R.T." -> "SMART"; "VM's" -> "VM". */
export function queryChunks(query: string): string[] {
  const text = query
    .replace(/\b(?:[a-z]\.){2,}[a-z]?\b\.?/gi, (m) => m.replace(/\./g, ""))
    // "let's" is "let us" ("Let's Encrypt", "let's reboot pve1"): no causative, no possessive.
    .replace(/\blet's\b/gi, "lets")
    .replace(/'s\b/gi, "")
    // "vm100", "ct200": the kind of guest and its number, run together.
    .replace(/\b(vm|ct|lxc|qemu)(\d+)\b/gi, "$1 $2");
  return text.split(/\s+/);
}

/**
 * The API's run-together names that hold a word with a known word beside it ("trim" in fstrim,
 * fs + trim), which splitting cannot find when the word itself is in no description.
 */
export function compoundsWith(
  index: Pick<SearchIndex, "compounds" | "compoundsByEnd" | "vocabulary">,
  word: string,
): string[] {
  if (word.length < MIN_COMPOUND_END) return [];
  const known = (part: string) => (part.length >= 3 ? index.vocabulary.has(part) : SHORT_WORDS.has(part));
  // A particle is the end of the phrasal verbs it makes (shutdown, rollback), not the start of
  // a word of its own ("came back" is no backup); a particle before a word makes a word of its
  // own ("load" is no download).
  const particle = PARTICLES.has(word);
  const found = index.compoundsByEnd.get(word) ?? [];
  return found
    .map((i) => index.compounds[i]!)
    .filter((c) => {
      if (c.startsWith(word)) return !particle && known(c.slice(word.length));
      if (!c.endsWith(word)) return false;
      const rest = c.slice(0, -word.length);
      return rest.length > 0 && known(rest) && !PARTICLES.has(rest);
    });
}

type VerbToken = Pick<Token, "word" | "clauseStart" | "inName" | "context"> & { literal?: boolean };

/**
 * The method the word at `i` asks for when it is a verb of the request. A word that is as
 * often a noun counts only where a clause starts, or after "and" or "then" before its object
 * ("… and mount it"); a verb word closing a noun phrase ("the last
 * replication run") is a noun; a verb after "to" inside a clause says a purpose ("addresses
 * needed to add a node"), not the request; a word of a hyphenated name ("apt-get") or of a
 * value is no verb.
 */
export function verbAt(tokens: readonly VerbToken[], i: number): MethodName | undefined {
  const { word, clauseStart, inName, literal, context } = tokens[i]!;
  // A word of a name ("apt-get") or of a value ("a snapshot called test") is no verb of the request.
  if (inName || literal || context) return undefined;
  const hinted = METHOD_HINTS[word];
  const inherited = clauseStart ? GROUP_METHOD_HINTS.get(word) : undefined;
  const previous = tokens[i - 1]?.word;
  // "format a disk as ext4 and mount it": after "and" or "then" and before its object, a word
  // that is as often a noun is a verb, as at a clause's start; before a number it is a noun
  // with its name ("snapshot 1 and snapshot 2").
  const next = tokens[i + 1]?.word ?? "";
  const coordinated = COORDINATORS.has(previous ?? "") && beginsObject(next) && !/\d/.test(next);
  const method = hinted && (clauseStart || coordinated || !NOUN_VERBS.has(word)) ? hinted : inherited;
  if (previous && INTERROGATIVE_DETERMINERS.has(previous)) return undefined;
  // "so guest records get created", "my backups get deleted by vzdump": "get" before a participle
  // makes the passive of that verb, whose own method the request does not state: after its
  // subject, or where the participle ends its phrase. An order "get" with a participle before a
  // noun reads an adjective ("get stopped containers").
  // Only "get" among its forms is a method word; "got" and "gets" state no method anyway.
  if (word === "get" && isParticiple(tokens[i + 1]?.word ?? "")) {
    if (hasSubject(tokens, i) || isPassiveParticiple(tokens, i + 1)) return undefined;
  }
  if (word === "get" && getsDone(tokens, i)) return undefined;
  if (!method || clauseStart) return method;
  const closes = i === tokens.length - 1 || tokens[i + 1]!.clauseStart;
  if (closes && previous && !STOPWORDS.has(previous) && !METHOD_HINTS[previous]) return undefined;
  if (previous === "to") return undefined;
  return method;
}

/** Words that join a second verb to the first ("… and mount it", "… then snapshot it"). */
const COORDINATORS = new Set(["and", "then"]);

/** The prepositions the stop words hold, before a place or a thing ("on nodeA", "for the zone"). */
const PLACE_PREPOSITIONS = new Set(["on", "in", "at", "from", "to", "for", "of", "by", "with", "into", "onto"]);

/**
 * Whether the verb at `i` follows its subject in its clause: a word, not a name or a number,
 * nor a place after a preposition ("on nodeA get stopped containers" is an order).
 */
function hasSubject(tokens: readonly VerbToken[], i: number): boolean {
  const previous = tokens[i - 1]?.word;
  if (previous === undefined || tokens[i]!.clauseStart) return false;
  if (STOPWORDS.has(previous) || LEADING_WORDS.has(previous) || /\d/.test(previous)) return false;
  const before = tokens[i - 2]?.word ?? "";
  return !PREPOSITIONS.has(before) && !PLACE_PREPOSITIONS.has(before);
}

/**
 * Whether "get" at `i` has its object done, moved or made to act: a participle with its particle
 * ending its phrase ("get every guest on pve2 powered down gracefully") or with where it goes
 * ("get the stats pushed into influxdb"), a place it goes onto ("get my ISO onto storage
 * local"), or a verb after "to" when the object can act, a guest or a host ("get the guest to
 * give the blocks back", "get VM 100 to release the memory"). The request is that action, not a
 * read; "get the VMs stopped on pve1", "get the config of VM 100 into a file" and "get the join
 * information to add a node" read.
 */
function getsDone(tokens: readonly VerbToken[], i: number): boolean {
  // The particle ends the phrase: "on pve1" after "stopped" is a place.
  const ends = (t: VerbToken | undefined) => !t || t.clauseStart || /ly$/.test(t.word) || STOPWORDS.has(t.word);
  // "get" is a stop word: the clause's first content word after it is its object's, not a new clause.
  let head: string | undefined;
  for (let k = i + 1; k < tokens.length && !(head !== undefined && tokens[k]!.clauseStart); k++) {
    const { word } = tokens[k]!;
    if (head === undefined && !STOPWORDS.has(word)) head = word;
    const next = tokens[k + 1];
    if (word === "onto") return true;
    if (isParticiple(word) && PARTICLES.has(next?.word ?? "") && ends(tokens[k + 2])) return true;
    // "get proxmox stats pushed into our influxdb": moved where it goes.
    if (isParticiple(word) && (next?.word === "into" || next?.word === "onto")) return true;
    const acts =
      head !== undefined &&
      (GUEST_WORDS.has(head) || QEMU_WORDS.has(head) || LXC_WORDS.has(head) || NODE_WORDS.has(head) || /\d/.test(head));
    // "to" right after the object, or after it and its number: "get VM 100 to release the memory",
    // not "get the VM config to compare it".
    const afterHead =
      tokens[k - 1]?.word === head || (/\d/.test(tokens[k - 1]?.word ?? "") && tokens[k - 2]?.word === head);
    if (word === "to" && acts && afterHead && isEnglishVerb(next?.word ?? "")) return true;
  }
  return false;
}

/** A regular past participle: "created", "stopped"; "speed" and "need" are none. */
export const isParticiple = (word: string) => /[a-z]ed$/.test(word) && !/eed$/.test(word);

/**
 * Whether the word at `k` is a participle that ends what it says: the query's end, an adverb,
 * or a preposition opening a phrase of its own ("created automatically", "deleted by the job").
 * Before a noun it is an adjective ("stopped containers", "logged in users"), as it is before
 * "and" or "or" ("enabled and disabled repositories").
 */
function isPassiveParticiple(tokens: readonly VerbToken[], k: number): boolean {
  const after = tokens[k + 1];
  if (!after || after.clauseStart || /ly$/.test(after.word)) return true;
  if (after.word === "and" || after.word === "or") return false;
  if (PREPOSITIONS.has(after.word) || PARTICLES.has(after.word) || STOPWORDS.has(after.word)) {
    const then = tokens[k + 2];
    return !then || then.clauseStart || STOPWORDS.has(then.word) || DETERMINERS.has(then.word);
  }
  return false;
}

/** "what backups", "which VMs": after these a word is the noun asked about, no verb. */
const INTERROGATIVE_DETERMINERS = new Set(["what", "which", "whose"]);

/** The method the request's verb asks for, if it says one. */
export function statedMethod(tokens: readonly VerbToken[]): MethodName | undefined {
  return statedMethodAt(tokens)?.method;
}

/** Verbs of handing over: with "me" after them the speaker receives something ("give me the next free VMID"). */
const HANDING_VERBS = new Set(["give", "get", "find", "fetch", "bring", "hand", "tell"]);

/** The request's verb: the method it asks for and where it is. */
export function statedMethodAt(tokens: readonly VerbToken[]): { method: MethodName; at: number } | undefined {
  for (let i = 0; i < tokens.length; i++) {
    const phrasal = PHRASAL_VERBS[`${tokens[i]!.word} ${tokens[i + 1]?.word}`];
    if (phrasal) return { method: phrasal, at: i };
    if (HANDING_VERBS.has(tokens[i]!.word) && tokens[i + 1]?.word === "me" && !tokens[i]!.context)
      return { method: "GET", at: i };
    // "I want to know whether …", "determine if …": what follows is asked, not done.
    if (KNOWING_VERBS.has(tokens[i]!.word) && ASKED.has(tokens[i + 1]?.word ?? "") && !tokens[i]!.context)
      return { method: "GET", at: i };
    const method = verbAt(tokens, i);
    if (method) return { method, at: i };
  }
  return undefined;
}

/**
 * The words of the noun phrase after the verb at `at`, up to a preposition, a name or the
 * clause's end ("root password" in "reset the root password inside VM 155", "physical host" in
 * "reboot the physical host pve2"). Empty when a pronoun, a name or nothing follows.
 */
export function objectWords(tokens: readonly VerbToken[], at: number): string[] {
  const phrase: string[] = [];
  for (let k = at + 1; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (k > at + 1 && t.clauseStart) break;
    // A name or a number ends the phrase ("VM 155"); a pronoun first is an object whose noun
    // is said elsewhere ("kill it"), a pronoun later ends the phrase ("the services it runs").
    if (t.literal || /\d/.test(t.word)) break;
    if (PRONOUNS.has(t.word)) {
      if (phrase.length === 0) return [];
      break;
    }
    // Before the noun, particles, prepositions and stop words are passed over ("shut down all the
    // guests", "reboot into the BIOS"); after it, they end it ("turn the VM back on").
    if (PARTICLES.has(t.word) || STOPWORDS.has(t.word) || PREPOSITIONS.has(t.word)) {
      if (phrase.length === 0) continue;
      break;
    }
    phrase.push(t.word);
  }
  return phrase;
}

const PRONOUNS = new Set(["it", "them"]);

/** Verbs of knowing: with "whether" or "if" after them they open an indirect question. */
export const KNOWING_VERBS: ReadonlySet<string> = new Set([
  "know",
  "check",
  "see",
  "tell",
  "ask",
  "determine",
  "confirm",
  "verify",
  "find",
  "learn",
  "wonder",
]);
const ASKED = new Set(["whether", "if"]);

/** Which kind of guest the query is about, if any. */
export function guestFacet(words: readonly string[]): GuestFacet {
  const qemu = words.some((w) => QEMU_WORDS.has(w));
  const lxc = words.some((w) => LXC_WORDS.has(w));
  if (words.some((w) => GUEST_WORDS.has(w)) || (qemu && lxc)) return "any";
  return qemu ? "qemu" : lxc ? "lxc" : "none";
}

/**
 * Whether the request opens with a verb: its first word, not one the vocabulary reads as a
 * method or a question, is followed (after a particle) by what a verb takes as its object: a
 * determiner, a number, or a guest or node with its number ("pin VM 105", "tear down container
 * 333"). A noun phrase ("cluster log of recent events") has no such object after its first word.
 */
export function opensWithVerb(tokens: readonly Token[]): boolean {
  const first = tokens.findIndex((t) => t.clauseStart);
  if (first < 0) return false;
  const t = tokens[first]!;
  if (t.literal || t.inName || METHOD_HINTS[t.word] || QUESTION_WORDS.has(t.word) || /\d/.test(t.word)) return false;
  // "VM 100 config", "node pve1 status": a guest or a node named first is what the words are about.
  if (QEMU_WORDS.has(t.word) || LXC_WORDS.has(t.word) || NODE_WORDS.has(t.word) || GUEST_WORDS.has(t.word))
    return false;
  let k = first + 1;
  if (PARTICLES.has(tokens[k]?.word ?? "")) k++;
  const next = tokens[k];
  if (!next) return false;
  if (DETERMINERS.has(next.word) || NUMBER_WORDS.has(next.word) || /^\d+$/.test(next.word)) return true;
  const guestOrNode = QEMU_WORDS.has(next.word) || LXC_WORDS.has(next.word) || NODE_WORDS.has(next.word);
  return guestOrNode && /^\d+$/.test(tokens[k + 1]?.word ?? "");
}

/** Whether the index or the synonym groups know a word, as typed or by its stem. */
export function knowsWord(index: SearchIndex, word: string): boolean {
  const s = stem(word, index.stems);
  return index.postings.has(s) || index.groupsOfWord.has(word) || index.groupsOfStem.has(s);
}

/** The word a typed word misspells, when it is no word the index, the synonyms or English verbs know. */
function misspelt(index: SearchIndex, word: string): string | undefined {
  if (STOPWORDS.has(word) || /\d/.test(word) || isEnglishVerb(word) || knowsWord(index, word)) return undefined;
  if (splitCompound(word, index.vocabulary)) return undefined;
  return respelled(word, index.vocabulary);
}

let englishVerbs: ReadonlySet<string> | undefined;

/**
 * Whether the request's first word is an English verb in common use (WordNet) that the
 * vocabulary does not read as a method or a question: "cap VM 122 at half a CPU", "throttle
 * replication job 305-0", "use noVNC as the default console". A noun ("raw usage numbers",
 * "USB devices") or a determiner ("all replication jobs") opens no such request.
 */
export function opensWithEnglishVerb(tokens: readonly Token[]): boolean {
  const at = tokens.findIndex((token) => token.clauseStart);
  const t = tokens[at];
  if (!t || t.literal || t.inName || METHOD_HINTS[t.word] || QUESTION_WORDS.has(t.word)) return false;
  // "every rule of the host firewall", "log of the last replication run", "rule number 2": a noun, not an order.
  if (tokens.slice(0, at).some((b) => DETERMINERS.has(b.word) || ALL_WORDS.has(b.word))) return false;
  if (tokens[at + 1]?.word === "of" || tokens[at + 1]?.word === "number") return false;
  // "poll whether task … has finished", "find out if pve2 is up": what it does is ask.
  if (tokens[at + 1]?.word === "whether" || tokens[at + 1]?.word === "if") return false;
  return isEnglishVerb(t.word);
}

/** Whether a word is an English verb in common use (WordNet's base forms). */
export function isEnglishVerb(word: string): boolean {
  englishVerbs ??= new Set(ENGLISH_VERBS.split(" "));
  return englishVerbs.has(word);
}

/**
 * "come back up", "bring it back": a particle right after a verb is that verb's, so it opens
 * no phrase of its own ("back up" is no backup there).
 */
export function particleOfVerb(raw: readonly string[], i: number): boolean {
  const before = raw[i - 1];
  if (!PARTICLES.has(raw[i]!) || before === undefined || STOPWORDS.has(before)) return false;
  // "comes back up", "brings it back": a verb with its subject's -s too. A participle may be an
  // adjective ("the scheduled back up failed"), so only the -s form.
  return isEnglishVerb(before) || presentForms(before).some(isEnglishVerb);
}

/** The base forms a verb's third person may have: "comes" come, "goes" go, "fixes" fix. */
export function presentForms(word: string): string[] {
  if (!/[^s]s$/.test(word)) return [];
  return /es$/.test(word) ? [word.slice(0, -1), word.slice(0, -2)] : [word.slice(0, -1)];
}
