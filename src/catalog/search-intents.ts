// What a clause names in Proxmox's terms when it does not use them: a login that is an account
// (a user) or a way in (a realm), a backup something comes back from (a restore), what someone is
// allowed to do (permissions), guests kept together or apart (HA affinity), what is seen from
// inside a VM (its guest agent). Pure functions over the query's tokens or text; search-clauses.ts
// has the grammar they build on.
import { HAND_GROUPS } from "./synonyms.ts";
import { STOPWORDS } from "./text.ts";
import { valueKinds, valueText } from "./search-values.ts";
import { DETERMINERS, PREPOSITIONS, stepBack, type Token } from "./search-tokens.ts";
import { CLAUSE_JOINERS, inflectedVerb } from "./search-clauses.ts";

/** "login" as one word: the noun. The verb is two words ("log in"), which "login" stands for when it opens a request. */
const LOGIN_NOUNS = new Set(["login", "logins", "logon", "logons"]);
/** Possessives not among the determiners ("his login", "my own login", "whose login"), and "no login". */
const POSSESSIVES = new Set(["his", "her", "own", "whose", "no"]);
/** Words after which "login" is the verb however it is spelt: "to login", "can't login", "can the user login". */
const LOGIN_VERB_MARKERS = new Set([
  "to",
  "can",
  "cannot",
  "could",
  "t",
  "should",
  "must",
  "will",
  "would",
  "may",
  "not",
  "never",
  "unable",
  // "those who login via SSO": the relative pronoun is the one who logs in.
  "who",
]);
/** Determiners that count what follows: "every login" is each time someone logs in. */
const QUANTIFIERS = new Set(["each", "every", "all", "some", "any"]);
/** Prepositions after "login" that say how one logs in ("login via LDAP", "the api login with a token"): the act. */
const LOGIN_MANNER = new Set(["via", "with", "as", "through", "using", "into", "from"]);
/** How far before "login" such a word makes it the verb ("can the user login"). */
const VERB_REACH = 3;
/** How much "login" counts when a noun names the act only in passing ("login page", "every login"). */
const LOGIN_NOUN_WEIGHT = 0.3;

/**
 * "a proxmox login for the new hire", "change my own login password", "login page": "login"
 * after a determiner or a possessive (one word may stand between: "a second login step"), or
 * before the noun it qualifies, is the noun. The API's "login" is the act (POST /access/ticket
 * logs a client in), which such a noun names only in passing, so it counts for little. As the
 * head of its phrase it is the account itself, which the API calls a user (the users' `enable`:
 * "Enable the account (default)"): right after its determiner or with a stopword between ("needs
 * a proxmox login", "switch off their login"), in the singular, not counted ("every login": each
 * time someone logs in) and not followed by how one logs in ("the login via LDAP"). It stays
 * the act after "to", a modal or "who" ("try to login again", "users cannot login"), before a
 * preposition ("login with username/password") and as the subject of a verb ("api login fails
 * with 401").
 */
export function markLoginNoun(tokens: Token[]): void {
  const determinerAt = (i: number): string | undefined => {
    const word = tokens[i]?.word;
    return word !== undefined && (DETERMINERS.has(word) || POSSESSIVES.has(word)) ? word : undefined;
  };
  tokens.forEach((t, k) => {
    if (!LOGIN_NOUNS.has(t.word) || t.literal || t.inName) return;
    // A determiner right before it makes it the noun even after "to" ("go to the login page").
    const adjacent = determinerAt(k - 1);
    if (
      adjacent === undefined &&
      tokens.slice(Math.max(0, k - VERB_REACH), k).some((b) => LOGIN_VERB_MARKERS.has(b.word))
    )
      return;
    const after = tokens[k + 1];
    if (after !== undefined && inflectedVerb(after.word)) return;
    // The word between may not end a clause: in "create a VM, login and check it" the login opens one.
    const between = tokens[k - 1];
    const betweenEndsClause = between !== undefined && t.clauseStart && !STOPWORDS.has(between.word);
    const determiner = adjacent ?? (betweenEndsClause ? undefined : determinerAt(k - 2));
    const qualifies =
      after !== undefined &&
      !after.literal &&
      !after.inName &&
      !STOPWORDS.has(after.word) &&
      !PREPOSITIONS.has(after.word);
    if (determiner === undefined && !qualifies) return;
    const account =
      determiner !== undefined &&
      !qualifies &&
      !t.word.endsWith("s") &&
      (adjacent !== undefined || (between !== undefined && STOPWORDS.has(between.word))) &&
      !QUANTIFIERS.has(determiner) &&
      !LOGIN_MANNER.has(after?.word ?? "");
    if (account) tokens[k] = { ...t, account: true };
    else stepBack(tokens, k, LOGIN_NOUN_WEIGHT);
  });
}

