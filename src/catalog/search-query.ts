// Query analysis: the words of a query as weighted concepts (phrases, joined and split words,
// synonyms), the method its verbs ask for, which guest and which scope it is about. The steps
// live beside it: the clauses marked on the tokens (search-clauses.ts), the phrases
// (search-phrases.ts), the single words (search-words.ts), the scope (search-scope.ts); the
// concepts they add are search-concepts.ts.
import { stem, type StemMemo } from "./stem.ts";
import { PARTICLES, STOPWORDS } from "./text.ts";
import { LXC_WORDS, METHOD_HINTS, QEMU_WORDS } from "./synonyms.ts";
import type { SearchIndex } from "./search-index.ts";
import { sameAction, type Check } from "./search-index-facts.ts";
import type { QueryFacts } from "./search-score.ts";
import { phraseAt, splitCompound } from "./search-terms.ts";
import { hostsByName, scopeOf } from "./search-scope.ts";
import { EQUIVALENT_WEIGHT, QueryConcepts, type Concept } from "./search-concepts.ts";
import { phraseConcepts } from "./search-phrases.ts";
import { VERB_WEIGHT, wordConcepts } from "./search-words.ts";
import {
  createdOf,
  definiteOf,
  guestsGoTo,
  existingPlaceAt,
  addsProperty,
  listsAskedOf,
  ownersOf,
  placeMentions,
  holdersOf,
  possessors,
  staying,
} from "./search-objects.ts";
import {
  namesGuests,
  namesPort,
  namesServerPort,
  namesRecurrence,
  namesOneBackup,
  namesStorageByName,
  namesSize,
  namesTargetNode,
  PATH_KINDS,
  speaksOfAccess,
  valueKinds,
  type ValueKind,
} from "./search-values.ts";
import {
  asksCause,
  asksDoer,
  pastTenseBases,
  markInability,
  markAspect,
  markGuestsMoving,
  markMotion,
  markSaying,
  negatedActions,
  type NegatedAction,
  leavesChangeToApply,
  saysOngoing,
  undoingActions,
  markFraming,
  markSubordinate,
  markContext,
  markLightVerb,
  markPrevented,
  markSetUpState,
  LIGHT_VERBS,
} from "./search-clauses.ts";
import {
  asksPermission,
  asksVmAddresses,
  seenFromInside,
  markBackFromBackup,
  markLoginNoun,
  markLoginSource,
  markLoginThrough,
  namesAffinity,
} from "./search-intents.ts";
import {
  ASIDE_WEIGHT,
  GUEST_WORDS,
  guestFacet,
  MACHINE_WORDS,
  NODE_WORDS,
  objectWords,
  opensWithEnglishVerb,
  opensWithVerb,
  QUESTION_WORDS,
  opensQuestion,
  isParticiple,
  statedMethodAt,
  tokenize,
  verbAt,
  type GuestFacet,
} from "./search-tokens.ts";

/** How much one backup said in words counts as a volume named. */
const ONE_BACKUP_WEIGHT = 0.7;

/** A time of day said with its half of the day ("2am"); "22:00" is a calendar value already. */
const CLOCK_HOUR = /^\d{1,2}(?:am|pm)$/i;

/** The kind of object a kind of value names, where the API has a word for it. */
const VALUE_NOUNS: Partial<Record<ValueKind, string>> = {
  user: "user",
  role: "role",
  token: "token",
  task: "task",
  volume: "volume",
  replication: "replication",
};
/**
 * "add an entry to the hosts file of pve1": a file called by its name, when an endpoint's
 * description says its path ("Write /etc/hosts."), is that path, as if it were typed.
 */
export function namingFiles(query: string, paths: ReadonlySet<string>): string {
  if (!/\bfile\b/i.test(query)) return query;
  let out = query;
  for (const path of paths) {
    const name = path.split("/").pop()!;
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    out = out.replace(new RegExp(`(?<![/\\w.-])${escaped}(?= file\\b)`, "gi"), path);
  }
  return out;
}

/**
 * Whether some endpoint is named by `word` (its last segment or handler, "unlock" of unlock-tfa)
 * and takes, in its path, an object the query names: a word ("user") or a typed value's kind
 * (carol@pve, a user) for a placeholder named by it (`userid`).
 */
function undoes(
  index: SearchIndex,
  word: string,
  rawStems: readonly string[],
  concepts: readonly { names?: string }[],
): boolean {
  const action = stem(word, index.stems);
  const named = new Set([...rawStems, ...concepts.flatMap((c) => (c.names ? [c.names] : []))]);
  return index.endpoints.some(
    (_, id) =>
      index.identity[id]!.some((unit) => unit.includes(action)) &&
      index.placeholders[id]!.some((p) => p !== "node" && named.has(stem(p.replace(/id$/, ""), index.stems))),
  );
}

