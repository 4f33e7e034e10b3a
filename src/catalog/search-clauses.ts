// The grammar of a request, marked on its tokens: what only sets the scene (a first clause that
// states the situation, a clause of time or condition, a relative clause describing a noun), what
// the request keeps from happening or does without, a light verb whose object names the action,
// and a frame around the request ("how do I", "is it possible to"). Pure functions over tokens.
import { GROUP_METHOD_HINTS, LXC_WORDS, METHOD_HINTS, QEMU_WORDS } from "./synonyms.ts";
import { PARTICLES, STOPWORDS, words } from "./text.ts";
import { valueKinds } from "./search-values.ts";
import {
  beginsObject,
  isEnglishVerb,
  introducesName,
  ASIDE_WEIGHT,
  KNOWING_VERBS,
  NODE_WORDS,
  GUEST_WORDS,
  MACHINE_WORDS,
  DETERMINERS,
  LEADING_WORDS,
  QUESTION_WORDS,
  OBJECT_PRONOUNS,
  presentForms,
  queryChunks,
  stepBack,
  type Token,
} from "./search-tokens.ts";

/** Verbs of a statement of the situation: being, having, keeping, needing. */
const SITUATION_VERBS = new Set(["is", "are", "was", "were", "has", "have", "keeps", "needs"]);
/**
 * Words that open a clause inside another: a relative clause ("the VM that was migrated") or a
 * clause of "what" ("whatever needs a restart"). Its verb is not the statement's.
 */
const CLAUSE_OPENERS = new Set(["that", "who", "which", "what", "whatever", "whoever"]);

/**
 * "pve7 is powered off, send it a magic packet", "VM 121 is hung and ignores ACPI, pull the plug":
 * a first clause that states how things are (its subject, then "is" or "has") sets the scene
 * for the request after it; its words count less and none of them is the request's verb.
 */
export function markContext(tokens: Token[], query: string): void {
  const chunks = queryChunks(query);
  const end = chunks.findIndex(
    (c, k) => k > 0 && (/[,;]$/.test(c) || (chunks[k + 1] === "-" && k + 2 < chunks.length)),
  );
  if (end < 0 || end === chunks.length - 1) return;
  const first = chunks.slice(0, end + 1).map((c) => c.toLowerCase().replace(/[,;]$/, ""));
  // "the VM that was migrated is stuck, …": the verb of a relative clause ("that was") is not the
  // statement's; "add a user that needs access to pool lab, realm pve" states nothing.
  // The first verb of state outside a clause opened inside it ("the VM that really was migrated
  // is stuck": the verb after "that" is the inner clause's).
  let inner = false;
  const be = first.findIndex((c) => {
    if (CLAUSE_OPENERS.has(c)) inner = true;
    else if (SITUATION_VERBS.has(c)) {
      if (!inner) return true;
      inner = false;
    }
    return false;
  });
  if (be < 1 || QUESTION_WORDS.has(first[0]!)) return;
  // Tokens of the first clause: its words, less the "named" that makes none ("the pool named lab is empty, …").
  const lastWords = words(
    chunks
      .slice(0, end + 1)
      .filter((_, k) => !introducesName(chunks, k))
      .join(" "),
  ).length;
  for (let k = 0; k < lastWords && k < tokens.length; k++) {
    stepBack(tokens, k, ASIDE_WEIGHT);
  }
}

/** Conjunctions that open a clause of time or condition: when the request applies, not what it asks. */
const SUBORDINATORS = new Set(["when", "whenever", "if", "before", "after", "while", "until", "unless"]);
/** Relative pronouns: after a noun of a request they open what describes that noun. */
const RELATIVES = new Set(["that", "who"]);
/** Words after which "that" opens what is said or checked ("make sure that", "check that"), not a description. */
const NOT_RELATIVE = new Set(["sure", "ensure", "check", "verify", "confirm", "say", "says", "know", "see"]);
/** Who is told or shown, between a verb of asking and its "when" ("tell me when the job runs"). */
const RECIPIENTS = new Set(["me", "us"]);
/** Words after which "if" and "when" ask whether or when ("check if the agent runs"): the clause is what is asked. */
const ASKING: ReadonlySet<string> = new Set([...KNOWING_VERBS, "test", "out", "show", "wait", "whether"]);
/** The auxiliaries that open a question ("what IPs does VM 330 report", "did the VM go elsewhere"). */
const QUESTION_AUXILIARIES = new Set(["does", "do", "did", "will", "would", "can", "could"]);
/**
 * Auxiliaries: after an opening subordinator they make a question ("when will the job run
 * next"); after "when" anywhere they keep "when" asking ("the job overlaps with replication,
 * when does it run next").
 */
const AUXILIARIES = new Set([
  "will",
  "would",
  "is",
  "are",
  "was",
  "were",
  "do",
  "does",
  "did",
  "can",
  "could",
  "should",
  "has",
  "have",
]);

