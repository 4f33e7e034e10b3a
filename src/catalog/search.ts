import { analyzeQuery } from "./search-query.ts";
import { EQUIVALENT_WEIGHT, type Concept } from "./search-concepts.ts";
import { stem } from "./stem.ts";
import { words } from "./text.ts";
import { PATH_KINDS, valueTerm } from "./search-values.ts";
import { diversify, itemSpokenOf, listsBetter, TWINS_REORDERED, typedTerms, unitsMissed } from "./search-rank.ts";
import { ENUMS_PER_ENDPOINT, type SearchIndex } from "./search-index.ts";
import type { PostingList } from "./search-terms.ts";
import { factorCeiling, scoreFactor, type EndpointFacts } from "./search-score.ts";
import { PARAM_NAMED } from "./search-params.ts";
import { AGENT_TWIN, OWN_TWIN } from "./search-facts.ts";

export { buildSearchIndex, type SearchIndex } from "./search-index.ts";
export { compoundsWith, guestFacet, statedMethod, tokenize } from "./search-tokens.ts";
export { diversify, listsBetter, typedTerms, unitsMissed } from "./search-rank.ts";
export { splitCompound } from "./search-terms.ts";

/**
 * Ranked search over endpoints. Each endpoint is a small document with weighted fields
 * (path segments, handler name, description, parameters, enum values, returned fields);
 * query words are stemmed, joined or split where the API runs words together
 * ("roll back" / rollback, nextid / next id), expanded with domain synonyms, and scored
 * per concept with IDF, so matching more of what was asked beats repeating one word.
 * Verbs mostly say the method; an endpoint loses a little for each word of its name that
 * was not asked for, so the endpoint that is what was asked beats one that merely mentions it.
 */

export interface SearchOptions {
  method?: string | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
  /** Only endpoints under this path (a template or a concrete path). */
  pathPrefix?: string | undefined;
  /** The same, as a test on endpoint indexes (the catalog fills it in from pathPrefix). */
  within?: ((id: number) => boolean) | undefined;
}

export interface SearchHit {
  method: string;
  path: string;
  description: string;
  /** Present and true only when the endpoint refuses API tokens. */
  refusesTokens?: true;
  score: number;
}

export interface SearchPage {
  total: number;
  hits: SearchHit[];
  /** What the query was recognised as (a CLI command, a pvesh call, an API path), when anything. */
  notes?: string[];
}

/** What the query names outright, worked out before ranking (search-forms.ts). */
export interface SearchHints {
  /** Endpoints that go first. */
  pinned?: readonly number[];
  /** Whether `pinned` keeps its order, or is ranked among itself. */
  ordered?: boolean;
  /** The kind of guest the query is about when its words do not say (a tool's name). */
  guest?: "qemu" | "lxc";
  /** What was asked, in other words (a CLI-only command's own description): its words count less. */
  described?: string;
  /** Where the tool's commands live ("/nodes/{node}/aplinfo" for pveam): endpoints there count more. */
  homes?: ReadonlySet<string>;
  /** The placeholder a CLI-only command's object names ("vmid"): endpoints of one such object count more still. */
  object?: string;
}

/** An endpoint with this many parameters is a settings endpoint: it is named by the setting asked for. */
const MANY_SETTINGS = 12;
/** How much the best parameter of a write endpoint adds to it, against the endpoint's own match. */
const PARAM_LIFT = 1;

/**
 * Per endpoint, the score of its best-matching parameter, for a query that states a write verb;
 * a parameter counts only when a word of the query (or its API synonym) names it or one of its
 * values.
 */