/** After "which", a relative clause's verb ("…, which is fine"). */
const RELATIVE_BE = new Set(["is", "was", "are", "were"]);
/** Verbs that change a configuration: said done ("changed", "created"), they leave something to apply. */
const CHANGE_LEADS = new Set(["create", "update"]);
const CAUSATIVES = new Set(["make", "let", "have"]);
/** Words that ask for a picture rather than data ("image" is also a disk image). */
const PICTURE_WORDS = new Set(["graph", "graphs", "chart", "charts", "png", "plot", "picture", "diagram"]);
/** Words before "run" that make it an action someone takes ("how do I run", "can we run", "to run"). */
const DOERS = new Set([
  "i",
  "we",
  "you",
  "they",
  "to",
  "do",
  "does",
  "can",
  "could",
  "should",
  "would",
  "will",
  "and",
  "or",
]);

/** The query's concepts, and the facts about it that the score factors read (search-score.ts). */
export interface QueryAnalysis extends QueryFacts {
  concepts: Concept[];
  /** Stems of the collections whose named item owns what is set ("snapshot" in "the notes of snapshot pre-upgrade"). */
  owners?: ReadonlySet<string>;
  /**
   * Stems of the parts of the run-together names typed ("PowerDNS": power, dns): what they name
   * (a DNS plugin), though the parts are no words of the request. Only the endpoints' identity
   * counts them.
   */
  compoundParts: string[];
  /** The query asks to set or create something (a stated write whose verbs only say so). */
  setting: boolean;
  /**
   * Stems of the words typed outright: weighing more than an aside's, so not a name's part ("the
   * 'ops-gotify' target"), a quoted value or a frame's word, nor a word of a command's description.
   */
  outright: ReadonlySet<string>;
  /**
   * Stems of the words typed as the query's tokens hold them (names and asides included, a word
   * respelled or split as tokenize made it), not of a command's description: each may name an
   * item (itemSpokenOf).
   */
  typedStems: ReadonlySet<string>;
  /** By the stem of a word right before a top-level list's noun, that noun's stem ("the ceph storage": ceph -> storag). */
  listModifiers: ReadonlyMap<string, string>;
}

/** Nouns of what is named by a number or a host name, not by a word after them. */
const UNNAMED_BY_WORDS: ReadonlySet<string> = new Set([...NODE_WORDS, ...QEMU_WORDS, ...LXC_WORDS, ...GUEST_WORDS]);

/**
 * The stems of the words typed outright (QueryAnalysis.outright): weighing more than an aside's,
 * no name after the noun of a list it ends the phrase of ("delete storage ceph", "--storage
 * ceph"; nameAfterCollection in search-tokens.ts lowers only the words the API does not know),
 * and no agent of a participle ("used by apt"), whatever the word says elsewhere. A plural there
 * is the phrase's head ("failed backup notifications"), and after a host's or a guest's noun a
 * word is no name ("the node firewall"): those are named by their numbers and host names.
 */
export function outrightWords(
  tokens: readonly { word: string; weight: number; clauseStart?: boolean }[],
  index: Pick<SearchIndex, "collectionStems" | "stems">,
): Set<string> {
  const outright = new Set<string>();
  tokens.forEach((t, i) => {
    if (t.weight <= ASIDE_WEIGHT) return;
    const before = tokens[i - 1]?.word ?? "";
    const after = tokens[i + 1];
    const endsPhrase = !after || !!after.clauseStart || STOPWORDS.has(after.word);
    const plural = t.word.endsWith("s") && stem(t.word, index.stems) !== t.word;
    const afterList = !UNNAMED_BY_WORDS.has(before) && index.collectionStems.has(stem(before, index.stems));
    if (endsPhrase && afterList && !plural) return;
    // "the http proxy used by apt", "disks managed by ceph": the agent of a participle qualifies a noun.
    if (before === "by" && isParticiple(tokens[i - 2]?.word ?? "")) return;
    outright.add(stem(t.word, index.stems));
  });
  return outright;
}

/**
 * The words typed right before the noun of a list of the API's top level, by stem, with that
 * noun's stem (QueryAnalysis.listModifiers): "ceph" -> "storag" of "the ceph storage". Not a
 * host's or a guest's noun: "a ceph node" is a node of the Ceph cluster.
 */
export function listModifiers(
  tokens: readonly { word: string; clauseStart?: boolean }[],
  index: Pick<SearchIndex, "rootLists" | "stems">,
): Map<string, string> {
  const modifiers = new Map<string, string>();
  tokens.forEach((t, i) => {
    const next = tokens[i + 1];
    if (!next || next.clauseStart || UNNAMED_BY_WORDS.has(next.word)) return;
    const noun = stem(next.word, index.stems);
    if (index.rootLists.has(noun)) modifiers.set(stem(t.word, index.stems), noun);
  });
  return modifiers;
}

/** Modal verbs that open a question of whether something is possible. */
const MODALS = new Set(["can", "could"]);
/** Who is asked to act after a modal ("can you …", "could someone tell me how …"). */
const ADDRESSEES = new Set(["you", "u", "someone", "somebody", "anyone", "anybody"]);

/** Words that ask whether an action is possible or safe, not for the action ("… safely", "given its storage"). */
const POSSIBILITY_CUES = new Set(["safe", "safely", "possible", "allowed", "given"]);