/**
 * "make VM 160 come back up whenever its host reboots", "take a snapshot before I upgrade it",
 * "after pve2 boots, wait 90 seconds": a clause of time or condition says when the request
 * applies. "create a custom role that can only power VMs on and off": a relative clause after a
 * noun of a request says what that noun is. Either way its words count less and none of them is
 * the request's verb. It runs to the end of the sentence, or to the comma that closes it when it
 * opens the request.
 */
export function markSubordinate(tokens: Token[]): void {
  const opener = tokens.find((t) => t.clauseStart)?.word ?? "";
  const request = !!METHOD_HINTS[opener] || isEnglishVerb(opener);
  tokens.forEach((t, k) => {
    // "a custom role that can only power VMs on and off": a relative clause describes its noun.
    const before = tokens[k - 1];
    const relative =
      request &&
      RELATIVES.has(t.word) &&
      before !== undefined &&
      !before.literal &&
      !STOPWORDS.has(before.word) &&
      !METHOD_HINTS[before.word] &&
      !NOT_RELATIVE.has(before.word);
    if ((!SUBORDINATORS.has(t.word) && !relative) || t.literal || t.context) return;
    // "check if …", and "tell me when …" past the one it is told to.
    const asker = RECIPIENTS.has(before?.word ?? "") ? tokens[k - 2] : before;
    if (ASKING.has(asker?.word ?? "")) return;
    const opening = tokens.slice(0, k).every((b) => STOPWORDS.has(b.word));
    const asks = AUXILIARIES.has(tokens[k + 1]?.word ?? "");
    if (opening && asks) return;
    // "which backups would get deleted if I applied keep-last=3": a question asks what its condition brings.
    if (QUESTION_WORDS.has(tokens[0]!.word) && !opening) return;
    let end = k + 1;
    let content = false;
    while (end < tokens.length && !(content && tokens[end]!.clauseStart)) {
      if (!STOPWORDS.has(tokens[end]!.word)) content = true;
      end++;
    }
    // An opening clause with nothing after it is the whole request.
    if (opening && end === tokens.length) return;
    // The word that opens the clause is part of it, and no verb of the request: "when" in "notify a
    // webhook when backups fail" states no read. Unless it asks ("…, when will it sync again"):
    // its clause counts less, as any, and "when" asks for a read.
    if (!(asks && t.word === "when")) stepBack(tokens, k, ASIDE_WEIGHT, { subordinate: true });
    for (let j = k + 1; j < end; j++) {
      if (tokens[j]!.context) continue;
      stepBack(tokens, j, ASIDE_WEIGHT, { subordinate: true });
    }
  });
}

/** "stop" in "stop anyone from deleting container 310" says "prevent": it names no endpoint. */
const PREVENTING_WEIGHT = 0.2;

/** Negations ("t" is what is left of "don't"). */
const NEGATIONS = new Set(["not", "t", "no"]);
/** A word that after a negation says "not wanted", and the preposition before what is not wanted. */
const INDIFFERENT: ReadonlyMap<string, string> = new Map([
  ["care", "about"],
  ["need", "for"],
]);
/** Words after which what is not needed is given up: "no need for the snapshot anymore". */
const GIVEN_UP = new Set(["anymore", "longer"]);

/** Whether what follows gives up what was not needed: "… anymore", "… any longer", "remove it", "get rid of it". */
function givenUp(later: readonly Token[]): boolean {
  const deletes = (t: Token | undefined) => t !== undefined && (METHOD_HINTS[t.word] === "DELETE" || t.word === "rid");
  return later.some(
    (t, k) =>
      GIVEN_UP.has(t.word) ||
      // A pronoun, not a determiner: "delete that VM 100" names its object.
      (OBJECT_PRONOUNS.has(t.word) &&
        (deletes(later[k - 1]) || (later[k - 1]?.word === "of" && deletes(later[k - 2])))),
  );
}

/** Words that may stand between "from" and the action kept from happening ("from ever being pruned"). */
const BEFORE_ACTION = new Set(["ever", "being", "getting", "accidentally", "accidental", "unintentionally", "again"]);

/**
 * "guard VM 123 against accidental removal", "stop anyone from accidentally deleting container
 * 310", "keep the backup from ever being pruned", "so pruning never deletes it": the action
 * after "against", after "from" as a gerund or participle, or after "never", is what the
 * request keeps from happening, not what it asks for.
 */
export function markPrevented(tokens: Token[]): void {
  tokens.forEach((t, k) => {
    if (t.word === "without") return markWithout(tokens, k);
    // "I don't care about a clean shutdown", "no need for a graceful shutdown": what is not
    // cared about or needed is done without.
    if (
      NEGATIONS.has(t.word) &&
      tokens[k + 2] !== undefined &&
      INDIFFERENT.get(tokens[k + 1]!.word) === tokens[k + 2]!.word &&
      !givenUp(tokens.slice(k + 3))
    )
      return markWithout(tokens, k + 2);
    if (t.word !== "against" && t.word !== "from" && t.word !== "never") return;
    let j = k + 1;
    while (BEFORE_ACTION.has(tokens[j]?.word ?? "")) j++;
    const action = tokens[j];
    if (!action || action.literal || STOPWORDS.has(action.word)) return;
    // "from a template", "from node pve1": a place, not an action.
    if (t.word === "from" && !/(?:ing|ed)$/.test(action.word) && tokens[j - 1]?.word !== "being") return;
    tokens[j] = { ...action, prevented: "kept" };
    // "stop anyone from deleting", "keep the backup from being pruned": the verb that opens the
    // clause says "prevent", not its own action.
    if (t.word !== "from") return;
    for (let b = k - 1; b >= 0; b--) {
      if (!tokens[b]!.clauseStart) continue;
      stepBack(tokens, b, PREVENTING_WEIGHT);
      break;
    }
  });
}