function paramLift(
  index: SearchIndex,
  analysis: ReturnType<typeof analyzeQuery>,
  caps: readonly number[],
  idfOf: (df: number) => number,
): Float64Array {
  const lift = new Float64Array(index.endpoints.length);
  if (!analysis.setting) return lift;
  const docs = index.params;
  const m = docs.endpointOf.length;
  const names = (endpoint: number, term: string) => index.identity[endpoint]!.some((unit) => unit.includes(term));
  const total = new Float64Array(m);
  const covered = new Float64Array(m);
  const best = new Float64Array(m);
  let asked = 0;
  const hostOnly = analysis.guest === "none" && analysis.namesNode;
  const created = analysis.created ?? new Set<string>();
  const owners = analysis.owners ?? new Set<string>();
  const named = new Uint8Array(m);
  const touched: number[] = [];
  analysis.concepts.forEach((concept, c) => {
    const cap = caps[c] ?? 0;
    if (cap === 0) return;
    // The verb says what is done; the parameter must be named by what it is done to.
    const canName = !concept.verb || concept.sets === true;
    if (canName) asked += concept.weight;
    for (const [term, termWeight] of concept.terms) {
      const list = docs.postings.get(term);
      if (!list) continue;
      const idf = Math.min(idfOf(index.postings.get(term)?.ids.length ?? 1), cap);
      const typed = canName && (concept.primaries.has(term) || (concept.leadStems?.has(term) ?? false));
      for (let k = 0; k < list.ids.length; k++) {
        const doc = list.ids[k]!;
        const w = list.weights[k]!;
        if (best[doc] === 0) touched.push(doc);
        best[doc] = Math.max(best[doc]!, termWeight * idf * w);
        // The parameter must say something the endpoint's own name does not ("force-stop" of stopall is no intent).
        if (typed && w >= PARAM_NAMED && named[doc] === 0 && !names(docs.endpointOf[doc]!, term)) named[doc] = 1;
      }
    }
    for (const doc of touched) {
      total[doc] = total[doc]! + concept.weight * best[doc]!;
      if (canName) covered[doc] = covered[doc]! + concept.weight;
      best[doc] = 0;
    }
    touched.length = 0;
  });
  const verbStems = new Set(analysis.concepts.filter((c) => c.verb).flatMap((c) => [...c.primaries]));
  const saysVerb = (summary: string) => words(summary).some((w) => verbStems.has(stem(w, index.stems)));
  for (let doc = 0; doc < m; doc++) {
    if (named[doc] === 0) continue;
    const e = docs.endpointOf[doc]!;
    if (index.setter[e] === 0) continue;
    // "put VM 501 under high availability management": VM 501 exists, so the setting it would be
    // given when created (`ha-managed`) is not asked; creating is, or a verb the creation's own
    // summary says ("Create or restore a virtual machine.").
    // So is a setting of the guest a clone makes ("Add the new VM to the specified pool.") for
    // "add VM 140 to pool dev".
    const forNewGuest = index.createsGuest[e] === 1 || docs.forNewGuest[doc] === 1;
    if (forNewGuest && !analysis.createVerb && !saysVerb(index.summaries[e]!)) continue;
    // "create a resource pool for the intern VMs": the new pool is asked, not the `vms` of pools that exist.
    if (created.size > 0 && !created.has(index.creates[e] ?? "")) continue;
    // "the description of snapshot pre-upgrade on VM 101": the snapshot's, not the VM's; "the
    // gateway of a subnet of vnet blue": a subnet below the vnet is the vnet's too.
    const items = index.itemsOf[e]!;
    if (owners.size > 0 && items.length > 0 && !items.some((item) => owners.has(item))) continue;
    // "set the DNS servers on node pve5": the node's own settings are asked, not a guest's of that name.
    if (hostOnly && index.guestKind[e] !== 0) continue;
    // A parameter that explains most of what was asked lifts its endpoint most.
    const value = (total[doc]! * covered[doc]!) / asked;
    if (value > lift[e]!) lift[e] = value;
  }
  return lift;
}

/** The terms of the kinds of path typed (a file's, a disk image's). */
const PATH_TERMS = new Set([...PATH_KINDS].map(valueTerm));
/**
 * The terms of the kinds of value an endpoint need not take to be the answer: a path typed, and a
 * URL ("add the repository http://download.proxmox.com/debian/pve …" is a repository's line).
 */
const OPTIONAL_VALUE_TERMS = new Set([...PATH_TERMS, valueTerm("url")]);

/** The stem of "delete": an action kept from happening that is a delete keeps DELETEs back. */
const DELETE_STEM = "delet";

/** Above any score: pinned endpoints sort first. */
const PINNED = 1e6;
/**
 * Below the pinned endpoints, for a CLI-only command: those of the object its first argument
 * names come first (a share of PINNED).
 */
const OBJECT_TIER = 0.6;
/**
 * Where the tool's other commands live, an endpoint counts this many times over; a factor, not
 * a tier, so a much better match elsewhere still shows ("pvecm status": the cluster's status,
 * beside the corosync config where pvecm's other commands live).
 */