/**
 * Whether the query opens asking whether something can be done, in the passive ("can VM 101 be
 * migrated"), with a word of possibility ("can I stop OSD 3 safely", "can I snapshot VM 119
 * given its storage") or with what the action must not bring about ("can I stop OSD 7 without
 * making placement groups unavailable"). "can I add a disk to VM 100" asks for the action,
 * politely; so does one that asks someone ("can you …"), and "can't start VM 100" tells a failure.
 */
export function asksPossibility(tokens: readonly { word: string }[]): boolean {
  const second = tokens[1]?.word;
  if (!MODALS.has(tokens[0]?.word ?? "") || second === undefined) return false;
  if (ADDRESSEES.has(second) || second === "t" || second === "not") return false;
  // "… without making placement groups unavailable": what the action must not bring about.
  const harmless = tokens.some((t, k) => t.word === "without" && /[a-z]ing$/.test(tokens[k + 1]?.word ?? ""));
  return passiveParticiples(tokens).length > 0 || harmless || tokens.some((t) => POSSIBILITY_CUES.has(t.word));
}

/** The participles of the passive: right after "be", or one word after it ("be migrated", "be live-migrated"). */
function passiveParticiples(tokens: readonly { word: string }[]): string[] {
  return tokens.flatMap((t, k) =>
    t.word === "be" ? tokens.slice(k + 1, k + 3).flatMap((p) => (isParticiple(p.word) ? [p.word] : [])) : [],
  );
}

/**
 * Whether the action asked about is one the API checks, for an object it checks it for: the
 * request's verb, or the participle after "be" ("can VM 300 be snapshotted"), is one of a
 * check's actions, and its objects, if it has any, are named ("stop" of an OSD, not of VM 100).
 */
function checksAction(
  checks: readonly Check[],
  concepts: readonly Concept[],
  tokens: readonly { word: string }[],
  stems: StemMemo,
): boolean {
  // In the passive the participles are the actions ("be started from the clone" starts; "be
  // stopped and then be migrated" migrates too); else the verbs, and after a light verb its noun
  // ("can I safely take a snapshot").
  const participles = passiveParticiples(tokens);
  const verbs = concepts.flatMap((c, k) => {
    if (!c.verb) return [];
    const light = [...c.primaries].some((t) => LIGHT_VERBS.has(t));
    return [...c.primaries, ...(light ? (concepts[k + 1]?.primaries ?? []) : [])];
  });
  const asked = new Set(participles.length > 0 ? participles.map((w) => stem(w, stems)) : verbs);
  const named = new Set(
    concepts.flatMap((c) => [...c.terms].filter(([, w]) => w >= EQUIVALENT_WEIGHT).map(([t]) => t)),
  );
  return checks.some(
    (check) =>
      [...check.actions].some((a) => asked.has(a)) &&
      (check.objects.size === 0 || [...check.objects].some((o) => named.has(o))),
  );
}

/** Whether the query asks about what is: it opens with a question word or "check", or asks whether. */
function asksAbout(tokens: readonly { word: string }[]): boolean {
  return (
    QUESTION_WORDS.has(tokens[0]?.word ?? "") || tokens[0]?.word === "check" || tokens.some((t) => t.word === "whether")
  );
}

/** How much a storage's name counts for the word "storage" ("local-zfs"): less than the word said. */
const STORAGE_NAME_WEIGHT = 0.6;
/** How much the realm counts that logging in through something names ("log in with their Keycloak accounts"). */
const REALM_WEIGHT = 0.6;
/** How much guests kept together or apart count for the word "affinity" (namesAffinity). */
const AFFINITY_WEIGHT = 1;
/** How much a host's name counts as the word "node". */
const HOST_NAME_WEIGHT = 0.6;

/** How much a flag named by the action it turns off counts: it names the setting whole, the occasion around it does not. */
const NEGATED_FLAG_WEIGHT = 2;

/**
 * The flag that turns off an action not wanted, if the API has one: by the action's stem
 * ("rebalancing": norebalance), or by the particle after its object when the flag's description
 * says the action too ("marking OSDs out": noout, "OSDs will not … be marked out").
 */
function negatedFlagOf(index: SearchIndex, { action, particle }: NegatedAction): string | undefined {
  const verb = stem(action, index.stems);
  for (const [key, { flag }] of index.negatedFlags) if (sameAction(verb, key)) return flag;
  if (particle === undefined) return undefined;
  const flag = index.negatedFlags.get(stem(particle, index.stems));
  return flag && [...flag.described].some((d) => sameAction(verb, d) || sameAction(d, verb)) ? flag.flag : undefined;
}

/**
 * Which of the kinds of path typed count as values, by the guest the query is about. "read
 * /etc/fstab inside VM 131", "share /srv/media with the VMs": a path in a query about a guest
 * (said outside an aside) is a file of the guest's, one shared with it or one its backup holds
 * or leaves out. With no guest, the path's own words say which of Proxmox's files it is ("cat
 * /etc/network/interfaces"), no kind of value. A disk image is imported into a VM's disk
 * (import-from); containers import none.
 */
export function pathValues(typed: ReadonlySet<ValueKind>, guest: GuestFacet): ValueKind[] {
  if (guest === "none") return [];
  return [...typed].filter((kind) => kind === "file" || guest === "qemu" || guest === "any");
}