/** Words that start logging in ("log in", "sign on", "login"), one or two words. */
const LOGIN_ACTS = [
  ["log", "in"],
  ["log", "on"],
  ["sign", "in"],
  ["sign", "on"],
  ["sign", "into"],
  ["login"],
  ["logon"],
] as const;
/** Prepositions after logging in that name what one logs in with. */
const LOGIN_MEANS = new Set(["with", "via", "through", "using"]);
/** What one logs in with that is a credential, which POST /access/ticket and the TFA entries take, not a realm. */
const CREDENTIALS = new Set([
  "password",
  "passwords",
  "username",
  "token",
  "tokens",
  "key",
  "keys",
  "code",
  "codes",
  "otp",
  "totp",
  "tfa",
  "2fa",
  "webauthn",
  "yubikey",
  "ticket",
  "tickets",
  "cookie",
  "certificate",
  "cert",
]);

/** Ways in and accounts one logs in through or as, which are no realm. */
const CLIENTS = new Set([
  "ui",
  "gui",
  "api",
  "web",
  "browser",
  "ssh",
  "console",
  "shell",
  "curl",
  "cli",
  "root",
  "app",
]);
/** How far after logging in its means may be said ("log in to the web UI with their AD accounts"). */
const MEANS_REACH = 6;
/** How much logging in counts when what it goes through is asked for: it is the occasion. */
const LOGIN_THROUGH_WEIGHT = 0.3;

/**
 * "let users log in with their company's single sign-on", "set up login through Keycloak":
 * what one logs in with, when it is no credential (a password, a token, a TOTP code), is where
 * the accounts live, which the API calls a realm (/access/domains: "Authentication domain index");
 * logging in itself is then only the occasion, and steps back. Returns whether a login went
 * through such a thing. "log in with username and password" stays a login.
 */
export function markLoginThrough(tokens: Token[]): boolean {
  const actAt = (k: number) => LOGIN_ACTS.find((a) => a.every((w, i) => tokens[k + i]?.word === w));
  for (let k = 0; k < tokens.length; k++) {
    const act = actAt(k);
    // "our login page with failed attempts": a login named in passing goes through nothing.
    if (!act || tokens[k]!.literal || tokens[k]!.context) continue;
    // "the log on pve1 with the errors", "the backup log on pve1": a log, no logging on.
    const before = tokens[k - 1]?.word;
    if (act[0] === "log" && act[1] === "on" && before !== undefined && !LOGIN_VERB_MARKERS.has(before)) continue;
    let at = k + act.length;
    const end = Math.min(tokens.length, at + MEANS_REACH);
    // Up to another verb: "after I log in the dashboard shows VMs with errors" is not how.
    while (
      at < end &&
      !LOGIN_MEANS.has(tokens[at]!.word) &&
      !tokens[at]!.clauseStart &&
      !inflectedVerb(tokens[at]!.word)
    )
      at++;
    if (at >= end || !LOGIN_MEANS.has(tokens[at]!.word)) continue;
    const object: string[] = [];
    for (let j = at + 1; j < tokens.length && !tokens[j]!.clauseStart; j++) object.push(tokens[j]!.word);
    // A credential is what one logs in with, and a client or an account's name is how or as
    // whom ("through the web UI", "via the API with curl", "with root"): none of these is a realm.
    const content = object.filter((w) => !STOPWORDS.has(w));
    if (content.length === 0 || content.some((w) => CREDENTIALS.has(w) || CLIENTS.has(w))) continue;
    // Every mention of logging in steps back ("log in with their company's single sign-on").
    for (let i = 0; i < tokens.length; i++) {
      const mention = actAt(i);
      for (let n = 0; mention && n < mention.length; n++) {
        const t = tokens[i + n]!;
        if (!t.context) stepBack(tokens, i + n, LOGIN_THROUGH_WEIGHT);
      }
    }
    return true;
  }
  return false;
}

/** What logs in or signs on, as a noun qualifying another ("login provider", "SSO source"). */
const LOGIN_QUALIFIERS = new Set([...LOGIN_NOUNS, "sso", "signin", "signon", "authentication", "auth", "identity"]);
/** The realm's names in the synonym groups ("authentication server"), which need no rule. */
const REALM_NAMES: ReadonlySet<string> = new Set(HAND_GROUPS.find((group) => group[0] === "realm") ?? []);
/**
 * The nouns for where accounts are checked: the admin guide's "authentication sources" and the
 * API's "authentication server" (POST /access/domains), and the OpenID "provider" of the guide.
 */
const SOURCE_NOUNS = new Set([
  "provider",
  "providers",
  "source",
  "sources",
  "server",
  "servers",
  "backend",
  "backends",
]);