/**
 * "kill container 227 without a clean shutdown", "show what the SDN change would do without
 * applying it": what follows "without" is not to happen either; a gerund, or a noun phrase
 * to its noun ("a clean OS shutdown").
 */
function markWithout(tokens: Token[], at: number): void {
  let j = at + 1;
  while (j < tokens.length && STOPWORDS.has(tokens[j]!.word)) j++;
  const first = tokens[j];
  if (!first || first.literal) return;
  tokens[j] = { ...first, prevented: "without" };
  if (/ing$/.test(first.word)) return;
  // A noun phrase, to its noun: "a clean OS shutdown (of the guest)"; a verb with an object
  // after it opens the request ("I don't care about downtime migrate VM 100 to pve2").
  for (let k = j + 1; k < Math.min(tokens.length, j + 4); k++) {
    const next = tokens[k]!;
    if (next.literal || next.clauseStart || STOPWORDS.has(next.word)) break;
    // A verb, not a noun that names an action ("shutdown"), with its object after it.
    const after = tokens[k + 1];
    const object = after !== undefined && !after.clauseStart && (after.literal || beginsObject(after.word));
    if (isEnglishVerb(next.word) && object) break;
    tokens[k] = { ...next, prevented: "without" };
  }
}

/** How much a light verb counts: the action is its object's. */
const LIGHT_VERB_WEIGHT = 0.2;
/** Verbs that only carry the action their object names ("take a snapshot", "run a backup"). */
export const LIGHT_VERBS: ReadonlySet<string> = new Set([
  "take",
  "make",
  "do",
  "run",
  "perform",
  "trigger",
  "kick",
  "fire",
  "launch",
  "initiate",
]);

/**
 * "take a snapshot of VM 600", "run a backup of container 210": a light verb with a determiner
 * and a noun that names an action asks for that action. The noun becomes the request's verb;
 * the light verb says nothing of its own ("run" is no command to run).
 */
export function markLightVerb(tokens: Token[]): void {
  const at = tokens.findIndex((t) => t.clauseStart);
  if (at < 0 || !LIGHT_VERBS.has(tokens[at]!.word)) return;
  let k = at + 1;
  if (PARTICLES.has(tokens[k]?.word ?? "")) k++;
  if (!DETERMINERS.has(tokens[k]?.word ?? "")) return;
  for (let j = k + 1; j < Math.min(tokens.length, k + 4); j++) {
    const t = tokens[j]!;
    if (t.literal || STOPWORDS.has(t.word)) continue;
    if (!METHOD_HINTS[t.word] && !GROUP_METHOD_HINTS.get(t.word)) continue;
    stepBack(tokens, at, LIGHT_VERB_WEIGHT);
    tokens[j] = { ...t, clauseStart: true };
    return;
  }
}

/** Words of a frame around a request ("is it possible to", "which endpoint do I use to", "I'd like to"). */
const FRAME_WORDS = new Set(
  "possible way api call endpoint best right correct proper use help like want need d able supposed going trying try wish command".split(
    " ",
  ),
);
/** How much a word of a frame counts: it says nothing of what is asked. */
const FRAME_WEIGHT = 0.2;
/** What stands right before the request's verb in a frame: "... to delete", "can you stop", "how do I add", "help me find". */
const BEFORE_VERB = new Set(["to", "you", "i", "we", "me", "please"]);

/**
 * "how do I delete snapshot foo", "is it possible to add a user", "which endpoint do I use to
 * stop container 200", "can you reboot node pve1": a frame around a request asks for the action
 * its verb names. When a verb that says a method follows words of the frame only, those words say
 * nothing, and the verb opens the request: it is no question about what is.
 */
export function markFraming(tokens: Token[]): void {
  for (let k = 1; k < tokens.length; k++) {
    const t = tokens[k]!;
    const frame = t.literal ? false : STOPWORDS.has(t.word) || LEADING_WORDS.has(t.word) || FRAME_WORDS.has(t.word);
    const verb = !!METHOD_HINTS[t.word] || (isEnglishVerb(t.word) && !ASKING.has(t.word) && !FRAME_WORDS.has(t.word));
    if (verb && !t.literal && BEFORE_VERB.has(tokens[k - 1]!.word)) {
      for (let j = 0; j < k; j++) stepBack(tokens, j, FRAME_WEIGHT, { clauseStart: false });
      tokens[k] = { ...t, clauseStart: true };
      return;
    }
    if (!frame) return;
  }
}

