// Acronyms and abbreviations that Proxmox itself spells out, as vocabulary for search: a name
// whose description says what it stands for ("mp[n]": "Use volume as container mount point";
// "repo": "an OCI repository reference"), and the docs' definitions ("Object Storage Daemon
// (OSD)"). Each becomes a group of the short name and its words, so "mount point" finds mp[n],
// "repo" finds the repositories and "OSD" finds "object storage daemon".
import type { Endpoint } from "./model.ts";
import { identifierWords, STOPWORDS, words } from "./text.ts";

/** An acronym and the words it stands for ("mp", "mount point"). */
export type Acronym = readonly [acronym: string, expansion: string];

/** Short words that may sit inside an expansion without a letter of their own ("Quality of Service"). */
const LINKING = new Set(["of", "and", "for", "the", "a", "to", "in", "on"]);

/**
 * Whether `short` is the starts of `run`'s words in order, each giving at least its first letter
 * ("qdevice": "quorum device").
 */
export function spellsByStarts(short: string, run: readonly string[]): boolean {
  const from = (at: number, word: number): boolean => {
    if (word === run.length) return at === short.length;
    const w = run[word]!;
    for (let n = 1; n <= w.length && at + n <= short.length; n++) {
      if (short[at + n - 1] !== w[n - 1]) break;
      if (from(at + n, word + 1)) return true;
    }
    return false;
  };
  return from(0, 0);
}

/**
 * The words just before `text`'s end that `acronym` stands for: their initials, allowing
 * linking words in between ("Logical Volume Manager" for LVM, "Quality of Service" for QoS),
 * or, failing that, the starts of two to four words run together ("Quorum Device" for QDevice,
 * "Virtual Network" for VNet); undefined if none.
 */
export function expansionBefore(acronym: string, text: string): string | undefined {
  const want = acronym.toLowerCase();
  const ws = words(text.replace(/[0-9]+/g, " "));
  for (let take = want.length; take <= want.length + 2 && take <= ws.length; take++) {
    const run = ws.slice(-take);
    if (LINKING.has(run[0]!)) continue;
    const initials = (ws: string[]) => ws.map((w) => w[0]).join("");
    // The linking words may give a letter ("QoS") or not ("LVM" for "Logical Volume Manager").
    const spelled = initials(run) === want || initials(run.filter((w) => !LINKING.has(w))) === want;
    if (spelled && run.join("") !== want) return run.join(" ");
  }
  for (let take = 2; take <= 4 && take <= ws.length; take++) {
    const run = ws.slice(-take);
    if (run.some((w) => LINKING.has(w))) continue;
    if (spellsByStarts(want, run) && run.join("") !== want) return run.join(" ");
  }
  return undefined;
}

const DEFINITION = /\(([A-Z][A-Za-z]{1,8})s?\)/g;

/** Definitions of the form "Object Storage Daemon (OSD)" in a page's HTML (tags and all). */
export function definedAcronyms(html: string): Acronym[] {
  const out = new Map<string, string>();
  for (const m of html.matchAll(DEFINITION)) {
    const acronym = m[1]!.toLowerCase();
    if (out.has(acronym)) continue;
    const before = html.slice(Math.max(0, m.index - 200), m.index).replace(/<[^>]*>?/g, " ");
    const expansion = expansionBefore(acronym, before);
    if (expansion) out.set(acronym, expansion);
  }
  return [...out];
}

/** Each name of the schema with the text that describes it: path segments, parameters, keys of property strings, returned fields. */
function describedNames(endpoints: readonly Endpoint[], visit: (name: string, description: string) => void): void {
  const returned = (r: unknown, depth: number): void => {
    if (!r || typeof r !== "object" || depth > 3) return;
    const { properties, items } = r as { properties?: Record<string, unknown>; items?: unknown };
    for (const [name, p] of Object.entries(properties ?? {})) {
      const text = (p as { description?: unknown } | undefined)?.description;
      if (typeof text === "string") visit(name, text);
      returned(p, depth + 1);
    }
    returned(items, depth + 1);
  };
  for (const e of endpoints) {
    for (const segment of e.path.split("/")) if (segment && !segment.startsWith("{")) visit(segment, e.description);
    for (const [name, p] of Object.entries(e.parameters)) {
      if (p.description) visit(name, p.description);
      if (p.format && typeof p.format === "object") {
        for (const [key, sub] of Object.entries(p.format)) {
          const text = (sub as { description?: unknown } | undefined)?.description;
          if (typeof text === "string") visit(key, text);
        }
      }
    }
    returned(e.returns, 0);
  }
}