const HOME_FACTOR = 5;

const FULL_MATCH = 1.5;
/** How much of a concept a match in the parameters alone covers. */
const PARAMETER_COVERAGE = 0.5;
const SATURATION = 2;
/** How much rarer than itself the API's word for a synonym typed may count ("move" -> migrate). */
const SYNONYM_RAISE = 1.2;

/**
 * What each value of one enum of kinds is worth to its endpoint when the query names two or
 * more ("every VM and container": qemu and lxc, the `type` of /cluster/resources' items), or one
 * read whole across the cluster, in the concept's IDF: a word of the endpoint's summary (weight
 * 2, saturated), not a value in passing.
 */
const SPAN_VALUE = 1.5;

/**
 * Per concept, the endpoints with an enum of kinds of which the query names two values or
 * more, each by its own concept: the endpoint deals in those kinds together. So does a read of
 * the whole cluster (a cluster-scope GET with no placeholder) for one kind, when the query reads
 * all of it across the cluster ("which containers exist across all nodes": /cluster/resources,
 * whose `type` is vm, storage, node or sdn). The word that says the cluster is no kind there,
 * though /cluster/status lists items of type cluster.
 */
export function enumSpanned(index: SearchIndex, analysis: ReturnType<typeof analyzeQuery>): Set<number>[] {
  const { concepts } = analysis;
  const readsClusterWide = analysis.method === "GET" && analysis.namesCluster && analysis.asksForAll;
  const wholeClusterRead = (id: number) =>
    index.scope[id] === "cluster" && index.endpoints[id]!.method === "GET" && index.placeholders[id]!.length === 0;
  const clusterStem = stem("cluster", index.stems);
  const saysCluster = (c: number) => concepts[c]!.terms.get(clusterStem) === 1;
  // Per enum (endpoint * ENUMS_PER_ENDPOINT + enum): each concept that names one of its values, and by which value.
  const byEnum = new Map<number, Map<number, string>>();
  concepts.forEach((concept, c) => {
    if (concept.verb) return;
    // "make vnet prod VLAN-aware": a noun before a name names that one object, no kind among others.
    if ([...concept.primaries].some((p) => analysis.namedByName?.has(p))) return;
    for (const [term, weight] of concept.terms) {
      if (weight < EQUIVALENT_WEIGHT) continue;
      for (const key of index.enumSpans.get(term) ?? []) {
        const named = byEnum.get(key) ?? new Map<number, string>();
        if (!named.has(c)) named.set(c, term);
        byEnum.set(key, named);
      }
    }
  });
  const out: Set<number>[] = concepts.map(() => new Set());
  for (const [key, named] of byEnum) {
    const id = Math.floor(key / ENUMS_PER_ENDPOINT);
    // Two values or more, each named by its own concept.
    if (named.size >= 2 && new Set(named.values()).size >= 2) {
      for (const c of named.keys()) out[c]!.add(id);
    } else if (readsClusterWide && wholeClusterRead(id)) {
      for (const c of named.keys()) if (!saysCluster(c)) out[c]!.add(id);
    }
  }
  return out;
}

/**
 * The subsystem words each concept names ("ceph", "sdn"; subsystemWords): a word typed outright
 * (QueryAnalysis.outright), not as a verb, nor right before the noun of a top-level list the
 * subsystem does not hold ("the ceph storage" is a storage; "the ceph pool" is Ceph's). A phrase
 * the synonym groups equate with the subsystem's word ("high availability": ha, "guest agent":
 * agent) counts as that word typed, under the same rules (phraseLeads in search-query.ts).
 */
export function subsystemsNamed(index: SearchIndex, analysis: ReturnType<typeof analyzeQuery>): Set<string>[] {
  const { outright, listModifiers } = analysis;
  const names = (p: string) => {
    if (!index.subsystems.has(p)) return false;
    const noun = listModifiers.get(p);
    return noun === undefined || !!index.subsystemLists.get(p)?.has(noun);
  };
  // A subsystem said twice ("HA … high availability") is asked within once.
  const seen = new Set<string>();
  const named: Set<string>[] = [];
  for (const concept of analysis.concepts) {
    if (concept.verb) continue;
    const words = [...concept.primaries, ...(concept.leadStems ?? [])].filter(
      (p) => outright.has(p) && names(p) && !seen.has(p),
    );
    for (const word of words) seen.add(word);
    if (words.length > 0) named.push(new Set(words));
  }
  return named;
}