/**
 * A question of cause: "why", "what happened", "what went wrong", "what caused it", "where do I
 * see the actual error". The API's answer to it is what it records of what happened, its logs
 * ("Read task log.", "Read replication job log.", "Read system log").
 */
const CAUSE_QUESTION =
  /\bwhy\b|\bwhat (?:happened|went wrong|caused)\b|\b(?:see|find|show|read)\b[^.?!]*\bthe (?:actual |real )?(?:error|reason)\b/i;

export function asksCause(query: string): boolean {
  return CAUSE_QUESTION.test(query);
}

/**
 * A verb's past tense, not "did" ("which user did I give …" asks of something else); of the words
 * in -eed, only those that are pasts ("agreed", "freed"; not "exceed", "need", "proceed").
 */
const PAST = String.raw`(?:made|took|ran|shut|broke|set|put|sent|wrote|built|spun|reset|gave|brought|rebuilt|overwrote|(?!(?:exc|proc|succ|n|f|s|sp|bl|br|h|w|d|r|ind)eed\b)[a-z]{2,}ed)\b`;
/**
 * Where "who" asks: where a sentence or clause opens ("but who started it", "so who …"), or
 * after a verb of finding out or a record ("do you know who …", "the log of who …").
 */
const ASKING_WHO = String.raw`(?:^["'“‘(]?|[.;:?!(—–"“]\s*|\s-\s+|\b(?:and|but|so|ok|then|see|find(?: out)?|show(?: me)?|tell me|figure out|check|learn|list|ask|wonder(?:ing)?|(?:you|anyone|anybody|we) know|to know|log of|record of|audit of)\s+)`;
const DOER_QUESTION = new RegExp(
  String.raw`${ASKING_WHO}who\s+(?:did\b|${PAST})` +
    // After a comma unless a clause of the sentence's own follows, as after a relative clause:
    // "…, who deleted it, and when?" asks; "the admin, who created pool dev, left" does not.
    String.raw`|,\s*who\s+(?:did\b|${PAST})(?![^,]*,\s*(?!(?:and|or|but|when|why|how|where|what)\b)[a-z])` +
    String.raw`|\bby whom\b|\b(?:which|what) (?:accounts?|users?)\s+(?:did (?:it|this|that)\b|${PAST})`,
  "i",
);
const UNOWNED_DEED = new RegExp(
  String.raw`\b(?:somebody|someone)\s+(?:(?:[a-z]+ly|just|has)\s+)?${PAST}.*\b(?:nobody|no one)\s+(?:(?:will|would|wants to|has)\s+)?` +
    String.raw`(?:admits?|admitted|owns? up|owned up|knows|remembers|confess(?:es|ed)?|claims?|claimed)\b`,
  "i",
);

/**
 * A question of who did something: "who deleted VM 100", "…, who did it?", "I want to see who
 * did what", "which account did it", "by whom"; or a deed by someone unknown that no one owns up
 * to ("somebody removed a VM and nobody admits it"). "who" asks only where a question or a clause
 * opens, or after a verb of finding out: "the users who joined last week" is a relative clause.
 * An action that runs in a worker (PVE::RESTEnvironment::fork_worker: a guest's creation, start,
 * stop, migration, removal, a backup) is a task, and its UPID keeps the user who started it; the
 * task list is the answer. Edits that run no worker (most settings) are in no task.
 */
export function asksDoer(query: string): boolean {
  return DOER_QUESTION.test(query) || UNOWNED_DEED.test(query);
}

