// What search learns from the docs: which endpoint each CLI command calls, and natural words
// for an endpoint from the prose around the examples of its command ("vzdump 777 --mode
// snapshot" under "Backup Modes", after "Use rsync and suspend/resume to create a snapshot").
import { homeOf, mapCommands, type CliMapping } from "./cli-map.ts";
import {
  collectionPath,
  returnFields,
  type CatalogSource,
  type DocsPage,
  type Endpoint,
  type PathMatch,
} from "./model.ts";
import { stem } from "./stem.ts";
import { compactName, identifierWords, STOPWORDS, words } from "./text.ts";

export interface CliTable {
  /** Every command by its words ("qm set"), aliases included. */
  commands: Map<string, CliMapping>;
  /** Each tool, with the kind of guest its commands act on when they do (qm: qemu, pct: lxc), and where its commands live. */
  binaries: Map<string, { guest?: "qemu" | "lxc"; homes: Set<string> }>;
  /** The most words a command has, the tool's name included. */
  maxWords: number;
  /** Shell commands the docs show that are not a Proxmox CLI tool ("lsblk", "ceph", "ifreload"), by their command word. */
  shell?: Map<string, ShellExample[]>;
}

/** An example of a shell command in the docs: its words, and what the docs say around it. */
export interface ShellExample {
  words: string[];
  title: string;
  paragraph: string;
  /** The GET that returns what the example prints ("state", "scan", "errors" of `zpool status`). */
  readsLike?: { endpoint: number; fields: string[] };
}

export interface DocsKnowledge {
  source: CatalogSource;
  pages: number;
  cli: CliTable;
  /** Per endpoint: the docs' words about it, as texts to index (emptied once indexed). */
  texts: string[][];
  /** Per endpoint: the words the docs define it by, which may stand for its name (definingWords; emptied once indexed). */
  standIns: string[][];
  /** Per endpoint: values the docs define for its parameters (SSH for `macro`), indexed like the schema's enum values (emptied once indexed). */
  values: string[][];
  /** The same by parameter name: the values of `macro` (SSH, HTTPS...), which name that parameter. */
  paramValues: Map<string, string[]>;
  /** How many commands were mapped to an endpoint, and to how many endpoints. */
  mapped: { commands: number; endpoints: number };
  /** Acronyms the pages define. */
  acronyms: (readonly [string, string])[];
  /** Files the pages describe, each with a test of whether a path typed ends with it. */
  files: DescribedFile[];
}

/** A file the docs describe ("storage.cfg" of /etc/pve: "Proxmox VE storage configuration"). */
export interface DescribedFile {
  file: string;
  description: string;
  /** The page that describes it ("chapter-pmxcfs.html"). */
  page: string;
  /** Its spellings: its own name, and through each link to a folder it is in ("qemu-server/<VMID>.conf"). */
  spellings: string[];
  /** Per spelling, its test (fileNamePattern) and how much of it is fixed. */
  tests: { pattern: RegExp; specificity: number }[];
}

/** A guest's ID is a number; any other placeholder one path segment. */
const NUMERIC_PLACEHOLDERS = new Set(["<VMID>"]);

/**
 * The test of whether a path typed names a file the docs describe: it ends with the file's
 * name after a "/" or as a whole; a "<VMID>" stands for a number, another placeholder
 * ("<NAME>") for one path segment, a "*" for any part of one.
 */