/** A description's words, and their first letters run together. */
interface Described {
  words: string[];
  initials: string;
}

/**
 * Short names of the schema that their own description spells out: an acronym whose letters
 * start a run of content words ("mp": "Use volume as container mount point"), or an
 * abbreviation that starts a longer word of the description and is never a word of the
 * descriptions itself ("repo": "an OCI repository reference", "mem": "Current memory usage").
 */
export function schemaAcronyms(endpoints: readonly Endpoint[]): Acronym[] {
  const used = new Set<string>();
  // The same descriptions recur on hundreds of parameters: each is read once, each name checked once against it.
  const wordsOf = new Map<string, Described>();
  const described = new Map<string, Described>();
  describedNames(endpoints, (name, description) => {
    let text = wordsOf.get(description);
    if (!text) {
      const ws = words(description);
      // One letter per word: where an acronym's letters start a run of words, it stands here too.
      wordsOf.set(description, (text = { words: ws, initials: ws.map((w) => w[0]).join("") }));
      for (const w of ws) used.add(w);
    }
    described.set(`${name}\n${description}`, text);
  });
  const out = new Map<string, Set<string>>();
  const add = (short: string, long: string) => {
    const set = out.get(short) ?? new Set<string>();
    set.add(long);
    out.set(short, set);
  };
  for (const [key, { words: ws, initials }] of described) {
    const name = key.slice(0, key.indexOf("\n"));
    const parts = identifierWords(name);
    const short = parts.join("");
    if (/^[a-z]{2,5}$/.test(short)) {
      for (let i = initials.indexOf(short); i >= 0; i = initials.indexOf(short, i + 1)) {
        const run = ws.slice(i, i + short.length);
        if (run.some((w) => STOPWORDS.has(w) || w.length < 2)) continue;
        if (run.join("") !== short) add(short, run.join(" "));
      }
    }
    for (const part of parts) {
      if (part.length < 3 || used.has(part) || STOPWORDS.has(part)) continue;
      for (const w of ws) if (w.length >= part.length + 2 && w.startsWith(part)) add(part, w);
    }
  }
  return [...out].flatMap(([short, longs]) => [...longs].map((long) => [short, long] as const));
}

/** Acronyms as synonym groups (the acronym first, as the API's word), only for acronyms the API uses as a name. */
export function acronymGroups(acronyms: readonly Acronym[], names: ReadonlySet<string>): string[][] {
  const seen = new Set<string>();
  const groups: string[][] = [];
  for (const [acronym, expansion] of acronyms) {
    const key = `${acronym} ${expansion}`;
    if (seen.has(key) || !names.has(acronym)) continue;
    seen.add(key);
    groups.push([acronym, expansion]);
  }
  return groups;
}

/** The words the API uses as names: path segments, handler names, parameters, their keys and values. */
export function apiNames(endpoints: readonly Endpoint[]): Set<string> {
  const names = new Set<string>();
  const add = (identifier: string) => {
    const parts = identifierWords(identifier);
    for (const w of parts) names.add(w);
    names.add(parts.join(""));
  };
  for (const e of endpoints) {
    for (const segment of e.path.split("/")) if (segment && !segment.startsWith("{")) add(segment);
    add(e.name.replace(/_/g, " "));
    for (const [name, p] of Object.entries(e.parameters)) {
      add(name);
      for (const value of p.enum ?? []) if (typeof value === "string") add(value);
      if (p.format && typeof p.format === "object") for (const key of Object.keys(p.format)) add(key);
    }
  }
  return names;
}
