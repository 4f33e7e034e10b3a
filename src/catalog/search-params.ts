// Parameter-level intents: each parameter of a write endpoint as a small document of its own
// (name, enum values, the keys of a property string, description), so "make xterm.js the
// default console" finds the `console` parameter of PUT /cluster/options. A parameter lifts
// its endpoint only when the query states a write verb and names the parameter or one of its
// values; reads are not disturbed. The keys of a property string are settings in their own
// right and name their parameter as its own name does ("writeback" is a value of scsi[n]'s
// `cache`, "nesting" a key of a container's `features`, "macaddr" of `net[n]`), and a name
// run together from the words its description spells out ("MAC address") is named by them.
import type { Endpoint } from "./model.ts";
import { isDeprecated, placeholders } from "./model.ts";
import { Postings, type TermCache } from "./search-terms.ts";

export interface ParamDocs {
  postings: Postings;
  /** The endpoint each parameter belongs to. */
  endpointOf: Int32Array;
  /** "console", "net[n]"...: which parameter each document is. */
  names: string[];
  /** 1 where the parameter is for the guest the call creates ("Set a name for the new VM."). */
  forNewGuest: Uint8Array;
}

/** Whether a parameter's description says it is for the guest the call creates ("Set a name for the new VM."). */
export function describesNewGuest(description: string | null | undefined): boolean {
  return /\bthe new (?:vm|ct|container|virtual machine)\b/i.test(description ?? "");
}

/** Weight of a term in a parameter's name, values or keys (what the query must hit), and in its description. */
export const PARAM_NAMED = 2;
export const PARAM_TEXT = 1;
/** Parameters of every write that say nothing about what the write does. */
const GENERIC_PARAMS = new Set(["node", "digest", "delete", "revert", "skiplock", "force"]);
const WRITES = new Set(["POST", "PUT"]);
/** A boolean flag's name, in either tense ("enable", "enabled"), and the word for setting it the other way. */
const FLAG_ANTONYMS: Readonly<Record<string, string>> = {
  enable: "disable",
  enabled: "disable",
  disable: "enable",
  disabled: "enable",
};

/** Longest value a parameter that takes a word rather than a text allows (a firewall macro's is 128). */
const MAX_WORD_LENGTH = 1024;
/** Shortest leading piece of a word an abbreviation keeps ("gen" of "generation"); a whole word may be shorter ("id"). */
const MIN_PIECE = 3;

/**
 * The words a run-together name abbreviates, when its own description spells them out one after
 * the other: `macaddr` is "MAC address", `vmgenid` "VM Generation ID". Each word gives the name a
 * leading piece of itself, in order; undefined when the description does not spell the name.
 */
export function spelledOut(name: string, description: string): string[] | undefined {
  if (!/^[a-z]+$/.test(name)) return undefined;
  const words = description.toLowerCase().match(/[a-z]+/g) ?? [];
  const spell = (rest: string, at: number): string[] | undefined => {
    if (rest === "") return [];
    const word = words[at];
    if (word === undefined) return undefined;
    for (let n = Math.min(word.length, rest.length); n >= 1; n--) {
      // A piece is a whole word ("id") or a leading piece long enough to stand for it ("addr").
      if ((n < word.length && n < MIN_PIECE) || !rest.startsWith(word.slice(0, n))) continue;
      const more = spell(rest.slice(n), at + 1);
      if (more) return [word, ...more];
    }
    return undefined;
  };
  for (let at = 0; at < words.length; at++) {
    const found = spell(name, at);
    if (found && found.length >= 2) return found;
  }
  return undefined;
}

/**
 * The parameter documents of the write endpoints. `docsValues` holds, by parameter name, the
 * values the docs define for it; `objectNames` the stems that name what the API's paths end in
 * (its objects and actions).
 */
