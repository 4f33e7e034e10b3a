// What the catalog is made of, and the pure path helpers every part of it uses. The catalog,
// its search and its describe all import from here; this module imports none of them.
import { encodeSegment } from "../proxmox/path.ts";
import type { MethodInfo, ParameterInfo, PermissionsInfo } from "./schema.ts";

/** Where a catalog came from, as shown to the model (never with credentials). */
export interface CatalogSource {
  kind: "configured" | "cluster" | "public" | "inline";
  /** URL (userinfo and query values removed) or file path. */
  location: string;
}

/** A source tried and what came of it, e.g. "answered HTTP 404". */
export interface Attempt {
  source: CatalogSource;
  outcome: string;
}

/** "cluster https://pve:8006/... answered HTTP 404; public https://pve.proxmox.com/... could not be reached: ...". */
export function attemptsText(attempts: readonly Attempt[]): string {
  return attempts.map((a) => `${a.source.kind} ${a.source.location} ${a.outcome}`).join("; ");
}

export interface Endpoint {
  /** GET, POST, PUT or DELETE. */
  method: string;
  /** Template, e.g. /nodes/{node}/qemu/{vmid}/snapshot. */
  path: string;
  /** The handler name, e.g. vm_stop. */
  name: string;
  description: string;
  /** False when the endpoint refuses API tokens. Missing means allowed, as in Proxmox. */
  allowtoken: boolean;
  protected: boolean;
  downloadAllowed: boolean;
  exposeCredentials: boolean;
  proxyto: string | undefined;
  parameters: Record<string, ParameterInfo>;
  permissions: PermissionsInfo | undefined;
  returns: unknown;
  /** The whole validated method object, unknown fields included. */
  info: MethodInfo;
}

export interface PathEntry {
  path: string;
  segments: string[];
  /** Endpoints of this path, in GET, POST, PUT, DELETE order. */
  methods: Endpoint[];
  children: string[];
}

export interface PathMatch {
  template: string;
  /** Placeholder values taken from a concrete path ({} for a template). */
  params: Record<string, string>;
}

export interface SkippedMethod {
  path: string;
  method: string;
  reason: string;
}

/**
 * Whether a parameter's description retires it ("Deprecated: use notification targets/matchers
 * instead.", "Deprecated, use 'max-workers' instead."), as opposed to one of its values or
 * forms being deprecated ("'legacy=' is deprecated").
 */
export function isDeprecated(description: string | null | undefined): boolean {
  return typeof description === "string" && /\bdeprecated(?:[:,]| in favou?r\b)/i.test(description);
}

/**
 * The keys of a parameter's property string ("virtio=<mac>,bridge=vmbr0"): its own format's, or
 * for an array the format of its items (the node maps of /cluster/mapping/pci); undefined when it
 * has none.
 */
export function propertyStringKeys(p: ParameterInfo): Record<string, unknown> | undefined {
  if (p.format && typeof p.format === "object") return p.format as Record<string, unknown>;
  const items =
    p.type === "array" && p.items && typeof p.items === "object" ? (p.items as { format?: unknown }) : undefined;
  return items?.format && typeof items.format === "object" ? (items.format as Record<string, unknown>) : undefined;
}

const TRAILING_PLACEHOLDER = /\/\{[^{}]+\}$/;

/** Whether a path is one item of a list: it ends with a placeholder ("/storage/{storage}"). */
export function endsInPlaceholder(template: string): boolean {
  return TRAILING_PLACEHOLDER.test(template);
}

/** The path of the list an item belongs to ("/storage/{storage}" -> "/storage"); a path without a trailing placeholder is itself. */
export function collectionPath(template: string): string {
  return template.replace(TRAILING_PLACEHOLDER, "");
}

/** The {placeholder} names of a path template. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!);
}

/** A template with its placeholders filled from `values` (encoded as path segments); others stay. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^{}]+)\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : encodeSegment(values[name]),
  );
}

/**
 * What a caller may pass as a path: a template, a concrete path, a full URL, with or
 * without /api2/json, a query string or a trailing slash. Returns "/a/b" form.
 */