/** Articles that introduce an object not yet known: a new one. */
const INDEFINITE = new Set(["a", "an", "another"]);

/**
 * Whether the verb at `at` (with its particle) takes an indefinite object that names a kind of
 * object the API keeps a list of ("an InfluxDB metric server", "a firewall rule for VM 100"),
 * not a setting ("a bandwidth limit for migrations", "a schedule for backup job x") nor one
 * that exists ("an existing job"). The object is its noun phrase (objectWords), which ends at
 * a preposition, a name or the clause's end.
 */
export function introducesNewObject(
  tokens: Parameters<typeof objectWords>[0],
  at: number,
  isCollection: (word: string) => boolean,
): boolean {
  const k = PARTICLES.has(tokens[at + 1]?.word ?? "") ? at + 2 : at + 1;
  if (!INDEFINITE.has(tokens[k]?.word ?? "")) return false;
  const phrase = objectWords(tokens, at);
  return !phrase.includes("existing") && phrase.some(isCollection);
}

/** How much the words of a CLI-only command's description count, against the words typed. */
const DESCRIPTION_WEIGHT = 0.6;

/**
 * The query's concepts and facets: phrases first, then joined and split words, then single
 * words. `described` is a text that says what was asked in other
 * words (a CLI-only command's own description): its words join the query's at a lower weight.
 */
