// Which API endpoint each CLI subcommand calls, worked out from the man pages alone. Proxmox
// builds its CLI tools from the API handlers (PVE::CLIHandler maps each subcommand onto a
// handler), so a man page's command description is that endpoint's own description and its
// options are the endpoint's parameters. A command is matched to the endpoint whose
// description and parameters agree best; twins with the same text ("Create a Template." of
// VMs and of containers) are told apart by where the tool's other commands live.
import type { CliCommand, Endpoint } from "./model.ts";
import { stem } from "./stem.ts";
import { METHOD_HINTS } from "./synonyms.ts";
import { identifierWords, markupToText, STOPWORDS, words } from "./text.ts";

export interface CliMapping {
  command: string;
  /** Index into the endpoints, or undefined when the command has no API twin. */
  endpoint: number | undefined;
  /** The command's own description, shown when it has no twin. */
  description: string;
  /** The command this one is an alias of, when it is one. */
  aliasOf?: string;
  /** Values an argument takes (qm guest cmd's <command>), for commands that name a sub-endpoint by value. */
  values?: string[];
  /** The command's first argument ("vmid" of `pct status <vmid>`): the object it acts on. */
  object?: string;
  /** For a command with no API twin: the names of the values its examples print ("Quorate", "Expected votes"). */
  output?: string[];
  /** For a command with no API twin: the GET that returns most of what it prints, and those names. */
  readsLike?: { endpoint: number; fields: string[] };
}

/** How much each signal counts; a match needs MIN_SCORE, and a clear lead over a different endpoint. */
const DESCRIPTION_WEIGHT = 0.6;
const PARAMETER_WEIGHT = 0.4;
const HOME_WEIGHT = 0.15;
const PATH_WEIGHT = 0.1;
const METHOD_WEIGHT = 0.1;
const MIN_SCORE = 0.62;
/** Below this the descriptions are about different things, whatever the parameters say. */
const MIN_DESCRIPTION = 0.75;
/** Matching by parameters alone: how many of the command's options, what share of them (by rarity), and by how much more than any other endpoint. */
const MIN_SHARED_PARAMETERS = 3;
const MIN_PARAMETER_SHARE = 0.75;
const PARAMETER_LEAD = 0.2;
/** ... and the descriptions must still be about the same thing. */
const MIN_RELATED_DESCRIPTION = 0.25;
/** A candidate this close to the best is a tie, broken by the tool's home. */
const TIE = 0.02;

/** A description as compared: its normalized text and its stemmed content words. */
export interface DescriptionForm {
  text: string;
  terms: Set<string>;
}

export function descriptionForm(description: string, stems?: Map<string, string>): DescriptionForm {
  const all = words(markupToText(description));
  return { text: all.join(" "), terms: new Set(all.filter((w) => !STOPWORDS.has(w)).map((w) => stem(w, stems))) };
}

/**
 * 1 for the same text; 0.9 when one starts with the other; otherwise the overlap of content
 * words: Dice, or, when the command's words (at least three) appear in the endpoint's somewhat
 * longer description (the CLI often shortens it), the share of them found.
 */
export function descriptionSimilarity(cli: DescriptionForm, api: DescriptionForm): number {
  if (cli.text.length === 0 || api.text.length === 0) return 0;
  if (cli.text === api.text) return 1;
  if (
    (cli.text.startsWith(api.text) || api.text.startsWith(cli.text)) &&
    Math.min(cli.text.length, api.text.length) >= 12
  )
    return 0.9;
  if (cli.terms.size === 0 || api.terms.size === 0) return 0;
  let shared = 0;
  for (const t of cli.terms) if (api.terms.has(t)) shared++;
  const dice = (2 * shared) / (cli.terms.size + api.terms.size);
  // Shortened, not a different sentence that happens to share a few words: the endpoint's text at most about twice as long.
  const contained =
    cli.terms.size >= 3 && api.terms.size <= 2 * cli.terms.size + 2 ? (0.9 * shared) / cli.terms.size : 0;
  return Math.max(dice, contained);
}