export function buildParamDocs(
  endpoints: readonly Endpoint[],
  terms: TermCache,
  main: Postings,
  docsValues?: ReadonlyMap<string, readonly string[]>,
  objectNames?: ReadonlySet<string>,
): ParamDocs {
  const postings = new Postings();
  const endpointOf: number[] = [];
  const names: string[] = [];
  const forNewGuest: number[] = [];
  const add = new Map<number, number>();
  const keys = itemKeys(endpoints);
  endpoints.forEach((e, id) => {
    if (!WRITES.has(e.method)) return;
    // What names the object (its path's placeholders, and the key of the item a POST adds:
    // `poolid` of POST /pools, `name` of POST /nodes/{node}/ceph/pool) is no setting of it.
    const naming = new Set(placeholders(e.path));
    const key = keys.get(e.path);
    if (key) naming.add(key);
    for (const [name, p] of Object.entries(e.parameters)) {
      // A retired parameter is no intent: "Deprecated: use notification targets/matchers instead."
      if (naming.has(name) || GENERIC_PARAMS.has(name) || isDeprecated(p.description)) continue;
      add.clear();
      const put = (ids: number[], weight: number) => {
        for (const t of ids) add.set(t, Math.max(add.get(t) ?? 0, weight));
      };
      put(terms.identifier(name), PARAM_NAMED);
      const spelled = p.description ? spelledOut(name, p.description) : undefined;
      if (spelled) put(terms.text(spelled.join(" ")), PARAM_NAMED);
      // A boolean flag is set both ways: "disable the account" sets `enable` to 0, "switch off the repository" `enabled`.
      const antonym = p.type === "boolean" ? FLAG_ANTONYMS[name] : undefined;
      if (antonym) put(terms.identifier(antonym), PARAM_NAMED);
      for (const value of p.enum ?? []) if (typeof value === "string") put(terms.identifier(value), PARAM_NAMED);
      // So do the values the docs define for it (SSH, HTTPS for `macro`), when it takes a word, not
      // a text (the agent's file-write `content`); a term of a definition list that ends in a colon
      // is a key beside it ("swap:" under `memory`), and a value that is what one of the API's
      // paths ends in ("SMTP", "DNS", "Ping") is read as that.
      if (!(typeof p.maxLength === "number" && p.maxLength > MAX_WORD_LENGTH))
        for (const value of docsValues?.get(name) ?? []) {
          if (value.trim().endsWith(":")) continue;
          // Its words as typed: a macro's name is not split into words it happens to hold (IPsec, Webmin).
          put(
            terms.text(value).filter((t) => !objectNames?.has(main.termOf(t))),
            PARAM_NAMED,
          );
        }
      if (p.description) put(terms.text(p.description), PARAM_TEXT);
      if (p.format && typeof p.format === "object") {
        for (const [key, sub] of Object.entries(p.format)) {
          put(terms.identifier(key), PARAM_NAMED);
          const { description: text, enum: values } = sub as { description?: unknown; enum?: unknown };
          const spelled = typeof text === "string" ? spelledOut(key, text) : undefined;
          if (spelled) put(terms.text(spelled.join(" ")), PARAM_NAMED);
          if (Array.isArray(values))
            for (const value of values) if (typeof value === "string") put(terms.identifier(value), PARAM_NAMED);
          if (typeof text === "string") put(terms.text(text), PARAM_TEXT / 2);
        }
      }
      const doc = endpointOf.length;
      endpointOf.push(id);
      names.push(name);
      forNewGuest.push(describesNewGuest(p.description) ? 1 : 0);
      for (const [t, weight] of add) postings.add(postings.intern(main.termOf(t)), doc, weight);
    }
  });
  return { postings, endpointOf: Int32Array.from(endpointOf), names, forNewGuest: Uint8Array.from(forNewGuest) };
}

/** For each list whose items have a path of their own ("/pools" beside "/pools/{poolid}"), the placeholder naming one item. */
function itemKeys(endpoints: readonly Endpoint[]): Map<string, string> {
  const keys = new Map<string, string>();
  for (const e of endpoints) {
    const item = /^(.+)\/\{([^{}]+)\}$/.exec(e.path);
    if (item) keys.set(item[1]!, item[2]!);
  }
  return keys;
}