export function analyzeQuery(index: SearchIndex, query: string, described?: string): QueryAnalysis {
  query = namingFiles(query, index.describedPaths);
  const typed = tokenize(index, query);
  markSetUpState(typed.tokens);
  markContext(typed.tokens, query);
  markPrevented(typed.tokens);
  markInability(typed.tokens);
  markLoginNoun(typed.tokens);
  const loginThrough = markLoginThrough(typed.tokens);
  const loginSource = markLoginSource(typed.tokens);
  const restores = markBackFromBackup(typed.tokens);
  markAspect(typed.tokens);
  markGuestsMoving(typed.tokens);
  markMotion(typed.tokens);
  markSaying(typed.tokens);
  markSubordinate(typed.tokens);
  markLightVerb(typed.tokens);
  markFraming(typed.tokens);
  const { namesValue, named, namedByName, namesStorage } = typed;
  const tokens = described
    ? [
        ...typed.tokens,
        ...tokenize(index, described).tokens.map((t) => ({ ...t, weight: t.weight * DESCRIPTION_WEIGHT })),
      ]
    : typed.tokens;
  // "is container 110 up?", "how long has the host been up": in a question, "up" says it runs;
  // so does "run" after what runs ("which containers run on this node"), unlike "how do I run".
  const opensWithQuestion = opensQuestion(
    tokens.map((t) => t.word),
    query,
  );
  const says = (t: (typeof tokens)[number], k: number) =>
    opensWithQuestion &&
    !t.literal &&
    !t.inName &&
    (t.word === "up" || ((t.word === "run" || t.word === "runs") && !DOERS.has(tokens[k - 1]?.word ?? "")));
  // "needs a login": the account, which the API calls a user.
  const raw = tokens.map((t, k) => (says(t, k) ? "running" : t.account ? "user" : t.word));

  const found = new QueryConcepts(index);
  const concepts = found.list;

  const pathKinds = new Set<ValueKind>();
  const access = speaksOfAccess(query);
  let previous: { chunk: string; kinds: ValueKind[] } = { chunk: "", kinds: [] };
  for (const chunk of query.split(/\s+/)) {
    const kinds = valueKinds(chunk, access);
    // "at 22:00 UTC": the zone a time of day is told in, no zone to set; nor is the zone a
    // question asks the time in ("what time is it on pve1 in UTC").
    const toldIn = previous.kinds.includes("calendar") || CLOCK_HOUR.test(previous.chunk) || opensWithQuestion;
    previous = { chunk, kinds };
    for (const kind of kinds) {
      if (kind === "timezone" && toldIn) continue;
      if (PATH_KINDS.has(kind)) {
        pathKinds.add(kind);
        continue;
      }
      const concept = found.value(kind);
      // "carol@pve" names a user: the users' endpoints are asked for, as if the word were said.
      const noun = VALUE_NOUNS[kind];
      if (noun) concept.names = stem(noun, index.stems);
    }
  }
  // "evacuate all guests from node pve3 to pve1": a node something goes to is a migration's target.
  if (namesTargetNode(query)) found.value("target");
  // "replicate VM 101 every 15 minutes", "a nightly backup": a schedule in words is a calendar event.
  if (namesRecurrence(query)) found.value("calendar");
  // "protect last Sunday's backup of VM 330": one backup made is a storage's volume, less surely
  // than a volume ID typed.
  if (namesOneBackup(query)) found.value("volume").weight = ONE_BACKUP_WEIGHT;
  // "grow scsi0 by 20G": an amount of space is what a size parameter takes.
  if (namesSize(query, index.measured)) found.value("size");
  // "replication of VM 130 keeps failing and I have no idea why": the log, as if it were said.
  const causeAsked = asksCause(query);
  if (causeAsked) found.word("log", 1);
  // "somebody deleted a VM last night, who did it?": the task list, as if it were said.
  const doerAsked = asksDoer(query);
  if (doerAsked) found.word("task", 1);
  // "a backup has been hanging for hours, kill it": what has been running for a while is a task.
  if (saysOngoing(query)) found.word("task", 1);
  // "I changed the SDN vnets but the nodes still don't have the new bridges": a change said done
  // whose effect is denied asks to apply it, as if "apply" were said.
  const changes = (verb: string) => found.groupsOf(verb).some((g) => CHANGE_LEADS.has(index.leads[g]!));
  if (leavesChangeToApply(query, changes)) found.word("apply", 1);
  // "block port 8006", "allow tcp 443": a port is what a firewall rule's ports take.
  if (namesPort(query)) found.value("port");
  // "mail.corp.lan port 587": a server and its port, which a server's settings take.
  if (namesServerPort(query)) found.value("server");
  // "never run VMs 101 and 102 on the same node": several guests are a list of guests.
  if (namesGuests(query)) found.value("guests");
  const stated = statedMethodAt(tokens);
  let method = stated?.method;
  let methodStated = method !== undefined;
  // "configure an InfluxDB metric server": configuring an object not yet known brings a new one
  // into being, which the API creates (POST). "change a setting", "disable a storage" and
  // "rename a snapshot" act on one that exists.
  const isCollection = (word: string) => index.collectionStems.has(stem(word, index.stems));
  if (
    method === "PUT" &&
    stated &&
    tokens[stated.at]!.word === "configure" &&
    introducesNewObject(tokens, stated.at, isCollection)
  )
    method = "POST";
  // Words of values ("/vms", "/etc/hosts") name no guest or node.
  const spoken = raw.filter((_, i) => !tokens[i]!.literal);
  // "reboot the physical server itself, not a guest": what is said aside names no guest.
  const guestWords = raw.filter((_, i) => !tokens[i]!.literal && !tokens[i]!.aside);
  const guest = guestFacet(guestWords);
  for (const kind of pathValues(pathKinds, guest)) found.value(kind);
  const bothKinds = guestWords.some((w) => QEMU_WORDS.has(w)) && guestWords.some((w) => LXC_WORDS.has(w));

  const rawStems = raw.map((w) => stem(w, index.stems));
  // "reset the root password inside VM 155": what the verb acts on is no guest. A phrase the
  // verb opens ("pull the plug") is the verb.
  const verbLength = stated ? (phraseAt(rawStems, stated.at, index.phrases)?.[1] ?? 1) : 0;
  const object = stated ? objectWords(tokens, stated.at + verbLength - 1) : [];
  // "the server 101" may be a guest; "the physical server", "the host machine" are not.
  const guestLike =
    object.some((w) => QEMU_WORDS.has(w) || LXC_WORDS.has(w) || GUEST_WORDS.has(w)) ||
    (object.some((w) => MACHINE_WORDS.has(w)) && !object.some((w) => NODE_WORDS.has(w)));
  const verbOnOther = object.length > 0 && !guestLike;
  const consumed = phraseConcepts(index, found, tokens, raw, rawStems);
  // "make VM 118 start automatically", "let container 130 run docker": after a causative verb
  // the next verb says the state wanted, not what the request does. So it does after a modal
  // of what should be ("container 171 should start third"), which asks for a setting too: of
  // the words typed, not of a command's description after them, and not where a clause after
  // it opens with an order ("VMs need to share one network; create a VXLAN zone").
  const causativeAt = typed.tokens.findIndex((t) => t.clauseStart && !t.context && CAUSATIVES.has(t.word));
  // The words typed, without a command's description after them.
  const said = raw.slice(0, typed.tokens.length);
  const wanted = wantedOf(said, query);
  const ordered = typed.tokens.some(
    (t, k) => k > wanted && t.clauseStart && !t.context && verbAt(typed.tokens, k) !== undefined,
  );
  const modalAt = ordered ? -1 : wanted;
  const causedAt = causativeAt >= 0 ? causativeAt : modalAt;
  const caused = (i: number) => causedAt >= 0 && i > causedAt;
  const { asksForOne, causedVerb, prevented, subordinates, mainTerms } = wordConcepts(
    index,
    found,
    tokens,
    raw,
    consumed,
    caused,
  );
  // "free space on local-zfs": a storage's name names a storage, as if the word were said, unless it is.
  const storageStem = stem("storage", index.stems);
  if (namesStorage && !concepts.some((c) => c.terms.get(storageStem) === 1)) found.word("storage", STORAGE_NAME_WEIGHT);
  // "log in with their company's single sign-on": what one logs in with is a realm.
  if (loginThrough || loginSource) found.word("realm", REALM_WEIGHT);
  // "what is bob@pve allowed to do": the account's permissions, as if they were said.
  if (asksPermission(query)) found.word("permission", 1);
  // "bring back container 310 from its backup archive": a restore, as if it were said.
  if (restores) found.word("restore", 1);
  // "never on the same host", "on different nodes": guests kept together or apart is what the HA
  // rules' `affinity` says ("kept on the same node ('positive'), or ... on separate nodes").
  if (namesAffinity(query)) found.word("affinity", AFFINITY_WEIGHT);
  // "throw away the snapshot", "turn the VM back on": a verb phrase opening the request says the method.
  const opening = concepts.find((c) => c.verb && c.at !== undefined && tokens[c.at]!.clauseStart);
  const lead = opening?.leads?.find((l) => METHOD_HINTS[l]);
  let requestVerbAt = stated?.at;
  if (lead && (!stated || stated.at > opening!.at!)) {
    method = METHOD_HINTS[lead];
    methodStated = true;
    requestVerbAt = opening!.at;
  }
  // "reserve a static IP", "nuke VM 999", "allow SSH into VM 100": a request that opens with a
  // verb the vocabulary does not know still asks for an action, not a read.
  const acts = !method && (opensWithVerb(typed.tokens) || opensWithEnglishVerb(typed.tokens));
  if (acts) {
    // A verb of no known method is not what the endpoint is named by ("keep" of keep-last).
    const first = typed.tokens.find((t) => t.clauseStart)!;
    const verb = found.ofWord(stem(first.word, index.stems));
    if (verb) verb.weight *= VERB_WEIGHT;
  }
  if (!method && !acts && concepts.length > 0) method = "GET";
  // "the node rebooted by itself overnight, what happened before that": a question of cause is
  // answered by reading; the event it tells in the past is no request ("…, why? delete the job" is).
  const told = requestVerbAt === undefined || /ed$/.test(tokens[requestVerbAt]!.word);
  // Who did it is asked by reading, whatever tense the deed is told in ("did somebody change …").
  if ((causeAsked && told) || doerAsked) {
    method = "GET";
    methodStated = true;
  }
  // "can VM 160 be live-migrated to pve3?", "can I take a snapshot of VM 119 given its storage?":
  // a question whether an action is possible is answered by reading, when the API can check that
  // action (migrations, snapshots and clones, stopping a Ceph service); "can pve2 be removed from
  // the cluster" asks for the removal.
  const possibilityAsked = asksPossibility(tokens) && checksAction(index.checks, concepts, tokens, index.stems);
  if (possibilityAsked) {
    method = "GET";
    methodStated = true;
    // What it asks for is the API's check of it ("Check if feature … is available").
    found.word("check", 1);
  }
  // "addresses of each NIC as seen from inside VM 130": what is seen from inside a VM reaches the
  // API through its guest agent, as if the agent were said; so do the addresses a VM got ("what IP
  // did VM 120 get from DHCP"). What is done inside it ("hit ctrl+alt+del inside VM 310") is done
  // from outside.
  // A read: a question or a read stated, or words with no verb of their own; not what should be ("VM
  // 100 needs a static IP").
  const reads =
    modalAt < 0 &&
    (opensWithQuestion || method === "GET" || (method === undefined && !opensWithEnglishVerb(typed.tokens)));
  if ((seenFromInside(query) || asksVmAddresses(query)) && reads) found.word("agent", 1);
  // Back from a backup is a restore, which creates the guest again (POST, "Create or restore");
  // a question about it ("how long did VM 100 take to come back from the backup") asks.
  if (restores && !opensWithQuestion && !(causeAsked || doerAsked || possibilityAsked)) {
    method = "POST";
    methodStated = true;
  }
  // "keep Ceph from rebalancing while I reboot", "stop it from marking OSDs out": an action not
  // wanted names the API's flag that turns it off (norebalance, noout), as if the flag were said;
  // keeping it from happening is setting that flag, whatever the occasion ("… reboot a host and …").
  for (const action of negatedActions(typed.tokens)) {
    const flag = negatedFlagOf(index, action);
    if (flag === undefined) continue;
    found.add(`n${flag}`, new Map([[flag, 1]]), flag, NEGATED_FLAG_WEIGHT);
    // A question about it ("why did ceph stop rebalancing", "check whether the flags prevent
    // rebalancing") reads; it sets nothing.
    if (asksAbout(tokens) || causeAsked) continue;
    method = "PUT";
    methodStated = true;
  }
  // "user got locked out after too many wrong codes": a state said asks for the API's action that
  // undoes it (unlock-tfa) when the query names what that action takes (a user), as if the action
  // were said.
  for (const undo of undoingActions(raw, (word) => undoes(index, word, rawStems, concepts))) found.word(undo, 1);
  const hosts = hostsByName(query, index);
  const hostByName = hosts.any;
  const owned = possessors(query);
  const scope = scopeOf(raw, spoken, hostByName, owned);
  // "reboot pve2": a host's name names a node, as if the word were said, unless it is.
  const nodeStem = stem("node", index.stems);
  if (hostByName && !concepts.some((c) => (c.terms.get(nodeStem) ?? 0) >= EQUIVALENT_WEIGHT))
    found.word("node", HOST_NAME_WEIGHT);
  // A write that sets something: a parameter of a setting endpoint may be what is asked
  // (search-params.ts). So may a request that opens with an English verb of no known method
  // ("cap VM 122 at half a CPU", "use noVNC as the default console").
  // So does one that keeps something from happening ("guard VM 123 against removal"): protection is a setting.
  // So does one that says how something should be ("container 171 should start third").
  const setting =
    modalAt >= 0 ||
    (methodStated && (method === "POST" || method === "PUT") && concepts.every((c) => !c.verb || c.sets)) ||
    (!methodStated && opensWithEnglishVerb(typed.tokens)) ||
    (typed.tokens.some((t) => t.prevented === "kept") && !opensWithQuestion);
  // "local storage is at 98%, what backups … are taking the space?": after a clause that sets the scene.
  const firstAsked = tokens.findIndex((t) => !t.context);
  // "how do I abort it?" asks for a way to act, not what is; "VM 100 is stopped, which is fine,
  // …" goes on about the clause before.
  const asksWhatIs = (at: number) => {
    const word = tokens[at]!.word;
    if (word === "which" && RELATIVE_BE.has(tokens[at + 1]?.word ?? "")) return false;
    return word !== "how" && QUESTION_WORDS.has(word) && METHOD_HINTS[word] === "GET";
  };
  const compoundParts = tokens
    .filter((t) => !t.literal)
    .flatMap((t) => splitCompound(t.word, index.vocabulary) ?? [])
    .map((part) => stem(part, index.stems));
  const createStem = stem("create", index.stems);
  const creating = concepts.find((c) => c.verb && c.terms.has(createStem));
  // A causative "make" makes nothing new ("make container 240 start at boot"), nor does one that
  // puts a guest it names somewhere ("add VM 100 to HA"). A modal after the request says how its
  // object should be ("create user alice, the account should expire at the end of the year"): it
  // takes no creation back.
  const isName = (i: number) => tokens[i]?.literal === true;
  const places = placeMentions(raw, index, isName);
  const guestsTo = guestsGoTo(raw);
  // "add VMs 400 through 405 to the lab pool": guests that exist are added to one object that
  // exists, which changes (PUT). "add VM 100 to HA" and "to replication" name no such object.
  const createdAt = creating?.at ?? rawStems.findIndex((s) => creating?.primaries.has(s));
  if (guestsTo >= 0 && method === "POST" && raw[createdAt] === "add" && existingPlaceAt(raw, guestsTo, index, isName))
    method = "PUT";
  // "add a note to the backup archive": a property added to something is set on it. Of the verbs
  // of creation only "add" takes where it goes after "to" ("clone VM 100 with a new name to pve2").
  const addsToThing =
    method === "POST" && raw[createdAt] === "add" && addsProperty(raw, index, index.postWords, createdAt, isName);
  if (addsToThing) method = "PUT";
  const createVerb = causativeAt < 0 && guestsTo < 0 && creating !== undefined && !addsToThing;
  // "show me how to create users": creating is said, though not as the request's verb.
  const createSaid = concepts.some((c) => c.terms.get(createStem) === 1);
  const besides = (i: number) => isName(i) || !!(tokens[i]?.aside || tokens[i]?.purpose || tokens[i]?.subordinate);
  return {
    concepts,
    compoundParts,
    method,
    methodStated,
    guest,
    bothKinds,
    verbOnOther,
    // "reboot the server 101": a machine named by a number may be a guest.
    machineByNumber: tokens.some((t, k) => MACHINE_WORDS.has(t.word) && /^\d+$/.test(tokens[k + 1]?.word ?? "")),
    oneItem: namesValue || asksForOne,
    named,
    namedByName,
    ...scope,
    nodeByName: hosts.surely,
    storageByName: namesStorageByName(query),
    acts,
    places: new Set(places.map((p) => p.kind)),
    holders: holdersOf(raw, places, index),
    // Of the words typed, not of a command's description after them. An item a definite phrase
    // names exists, unless it is the object of a verb said as a POST, which may bring it into
    // being ("install the ceph OSD on nvme0n1", "join the AD domain corp.local").
    definite: definiteOf(said, index, owned, isName, stated?.method === "POST" ? stated.at + 1 : -1),
    owners: ownersOf(said, index, namedByName),
    // "add a second NIC on vmbr1 to VM 7012": a guest's own part is added by setting it.
    // "create a new snapshot of VM 100": what lives below a guest is created by its own POST.
    created: createVerb
      ? scope.guestIsPlace
        ? createdOf(said, index, index.guestCreatable, createdAt, besides)
        : createdOf(said, index, index.creatable, createdAt, besides)
      : new Set<string>(),
    createVerb,
    createSaid,
    ...(causedVerb ? { causedVerb } : {}),
    ...(prevented.size ? { prevented } : {}),
    ...(subordinates.size ? { subordinates: setMinus(subordinates, mainTerms) } : {}),
    asksImage: raw.some((w) => PICTURE_WORDS.has(w)),
    listsAsked: listsAskedOf(raw, index, (i) => tokens[i]?.literal === true),
    typedStems: new Set(rawStems.slice(0, typed.tokens.length)),
    plurals: new Set(rawStems.filter((s, i) => s !== raw[i] && /[^s]s$/.test(raw[i]!))),
    // "when its node boots" inside a request is no question: a question opens with its word.
    question:
      method === "GET" &&
      (possibilityAsked ||
        (stated !== undefined && stated.at === 0 && QUESTION_WORDS.has(tokens[0]!.word)) ||
        (firstAsked > 0 && asksWhatIs(firstAsked))),
    setting,
    staying: staying(raw, (i) => tokens[i]?.literal === true, index),
    ...phraseLeads(
      concepts,
      rawStems.slice(0, typed.tokens.length),
      outrightWords(typed.tokens, index),
      listModifiers(typed.tokens, index),
    ),
  };
}