export function runSearch(
  index: SearchIndex,
  query: string,
  options: SearchOptions = {},
  hints: SearchHints = {},
): SearchPage {
  const n = index.endpoints.length;
  const analysis = analyzeQuery(index, query, hints.described);
  if (hints.guest && analysis.guest === "none") analysis.guest = hints.guest;
  const wantMethod = options.method?.toUpperCase();
  const scores = new Float64Array(n);
  const matched = new Float64Array(n);
  const best = new Float64Array(n);
  const inConcept = new Uint8Array(n);
  const byParams = new Uint8Array(n);
  // Which of the first 32 concepts each endpoint matched.
  const conceptsMatched = new Uint32Array(n);
  let totalWeight = 0;
  const idfOf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const caps: number[] = [];
  const spanned = enumSpanned(index, analysis);
  // The endpoints the current concept reached, so that only they are summed and reset.
  const touched: number[] = [];
  analysis.concepts.forEach((concept, c) => {
    const lists: [list: PostingList, termWeight: number, term: string][] = [];
    for (const [term, termWeight] of concept.terms) {
      const list = index.postings.get(term);
      if (list) lists.push([list, termWeight, term]);
    }
    // A synonym can be no rarer than the word typed: "cluster" must not score like "datacenter".
    let cap = 0;
    for (const p of concept.primaries) {
      const list = index.postings.get(p);
      if (list) cap = Math.max(cap, idfOf(list.ids.length));
    }
    for (const p of concept.capWith ?? []) {
      const list = index.postings.get(p);
      if (list) cap = Math.min(cap, idfOf(list.ids.length));
    }
    if (cap === 0) {
      inConcept.fill(0);
      let df = 0;
      let looseDf = 0;
      for (const [list, termWeight] of lists) {
        for (const id of list.ids) {
          if (inConcept[id] === 0) {
            inConcept[id] = 1;
            looseDf++;
          }
          if (termWeight >= EQUIVALENT_WEIGHT && inConcept[id] === 1) {
            inConcept[id] = 2;
            df++;
          }
        }
      }
      if (looseDf === 0) {
        caps.push(0);
        return;
      }
      cap = idfOf(df || looseDf);
    }
    caps.push(cap);
    for (const [list, termWeight, term] of lists) {
      const df = list.ids.length;
      const idf =
        concept.primaries.has(term) && !concept.capWith
          ? idfOf(df)
          : concept.apiWords?.has(term) && !concept.capWith
            ? Math.min(cap, idfOf(df) * SYNONYM_RAISE)
            : Math.min(idfOf(df), cap);
      for (let k = 0; k < df; k++) {
        const id = list.ids[k]!;
        if (concept.outside?.has(id)) continue;
        const tf = list.weights[k]!;
        const value = termWeight * idf * ((tf * (SATURATION + 1)) / (tf + SATURATION));
        if (value > best[id]!) {
          if (best[id] === 0) touched.push(id);
          best[id] = value;
          byParams[id] = list.paramOnly?.has(id) ? 1 : 0;
        }
      }
    }
    for (const id of spanned[c] ?? []) {
      const value = cap * SPAN_VALUE;
      if (value > best[id]!) {
        if (best[id] === 0) touched.push(id);
        best[id] = value;
        byParams[id] = 0;
      }
    }
    totalWeight += concept.weight;
    for (const id of touched) {
      scores[id] = scores[id]! + concept.weight * best[id]!;
      // A passing mention (one parameter's description) covers a concept only partly, and what
      // only the parameters say covers it less than what the endpoint says of itself.
      const share = Math.min(1, best[id]! / (cap * FULL_MATCH)) * (byParams[id] ? PARAMETER_COVERAGE : 1);
      matched[id] = matched[id]! + concept.weight * share;
      if (c < 32) conceptsMatched[id] = conceptsMatched[id]! | (1 << c);
      best[id] = 0;
    }
    touched.length = 0;
  });
  const lift = paramLift(index, analysis, caps, idfOf);
  const asked = new Set<string>();
  for (const concept of analysis.concepts) {
    // A negation or particle outside its name's phrase asks for no name: the names holding it are
    // those it no longer reaches (phraseBoundWords).
    for (const t of concept.terms.keys()) if (!concept.outside || !concept.primaries.has(t)) asked.add(t);
    if (concept.names) asked.add(concept.names);
  }
  for (const part of analysis.compoundParts) asked.add(part);
  const typedAsked = typedTerms(analysis.concepts, analysis.compoundParts);
  // The words that may name an item: what is asked, and each word typed, which a phrase's term
  // holds whole ("acme account").
  const spoken = new Set([...asked, ...analysis.typedStems]);
  const subsystems = subsystemsNamed(index, analysis);
  const pinned = hints.pinned ?? [];
  // A path typed need not be taken: "snapshot VM 100 before editing /etc/fstab", "convert VM 100
  // to a template, its disk is /var/lib/vz/images/100/base.qcow2".
  const valueIds = analysis.concepts.flatMap((c) =>
    [...c.primaries]
      .filter((t) => t.startsWith("#") && !OPTIONAL_VALUE_TERMS.has(t))
      .map((t) => new Set(index.postings.get(t)?.ids ?? [])),
  );
  const takesValues = (id: number) => valueIds.every((ids) => ids.has(id));
  // "lock out the account": the verb's reverse ("un" and the verb, as English makes it) is not asked.
  const reversed = new Set(
    analysis.concepts.filter((c) => c.verb).flatMap((c) => [...c.primaries].map((t) => `un${t}`)),
  );
  // Each endpoint found, with what its score is at most (every factor above 1 its method can get
  // applying at once), so that only those that may reach the page are scored in full: most
  // endpoints a query touches share a word or two with it and rank far below.
  const candidates: Candidate[] = [];
  for (let id = 0; id < n; id++) {
    const place = pinned.indexOf(id);
    if (scores[id] === 0 && place < 0) continue;
    const e = index.endpoints[id]!;
    if (wantMethod && e.method !== wantMethod) continue;
    if (options.within && !options.within(id)) continue;
    const coverage = totalWeight ? matched[id]! / totalWeight : 0;
    const base = (scores[id]! + PARAM_LIFT * lift[id]!) * (0.4 + 0.6 * coverage);
    // A CLI-only command's nearest endpoints count more where the tool's other commands
    // live, among those that take the values typed ("pveam remove local:vztmpl/x": a volume ID).
    const inHome = hints.homes?.has(index.homes[id]!) ?? false;
    // `pct status <vmid>`: the command acts on one guest, so endpoints of one guest come first.
    const ofObject = hints.object !== undefined && index.placeholders[id]!.includes(hints.object);
    const bound =
      place >= 0
        ? Infinity
        : (ofObject ? PINNED * OBJECT_TIER : 0) +
          (inHome ? HOME_FACTOR : 1) * (base * factorCeiling(e.method, analysis));
    candidates.push({ id, base, place, inHome, ofObject, bound });
  }
  const scored = (candidate: Candidate): Ranked => {
    const { id, base, place, inHome, ofObject } = candidate;
    const e = index.endpoints[id]!;
    const units = index.identity[id]!;
    // "throw away the network changes": a DELETE asked says what a DELETE does (revert them).
    const deletes = analysis.methodStated && analysis.method === "DELETE" ? index.deleteVerb[id] : undefined;
    const missing = unitsMissed(units, asked, typedAsked, deletes);
    const facts: EndpointFacts = {
      method: e.method,
      guestKind: index.guestKind[id]!,
      oneGuest: index.oneGuest[id] === 1,
      takesGuests: index.takesGuests[id] === 1,
      item: index.itemOfCollection[id] === 1,
      collectionOf: index.collectionOf[id],
      itemOf: index.itemOf[id],
      keyOf: index.keyOf[id],
      creates: index.creates[id],
      navigation: index.navigation[id] === 1,
      indexes: index.indexes[id],
      websocket: index.websocket[id] === 1,
      // A setting the query names says what an endpoint of many settings is for ("mount point":
      // a container's config), whatever the endpoint is called.
      identityMiss:
        units.length && !(lift[id]! > 0 && index.settings[id]! >= MANY_SETTINGS) ? missing / units.length : 0,
      scope: index.scope[id]!,
      bulk: index.bulk[id] === 1,
      agentTwin: index.agentTwin[id] === AGENT_TWIN,
      ownTwin: index.agentTwin[id] === OWN_TWIN,
      agentCommand: index.agentCommand[id] === 1,
      createsGuest: index.createsGuest[id] === 1,
      powerAction: index.powerAction[id] === 1,
      missesValue: !takesValues(id),
      takesNode: index.takesNode[id] === 1,
      takesStorage: "storage" in e.parameters,
      doesCausedVerb:
        analysis.causedVerb !== undefined && units.some((unit) => unit.some((t) => analysis.causedVerb!.has(t))),
      returnsImage: index.returnsImage[id] === 1,
      subsystemsMissed: subsystems.length
        ? subsystems.filter((named) => !index.subsystemsOf[id]!.some((w) => named.has(w))).length
        : 0,
      doesSubordinate:
        analysis.subordinates !== undefined && units.some((unit) => unit.some((t) => analysis.subordinates!.has(t))),
      listsBetter: listsBetter(index.listedBy[id]!, id, matched, conceptsMatched),
      undoesVerb: reversed.size > 0 && units.some((unit) => unit.some((t) => reversed.has(t))),
      itemUnspoken: !itemSpokenOf(index.itemOf[id], index.itemNames[id]!, {
        asked: spoken,
        guest: analysis.guest !== "none" || analysis.namesGuest || !!analysis.machineByNumber,
        takesTypedValue: valueIds.some((ids) => ids.has(id)),
      }),
      doesPrevented:
        analysis.prevented !== undefined &&
        (units.some((unit) => unit.some((t) => analysis.prevented!.has(t))) ||
          (e.method === "DELETE" && analysis.prevented.has(DELETE_STEM))),
    };
    const score = base * scoreFactor(facts, analysis);
    const home = inHome && takesValues(id);
    const rank =
      place >= 0
        ? hints.ordered
          ? PINNED * (pinned.length + 1 - place)
          : PINNED * 2 + score
        : (ofObject ? PINNED * OBJECT_TIER : 0) + (home ? HOME_FACTOR : 1) * score;
    return { id, score, rank };
  };
  const offset = Math.max(0, options.offset ?? 0);
  const limit = Math.max(1, options.limit ?? 10);
  const results = rankedPrefix(candidates, scored, Math.max(offset + limit, TWINS_REORDERED));
  const { tieOrder } = index;
  results.sort((a, b) => b.rank - a.rank || tieOrder[a.id]! - tieOrder[b.id]!);
  diversify(results, index.families);
  const hits = results.slice(offset, offset + limit).map(({ id, score }) => {
    const e = index.endpoints[id]!;
    return {
      method: e.method,
      path: e.path,
      description: index.summaries[id]!,
      ...(e.allowtoken ? {} : { refusesTokens: true as const }),
      score: Math.round(score * 100) / 100,
    };
  });
  return { total: candidates.length, hits };
}

