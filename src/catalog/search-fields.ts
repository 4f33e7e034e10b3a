// What each endpoint is as a document of the search index: its weighted fields (path, names,
// summary, description, parameters, returned fields, docs), the word "guest" where a text names
// both kinds, and the words it takes from its siblings. search-index.ts turns these into postings.
import { collectionPath, isDeprecated, returnFields, type Endpoint } from "./model.ts";
import { LXC_WORDS, QEMU_WORDS } from "./synonyms.ts";
import { firstSentence, markupToText } from "./text.ts";
import type { Postings } from "./search-terms.ts";

export const FIELD = {
  lastSegment: 4,
  segment: 2,
  name: 3,
  summary: 2,
  description: 1,
  paramName: 0.7,
  enumValue: 0.5,
  paramText: 0.15,
  /**
   * A read's required parameters say what it reads, half as much as its description: at its
   * weight, "list the backup files on storage X" took single-file restore for the storage's content
   * (calibrated on the opened sets, fourteenth round).
   */
  required: 0.5,
  returnName: 0.8,
  /**
   * The values a returned field may take ("qemu", "lxc", "storage" for the items of
   * /cluster/resources). This (a fifth down), inherited and docs (a quarter up) were moved in the
   * twenty-second round's sweep of every field weight on the opened sets, where a step made none worse.
   */
  returnValue: 0.16,
  /**
   * For a cluster-wide mapping: the name and description of the guest setting that uses it
   * (virtiofs for directory mappings), as much its words as its own description (calibrated, ninth
   * round). For an action a setting's key is named by: the key's description (actionKeyTexts).
   */
  usedBy: 1,
  /** What a retired parameter or endpoint said, for what the schema names in its place. */
  inherited: 1.25,
  /** Words of the docs about the endpoint: its CLI commands, the prose around their examples. */
  docs: 0.625,
  /** Words of the other methods of its resource (the collection and its items). */
  sibling: 1,
} as const;

/** What an endpoint says about itself, by field: identifiers (path, names, values) and texts. */
export interface Fields {
  lastSegment: string[];
  segment: string[];
  name: string[];
  summary: string[];
  description: string[];
  paramName: string[];
  enumValue: string[];
  paramText: string[];
  /** The descriptions of what a read requires (not in its path). */
  required: string[];
  returnName: string[];
  returnValue: string[];
  usedBy: readonly string[];
  /** The words of the retired parameters and endpoints that name it as their successor. */
  inherited: readonly string[];
  docs: readonly string[];
}

/** An endpoint's one-line description, as results show it. */
export function summaryOf(e: Endpoint): string {
  return firstSentence(firstSentence(markupToText(e.description), Infinity));
}

export function endpointFields(
  e: Endpoint,
  usedBy: readonly string[],
  inherited: readonly string[],
  docs: readonly string[],
  docsValues: readonly string[],
): Fields {
  const literals = e.path.split("/").filter((s) => s && !s.startsWith("{"));
  const description = markupToText(e.description);
  const sentence = firstSentence(description, Infinity);
  const fields: Fields = {
    lastSegment: literals.slice(-1),
    segment: literals.slice(0, -1),
    name: [e.name],
    summary: [firstSentence(sentence, 400)],
    description: [description],
    paramName: [],
    enumValue: [],
    paramText: [],
    required: [],
    returnName: [],
    returnValue: [],
    usedBy,
    inherited,
    docs,
  };
  for (const [name, p] of Object.entries(e.parameters)) {
    // A retired parameter says what the endpoint no longer is for ("mailto" of vzdump: use notification matchers).
    if (isDeprecated(p.description)) continue;
    fields.paramName.push(name);
    for (const value of p.enum ?? []) if (typeof value === "string") fields.enumValue.push(value);
    if (!p.description) continue;
    // What a read requires is what it reads: "Backup volume ID or name. Currently only PBS
    // snapshots are supported." of file-restore/list's `volume`.
    const read = e.method === "GET" && !p.optional && !e.path.includes(`{${name}}`);
    (read ? fields.required : fields.paramText).push(p.description);
  }
  returnFields(e.returns, fields.returnName, fields.returnValue);
  // The values the docs define for its parameters count as the schema's own enum values.
  fields.enumValue.push(...docsValues);
  return fields;
}

export const TEXT_FIELDS = ["summary", "description", "paramText", "usedBy", "required", "inherited"] as const;
export const PARAMETER_FIELDS: ReadonlySet<string> = new Set(["paramName", "enumValue", "paramText"]);
export const IDENTIFIER_FIELDS = [
  "lastSegment",
  "segment",
  "name",
  "paramName",
  "enumValue",
  "returnName",
  "returnValue",
] as const;

/**
 * A text that names both kinds of guest ("Migrate all VMs and Containers.") names guests, the
 * word the API and its docs use for either kind: the reverse of RELATED's guest -> qemu, lxc.
 * Returns the text's terms with the guest's term added where it names both.
 */
export function guestsOfBothKinds(
  postings: Pick<Postings, "intern">,
  stemOf: (word: string) => string,
): (terms: readonly number[]) => readonly number[] {
  const termsOf = (words: Iterable<string>) => new Set([...words].map((w) => postings.intern(stemOf(w))));
  const qemu = termsOf(QEMU_WORDS);
  const lxc = termsOf(LXC_WORDS);
  const guest = postings.intern(stemOf("guest"));
  return (terms) =>
    terms.some((t) => qemu.has(t)) && terms.some((t) => lxc.has(t)) && !terms.includes(guest)
      ? [...terms, guest]
      : terms;
}

/**
 * One resource, several methods: the collection and its items (/cluster/backup,
 * /cluster/backup/{id}) describe one kind of object, often in different words ("backup
 * schedule", "backup job definition"). Each method also gets the others' summary and
 * description words, weakly and as not its own, so the method asked for decides among them.
 * So do a guest endpoint and its twin of the other kind of guest under another name, whose
 * summary and description are its own and weigh as its own summary: the same method says the
 * same of the other kind ("Get IP addresses of the specified container interface" for the VM
 * agent's network-get-interfaces, whose summary is only "Execute network-get-interfaces.").
 */
export function addSiblingTerms(
  endpoints: readonly Endpoint[],
  pairs: readonly (readonly [number, number])[],
  textTerms: readonly (readonly (readonly number[])[])[][],
  ownTerms: readonly Set<number>[],
  postings: Postings,
): void {
  const resources = new Map<string, number[]>();
  endpoints.forEach((e, id) => {
    const key = collectionPath(e.path);
    resources.set(key, [...(resources.get(key) ?? []), id]);
  });
  const twins = new Set<readonly number[]>(pairs);
  for (const members of [...resources.values(), ...twins]) {
    if (members.length < 2) continue;
    for (const id of members) {
      const extra = new Set<number>();
      for (const other of members) {
        if (other === id) continue;
        // The text fields in TEXT_FIELDS order: the summary and the description.
        for (const field of textTerms[other]!.slice(0, 2))
          for (const item of field) for (const t of item) if (!ownTerms[id]!.has(t)) extra.add(t);
      }
      const twin = twins.has(members);
      for (const t of extra) postings.add(t, id, twin ? FIELD.summary : FIELD.sibling, !twin);
    }
  }
}