/**
 * The words typed outright and the list modifiers, with what a phrase of the synonym table stands
 * for: when each of its words is typed outright, its groups' words ("high availability": ha; "the
 * guest agent": agent) as if typed, before its last word's list noun too ("a high availability
 * storage" is a storage). A phrase's concept keeps no typed word of its own. `stems` are the
 * stems of the words typed, by position.
 */
export function phraseLeads(
  concepts: readonly Pick<Concept, "at" | "span" | "leadStems">[],
  stems: readonly string[],
  typedOutright: ReadonlySet<string>,
  typedModifiers: ReadonlyMap<string, string>,
): { outright: Set<string>; listModifiers: Map<string, string> } {
  const outright = new Set(typedOutright);
  const modifiers = new Map(typedModifiers);
  for (const { at, span, leadStems } of concepts) {
    if (at === undefined || span === undefined || leadStems === undefined || at + span > stems.length) continue;
    const said = stems.slice(at, at + span).filter((s) => !STOPWORDS.has(s));
    if (said.length === 0 || !said.every((s) => typedOutright.has(s))) continue;
    const noun = typedModifiers.get(said[said.length - 1]!);
    for (const lead of leadStems) {
      outright.add(lead);
      if (noun !== undefined) modifiers.set(lead, noun);
    }
  }
  return { outright, listModifiers: modifiers };
}