/**
 * "which login providers are configured", "hook up Active Directory as a login provider": what
 * provides the logins is a realm, the API's "authentication domain" (/access/domains), which the
 * admin guide introduces as the authentication sources Proxmox VE supports. The login word
 * qualifying it names the act only in passing.
 */
export function markLoginSource(tokens: Token[]): boolean {
  let found = false;
  tokens.forEach((t, k) => {
    const next = tokens[k + 1];
    if (!LOGIN_QUALIFIERS.has(t.word) || t.literal || t.inName || !next || !SOURCE_NOUNS.has(next.word)) return;
    // "authentication server" is a realm's own name in the synonym groups already.
    if (REALM_NAMES.has(`${t.word} ${next.word}`)) return;
    if (!t.context) stepBack(tokens, k, LOGIN_THROUGH_WEIGHT);
    found = true;
  });
  return found;
}

/**
 * What a guest is restored from, in the schema's words: "The backup archive" (`archive` of POST
 * /nodes/{node}/qemu and /lxc, which "Create or restore"), a vzdump "dump".
 */
const BACKUP_NOUNS = new Set(["backup", "backups", "archive", "archives", "dump", "dumps", "vzdump"]);
/** What is taken from inside a backup, not the guest it holds. */
const FILE_NOUNS = new Set(["file", "files", "document", "documents", "folder", "folders", "directory", "directories"]);
/** How many words after "from" may stand before the backup noun ("from last night's backup"). */
const SOURCE_REACH = 4;

/** How much "back" counts once read as a restore: the caller adds the API's word for it. */
const RESTORED_BACK_WEIGHT = 0.3;

/**
 * "bring back container 310 from its backup archive", "get VM 120 back from last night's dump":
 * back from a backup is a restore. What "back" means depends on its complement: back to a
 * snapshot is a rollback, back up a start ("bring it back up") or a backup ("back up VM 100").
 */
export function markBackFromBackup(tokens: Token[]): boolean {
  // "back up VM 100 from pve1 to the backup storage" makes a backup.
  const back = tokens.findIndex(
    (t, k) => t.word === "back" && k > 0 && !t.literal && !t.inName && tokens[k + 1]?.word !== "up",
  );
  if (back < 0) return false;
  const from = tokens.findIndex((t, k) => k > back && t.word === "from");
  if (from < 0 || tokens.slice(back + 1, from).some((t) => CLAUSE_JOINERS.has(t.word))) return false;
  // "one config file back from last night's backup": a file from inside it (file-restore).
  if (tokens.slice(0, from).some((t) => FILE_NOUNS.has(t.word))) return false;
  // Where from ends with its clause: "came back from reboot, is the backup still running".
  const source: Token[] = [];
  for (const t of tokens.slice(from + 1, from + 1 + SOURCE_REACH)) {
    if (t.clauseStart || CLAUSE_JOINERS.has(t.word)) break;
    source.push(t);
  }
  if (!source.some((t) => BACKUP_NOUNS.has(t.word) && !t.literal)) return false;
  const t = tokens[back]!;
  stepBack(tokens, back, RESTORED_BACK_WEIGHT);
  return true;
}

/**
 * Who may be granted something: a person, an account or a token ("what am I allowed to do"). Not
 * a group (HA and firewall groups are allowed things too) nor "they" (guests may be).
 */
const GRANTEES = new Set([
  "i",
  "you",
  "he",
  "she",
  "we",
  "me",
  "him",
  "her",
  "user",
  "users",
  "account",
  "accounts",
  "token",
  "tokens",
]);
/** What one is allowed to do, said in general: do, see, access, change … (not "run on pve2", "have two TFA"). */
const ALLOWED_DEEDS = new Set(["do", "see", "access", "change", "modify", "manage", "touch", "edit", "view"]);

/**
 * "what is the monitoring@pve user actually allowed to do", "what am I allowed to do on storage
 * local": what an account is allowed to do is its permissions, the API's word ("Retrieve
 * effective permissions of given user/token"). Only when the one allowed is an account, a
 * person or a token, typed (carol@pve, a token ID) or said: "VMs allowed to run on pve2" and
 * "which IPs are allowed to reach port 22" are rules of other kinds.
 */