/** After the change, what denies its effect: "but the nodes still don't have them", "but nothing is different". */
const EFFECT_DENIED = /\bbut\b.*?(?:\b(?:not|never|nothing|no longer)\b|n['’]t\b)/i;

/**
 * A change said done whose effect is then denied: "I changed the SDN vnets but the nodes still
 * don't have the new bridges", "I created a vnet but it doesn't exist on any node". What is left
 * is to apply it. `changes` says whether a verb's base form is a verb of change ("change",
 * "create", "add", "edit").
 */
export function leavesChangeToApply(query: string, changes: (verb: string) => boolean): boolean {
  const verb = words(query).find((w) => pastTenseBases(w).some(changes));
  if (verb === undefined) return false;
  const lower = query.toLowerCase();
  const at = lower.search(new RegExp(`\\b${verb}\\b`));
  return at >= 0 && EFFECT_DENIED.test(lower.slice(at + verb.length));
}

/** The base forms a past tense may have: "created" create, "added" add, "edited" edit; "made" make. */
export function pastTenseBases(word: string): string[] {
  if (word === "made") return ["make"];
  if (!/ed$/.test(word)) return [];
  return [word.slice(0, -1), word.slice(0, -2), ...(/([a-z])\1ed$/.test(word) ? [word.slice(0, -3)] : [])];
}

/** The base forms a verb's -ing form may have: "signing" sign, "taking" take, "logging" log. */
export function gerundBases(word: string): string[] {
  if (!/ing$/.test(word)) return [];
  const root = word.slice(0, -3);
  return [root, `${root}e`, ...(/([a-z])\1$/.test(root) ? [root.slice(0, -1)] : [])];
}

/** Whether a word is a verb's inflected form: "fails", "fixes", "failed", "failing". */
export function inflectedVerb(word: string): boolean {
  return [...presentForms(word), ...pastTenseBases(word), ...gerundBases(word)].some(isEnglishVerb);
}

/**
 * A job going on for a while: "a backup has been hanging for hours", "the migration is stuck
 * since this morning", "the backup on pve5 has been running for six hours". In Proxmox VE a job
 * that runs on its own is a task (a UPID), which the API lists, logs and stops. Hanging or stuck
 * says so of anything; running only of a job ("VM 100 has been running for 30 days" is uptime).
 */
const FOR_A_WHILE =
  /\b(hanging|stuck|running)\s+(?:for|since)\s+(?:(?:the\s+)?(?:last|past)\s+)?(?:\w+\s+)?(?:hours?|minutes?|days?|weeks?|an? (?:hour|day|while)|ages|morning|yesterday)\b/i;
const JOBS =
  /\b(?:backups?|vzdump|migrations?|tasks?|jobs?|replications?|restores?|clones?|snapshots?|uploads?|downloads?|imports?)\b/i;

export function saysOngoing(query: string): boolean {
  const found = FOR_A_WHILE.exec(query);
  if (!found) return false;
  return found[1]!.toLowerCase() !== "running" || JOBS.test(query.slice(0, found.index));
}

/** Verbs before a participle that say the state something is in ("is locked", "got locked out"). */
const STATE_VERBS = new Set(["is", "are", "was", "were", "been", "got", "became", "stays", "remains"]);
/** What may follow such a participle when it says a state ("locked out", "locked after …"), not a kind ("linked clones"). */
const AFTER_STATE = new Set([
  "out",
  "after",
  "since",
  "by",
  "because",
  "and",
  "but",
  "again",
  "now",
  "for",
  "from",
  "when",
]);

/**
 * A state said by a participle after a verb of being ("a user is locked out", "got locked out"),
 * and the action that undoes it when the API names one by "un" and the verb ("unlock" of
 * /access/users/{userid}/unlock-tfa): `isAction` says whether a word names an API action.
 * "linked clones" says no state: no verb of being before it, and a noun after it.
 */
export function undoingActions(words: readonly string[], isAction: (word: string) => boolean): string[] {
  const out: string[] = [];
  words.forEach((w, k) => {
    if (!/ed$/.test(w) || !STATE_VERBS.has(words[k - 1] ?? "")) return;
    const next = words[k + 1];
    if (next !== undefined && !AFTER_STATE.has(next)) return;
    for (const base of pastTenseBases(w)) {
      if (base.length >= 3 && isAction(`un${base}`) && !out.includes(`un${base}`)) out.push(`un${base}`);
    }
  });
  return out;
}

/** Words in -ing that are no gerund: nouns and adjectives ("everything", "pending", "existing"). */
const NOT_GERUND =
  /thing$|^(?:pending|existing|remaining|during|morning|evening|string|ping|setting|settings|warning|warnings|mapping|mappings|ring)$/;

/** Whether a word is a verb's -ing form ("failing", "rebalancing"). */
function isGerund(word: string): boolean {
  return /^[a-z]{2,}ing$/.test(word) && !NOT_GERUND.test(word);
}

/** "keep" before a gerund says that something goes on happening ("keeps failing"), not what to keep. */
const ASPECT_VERBS = new Set(["keep", "keeps", "kept", "keeping"]);
/** How much such a verb counts: little, it says no action of its own. */
const ASPECT_WEIGHT = 0.2;

/**
 * "backups keep failing every night", "the thin pool keeps filling up", "HA keeps bouncing my
 * VM": "keep" before a gerund says the next verb recurs; it keeps nothing (no prune, no
 * retention), and it is no request's verb.
 */
export function markAspect(tokens: Token[]): void {
  tokens.forEach((t, k) => {
    const next = tokens[k + 1];
    if (!ASPECT_VERBS.has(t.word) || t.literal || !next || next.literal || !isGerund(next.word)) return;
    stepBack(tokens, k, ASPECT_WEIGHT, { clauseStart: false });
  });
}

/** Words after an object that say where it goes: "get every guest off pve3", "get them onto pve1". */
const WHERE_TO = new Set(["off", "onto", "away", "over", "out"]);
/** What may stand for the node a guest leaves ("get every guest off it"). */
const PLACE_PRONOUNS = new Set(["it", "there"]);
/** Verbs that only carry their object somewhere, the place after it saying where. */
const CARRYING_VERBS = new Set(["get", "bring", "take", "shift"]);
/** Words before an object's noun: "every guest", "all its workloads", "the VMs". */
const OBJECT_LEADS = new Set([
  "the",
  "a",
  "an",
  "all",
  "every",
  "each",
  "its",
  "my",
  "our",
  "their",
  "these",
  "those",
  "of",
]);
/** What a node carries and a migration moves: guests, by any name. */
const GUESTS_CARRIED: ReadonlySet<string> = new Set([
  ...QEMU_WORDS,
  ...LXC_WORDS,
  ...GUEST_WORDS,
  "workload",
  "workloads",
  "machine",
  "machines",
  "everything",
  "it",
  "them",
]);

/**
 * "get every guest off pve3", "get all its workloads onto other hosts", "take the VMs off
 * node2": a verb that carries guests, with a word of direction after them and a node after that,
 * moves them. The request's verb is "move" (which the API calls migrate). "get the syslog out of
 * pve3" carries no guest, "take VM 100 out of pool dev2" goes to no node.
 */
export function markMotion(tokens: Token[]): void {
  tokens.forEach((verb, at) => {
    if (verb.context || verb.literal || !CARRYING_VERBS.has(verb.word)) return;
    let head = at + 1;
    while (OBJECT_LEADS.has(tokens[head]?.word ?? "")) head++;
    // The verb opens its clause, and its object is guests: the noun itself, not a word before another
    // noun ("the container list"); a number after it names one ("VM 100").
    if (!verb.clauseStart && !tokens[head]?.clauseStart) return;
    if (!GUESTS_CARRIED.has(tokens[head]?.word ?? "")) return;
    let after = head + 1;
    if (tokens[after]?.literal || /^\d+$/.test(tokens[after]?.word ?? "")) after++;
    const next = tokens[after];
    if (next && !STOPWORDS.has(next.word) && !WHERE_TO.has(next.word)) return;
    for (let k = after; k < Math.min(tokens.length, head + 8); k++) {
      const t = tokens[k]!;
      if (t.clauseStart && k !== head) return;
      if (!WHERE_TO.has(t.word) || t.literal) continue;
      // The place after it is a node: "off pve3", "off it", "onto other hosts"; not "onto the local
      // storage", "out of the cluster" or "out of pool dev2".
      const place = tokens.slice(k + 1, k + 5).find((p) => !STOPWORDS.has(p.word) || PLACE_PRONOUNS.has(p.word));
      if (!place || !(NODE_WORDS.has(place.word) || PLACE_PRONOUNS.has(place.word) || nodeName(place.word))) return;
      if (!verb.clauseStart) tokens[head] = { ...tokens[head]!, clauseStart: false };
      tokens[at] = { ...verb, word: "move", clauseStart: true };
      return;
    }
  });
}

/** Participles of a guest's state, the values of its `status` ("everything running on pve2"). */
const GUEST_STATES = new Set(["running", "stopped", "paused"]);
/**
 * Verbs of motion, with the words after them that say their subject leaves for another place:
 * "go elsewhere", "moved off". Guests that "go away" or "go off" are gone or powered off.
 */
const MOTION_VERBS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["go", new Set(["elsewhere", "else"])],
  ["move", new Set(["elsewhere", "else", "off", "away"])],
  ["moved", new Set(["elsewhere", "else", "off", "away"])],
]);

