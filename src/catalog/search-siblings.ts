// One resource, several methods: the words of a collection and of its items are lent to each
// other, weakly (search-index.ts).
import type { Endpoint } from "./model.ts";
import type { Postings } from "./search-terms.ts";

/**
 * One resource, several methods: the collection and its items (/cluster/backup,
 * /cluster/backup/{id}) describe one kind of object, often in different words ("backup
 * schedule", "backup job definition"). Each method also gets the others' summary and
 * description words, weakly and as not its own, so the method asked for decides among them.
 * Returns the words each one got.
 */
export function addSiblingTerms(
  endpoints: readonly Endpoint[],
  textTerms: readonly (readonly (readonly number[])[])[][],
  ownTerms: readonly Set<number>[],
  postings: Postings,
  weight: number,
): number[][] {
  const added: number[][] = endpoints.map(() => []);
  const resources = new Map<string, number[]>();
  endpoints.forEach((e, id) => {
    const key = e.path.replace(/\/\{[^{}]+\}$/, "");
    resources.set(key, [...(resources.get(key) ?? []), id]);
  });
  for (const members of resources.values()) {
    if (members.length < 2) continue;
    for (const id of members) {
      const extra = new Set<number>();
      for (const other of members) {
        if (other === id) continue;
        // The text fields in TEXT_FIELDS order: the summary and the description.
        for (const field of textTerms[other]!.slice(0, 2))
          for (const item of field) for (const t of item) if (!ownTerms[id]!.has(t)) extra.add(t);
      }
      for (const t of extra) postings.add(t, id, weight, true);
      added[id] = [...extra];
    }
  }
  return added;
}