/** The path's first two literal segments ("/nodes/{node}/qemu"), where a tool's commands gather. */
export function homeOf(path: string): string {
  const out: string[] = [];
  let literals = 0;
  for (const segment of path.split("/").filter(Boolean)) {
    out.push(segment);
    if (!segment.startsWith("{") && ++literals === 2) break;
  }
  return `/${out.join("/")}`;
}

const WRITES = new Set(["POST", "PUT"]);

/** The words of a command after the tool's name ("pveum user tfa delete" -> user, tfa, delete). */
function subcommandWords(c: CliCommand): string[] {
  return identifierWords(c.command.split(" ").slice(1).join(" "));
}

interface Candidate {
  id: number;
  score: number;
}

/**
 * Maps every command to an endpoint or to none. Two passes: the commands that match one
 * endpoint clearly tell where each tool's commands live; the rest are then scored with that
 * home as a tie-breaker. Aliases follow their target.
 */
export function mapCommands(commands: readonly CliCommand[], endpoints: readonly Endpoint[]): Map<string, CliMapping> {
  // The man page lists "--link[n]" as "link": compare names without the [n].
  const params = endpoints.map(
    (e) =>
      new Set(
        Object.keys(e.parameters)
          .map((p) => p.replace(/\[n\]$/, ""))
          .filter((p) => p !== "node"),
      ),
  );
  const paramDf = new Map<string, number>();
  for (const set of params) for (const p of set) paramDf.set(p, (paramDf.get(p) ?? 0) + 1);
  const idf = (p: string) => Math.log(1 + endpoints.length / ((paramDf.get(p) ?? 0) + 1));
  const homes = endpoints.map((e) => homeOf(e.path));

  const pathWords = endpoints.map(
    (e) => new Set([...e.path.split("/").filter((seg) => !seg.startsWith("{")), e.name].flatMap(identifierWords)),
  );

  const stems = new Map<string, string>();
  const forms = endpoints.map((e) => descriptionForm(e.description, stems));
  // Only endpoints sharing a word with a command's description can match it.
  const byTerm = new Map<string, number[]>();
  forms.forEach((f, id) => {
    for (const t of f.terms) {
      const ids = byTerm.get(t);
      if (ids) ids.push(id);
      else byTerm.set(t, [id]);
    }
  });

  /** What a command is compared by besides its description: the parameters it names, and its subcommand's words. */
  interface Said {
    named: string[];
    sub: string[];
    verb: string | undefined;
  }
  const saidBy = (c: CliCommand): Said => {
    const sub = subcommandWords(c);
    return {
      named: [...new Set([...c.args, ...c.options])].filter((p) => p !== "node"),
      sub,
      verb: sub.map((w) => METHOD_HINTS[w]).find((m) => m !== undefined),
    };
  };

  const score = ({ named, sub, verb }: Said, form: DescriptionForm, id: number): number => {
    const e = endpoints[id]!;
    const d = descriptionSimilarity(form, forms[id]!);
    if (d < MIN_DESCRIPTION) return 0;
    let p: number;
    if (named.length === 0) p = params[id]!.size === 0 ? 1 : 0.5;
    else {
      let total = 0;
      let found = 0;
      for (const name of named) {
        total += idf(name);
        if (params[id]!.has(name)) found += idf(name);
      }
      p = found / total;
    }
    // "qm guest exec" is agent/exec rather than agent: the command's words in the path.
    const inPath = sub.length ? sub.filter((w) => pathWords[id]!.has(w)).length / sub.length : 0;
    const agrees = verb === e.method ? 1 : verb && WRITES.has(verb) && WRITES.has(e.method) ? 0.5 : 0;
    return DESCRIPTION_WEIGHT * d + PARAMETER_WEIGHT * p + PATH_WEIGHT * inPath + METHOD_WEIGHT * agrees;
  };
  const ranked = (c: CliCommand): Candidate[] => {
    const form = descriptionForm(c.description, stems);
    const said = saidBy(c);
    const near = new Set<number>();
    for (const t of form.terms) for (const id of byTerm.get(t) ?? []) near.add(id);
    return [...near]
      .sort((a, b) => a - b)
      .map((id) => ({ id, score: score(said, form, id) }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score);
  };

  /** The endpoint whose parameters are the command's options, when one clearly is. */
  const byParameters = (c: CliCommand): number | undefined => {
    const { named, verb } = saidBy(c);
    if (named.length < MIN_SHARED_PARAMETERS) return undefined;
    const total = named.reduce((sum, name) => sum + idf(name), 0);
    const form = descriptionForm(c.description, stems);
    const shares = endpoints
      .map((e, id) => {
        const found = named.filter((name) => params[id]!.has(name));
        // The description is compared only where enough parameters are shared.
        const agrees =
          found.length >= MIN_SHARED_PARAMETERS &&
          (!verb || verb === e.method || (WRITES.has(verb) && WRITES.has(e.method))) &&
          descriptionSimilarity(form, forms[id]!) >= MIN_RELATED_DESCRIPTION;
        const share = agrees ? found.reduce((s, n) => s + idf(n), 0) / total : 0;
        return { id, share };
      })
      .filter((x) => x.share > 0)
      .sort((a, b) => b.share - a.share);
    const [best, second] = shares;
    if (!best || best.share < MIN_PARAMETER_SHARE || (second && second.share > best.share - PARAMETER_LEAD))
      return undefined;
    return best.id;
  };

  const own = commands.filter((c) => !c.aliasOf && c.description);
  const candidates = new Map(own.map((c) => [c.command, ranked(c)]));

  // Pass 1: where each tool's clear matches live.
  const homeCounts = new Map<string, Map<string, number>>();
  for (const c of own) {
    const list = candidates.get(c.command)!;
    const [best, second] = list;
    if (!best || best.score < MIN_SCORE) continue;
    if (second && second.score > best.score - TIE && homes[second.id] !== homes[best.id]) continue;
    const counts = homeCounts.get(c.binary) ?? new Map<string, number>();
    counts.set(homes[best.id]!, (counts.get(homes[best.id]!) ?? 0) + 1);
    homeCounts.set(c.binary, counts);
  }
  const homeShare = (binary: string, id: number): number => {
    const counts = homeCounts.get(binary);
    if (!counts) return 0;
    let total = 0;
    for (const n of counts.values()) total += n;
    return (counts.get(homes[id]!) ?? 0) / total;
  };

  // Pass 2: the best candidate, its home counted in.
  const out = new Map<string, CliMapping>();
  for (const c of own) {
    let best: Candidate | undefined;
    for (const x of candidates.get(c.command)!) {
      const total = x.score + HOME_WEIGHT * homeShare(c.binary, x.id);
      if (!best || total > best.score) best = { id: x.id, score: total };
    }
    const values = Object.values(c.values ?? {}).flat();
    out.set(c.command, {
      command: c.command,
      endpoint: best && best.score >= MIN_SCORE ? best.id : undefined,
      description: c.description,
      ...(values.length ? { values } : {}),
      ...(c.args[0] ? { object: c.args[0] } : {}),
    });
  }
  // Pass 3: a command the CLI words differently ("Adds the current node to an existing
  // cluster." for "Joins this node into an existing cluster.") but whose options are, nearly
  // all, one endpoint's parameters, and clearly more so than any other endpoint's.
  for (const c of own) {
    if (out.get(c.command)!.endpoint !== undefined) continue;
    const id = byParameters(c);
    if (id !== undefined) out.set(c.command, { ...out.get(c.command)!, endpoint: id });
  }
  for (const c of commands) {
    if (!c.aliasOf) continue;
    const target = out.get(c.aliasOf);
    out.set(c.command, {
      command: c.command,
      endpoint: target?.endpoint,
      description: target?.description ?? "",
      aliasOf: c.aliasOf,
      ...(target?.values ? { values: target.values } : {}),
      ...(target?.object ? { object: target.object } : {}),
    });
  }
  return out;
}