/** Words that join one clause to another: "VM 100 is fine but the backups have to go elsewhere". */
export const CLAUSE_JOINERS = new Set(["but", "and", "or", "so", "because", "while"]);
/** Words that open a question before its subject: "did the VM go elsewhere", "is VM 118 running". */
const ASKING_AUXILIARIES = new Set([...QUESTION_AUXILIARIES, "is", "are", "was", "were", "has", "have", "had"]);
/** What may open a clause of guests that move: guests by any name, not a pronoun whose referent is unknown. */
const MOVING_GUESTS: ReadonlySet<string> = new Set(
  [...GUESTS_CARRIED, "anything"].filter((w) => w !== "it" && w !== "them"),
);

/**
 * "everything running on pve4 has to go elsewhere", "get everything running on it moved off": what
 * runs on a node is its guests, and guests that go to another place are moved (which the API
 * calls migrate). "go" becomes the request's verb "move"; "everything" in a guest's state, guests.
 * The guests are what the verb's clause opens with, stated, not asked: "the ISO in VM 101 should
 * go elsewhere" moves an ISO, "did the VM go elsewhere" asks. "list everything running on pve1"
 * moves nothing and stays a list of everything.
 */
export function markGuestsMoving(tokens: Token[]): void {
  tokens.forEach((verb, at) => {
    const elsewhere = MOTION_VERBS.get(verb.word);
    if (verb.literal || verb.context || verb.clauseStart || !elsewhere) return;
    if (!tokens.slice(at + 1, at + 3).some((t) => elsewhere.has(t.word) && !t.literal)) return;
    // Back to where its clause opens: its first word, or the word after a joining "but".
    let k = at - 1;
    while (k >= 0 && !tokens[k]!.clauseStart && !CLAUSE_JOINERS.has(tokens[k]!.word)) k--;
    if (k >= 0 && CLAUSE_JOINERS.has(tokens[k]!.word)) {
      k++;
      while (k < at && OBJECT_LEADS.has(tokens[k]!.word)) k++;
    }
    const subject = tokens[k];
    if (!subject || subject.literal || !MOVING_GUESTS.has(subject.word)) return;
    if (tokens.slice(Math.max(0, k - 2), k).some((t) => ASKING_AUXILIARIES.has(t.word))) return;
    const everything = subject.word === "everything" || subject.word === "anything";
    if (everything && GUEST_STATES.has(tokens[k + 1]?.word ?? "")) tokens[k] = { ...subject, word: "guests" };
    if (verb.word === "go") tokens[at] = { ...verb, word: "move" };
  });
}

