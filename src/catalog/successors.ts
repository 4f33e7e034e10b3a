// What a retired parameter or endpoint was for, handed to what the schema names in its place:
// the backup job's `mailnotification` ("Deprecated: use notification targets/matchers instead.
// Specify when to send a notification mail", always | failure) says what notification
// matchers are for, in the words an operator who knew the old setting still uses.
import { collectionPath, endsInPlaceholder, isDeprecated, placeholders, type Endpoint } from "./model.ts";
import { stem } from "./stem.ts";
import { STOPWORDS, words } from "./text.ts";

/** A successor the schema names: a path ("/cluster/acme/meta"), or the words of a collection ("HA rules"). */
export type Successor = { path: string } | { words: string[] };

const METHOD_PREFIX = /^(?:GET|POST|PUT|DELETE)\s+/;

/**
 * The successors a deprecation note names: "use notification targets/matchers instead" (two,
 * sharing "notification"), "deprecated in favor of HA rules", "please use /cluster/acme/meta",
 * "use 'PUT /pools/?poolid={poolid}' instead" (a path). A quoted name ("use 'prune-backups'
 * instead", "use the 'migration' property") is another parameter of the same endpoint: none.
 */
export function successorsNamed(description: string | null | undefined): Successor[] {
  if (!isDeprecated(description)) return [];
  const note = /\bdeprecated\b[\s\S]*?\b(?:use|in favou?r of)\s+(.+?)(?:\s+instead\b|[.)!]\s|[.)!]?$)/i.exec(
    description!,
  );
  if (!note) return [];
  let named = note[1]!.trim();
  const quoted = /^['`]([^'`]*)['`]/.exec(named);
  if (quoted) named = quoted[1]!;
  named = named.replace(METHOD_PREFIX, "");
  if (named.startsWith("/")) return [{ path: named.replace(/[?#].*$/, "").replace(/\/+$/, "") }];
  if (quoted || /[^A-Za-z /-]/.test(named)) return [];
  const said = named.split(/\s+/);
  const last = said.pop()!;
  return last.split("/").map((alternative) => ({ words: [...said, alternative].map((w) => w.toLowerCase()) }));
}

/** A collection's path as a successor's words name it: its last segment's stems, and those of the segments before. */
interface CollectionWords {
  path: string;
  last: string;
  earlier: ReadonlySet<string>;
}

function collectionWords(paths: readonly string[]): CollectionWords[] {
  const out: CollectionWords[] = [];
  for (const path of paths) {
    const literals = path.split("/").filter((s) => s && !s.startsWith("{"));
    if (path.endsWith("}") || literals.length === 0) continue;
    const last = words(literals[literals.length - 1]!)
      .map((w) => stem(w))
      .join(" ");
    const earlier = new Set(literals.slice(0, -1).flatMap((s) => words(s).map((w) => stem(w))));
    out.push({ path, last, earlier });
  }
  return out;
}

/** The collections a successor's words name: the last word is the path's last segment, the others earlier ones ("HA rules": /cluster/ha/rules). */
function collectionsNamed(said: readonly string[], collections: readonly CollectionWords[]): string[] {
  const stems = said.filter((w) => !STOPWORDS.has(w)).map((w) => stem(w));
  return collections
    .filter((c) => c.last === stems[stems.length - 1] && stems.slice(0, -1).every((s) => c.earlier.has(s)))
    .map((c) => c.path);
}

/** Which endpoint of a successor's path takes over from an endpoint of `method`: the same method there, else on its items. */
function heir(method: string, path: string, byKey: ReadonlyMap<string, number>, itemOf: ReadonlyMap<string, string>) {
  const item = itemOf.get(path);
  return byKey.get(`${method} ${path}`) ?? (item !== undefined ? byKey.get(`${method} ${item}`) : undefined);
}

/**
 * Per endpoint: the words of the retired parameters and endpoints that name it as their
 * successor. A retired parameter gives:
 * - its description without the note;
 * - its values ("always", "failure"), which say whole what the successor's rules express (a
 *   matcher that matches failures); as the heir's own enum values, at their lower weight, five
 *   opened queries about mail on failed backups ranked lower (fifteenth round);
 * - what its endpoint is ("Create new vzdump backup job."): without it, "only mail me when a
 *   backup job fails" finds no matcher; with it, the matchers come up, low, among backup jobs.
 * A retired endpoint ("Create a new HA group. (deprecated in favor of HA rules)") gives the
 * descriptions of its parameters, but those in its path. Names are left out: an identifier of the
 * index ("mailnotification") would join the words said apart ("the mail notification target").
 * One a description mentions stays ("Enabling nofailback prevents that behavior."): "restricted"
 * and "nodes" are words of descriptions too, and nothing here tells the two apart.
 */
export function successorTexts(endpoints: readonly Endpoint[]): string[][] {
  const byKey = new Map(endpoints.map((e, id) => [`${e.method} ${e.path}`, id] as const));
  const paths = [...new Set(endpoints.map((e) => e.path))];
  const itemOf = new Map<string, string>();
  for (const path of paths) {
    if (endsInPlaceholder(path) && !itemOf.has(collectionPath(path))) itemOf.set(collectionPath(path), path);
  }
  const out: string[][] = endpoints.map(() => []);
  // Many retired parameters name the same successor ("HA rules" for each of the HA groups' settings).
  const namedBy = new Map<string, string[]>();
  let collections: CollectionWords[] | undefined;
  const named = (said: readonly string[]) => {
    const key = said.join(" ");
    let found = namedBy.get(key);
    if (!found) namedBy.set(key, (found = collectionsNamed(said, (collections ??= collectionWords(paths)))));
    return found;
  };
  const add = (list: string[], items: readonly string[]) => {
    for (const item of items) if (item && !list.includes(item)) list.push(item);
  };
  // What the heir takes itself it says itself: a retired endpoint's parameters of the same name
  // ("nodes" of HA groups and rules, "vms" of the two pool updates) hand nothing on.
  // `given` is called only for a retired text: almost none are, and their words cost a split each.
  const hand = (from: Endpoint, successors: readonly Successor[], given: () => readonly Given[]) => {
    if (successors.length === 0) return;
    const retired = given();
    for (const s of successors) {
      const targets = "path" in s ? [s.path] : named(s.words);
      for (const target of targets) {
        const id = heir(from.method, target, byKey, itemOf);
        if (id === undefined) continue;
        for (const { name, texts } of retired)
          if (!Object.hasOwn(endpoints[id]!.parameters, name)) add(out[id]!, texts);
      }
    }
  };
  for (const e of endpoints) {
    const inPath = new Set(placeholders(e.path));
    const own = Object.entries(e.parameters).filter(([name]) => !inPath.has(name));
    hand(e, successorsNamed(e.description), () =>
      own.map(([name, p]) => ({ name, texts: [withoutNote(p.description)] })),
    );
    for (const [name, p] of own) {
      hand(e, successorsNamed(p.description), () => {
        const values = (p.enum ?? []).filter((v): v is string => typeof v === "string");
        return [{ name, texts: [withoutNote(p.description), ...values, withoutNote(e.description)] }];
      });
    }
  }
  return out;
}

/** A retired parameter's name, and the texts it hands on. */
interface Given {
  name: string;
  texts: string[];
}

/** A description without the sentence that retires it ("Deprecated: use … instead."). */
function withoutNote(description: string | null | undefined): string {
  return (description ?? "")
    .split(/(?<=[.)])\s+/)
    .filter((sentence) => !/\bdeprecated\b/i.test(sentence))
    .join(" ")
    .trim();
}
