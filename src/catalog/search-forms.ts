// Queries that name their endpoint outright: a CLI command the docs map to an endpoint
// ("qm set 100 --memory 4096", "ha-manager add vm:100"), a pvesh call ("pvesh get
// /cluster/resources") or a literal API path ("GET /nodes/pve1/lxc/101/config"). The named
// endpoint goes first; the rest of the ranking comes from the words as usual. A shell command
// the docs show, or a file of /etc/pve they describe, is searched by what the docs say of it,
// with the words (a shell command first pins the GET that returns what it prints, when one does).
import { fileNamed, longestCommand, PVESH_VERBS, type CliTable, type DescribedFile } from "./docs-knowledge.ts";
import type { CliMapping } from "./cli-map.ts";
import type { Endpoint, PathMatch } from "./model.ts";
import { normalizeInputPath } from "./model.ts";
import { compactName, STOPWORDS } from "./text.ts";
import { speaksOfAccess, valueKinds } from "./search-values.ts";
import { HTTP_METHODS } from "../proxmox/calls.ts";
import { HAND_GROUPS, LXC_WORDS, QEMU_WORDS } from "./synonyms.ts";

export interface FormContext {
  endpoints: readonly Endpoint[];
  match(path: string): PathMatch | undefined;
  /** Indexes of the endpoints of one template, in GET, POST, PUT, DELETE order. */
  methodsOf(template: string): number[];
  cli?: CliTable | undefined;
  /** Every placeholder name the API's paths use ("vmid", "storage", "volume"). */
  placeholders?: ReadonlySet<string>;
  /** A value the schema lists for a path placeholder with the segment after it ("pveproxy", "restart"), to the template they spell. */
  placeholderCalls?: PlaceholderCalls;
  /** The files the docs describe (the pmxcfs chapter: the files of /etc/pve). */
  files?: readonly DescribedFile[] | undefined;
}

/** A path placeholder's value -> the literal segment after the placeholder -> the template they spell. */
export type PlaceholderCalls = ReadonlyMap<string, ReadonlyMap<string, string>>;

export interface RecognizedForm {
  /** Endpoints the query names, first first. */
  pinned: number[];
  /** Whether `pinned` is in a fixed order (a command or a method was given) or to be ranked among itself. */
  ordered: boolean;
  /** The words to rank the other results by. */
  query: string;
  /** The kind of guest a tool's name says (qm: VMs, pct: containers). */
  guest?: "qemu" | "lxc";
  /** What a CLI-only command does, in the docs' words: searched with the query, at a lower weight. */
  described?: string;
  /** Where the tool's commands live, for a command of it that has no endpoint. */
  homes?: ReadonlySet<string>;
  /** The path placeholder a CLI-only command's first argument names ("vmid" for `pct status <vmid>`). */
  object?: string;
  /** What was recognised, for the answer. */
  notes: string[];
}

const METHODS: ReadonlySet<string> = new Set(HTTP_METHODS);

/**
 * pve-manager's tools that pve-docs has no page for, and the endpoint their code calls:
 * bin/pveversion prints PVE::API2::APT->versions (GET /nodes/{node}/apt/versions); bin/pvereport
 * prints PVE::Report::generate, which PVE::API2::Nodes' `report` returns (GET /nodes/{node}/report).
 */
const TOOLS_WITHOUT_DOCS: ReadonlyMap<string, readonly [string, string]> = new Map([
  ["pveversion", ["GET", "/nodes/{node}/apt/versions"]],
  ["pvereport", ["GET", "/nodes/{node}/report"]],
]);

const describe = (e: Endpoint) => `${e.method} ${e.path}`;

/**
 * The recognised form of a query, or undefined when it names no endpoint, command or tool. A
 * service's command line ("systemctl restart pve-firewall") names its endpoint where nothing
 * else does: a command the docs map, pvesh, a path or a tool come first.
 */