export function normalizeInputPath(input: string): string {
  let p = input.trim();
  const url = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(p);
  if (url) p = url[1] ?? "/";
  p = p.replace(/[?#].*$/, "");
  p = p.replace(/^\/*api2\/(json|extjs|html|spiceconfig|png)(?=\/|$)/i, "");
  p = `/${p
    .split("/")
    .filter((s) => s.length > 0)
    .join("/")}`;
  return p;
}

/** What describe needs of a catalog: path lookup only. */
export interface PathLookup {
  readonly size: number;
  match(path: string): PathMatch | undefined;
  pathEntry(template: string): PathEntry | undefined;
  closest(path: string, n?: number): string[];
}

/** One subcommand of a Proxmox CLI tool, as its man page's SYNOPSIS lists it. */
export interface CliCommand {
  /** The whole command, e.g. "qm set" or "vzdump". */
  command: string;
  /** The tool, e.g. "qm". */
  binary: string;
  /** Positional arguments in order, e.g. ["vmid"]. */
  args: string[];
  /** Option names without the dashes, e.g. ["memory", "cores"]. */
  options: string[];
  /** The command's description: for a command the API answers, the endpoint's own description. */
  description: string;
  /** "An alias for 'qm disk move'": the command this one stands for. */
  aliasOf?: string;
  /** The values an argument takes when the page lists them, e.g. qm guest cmd's <command>. */
  values?: Record<string, string[]>;
}

/** A command line shown as an example in the docs' prose, with the words around it. */
export interface DocsExample {
  line: string;
  /** It followed a shell prompt ("# vgs") or stands inline in the prose: it is surely a command. */
  prompted?: true;
  /** It stands in running text, not in an example block. */
  inline?: true;
  /** The titles of the section (and its parent) the example is in. */
  title: string;
  /** The paragraph just before the example. */
  paragraph: string;
  /** The names of the values the command prints in the example ("Quorate", "Expected votes"). */
  output?: string[];
}

/** A section of the docs: its title and the paragraph that opens it. */
export interface DocsSection {
  title: string;
  /** The title of the section it is part of, when any. */
  parent: string;
  text: string;
}

/** A section or a term that defines terms one by one ("Macro Definitions": Amanda, BGP, SSH…; "content": images, backup…). */
export interface DocsDefinitions {
  title: string;
  terms: string[];
}

/** What one docs page contributes. */
export interface DocsPage {
  name: string;
  commands: CliCommand[];
  examples: DocsExample[];
  sections: DocsSection[];
  definitions?: DocsDefinitions[];
  /** Acronyms the page defines ("Object Storage Daemon (OSD)"): [acronym, expansion], lower case. */
  acronyms?: (readonly [string, string])[];
  /** Files a table describes ("datacenter.cfg": "Proxmox VE datacenter-wide configuration …"): [file, description]. */
  files?: (readonly [string, string])[];
  /** Folders a table says are links ("qemu-server": "nodes/<LOCAL_HOST_NAME>/qemu-server/"): [link, target]. */
  fileLinks?: (readonly [string, string])[];
}

const IS_PLACEHOLDER = /^\{[^{}]+\}$/;

/**
 * Whether a template lies under a prefix given as a template or a concrete path: segment by
 * segment, a placeholder of the template takes any value ("/nodes/pve1/storage" is
 * "/nodes/{node}/storage"), and a placeholder of the prefix only a placeholder.
 */
export function isUnder(template: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length > template.length) return false;
  return prefix.every((p, i) => {
    const t = template[i]!;
    if (p === t) return true;
    if (IS_PLACEHOLDER.test(t)) return true;
    return false;
  });
}

/** Calls `visit` with each field an endpoint returns, its items' fields included, three levels deep. */
export function eachReturnedField(returns: unknown, visit: (name: string, prop: unknown) => void, depth = 0): void {
  if (!returns || typeof returns !== "object" || depth > 3) return;
  const r = returns as { properties?: unknown; items?: unknown };
  if (r.properties && typeof r.properties === "object") {
    for (const [name, prop] of Object.entries(r.properties as Record<string, unknown>)) {
      visit(name, prop);
      eachReturnedField(prop, visit, depth + 1);
    }
  }
  if (r.items) eachReturnedField(r.items, visit, depth + 1);
}

/** The string values of an enum, if `prop` has one. */
const enumStrings = (prop: unknown): string[] => {
  const allowed = (prop as { enum?: unknown } | null)?.enum;
  return Array.isArray(allowed) ? allowed.filter((v): v is string => typeof v === "string") : [];
};

/**
 * Names of the fields an endpoint returns ("quorate", "avail"): what a reader asks for; and the
 * values they may take, which say what kinds of thing come back (the items of /cluster/resources
 * are of type qemu, lxc, node, storage...).
 */
export function returnFields(returns: unknown, names: string[], values: string[]): void {
  eachReturnedField(returns, (name, prop) => {
    names.push(name);
    values.push(...enumStrings(prop));
  });
}

/** Fields whose values say what kind of thing an item is. */
const KIND_FIELD = /^(type|content|kind)$/;

/**
 * The value lists of an endpoint's enums of kinds, its parameters' and its returned fields'
 * ("qemu", "lxc", "node", "storage" for the `type` of the items /cluster/resources returns;
 * "images", "iso", "backup" for a storage's `content`).
 */
export function kindEnumsOf(e: Endpoint): string[][] {
  const out: string[][] = [];
  const add = (name: string, prop: unknown) => {
    const kinds = KIND_FIELD.test(name) ? enumStrings(prop) : [];
    if (kinds.length >= 2) out.push(kinds);
  };
  for (const [name, p] of Object.entries(e.parameters)) add(name, p);
  eachReturnedField(e.returns, add);
  return out;
}