/**
 * A word that may name a node ("pve3", "node4", "hv-02"), not a network device ("bond0",
 * "vmbr1"), a guest's disk ("scsi0") or a guest run together with its number ("vm100").
 */
export function nodeName(word: string): boolean {
  return (
    /^[a-z]{2,}(?:-?[a-z]+)*-?\d+$/.test(word) &&
    valueKinds(word).length === 0 &&
    !DISK_KEY.test(word) &&
    !DEVICE.test(word) &&
    !/^(?:vm|ct|lxc|qemu)-?\d+$/.test(word)
  );
}
/** A host's block or network device, or a Ceph OSD, by its kernel or Ceph name ("nvme0", "sda1", "wlan0", "vlan10", "osd3"). */
const DEVICE = /^(?:nvme\d+(?:n\d+)?|[shv]d[a-z]+\d*|wlan\d+|vlan\d+|osd\d+|tap\d+\w*|veth\d+\w*|fwbr\d+\w*)$/;
/** A guest's disk or device key, as qemu-server and pve-container name them. */
const DISK_KEY = /^(?:scsi|virtio|sata|ide|efidisk|tpmstate|net|mp|unused|hostpci|usb|serial)\d+$/;

/** Verbs that say an action is kept from happening when a gerund follows: "avoid rebalancing", "stop Ceph rebalancing". */
const HALTING_VERBS = new Set(["avoid", "prevent", "stop", "suppress", "pause", "block"]);
/** Verbs that only say an action begins or goes on ("to start rebalancing"). */
const BEGINNING_VERBS = new Set(["start", "starts", "begin", "begins", "keep", "keeps", "go", "continue"]);

/** An action not wanted, and the particle after its object when there is one ("marking OSDs out"). */
export interface NegatedAction {
  action: string;
  particle?: string;
}

/**
 * The actions a request does not want to happen: kept from happening ("stop Ceph from marking
 * OSDs out", "keep it from rebalancing": marked by markPrevented), not wanted ("don't want the
 * cluster to start rebalancing"), halted ("avoid rebalancing"), or said with "no" ("no
 * rebalancing"). A particle after the action's object goes with it ("marking OSDs out"); one
 * right after the verb is the verb's own ("shut down").
 */
export function negatedActions(tokens: readonly Token[]): NegatedAction[] {
  const out: NegatedAction[] = [];
  const seen = new Set<number>();
  const add = (k: number) => {
    const t = tokens[k];
    if (!t || t.literal || STOPWORDS.has(t.word) || seen.has(k)) return;
    seen.add(k);
    const particle = tokens.slice(k + 2, k + 4).find((p) => PARTICLES.has(p.word))?.word;
    out.push({ action: t.word, ...(particle && !PARTICLES.has(tokens[k + 1]?.word ?? "") ? { particle } : {}) });
  };
  tokens.forEach((t, k) => {
    if (t.prevented === "kept") return add(k);
    const wantsNot = t.word === "want" && (tokens[k - 1]?.word === "t" || tokens[k - 1]?.word === "not");
    if (wantsNot || HALTING_VERBS.has(t.word)) {
      // The first gerund or verb after it, past a "to" and a verb of beginning ("to start rebalancing").
      for (let j = k + 1; j < Math.min(tokens.length, k + 7); j++) {
        const w = tokens[j]!.word;
        if (BEGINNING_VERBS.has(w) || tokens[j]!.literal) continue;
        if (isGerund(w) || (wantsNot && tokens[j - 1]?.word === "to")) return add(j);
      }
    }
    if (t.word === "no" && isGerund(tokens[k + 1]?.word ?? "")) add(k + 1);
  });
  return out;
}

/** Verbs of saying in a form no request opens with: what a subject says or has said. */
const SAYING_FORMS = new Set([
  "reports",
  "reported",
  "says",
  "said",
  "shows",
  "showed",
  "shown",
  "tells",
  "told",
  "returns",
  "returned",
  "prints",
  "printed",
]);
/** The base forms, after an auxiliary of a question ("what IPs does VM 330 report"). */
const SAYING_VERBS = new Set(["report", "say", "show", "tell", "return", "print", "think"]);
/** How much a verb of saying counts: it only tells whose word the answer is. */
const SAYING_WEIGHT = 0.2;
/** How much the subject of an asked verb of saying counts: it is the source, not the answer. */
const SOURCE_WEIGHT = 0.3;