export function fileNamePattern(file: string): RegExp {
  const body = file
    .split(/(<[A-Za-z_-]+>|\*)/)
    .map((part) =>
      part === "*"
        ? "[^/\\s]*"
        : NUMERIC_PLACEHOLDERS.has(part)
          ? "\\d+"
          : /^<.+>$/.test(part)
            ? "[^/\\s]+"
            : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("");
  return new RegExp(`(?:^|/)${body}$`, "i");
}

/** How much of a spelling is fixed: its literal characters, and a little for a number over any segment. */
function specificity(spelling: string): number {
  const parts = spelling.split(/(<[A-Za-z_-]+>|\*)/);
  return parts.reduce(
    (sum, part) => sum + (NUMERIC_PLACEHOLDERS.has(part) ? 0.5 : /^<.+>$|^\*$/.test(part) ? 0 : part.length),
    0,
  );
}

/**
 * The file a path or name typed names ("/etc/pve/storage.cfg", "storage.cfg",
 * "/etc/pve/qemu-server/100.conf"), the most specific when several do ("firewall/105.fw": the
 * guest's firewall, not a node's). A path from the root is one of /etc/pve, where pmxcfs is
 * mounted, or one elsewhere under /etc with the name of a file at the top of /etc/pve; a name may
 * stand alone.
 */
export function fileNamed(typed: string, files: readonly DescribedFile[]): DescribedFile | undefined {
  // Elsewhere under /etc, a file of pmxcfs's top folder by its name: /etc/ceph/ceph.conf links to
  // it, /etc/corosync/corosync.conf is the node's copy of it.
  const elsewhere = typed.startsWith("/") && !/^\/etc\/pve\//i.test(typed);
  if (elsewhere && !/^\/etc\//i.test(typed)) return undefined;
  let best: { file: DescribedFile; score: number } | undefined;
  for (const file of files) {
    if (elsewhere && file.file.includes("/")) continue;
    for (const { pattern, specificity } of file.tests)
      if (pattern.test(typed) && (!best || specificity > best.score)) best = { file, score: specificity };
  }
  return best?.file;
}

/** A spelling with its placeholders alike, to compare folders ("nodes/<>/qemu-server"). */
const shape = (path: string) => path.replace(/<[A-Za-z_-]+>/g, "<>").replace(/\/+$/, "");

/**
 * Each file the pages describe, once, with its spellings through the links to its folders
 * (pmxcfs: "qemu-server" links to "nodes/<LOCAL_HOST_NAME>/qemu-server/", so
 * "nodes/<NAME>/qemu-server/<VMID>.conf" is "qemu-server/<VMID>.conf" too).
 */
export function describedFiles(pages: readonly DocsPage[]): DescribedFile[] {
  const links = pages.flatMap((p) => p.fileLinks ?? []);
  const byFile = new Map<string, DescribedFile>();
  for (const page of pages)
    for (const [file, description] of page.files ?? []) {
      if (byFile.has(file)) continue;
      const spellings = [file];
      for (const [link, target] of links) {
        const folder = shape(target);
        const segments = file.split("/");
        for (let k = 1; k < segments.length; k++)
          if (shape(segments.slice(0, k).join("/")) === folder) spellings.push([link, ...segments.slice(k)].join("/"));
      }
      const tests = spellings.map((spelling) => ({
        pattern: fileNamePattern(spelling),
        specificity: specificity(spelling),
      }));
      byFile.set(file, { file, description, page: page.name, spellings, tests });
    }
  return [...byFile.values()];
}

/** Most characters of docs text kept per endpoint, so a much-exemplified command does not match everything. */
const MAX_TEXT_PER_ENDPOINT = 3000;

export interface PathResolver {
  match(path: string): PathMatch | undefined;
  /** The index of the endpoint with this method and template. */
  indexOf(method: string, template: string): number | undefined;
}

/** pvesh's verbs and the HTTP method each calls (pve-manager, PVE/CLI/pvesh.pm). */
export const PVESH_VERBS: Readonly<Record<string, string>> = {
  get: "GET",
  ls: "GET",
  usage: "GET",
  set: "PUT",
  create: "POST",
  delete: "DELETE",
};

/** The longest known command at the start of `tokens` (the tool's name first), with its length. */
export function longestCommand(tokens: readonly string[], cli: CliTable): [CliMapping, number] | undefined {
  for (let n = Math.min(cli.maxWords, tokens.length); n >= 1; n--) {
    const found = cli.commands.get(tokens.slice(0, n).join(" "));
    if (found) return [found, n];
  }
  return undefined;
}

export function buildDocsKnowledge(
  source: CatalogSource,
  pages: readonly DocsPage[],
  endpoints: readonly Endpoint[],
  paths: PathResolver,
): DocsKnowledge {
  const commands = mapCommands(
    pages.flatMap((p) => p.commands),
    endpoints,
  );
  const binaries = new Map<string, { guest?: "qemu" | "lxc"; homes: Set<string> }>();
  const kinds = new Map<string, Map<string, number>>();
  let maxWords = 1;
  const texts: string[][] = endpoints.map(() => []);
  const standIns: string[][] = endpoints.map(() => []);
  const mappedEndpoints = new Set<number>();
  let mappedCommands = 0;
  for (const m of commands.values()) {
    const binary = m.command.split(" ")[0]!;
    maxWords = Math.max(maxWords, m.command.split(" ").length);
    if (!binaries.has(binary)) binaries.set(binary, { homes: new Set() });
    if (m.endpoint === undefined) continue;
    mappedCommands++;
    mappedEndpoints.add(m.endpoint);
    const home = homeOf(endpoints[m.endpoint]!.path);
    binaries.get(binary)!.homes.add(home);
    const counts = kinds.get(binary) ?? new Map<string, number>();
    counts.set(home, (counts.get(home) ?? 0) + 1);
    kinds.set(binary, counts);
  }
  // A tool most of whose commands act on one kind of guest speaks of that kind ("qm" alone means VMs).
  for (const [binary, counts] of kinds) {
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const vm = counts.get("/nodes/{node}/qemu") ?? 0;
    const ct = counts.get("/nodes/{node}/lxc") ?? 0;
    if (vm > total / 2) binaries.get(binary)!.guest = "qemu";
    else if (ct > total / 2) binaries.get(binary)!.guest = "lxc";
  }
  // Worked out once, and only when some example prints values.
  let keys: ReadonlySet<string>[] | undefined;
  const returned = () => (keys ??= returnedKeys(endpoints));
  const cli: CliTable = { commands, binaries, maxWords, shell: shellExamples(pages, binaries, returned) };
  // What a command with no API twin prints says what it reads: `pvecm status` prints
  // "Quorate", "Nodes", "Config Version", which GET /cluster/status returns.
  for (const page of pages) {
    for (const example of page.examples) {
      if (!example.output?.length || !cli.binaries.has(example.line.split(" ")[0]!)) continue;
      const mapping = longestCommand(example.line.split(/\s+/), cli)?.[0];
      if (!mapping || mapping.endpoint !== undefined) continue;
      mapping.output = [...new Set([...(mapping.output ?? []), ...example.output])];
    }
  }
  for (const mapping of new Set(commands.values())) {
    if (mapping.output) mapping.readsLike = readsLike(mapping.output, returned());
  }

  const seen = endpoints.map(() => new Set<string>());
  const size = endpoints.map(() => 0);
  const attach = (id: number, text: string) => {
    if (!text || seen[id]!.has(text) || size[id]! + text.length > MAX_TEXT_PER_ENDPOINT) return;
    seen[id]!.add(text);
    size[id] = size[id]! + text.length;
    texts[id]!.push(text);
  };
  // A section or a term named like a parameter that defines terms one by one lists that
  // parameter's values, which the schema leaves open ("Macro Definitions" of pve-firewall(8):
  // SSH, HTTPS, Ping… for the firewall rules' `macro`; "content" of pvesm(1): images, backup,
  // iso… for `content`).
  const takers = new Map<string, number[]>();
  endpoints.forEach((e, id) => {
    for (const name of Object.keys(e.parameters)) takers.set(name, [...(takers.get(name) ?? []), id]);
  });
  const byStem = new Map([...takers.keys()].map((name) => [stem(name), name] as const));
  const values: string[][] = endpoints.map(() => []);
  const paramValues = new Map<string, string[]>();
  for (const page of pages) {
    for (const list of page.definitions ?? []) {
      const title = titleWords(list.title);
      const param = title.length === 1 ? byStem.get(title[0]!) : undefined;
      if (param === undefined) continue;
      for (const term of list.terms) for (const id of takers.get(param) ?? []) values[id]!.push(term);
      paramValues.set(param, [...(paramValues.get(param) ?? []), ...list.terms]);
    }
  }
  for (const page of pages) {
    for (const example of page.examples) {
      // A command named in passing stands in a paragraph about something else.
      if (example.inline) continue;
      const id = exampleEndpoint(example.line, cli, paths);
      if (id === undefined) continue;
      attach(id, example.title);
      attach(id, example.paragraph);
    }
  }
  // Chapters with no man page (SDN, notifications, host administration) describe many endpoints
  // that no command calls: a section titled by what one resource is named gets that section's words.
  const named = endpoints.map((e) => new Set(resourceWords(e)));
  const resourceOf = (id: number) => collectionPath(endpoints[id]!.path);
  const lastWords = endpoints.map((e) => new Set(resourceWords(e, true)));
  for (const page of pages) {
    if (page.commands.length > 0) continue;
    for (const section of page.sections) {
      const want = titleWords(section.title);
      if (want.length === 0) continue;
      let hits = endpoints
        .map((_, id) => id)
        .filter((id) => want.every((w) => named[id]!.has(w)) && want.some((w) => lastWords[id]!.has(w)));
      // "Notification Matchers" names /cluster/notifications/matchers, not the matcher-fields
      // beside it: of several, the one whose own name the title says whole.
      if (new Set(hits.map(resourceOf)).size > 1)
        hits = hits.filter((id) => [...lastWords[id]!].every((w) => want.includes(w)));
      const resources = new Set(hits.map(resourceOf));
      if (resources.size !== 1) continue;
      // What the section's first sentence defines the resource by may stand for its name.
      const defining = definingWords(
        section.text,
        want,
        hits.map((id) => endpoints[id]!),
      );
      for (const id of hits) standIns[id] = [...new Set([...standIns[id]!, ...defining])];
      for (const id of hits) {
        attach(id, section.title);
        attach(id, section.text);
      }
    }
  }
  return {
    source,
    pages: pages.length,
    cli,
    texts,
    standIns,
    values,
    paramValues,
    mapped: { commands: mappedCommands, endpoints: mappedEndpoints.size },
    acronyms: pages.flatMap((p) => p.acronyms ?? []),
    files: describedFiles(pages),
  };
}

/**
 * The docs' examples of commands that are not Proxmox CLI tools. A word counts as a command
 * once some example types it after a shell prompt or inline in the prose ("# vgs", "by
 * running ifreload -a"); then every example line it opens is one of its examples.
 */
function shellExamples(
  pages: readonly DocsPage[],
  binaries: ReadonlyMap<string, unknown>,
  returned: () => readonly ReadonlySet<string>[],
): Map<string, ShellExample[]> {
  const commandOf = (line: string) => line.split(" ")[0]!;
  const typed = new Set(pages.flatMap((p) => p.examples.filter((e) => e.prompted).map((e) => commandOf(e.line))));
  const shell = new Map<string, ShellExample[]>();
  for (const page of pages) {
    for (const example of page.examples) {
      const command = commandOf(example.line);
      if (!typed.has(command) || binaries.has(command)) continue;
      const list = shell.get(command) ?? [];
      const reads = example.output?.length ? readsLike(example.output, returned()) : undefined;
      list.push({
        words: example.line.toLowerCase().split(" "),
        title: example.title,
        paragraph: example.paragraph,
        ...(reads ? { readsLike: reads } : {}),
      });
      shell.set(command, list);
    }
  }
  return shell;
}

/** The fewest of a command's printed names a GET must return to stand for it, and its least lead over the next. */
const MIN_FIELDS_READ = 3;
const LEAD_FIELDS_READ = 2;

/** Per endpoint, the keys of the fields a GET returns (none for the other methods). */
export function returnedKeys(endpoints: readonly Endpoint[]): ReadonlySet<string>[] {
  return endpoints.map((e) => {
    if (e.method !== "GET") return new Set<string>();
    const names: string[] = [];
    returnFields(e.returns, names, []);
    return new Set(names.map(compactName));
  });
}

/**
 * The GET that returns what a command prints ("Name", "Nodes", "Node ID", "Quorate" of `pvecm
 * status`: GET /cluster/status), when one returns at least three of those names, two more than
 * any other (`returned` from returnedKeys).
 */
export function readsLike(
  printed: readonly string[],
  returned: readonly ReadonlySet<string>[],
): { endpoint: number; fields: string[] } | undefined {
  const wanted = new Map(printed.map((name) => [compactName(name), name] as const));
  let best: { endpoint: number; fields: string[] } | undefined;
  let runnerUp = 0;
  const names = [...wanted];
  returned.forEach((keys, endpoint) => {
    let count = 0;
    for (const [key] of names) if (keys.has(key)) count++;
    if (count > (best?.fields.length ?? 0)) {
      runnerUp = best?.fields.length ?? 0;
      best = { endpoint, fields: names.filter(([key]) => keys.has(key)).map(([, name]) => name) };
    } else runnerUp = Math.max(runnerUp, count);
  });
  if (!best || best.fields.length < MIN_FIELDS_READ || runnerUp + LEAD_FIELDS_READ > best.fields.length)
    return undefined;
  return best;
}

/** Title words that name no resource: what a section is about, not what it is. */
const GENERIC_TITLE_WORDS = new Set(
  "management manage managing configuration configure configuring settings setting overview introduction option options usage using use general basic advanced example examples permissions permission how proxmox ve pve definitions definition".split(
    " ",
  ),
);

/** How many words into a sentence its subject is looked for. */
const SUBJECT_WORDS = 4;

/**
 * The words a section's first sentence defines its resource by, when that sentence names the
 * resource first ("Notification matchers route notifications to notification targets based on
 * their matching rules": route, targets, based, matching, rules): its first clause, up to a
 * comma ("The ACME plugins task is to provide automatic verification that you, and thus …"),
 * less stop words and the words naming the resource's endpoints. `title` holds the stems of the
 * section title's words.
 */
export function definingWords(text: string, title: readonly string[], resource: readonly Endpoint[]): string[] {
  const clause = words(text.split(/[.:;](?:\s|$)|,/)[0] ?? "");
  // "Gotify is…", "A subnet define…" name what they define; "We highly recommend to use a
  // hardware RAID controller" defines no hardware.
  if (!clause.slice(0, SUBJECT_WORDS).some((w) => title.includes(stem(w)))) return [];
  const own = new Set(resource.flatMap((e) => resourceWords(e)));
  const content = clause.filter(
    (w) => !STOPWORDS.has(w) && !GENERIC_TITLE_WORDS.has(w) && !/^\d+$/.test(w) && !own.has(stem(w)),
  );
  return [...new Set(content)];
}

/** Stems of the content words of a section title. */
function titleWords(title: string): string[] {
  return [
    ...new Set(
      words(title)
        .filter((w) => !STOPWORDS.has(w) && !GENERIC_TITLE_WORDS.has(w) && !/^\d+$/.test(w))
        .map((w) => stem(w)),
    ),
  ];
}

/** Stems of the words naming an endpoint: its path's literal segments and handler name (or only the last segment). */
function resourceWords(e: Endpoint, lastOnly = false): string[] {
  const literals = e.path.split("/").filter((s) => s && !s.startsWith("{"));
  const named = lastOnly ? literals.slice(-1) : [...literals, e.name];
  return named.flatMap(identifierWords).map((w) => stem(w));
}

/** The endpoint an example command line calls: a mapped CLI command, or pvesh with an API path. */
function exampleEndpoint(line: string, cli: CliTable, paths: PathResolver): number | undefined {
  const tokens = line.split(/\s+/);
  if (tokens[0] === "pvesh" && tokens[1] && PVESH_VERBS[tokens[1]] && tokens[2]?.startsWith("/")) {
    const match = paths.match(tokens[2]);
    return match ? paths.indexOf(PVESH_VERBS[tokens[1]]!, match.template) : undefined;
  }
  if (!cli.binaries.has(tokens[0]!)) return undefined;
  return longestCommand(tokens, cli)?.[0].endpoint;
}