interface Candidate {
  id: number;
  /** The score before its factors: the words' match, lifted by the parameters, times the coverage. */
  base: number;
  /** Its place among the endpoints a recognised command pins, or -1. */
  place: number;
  inHome: boolean;
  ofObject: boolean;
  /** What its rank is at most. */
  bound: number;
}

interface Ranked {
  id: number;
  score: number;
  rank: number;
}

/**
 * The candidates that may be among the first `wanted` by rank, scored in full: first the
 * 2 x `wanted` with the highest bounds, then any other whose bound reaches the `wanted`-th rank
 * found. One left out ranks below that many others, so the first `wanted` are exactly those of
 * scoring every candidate (ties included: a bound equal to the threshold is scored).
 */
export function rankedPrefix<C extends { bound: number }>(
  candidates: readonly C[],
  scored: (candidate: C) => Ranked,
  wanted: number,
): Ranked[] {
  if (candidates.length <= 2 * wanted) return candidates.map(scored);
  const bounds = Float64Array.from(candidates, (c) => c.bound).sort();
  const first = bounds[bounds.length - 2 * wanted]!;
  const results: Ranked[] = [];
  const rest: C[] = [];
  for (const c of candidates) {
    if (c.bound >= first) results.push(scored(c));
    else rest.push(c);
  }
  const ranks = Float64Array.from(results, (r) => r.rank).sort();
  const threshold = ranks[ranks.length - wanted]!;
  for (const c of rest) if (c.bound >= threshold) results.push(scored(c));
  return results;
}
