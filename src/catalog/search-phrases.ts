// The phrases of a query: a verb with its particle around its object ("turn the VM back on"), the
// synonym table's phrases ("get rid of", "lvm thin pool"), and two words the API runs together
// ("back up": backup). Each becomes one concept; the words it takes are no concepts of their own.
import { METHOD_HINTS } from "./synonyms.ts";
import { PARTICLES, STOPWORDS } from "./text.ts";
import type { SearchIndex } from "./search-index.ts";
import { joinable, phraseAt } from "./search-terms.ts";
import { SETTING_LEADS, type QueryConcepts } from "./search-concepts.ts";
import { DETERMINERS, MACHINE_WORDS, particleOfVerb, PREPOSITIONS, verbAt, type Token } from "./search-tokens.ts";

/** The groups a verb phrase means when its object is a machine, and when it is a feature. */
const MACHINE_SENSE = new Set(["start", "shutdown"]);
const FEATURE_SENSE = new Set(["enable", "disable"]);

/**
 * "turn on", "switch off": a machine is started or shut down, a feature is enabled or
 * disabled. The first content word of the object (`after`) tells which sense is meant.
 */
function senseByObject(index: SearchIndex, ids: number[], after: readonly string[]): number[] {
  const machine = ids.filter((id) => MACHINE_SENSE.has(index.leads[id]!));
  const feature = ids.filter((id) => FEATURE_SENSE.has(index.leads[id]!));
  if (machine.length === 0 || feature.length === 0) return ids;
  // "turn them off": a pronoun for machines is the object, though a stopword.
  const object = after.find(
    (w) => MACHINE_WORDS.has(w) || (!DETERMINERS.has(w) && !PARTICLES.has(w) && !STOPWORDS.has(w)),
  );
  if (object === undefined) return ids;
  const keep = MACHINE_WORDS.has(object) ? feature : machine;
  return ids.filter((id) => !keep.includes(id));
}

/**
 * Finds the query's phrases and adds their concepts: first a verb and its particle split by an
 * object, then the synonym table's phrases (overlapping ones of a group as one), then two words
 * the API runs together. Returns, per word, whether a phrase took it.
 */
export function phraseConcepts(
  index: SearchIndex,
  concepts: QueryConcepts,
  tokens: readonly Token[],
  raw: readonly string[],
  rawStems: readonly string[],
): boolean[] {
  const consumed = new Array<boolean>(raw.length).fill(false);
  // "turn the VM back on": a verb and its particle with the object between them are the phrase "turn on".
  for (let i = 0; i < raw.length; i++) {
    if (phraseAt(rawStems, i, index.phrases) || !index.phrases.firstStems.has(rawStems[i]!)) continue;
    for (let j = i + 2; j < Math.min(raw.length, i + 5); j++) {
      // "close to running out": a "to" between opens another verb, it is no object.
      if (verbAt(tokens, j) || raw[j - 1] === "to") break;
      const phrasal = PARTICLES.has(raw[j]!) ? index.phrases.byStems.get(`${rawStems[i]} ${rawStems[j]}`) : undefined;
      if (!phrasal) continue;
      const ids = senseByObject(index, phrasal, raw.slice(i + 1, j));
      const concept = concepts.group(
        ids,
        undefined,
        ids.map((id) => index.leads[id]!),
        tokens[i]!.weight,
      );
      if (ids.some((id) => METHOD_HINTS[index.leads[id]!])) concept.verb = true;
      if (ids.some((id) => SETTING_LEADS.has(index.leads[id]!))) concept.sets = true;
      // Where it stands and what it leads to, so it can open the request ("throw those edits away":
      // DELETE); not when a noun follows the particle, which is then a preposition ("switch ports on
      // vmbr0"), but an adverb may ("shut it down cleanly").
      const next = raw[j + 1];
      if (
        next === undefined ||
        STOPWORDS.has(next) ||
        PREPOSITIONS.has(next) ||
        /ly$/.test(next) ||
        tokens[j + 1]?.clauseStart
      ) {
        concept.at = i;
        concept.leads = ids.map((id) => index.leads[id]!);
      }
      consumed[i] = consumed[j] = true;
      // "back on": a particle right before the one that completes the verb goes with it.
      if (PARTICLES.has(raw[j - 1]!)) consumed[j - 1] = true;
      break;
    }
  }
  for (let i = 0; i < raw.length; i++) {
    if (consumed[i] || particleOfVerb(raw, i)) continue;
    const phrase = phraseAt(rawStems, i, index.phrases);
    if (!phrase) continue;
    let len = phrase[1];
    const ids = senseByObject(index, phrase[0], raw.slice(i + len));
    // "lvm thin pool": phrases of one group that overlap ("lvm thin", "thin pool") are one mention.
    for (let j = i + 1; j < i + len; j++) {
      const next = phraseAt(rawStems, j, index.phrases);
      if (next && next[0].some((g) => ids.includes(g))) len = Math.max(len, j - i + next[1]);
    }
    const inPhrase = tokens.slice(i, i + len);
    const content = inPhrase.filter((t) => !STOPWORDS.has(t.word));
    const phraseConcept = concepts.group(
      ids,
      undefined,
      ids.map((id) => index.leads[id]!),
      Math.max(...(content.length ? content : inPhrase).map((t) => t.weight)),
    );
    phraseConcept.at = i;
    phraseConcept.leads = ids.map((id) => index.leads[id]!);
    phraseConcept.leadStems = new Set(ids.map((id) => index.groups[id]![0]!));
    phraseConcept.span = len;
    // "turn on", "get rid of": a phrase of a verb's group is a verb.
    if (ids.some((id) => METHOD_HINTS[index.leads[id]!])) phraseConcept.verb = true;
    if (ids.some((id) => SETTING_LEADS.has(index.leads[id]!))) phraseConcept.sets = true;
    for (let k = i; k < i + len; k++) consumed[k] = true;
    i += len - 1;
  }
  for (let i = 0; i < raw.length - 1; i++) {
    if (consumed[i] || consumed[i + 1] || particleOfVerb(raw, i)) continue;
    const joined = joinable(raw[i]!, raw[i + 1]!, index.vocabulary, index.stems);
    if (!joined) continue;
    concepts.word(joined, Math.max(tokens[i]!.weight, tokens[i + 1]!.weight));
    consumed[i] = consumed[i + 1] = true;
  }
  return consumed;
}