/** Modal verbs of what should be ("should", "must", "has to", "needs to"), and who says them of themselves. */
const MODALS_OF_STATE = new Set(["should", "must", "shall"]);
const MODALS_WITH_TO = new Set(["has", "have", "needs", "need"]);
const SPEAKERS = new Set(["i", "we", "you", "u", "someone", "somebody", "he", "she"]);
/** Pronouns that open a relative clause ("the VMs that need to be rebooted"). */
const RELATIVE_PRONOUNS = new Set(["that", "which", "who"]);
/** How far before a modal its speaker may stand ("I really need to", "I'm going to need to"). */
const SPEAKER_WORDS = 4;
/** Words that make a passive a behaviour, not one action ("should be pulled in automatically every night"). */
const BEHAVIOUR_WORDS = new Set([
  "automatically",
  "always",
  "never",
  "every",
  "each",
  "whenever",
  "forever",
  "default",
]);

/** Methods of one action rather than a state: a POST that acts, a DELETE. */
const ACTS = new Set(["POST", "DELETE"]);

/**
 * Where a modal says how something should be, of a subject that is no speaker ("VM 160 has to
 * come up by itself", "container 171 should start third", "new ones should start at 5000"): what
 * follows is a behaviour to set, not an action to take. Not a request of the speaker ("I really
 * need to move the disk"), a question ("which VM should be migrated first"), a relative clause
 * ("the VMs that need to be rebooted") nor one action in the passive ("VM 100 needs to be
 * migrated to pve3", unless it recurs: "should be pulled in automatically every night"). -1
 * when there is none.
 */