export function asksPermission(query: string): boolean {
  const chunks = query.split(/\s+/);
  return chunks.some((chunk, k) => {
    if (!/^(?:allowed|permitted)$/i.test(chunk) || !/^to$/i.test(chunks[k + 1] ?? "")) return false;
    // What one may do in general: "allowed to have more than one TFA" is a rule of its own.
    if (!ALLOWED_DEEDS.has(valueText(chunks[k + 2] ?? "").toLowerCase())) return false;
    for (let j = k - 1; j >= 0; j--) {
      const word = valueText(chunks[j]!)
        .toLowerCase()
        .replace(/'[a-z]+$/, "");
      if (/[,.;:!?]$/.test(chunks[j]!) || CLAUSE_JOINERS.has(word)) return false;
      if (GRANTEES.has(word)) return true;
      const kinds = valueKinds(chunks[j]!);
      if (kinds.includes("user") || kinds.includes("token")) return true;
    }
    return false;
  });
}

/** Guests placed on the same node or on separate ones (not moved "to a different node"). */
const PLACEMENT = /\bon\s+(?:the\s+)?(?:same|different|separate|separated)\s+(?:nodes?|hosts?|hypervisors?)\b/i;
/** Words that make such a placement a rule to keep, not a fact ("VMs on different hosts need to share a network"). */
const CONSTRAINT = /\b(?:keep|keeps|kept|keeping|never|always|must|should|together|apart|ensure|sure)\b/i;

/**
 * "VMs 101 and 102 must never run on the same host", "keep them on different nodes": guests kept
 * together or apart is what the HA rules' `affinity` says ("Describes whether the HA resources are
 * supposed to be kept on the same node ('positive'), or are supposed to be kept on separate nodes
 * ('negative')"), in the words of the admin guide's resource affinity rules. The API's word is
 * "affinity"; the query's are stop words ("same", "different").
 */
export function namesAffinity(query: string): boolean {
  return PLACEMENT.test(query) && CONSTRAINT.test(query);
}

/** The agent, said by its name. */
const AGENT_NAMED = /\b(?:agent|qga|qemu-guest-agent)\b/i;
/** The inside of a VM: "inside VM 130", "within the guest", "the OS inside", "as the guest sees it", "from the inside". */
const INSIDE_VM =
  /\b(?:inside|within)\s+(?:the\s+|its\s+|a\s+)?(?:guest|vm|os|operating system|virtual machine)\b|\bas\s+(?:the\s+guest|it|the\s+os)\s+sees\b|\bfrom\s+(?:the\s+)?inside\b|\bthe\s+os\s+(?:inside|in)\b/i;
/** A VM said, by its word or its guest's OS; a container has no agent, a node is no guest. */
const A_VM = /\b(?:vms?|virtual machines?|guest|os|operating system)\b/i;
const NO_VM = /\b(?:containers?|cts?|lxc|nodes?|hosts?|hypervisors?|pve\d*)\b/i;
/** What the firewall decides about a VM's addresses, not what the VM has: filters, spoofing, who may reach it. */
const FIREWALL_MATTERS =
  /\b(?:firewall|filter|filtering|spoof|spoofing|allow|allowed|reach|block|blocked|range|static|gateway|cidr)\b/i;

/**
 * Whether the query asks what is seen from inside a VM ("which IP addresses does the OS inside VM
 * 4312 think it has"), without naming the agent. The QEMU Guest Agent "runs inside the VM,
 * providing a communication channel between the host and the guest … to exchange information"
 * (qm(1), QEMU Guest Agent): the API sees into a VM only through it. A container has no agent.
 */
export function seenFromInside(query: string): boolean {
  return (
    INSIDE_VM.test(query) &&
    A_VM.test(query) &&
    !NO_VM.test(query) &&
    !FIREWALL_MATTERS.test(query) &&
    !AGENT_NAMED.test(query)
  );
}

/** A VM, by its word. */
const VM_WORD = /\b(?:vms?|virtual machines?)\b/i;
/** An IP address, by its words. */
const ADDRESS_WORDS = /\b(?:ip|ips|ipv4|ipv6|address|addresses)\b/i;
/** Where else an address is set or kept: the firewall's sets and aliases, cloud-init, the SDN's IPAM, a container's. */
const ADDRESSES_ELSEWHERE =
  /\b(?:ipsets?|ip sets?|aliases|alias|cloud-?init|ipconfig\d*|ipam|sdn|containers?|cts?|lxc)\b/i;

/**
 * Whether the query asks a VM's IP addresses ("what ip did vm 120 get from dhcp"), which only its
 * guest agent knows: "the IP addresses in the VM summary panel are fetched via the guest agent"
 * (qm(1), QEMU Guest Agent). Not an address the firewall, cloud-init or the IPAM keeps, nor a
 * container's, nor one that names the agent already.
 */
export function asksVmAddresses(query: string): boolean {
  return (
    ADDRESS_WORDS.test(query) &&
    VM_WORD.test(query) &&
    !ADDRESSES_ELSEWHERE.test(query) &&
    !FIREWALL_MATTERS.test(query) &&
    !AGENT_NAMED.test(query)
  );
}