/** How far back a question's auxiliary may stand from its verb ("what hostname does the guest OS in VM 101 report"). */
const AUXILIARY_REACH = 8;

/**
 * Where the auxiliary of a question stands whose verb is at `k`, or -1: at most AUXILIARY_REACH
 * words back, with a subject between them in one clause ("I did reboot pve1 and the disks
 * report errors" asks nothing). A question's first content word opens its clause ("what does
 * the task log say"), so only a later one ends the subject.
 */
function questionAuxiliaryBefore(tokens: readonly Token[], k: number): number {
  const from = Math.max(0, k - AUXILIARY_REACH);
  const found = tokens.slice(from, k).findLastIndex((b) => QUESTION_AUXILIARIES.has(b.word));
  if (found < 0) return -1;
  const subject = tokens.slice(from + found + 1, k);
  const opensAnother = (i: number) =>
    subject[i]!.clauseStart && subject.slice(0, i).some((b) => !STOPWORDS.has(b.word));
  return subject.some((s, i) => CLAUSE_JOINERS.has(s.word) || opensAnother(i)) ? -1 : from + found;
}

/**
 * "what IP addresses does the guest agent report for VM 105", "the addresses the agent reports",
 * "the IP reported by the guest agent": a verb of saying with its subject says where the answer
 * comes from; it names no endpoint ("report" of a node's system report) and is no request's verb.
 * "show the IPs of VM 105" and "a report of pve1" keep theirs.
 */
export function markSaying(tokens: Token[]): void {
  tokens.forEach((t, k) => {
    if (t.literal || t.clauseStart || t.context) return;
    if (!SAYING_FORMS.has(t.word) && !SAYING_VERBS.has(t.word)) return;
    const auxiliary = SAYING_VERBS.has(t.word) ? questionAuxiliaryBefore(tokens, k) : -1;
    const asked = auxiliary >= 0 && !DETERMINERS.has(tokens[k - 1]?.word ?? "");
    if (!SAYING_FORMS.has(t.word) && !asked) return;
    stepBack(tokens, k, SAYING_WEIGHT);
    // "what hostname does the guest OS in VM 101 report": when the question names what it asks
    // for before the auxiliary, its subject is whose word the answer is, not what is asked for;
    // the guest it speaks of is. "what does the task log say" asks for the subject itself.
    const asker = tokens[auxiliary - 1];
    if (!asked || !asker || STOPWORDS.has(asker.word) || QUESTION_WORDS.has(asker.word)) return;
    for (let j = auxiliary + 1; j < k; j++) {
      const s = tokens[j]!;
      if (s.literal || s.context || STOPWORDS.has(s.word) || MACHINE_WORDS.has(s.word) || /\d/.test(s.word)) continue;
      stepBack(tokens, j, SOURCE_WEIGHT);
    }
  });
}

/** The auxiliaries whose negation ("can't", "won't", "doesn't") says what does not happen. */
const NEGATED_AUXILIARIES = new Set(["can", "won", "doesn", "didn", "couldn", "don"]);

/**
 * "one node died and now I can't start anything", "VM 120 won't start", "the guest doesn't react":
 * the verb after a negated auxiliary says what fails, the symptom, not the action asked for.
 */
export function markInability(tokens: Token[]): void {
  tokens.forEach((t, k) => {
    const negated =
      t.word === "cannot" ||
      (t.word === "t" && NEGATED_AUXILIARIES.has(tokens[k - 1]?.word ?? "")) ||
      (t.word === "to" && tokens[k - 1]?.word === "unable");
    const verb = tokens[k + 1];
    if (!negated || !verb || verb.literal || STOPWORDS.has(verb.word)) return;
    stepBack(tokens, k + 1, ASIDE_WEIGHT);
  });
}

/** Forms of "be" before a participle that says a state ("is set up"). */
const BE_FORMS = new Set(["is", "are", "was", "were", "been", "being", "be"]);
/** How many words before the participle its "be" may stand ("how is container 305 set up"). */
const BE_REACH = 4;

/** Whether a form of "be" stands within BE_REACH words before `k`. */
const beBefore = (tokens: readonly Token[], k: number) =>
  tokens.slice(Math.max(0, k - BE_REACH), k).some((b) => BE_FORMS.has(b.word));

/**
 * "how container 305 is set up", "which storages are set up": "set up" after a form of "be" is
 * a participle, what was set up before, so what is configured now; no new object
 * is made. Not "how to set up a container", nor "the old one is broken, set up a new one", where
 * "set" opens its clause.
 */
export function markSetUpState(tokens: Token[]): void {
  tokens.forEach((t, k) => {
    if (t.literal || t.word !== "set" || tokens[k + 1]?.word !== "up" || tokens[k - 1]?.word === "to") return;
    if (t.clauseStart || !beBefore(tokens, k)) return;
    tokens[k] = { ...t, word: "configured" };
    stepBack(tokens, k + 1, 0);
  });
}