export function wantedOf(raw: readonly string[], query = raw.join(" ")): number {
  if (opensQuestion(raw, query)) return -1;
  for (let i = 1; i < raw.length; i++) {
    const w = raw[i]!;
    const modal = MODALS_OF_STATE.has(w) || (MODALS_WITH_TO.has(w) && raw[i + 1] === "to");
    if (!modal) continue;
    const before = raw.slice(Math.max(0, i - SPEAKER_WORDS), i);
    if (
      before.some((b) => SPEAKERS.has(b)) ||
      RELATIVE_PRONOUNS.has(raw[i - 1]!) ||
      RELATIVE_PRONOUNS.has(raw[i - 2] ?? "")
    )
      continue;
    const at = MODALS_WITH_TO.has(w) ? i + 1 : i;
    // "needs to be migrated", "must be deleted": one action, whose verb the API does (POST,
    // DELETE); "must be enabled", "should be protected", "needs to be shared" say a state.
    const participle = raw[at + 1] === "be" ? (raw[at + 2] ?? "") : "";
    const action = isParticiple(participle) && pastTenseBases(participle).some((b) => ACTS.has(METHOD_HINTS[b] ?? ""));
    if (action && !raw.some((x) => BEHAVIOUR_WORDS.has(x))) continue;
    return at;
  }
  return -1;
}

/** The terms of `terms` not in `others`: "before moving VM 140, check what would block the move" still asks of a move. */
function setMinus(terms: ReadonlySet<string>, others: ReadonlySet<string>): ReadonlySet<string> {
  return new Set([...terms].filter((t) => !others.has(t)));
}