export function recognizeForm(query: string, ctx: FormContext): RecognizedForm | undefined {
  const tokens = typedWords(query);
  const form = recognizeNamed(query, tokens, ctx);
  if (form?.pinned.length) return form;
  const lower = tokens.map((t) => withoutPunctuation(t.toLowerCase()));
  const call = spelledCall(lower, ctx.placeholderCalls);
  const pinned = call ? ctx.methodsOf(call.template) : [];
  if (!call || !pinned.length) return form;
  const placeholder = call.template.split("/").at(-2)!.slice(1, -1);
  return {
    ...(form ?? { query }),
    pinned,
    ordered: true,
    notes: [
      ...(form?.notes ?? []),
      ...pinned.map(
        (id) =>
          `the ${placeholder} ${call.value} and ${call.action}: ${describe(ctx.endpoints[id]!)} with ${placeholder}=${call.value}`,
      ),
    ],
  };
}

/** The words typed. "`qm set 100 --memory 4096`", "\"pvesm list local\"": quotes around a command line are no part of it. */
function typedWords(query: string): string[] {
  return query
    .trim()
    .split(/\s+/)
    .map((t) => t.replace(/^[`"'\u2018\u2019\u201c\u201d]+|[`"'\u2018\u2019\u201c\u201d]+$/g, ""))
    .filter(Boolean);
}

/** A CLI command, pvesh call, tool, API path, described file or shell command the query names. */
function recognizeNamed(query: string, tokens: readonly string[], ctx: FormContext): RecognizedForm | undefined {
  const lower = tokens.map((t) => t.toLowerCase());
  const without = (from: number, count: number) => [...tokens.slice(0, from), ...tokens.slice(from + count)].join(" ");

  // pvesh <verb> <path>: the method and the path, no docs needed.
  const pvesh = lower.indexOf("pvesh");
  if (pvesh >= 0 && PVESH_VERBS[lower[pvesh + 1] ?? ""] && tokens[pvesh + 2]?.startsWith("/")) {
    const method = PVESH_VERBS[lower[pvesh + 1]!]!;
    const found = pathEndpoints(tokens[pvesh + 2]!, method, ctx);
    if (found) {
      return {
        pinned: found.ids,
        ordered: true,
        query: without(pvesh, 3),
        notes: [`pvesh ${lower[pvesh + 1]} calls ${method} ${found.template}`],
      };
    }
  }

  // A tool the docs have no page for, by the endpoint its code calls.
  const bare = lower.findIndex((t) => TOOLS_WITHOUT_DOCS.has(t));
  if (bare >= 0) {
    const [method, template] = TOOLS_WITHOUT_DOCS.get(lower[bare]!)!;
    const ids = ctx.methodsOf(template).filter((id) => ctx.endpoints[id]!.method === method);
    if (ids.length)
      return {
        pinned: ids,
        ordered: true,
        query: without(bare, 1),
        notes: [`${lower[bare]} calls ${method} ${template} (from its code in pve-manager; it has no man page)`],
      };
  }

  // A CLI command of the docs: the longest known command after the tool's name. A path after
  // it is the command's argument ("pveum acl delete /storage/nfs1"), not an API path.
  const cli = ctx.cli;
  const at = cli ? lower.findIndex((t) => cli.binaries.has(t)) : -1;
  if (cli && at < 0 && !typesCall(lower, ctx.placeholderCalls)) {
    // An API path typed is that path ("GET /cluster/sdn/vnets"), even where a file's name fits it.
    const path = literalPath(tokens, ctx);
    const file = path ? undefined : describedFile(tokens, ctx);
    if (file) return file;
    return shellCommand(query, lower, cli, ctx) ?? path ?? quotedShellCommand(query, cli, ctx);
  }
  if (!cli || at < 0 || lower[at] === "pvesh") return literalPath(tokens, ctx);
  const tool = cli.binaries.get(lower[at]!)!;
  const guest = tool.guest;
  const found = longestCommand(lower.slice(at), cli);
  if (!found)
    return (
      literalPath(tokens, ctx) ?? {
        pinned: [],
        ordered: true,
        query,
        ...(guest ? { guest } : {}),
        homes: tool.homes,
        notes: [],
      }
    );
  const [mapping, length] = found;
  // "a vzdump archive": a tool named in the middle of a sentence, followed by a plain word and
  // no command of its own, is a noun there.
  const after = lower[at + length];
  if (at > 0 && length === 1 && after !== undefined && /^[a-z]+$/.test(after) && !STOPWORDS.has(after))
    return literalPath(tokens, ctx) ?? { pinned: [], ordered: true, query, ...(guest ? { guest } : {}), notes: [] };
  const rest = without(at, length);
  const name = mapping.aliasOf ? `${mapping.command} (alias of ${mapping.aliasOf})` : mapping.command;
  if (mapping.endpoint === undefined) {
    // `pvecm status` prints the cluster's name, nodes and quorum, which GET /cluster/status returns.
    const reads = mapping.readsLike;
    return {
      pinned: reads ? [reads.endpoint] : [],
      ordered: true,
      // What the command does, in the docs' words, is the best search for what the API offers
      // instead, among the endpoints of the tool's other commands first. The words before the
      // tool's name only frame it ("run pveam available", "the API equivalent of pct console 330").
      query: tokens.slice(at + length).join(" "),
      described: `${mapping.command.split(" ").slice(1).join(" ")}: ${mapping.description}`,
      homes: tool.homes,
      ...(actsOn(mapping, ctx) ? { object: mapping.object } : {}),
      ...(guest ? { guest } : {}),
      notes: [
        `${name} is a CLI-only command with no API endpoint of its own${mapping.description ? ` (${mapping.description})` : ""}; ${
          reads ? `${returnsWhatItPrints(reads, ctx)}, then the nearest endpoints` : "these are the nearest endpoints"
        }`,
      ],
    };
  }
  const endpoint = ctx.endpoints[mapping.endpoint]!;
  const pinned = [mapping.endpoint];
  // "qm guest cmd 100 fstrim": a value of the command's argument that names an endpoint below it.
  const values = new Set(mapping.values ?? []);
  const value = lower.slice(at + length).find((t) => values.has(t));
  if (value) {
    const below = ctx.methodsOf(`${endpoint.path}/${value}`);
    if (below.length) pinned.unshift(...below);
  }
  // "pvesm prune-backups … --dry-run": an option spelling the handler of another method of the
  // same path calls that one instead (pve-storage, PVE/CLI/pvesm.pm: its `prunebackups` calls
  // PVE::API2::Storage::PruneBackups->dryrun, the GET, when given dry-run).
  const siblings = ctx.methodsOf(endpoint.path).filter((id) => id !== mapping.endpoint);
  let called = name;
  for (const option of lower.slice(at + length).filter((t) => /^--?[a-z]/.test(t))) {
    // "pvesm set local --delete content": an option the endpoint takes is its own parameter.
    if (Object.hasOwn(endpoint.parameters, option.replace(/^--?/, ""))) continue;
    const named = siblings.find((id) => compactName(ctx.endpoints[id]!.name) === compactName(option));
    if (named === undefined) continue;
    pinned.unshift(named);
    called = `${name} ${option}`;
    break;
  }
  return {
    pinned,
    ordered: true,
    query: rest,
    described: mapping.description,
    ...(guest ? { guest } : {}),
    notes: [
      `${called} calls ${describe(ctx.endpoints[pinned[0]!]!)} (from the ${mapping.command.split(" ")[0]} man page)`,
    ],
  };
}

/** "see /nodes/pve1/config,": the punctuation after a path is no part of it (quotes are gone already). */
const withoutPunctuation = (token: string) => token.replace(/[,;:!?.)]+$/, "");

/** Shell commands that print a file (coreutils, util-linux, less). */
const FILE_READERS: ReadonlySet<string> = new Set(["cat", "less", "more", "head", "tail", "view"]);

/**
 * "cat /etc/pve/datacenter.cfg", "what is in storage.cfg": a file the docs describe, typed by
 * its path or name, is what the docs say it is ("Proxmox VE datacenter-wide configuration
 * (keyboard layout, proxy, …)"): those words are searched with the query, at a lower weight.
 */
function describedFile(tokens: readonly string[], ctx: FormContext): RecognizedForm | undefined {
  if (!ctx.files?.length) return undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = withoutPunctuation(tokens[i]!)
      .replace(/^\(+/, "")
      .replace(/^file:\/\//i, "");
    if (!/[./]/.test(token)) continue;
    // "GET cluster/sdn/vnets": an API path without its first slash is still that path.
    if (!token.startsWith("/") && pathEndpoints(`/${token}`, undefined, ctx)) continue;
    const found = fileNamed(token, ctx.files);
    if (!found) continue;
    // "cat /etc/pve/storage.cfg": a command that prints a file reads it.
    const before = tokens.slice(0, i).map((t, k) => (k === i - 1 && FILE_READERS.has(t.toLowerCase()) ? "show" : t));
    return {
      pinned: [],
      ordered: true,
      // The file's own words stay, without where pmxcfs is mounted ("sdn/zones.cfg": sdn zones;
      // "firewall/105.fw": a guest's).
      query: [...before, ...fileWords(token, found), ...tokens.slice(i + 1)].join(" "),
      described: withoutAsides(found.description),
      notes: [`${token} is "${found.description}" (${found.page})`],
    };
  }
  return undefined;
}

/**
 * The words of a file's path below /etc/pve, its extension left out: "/etc/pve/sdn/zones.cfg"
 * sdn zones. A number where the file's name has <VMID> is a guest's ("firewall/105.fw":
 * firewall guest 105).
 */
export function fileWords(typed: string, file: DescribedFile): string[] {
  const below = typed.replace(/^\/etc\/pve\//i, "").replace(/^\/+/, "");
  const segments = below.split("/").filter(Boolean);
  const guests = file.spellings.some((s) => s.includes("<VMID>"));
  return segments.map((segment, k) => {
    const stem = k === segments.length - 1 ? segment.replace(/\.[a-z0-9]+$/i, "") : segment;
    // "lxc/101.conf": the folder already says whose number it is.
    const kind = segments[k - 1]?.toLowerCase() ?? "";
    return guests && /^\d+$/.test(stem) && !QEMU_WORDS.has(kind) && !LXC_WORDS.has(kind) ? `guest ${stem}` : stem;
  });
}

/**
 * What a file is, without the asides in parentheses that name some of what it holds or its
 * history ("(keyboard layout, proxy, …)", "(prior to Proxmox VE 4.x, …)"); an acronym in
 * parentheses stays ("(SDN)").
 */
export function withoutAsides(description: string): string {
  return description.replace(/\s*\((?![A-Z]{2,}\))[^)]*\)/g, "");
}

/** "GET /cluster/status returns what it prints (Name, Nodes, Node ID, Quorate)". */
function returnsWhatItPrints(reads: { endpoint: number; fields: string[] }, ctx: FormContext): string {
  return `${describe(ctx.endpoints[reads.endpoint]!)} returns what it prints (${reads.fields.join(", ")})`;
}

/**
 * "systemctl restart pveproxy": a value of a path placeholder and the segment after it
 * (/nodes/{node}/services/{service}/restart) both typed, in any order, so the words search as
 * they are and not as the shell command's docs.
 */
function typesCall(tokens: readonly string[], calls: PlaceholderCalls | undefined): boolean {
  if (!calls?.size) return false;
  return tokens.some((value) => {
    const actions = calls.get(value);
    return actions !== undefined && tokens.some((action) => actions.has(action));
  });
}

/**
 * For each path placeholder whose values the schema lists, each value with the literal segment
 * after the placeholder ("pveproxy" and "restart" from /nodes/{node}/services/{service}/restart)
 * and the template of the path they spell. The word a synonym group leads with spells its
 * members' segments too, where no segment of that name exists: systemd's "status" is the API's
 * `state`.
 */
export function placeholderCalls(
  endpoints: readonly Endpoint[],
  groups: readonly (readonly string[])[] = HAND_GROUPS,
): PlaceholderCalls {
  const calls = new Map<string, Map<string, string>>();
  for (const e of endpoints) {
    const segments = e.path.split("/");
    segments.forEach((segment, k) => {
      const next = segments[k + 1];
      const values = e.parameters[segment.slice(1, -1)]?.enum;
      if (!/^\{[^{}]+\}$/.test(segment) || !next || next.startsWith("{") || !values) return;
      const template = segments.slice(0, k + 2).join("/");
      for (const v of values) {
        if (typeof v !== "string") continue;
        const value = v.toLowerCase();
        const actions = calls.get(value) ?? new Map<string, string>();
        calls.set(value, actions);
        actions.set(next, template);
      }
    });
  }
  // Each member's lead, a single word: "start up" is no command line's action.
  const leads = new Map<string, string>();
  for (const [lead, ...members] of groups) {
    if (lead === undefined || /\s/.test(lead)) continue;
    for (const member of members) if (!leads.has(member)) leads.set(member, lead);
  }
  for (const actions of calls.values())
    for (const [segment, template] of [...actions]) {
      const lead = leads.get(segment);
      if (lead !== undefined && !actions.has(lead)) actions.set(lead, template);
    }
  return calls;
}

/** A call spelled by a placeholder's value and the segment after it: pve-firewall, restart. */
interface SpelledCall {
  value: string;
  action: string;
  /** The template of the path they spell (/nodes/{node}/services/{service}/restart). */
  template: string;
}

/**
 * A value of a path placeholder and the segment after it typed as a command line: systemd's
 * ("systemctl restart pve-firewall", also inside a sentence), SysV's ("service pve-firewall
 * restart"), or the two words alone ("pve-firewall restart", "restart corosync on pve2"). Only
 * then they spell the call: in a sentence the value may be a word of its own ("start reading
 * the syslog", "syslog start time", "start the spiceproxy for VM 100" asks a guest's SPICE proxy).
 */
function spelledCall(tokens: readonly string[], calls: PlaceholderCalls | undefined): SpelledCall | undefined {
  if (!calls?.size) return undefined;
  // "systemctl restart pve-firewall.service": the unit's suffix is no part of the service's name.
  const line = tokens.map((t) => t.replace(/\.service$/, ""));
  const read = (value?: string, action?: string): SpelledCall | undefined => {
    if (value === undefined || action === undefined) return undefined;
    const template = calls.get(value)?.get(action);
    return template === undefined ? undefined : { value, action, template };
  };
  for (let k = 0; k < line.length; k++) {
    const found =
      line[k] === "systemctl"
        ? read(line[k + 2], line[k + 1])
        : line[k] === "service"
          ? read(line[k + 1], line[k + 2])
          : undefined;
    if (found) return found;
  }
  const alone = withoutHost(line);
  return alone.length === 2 ? (read(alone[0], alone[1]) ?? read(alone[1], alone[0])) : undefined;
}

/** Most docs examples whose words describe one shell command. */
const MAX_SHELL_EXAMPLES = 3;
/** Beyond that many, most sections they stand under whose titles still describe it. */
const MAX_SHELL_TITLES = 2;
/** "lspci on pve1", "dmesg at node3": the host named after the command line. */
const HOST_PREPOSITIONS = new Set(["on", "at"]);

/** A command line's words without the host named after it ("lspci on pve1"). */
function withoutHost(typed: readonly string[]): readonly string[] {
  return typed.length >= 3 && HOST_PREPOSITIONS.has(typed[typed.length - 2]!) ? typed.slice(0, -2) : typed;
}

/**
 * A shell command the docs show ("vgs", "ceph osd set noout", "uname -r"): no API call, but
 * the docs' words around its examples say what it does, and those are searched. Only a query
 * that reads as a command line counts: the command alone, or followed by an option, a path, a
 * pipe or the word its examples have next ("mount an NFS export" is no command line). When
 * only the command word matches and more than options follow, its examples say nothing of this
 * use of it.
 */
function shellCommand(
  query: string,
  typed: readonly string[],
  cli: CliTable,
  ctx: FormContext,
): RecognizedForm | undefined {
  const command = typed[0] ?? "";
  const examples = cli.shell?.get(command);
  if (!examples) return undefined;
  // "lspci on pve1": the host it runs on is no part of the command line.
  const lower = withoutHost(typed);
  const next = lower[1];
  if (next !== undefined && !/^[-/|]/.test(next) && !examples.some((e) => e.words[1] === next)) return undefined;
  const shared = (words: readonly string[]) => {
    let k = 0;
    while (k < words.length && words[k] === lower[k]) k++;
    return k;
  };
  const best = Math.max(...examples.map((e) => shared(e.words)));
  if (best === 1 && lower.slice(1).some((t) => !t.startsWith("-"))) return undefined;
  const nearest = examples.filter((e) => shared(e.words) === best);
  // Many examples alike: what they say differs, but they may all stand under one or two sections.
  const titles = [...new Set(nearest.map((e) => e.title))].filter(Boolean);
  if (nearest.length > MAX_SHELL_EXAMPLES && titles.length > MAX_SHELL_TITLES) return undefined;
  const described =
    nearest.length > MAX_SHELL_EXAMPLES
      ? titles.join(". ")
      : [...new Set(nearest.flatMap((e) => [e.title, leadIn(e.paragraph)]))].filter(Boolean).join(". ");
  // `zpool status` prints a pool's state, scan and errors, which GET /nodes/{node}/disks/zfs/{name} returns.
  const reading = nearest.flatMap((e) => (e.readsLike ? [e.readsLike] : []));
  const readsLike = new Set(reading.map((r) => r.endpoint)).size === 1 ? reading[0] : undefined;
  return {
    pinned: readsLike ? [readsLike.endpoint] : [],
    ordered: true,
    query,
    described,
    notes: [
      `${command} is a shell command on the node, not an API call; ${
        readsLike ? `${returnsWhatItPrints(readsLike, ctx)}; ` : ""
      }the docs show it under "${nearest[0]!.title}", and these are the endpoints nearest to what they say of it`,
    ],
  };
}

/**
 * "how do I do `ceph osd set noout` through the API": a shell command line in backticks, as
 * code is quoted, inside a sentence: two words or more, since one word in backticks is as often
 * a value or a key ("set the `default` realm", "the `mount` option"). Other quotes hold values
 * as often ('set the notes to "use the new NAS"'), and an API path typed comes first.
 */
function quotedShellCommand(query: string, cli: CliTable, ctx: FormContext): RecognizedForm | undefined {
  for (const [, span] of query.matchAll(/`([^`]+)`/g)) {
    const typed = span!.trim().toLowerCase().split(/\s+/);
    if (typed.length < 2) continue;
    const found = shellCommand(query, typed, cli, ctx);
    if (found) return found;
  }
  return undefined;
}

/** Fewer words than this, and the sentence before an example only points at it ("Either via the Web UI or the CLI:"). */
const POINTER_WORDS = 10;

/** The sentences that lead into an example: the paragraph's last, and the one before when the last only points. */
function leadIn(paragraph: string): string {
  const sentences = paragraph.split(/(?<=[.!?])\s+(?=[A-Z])/);
  const last = sentences.pop() ?? "";
  return last.split(" ").length < POINTER_WORDS && sentences.length ? `${sentences.pop()} ${last}` : last;
}

/** A literal API path in the query, with the method before it when given. */
function literalPath(tokens: readonly string[], ctx: FormContext): RecognizedForm | undefined {
  const without = (from: number, count: number) => [...tokens.slice(0, from), ...tokens.slice(from + count)].join(" ");
  let access: boolean | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = withoutPunctuation(tokens[i]!);
    if (!/^(\/|https?:\/\/)/i.test(token) || /^\/+$/.test(token)) continue;
    const method = i > 0 && METHODS.has(tokens[i - 1]!.toUpperCase()) ? tokens[i - 1]!.toUpperCase() : undefined;
    // "revoke joe@pve's access to /storage/backup": a path an ACL shares with the API is the ACL's
    // in a query about access, unless a method says it is called.
    access ??= speaksOfAccess(tokens.join(" "));
    if (!method && valueKinds(token, access).includes("acl")) continue;
    const found = pathEndpoints(token, method, ctx);
    if (!found) continue;
    const from = method ? i - 1 : i;
    return {
      pinned: found.ids,
      ordered: method !== undefined,
      query: without(from, method ? 2 : 1),
      notes: [`the path ${found.template}`],
    };
  }

  return undefined;
}

/**
 * Whether a CLI-only command acts on an existing object its first argument names (`pct status
 * <vmid>`): the argument is a path placeholder of the API, and the command does not create it
 * ("Create a new VM using parameters read from an OVF manifest").
 */
function actsOn(mapping: CliMapping, ctx: FormContext): mapping is CliMapping & { object: string } {
  if (mapping.object === undefined || !ctx.placeholders?.has(mapping.object)) return false;
  return !/^create\b|\bnew\b/i.test(mapping.description);
}

/** The endpoints of a literal path: the given method's first, or all of the path's methods. */
function pathEndpoints(
  raw: string,
  method: string | undefined,
  ctx: FormContext,
): { template: string; ids: number[] } | undefined {
  const path = normalizeInputPath(raw);
  if (path === "/") return undefined;
  const match = ctx.match(path);
  if (!match) return undefined;
  const ids = ctx.methodsOf(match.template);
  if (ids.length === 0) return undefined;
  if (!method) return { template: match.template, ids };
  const exact = ids.filter((id) => ctx.endpoints[id]!.method === method);
  return { template: match.template, ids: [...exact, ...ids.filter((id) => !exact.includes(id))] };
}
