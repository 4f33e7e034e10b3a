import {
  normalizeInputPath,
  placeholders,
  propertyStringKeys,
  type Endpoint,
  type PathLookup,
  type PathMatch,
} from "./model.ts";
import { toFlag, toNumber, type ParameterInfo, type PermissionsInfo } from "./schema.ts";
import { firstSentence, markupToText } from "./text.ts";

export interface ParameterDescription {
  name: string;
  type: string;
  optional: boolean;
  /** True for placeholders of the path ({node}, {vmid}), which go in the path, not the body. */
  in_path?: true;
  default?: unknown;
  enum?: unknown[];
  /** A named format such as pve-node, or "property string" with its keys in format_keys. */
  format?: string;
  format_keys?: PropertyStringSummary;
  typetext?: string;
  minimum?: number;
  maximum?: number;
  description?: string;
  /** The longer explanation, when the schema has one. */
  details?: string;
}

/** Keys of a property string ("virtio=<mac>,bridge=vmbr0"), one line each; typetext shows the layout. */
export type PropertyStringSummary = Record<string, string>;

export interface PermissionDescription {
  check?: string;
  description?: string;
}

export interface MethodDescription {
  method: string;
  name: string;
  description: string;
  parameters: ParameterDescription[];
  returns: unknown;
  permissions?: PermissionDescription;
  allowtoken: boolean;
  protected: boolean;
  proxyto?: string;
  download_allowed: boolean;
  expose_credentials?: true;
}

export interface EndpointDescription {
  path: string;
  /** Set when a concrete path was given: the values its placeholders took. */
  matched?: { input: string; params: Record<string, string> };
  methods: MethodDescription[];
  children: string[];
}

export type DescribeOutcome =
  | { found: true; description: EndpointDescription }
  | { found: false; reason: "unknown_path"; message: string; closest: string[] }
  | { found: false; reason: "unknown_method"; message: string; methods: string[] };

const METHOD_PREFIX = /^(GET|POST|PUT|DELETE)\s+(\S.*)$/i;

export function describeEndpoint(catalog: PathLookup, input: string, method?: string): DescribeOutcome {
  let pathText = input.trim();
  let wanted = method?.toUpperCase();
  const prefixed = METHOD_PREFIX.exec(pathText);
  if (prefixed) {
    wanted ??= prefixed[1]!.toUpperCase();
    pathText = prefixed[2]!;
  }
  const normalized = normalizeInputPath(pathText);
  const match: PathMatch | undefined = catalog.match(normalized);
  const entry = match ? catalog.pathEntry(match.template) : undefined;
  if (!match || !entry) {
    const closest = catalog.closest(normalized, 5);
    return {
      found: false,
      reason: "unknown_path",
      message: `${normalized} is not a path of the Proxmox API (${catalog.size} endpoints known).`,
      closest,
    };
  }
  const methods = wanted ? entry.methods.filter((m) => m.method === wanted) : entry.methods;
  if (wanted && methods.length === 0) {
    const available = entry.methods.map((m) => m.method);
    return {
      found: false,
      reason: "unknown_method",
      message: `${entry.path} has no ${wanted} method; it has ${available.length ? available.join(", ") : "no methods (it only groups its children)"}.`,
      methods: available,
    };
  }
  const description: EndpointDescription = {
    path: entry.path,
    methods: methods.map(describeMethod),
    children: entry.children,
  };
  if (Object.keys(match.params).length > 0) description.matched = { input: normalized, params: match.params };
  return { found: true, description };
}

export function describeMethod(e: Endpoint): MethodDescription {
  const inPath = new Set(placeholders(e.path));
  const parameters = Object.entries(e.parameters)
    .map(([name, p]) => describeParameter(name, p, inPath.has(name)))
    .sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
  const out: MethodDescription = {
    method: e.method,
    name: e.name,
    description: markupToText(e.description),
    parameters,
    returns: summarizeSchema(e.returns),
    allowtoken: e.allowtoken,
    protected: e.protected,
    download_allowed: e.downloadAllowed,
  };
  const permissions = describePermissions(e.permissions);
  if (permissions) out.permissions = permissions;
  if (e.proxyto) out.proxyto = e.proxyto;
  if (e.exposeCredentials) out.expose_credentials = true;
  return out;
}

function rank(p: ParameterDescription): number {
  return p.in_path ? 0 : p.optional ? 2 : 1;
}

function typeName(type: ParameterInfo["type"]): string {
  if (Array.isArray(type)) return type.join("|");
  return type ?? "string";
}

export function describeParameter(name: string, p: ParameterInfo, inPath: boolean): ParameterDescription {
  const out: ParameterDescription = { name, type: typeName(p.type), optional: toFlag(p.optional) };
  if (inPath) out.in_path = true;
  if (p.default !== undefined && p.default !== null) out.default = p.default;
  if (p.enum && p.enum.length) out.enum = p.enum;
  if (typeof p.format === "string") out.format = p.format;
  const keys = propertyStringKeys(p);
  if (keys) setPropertyString(out, keys);
  // For property strings the key lines say more than the long typetext layout.
  if (p.typetext && !out.format_keys) out.typetext = p.typetext;
  const min = toNumber(p.minimum);
  const max = toNumber(p.maximum);
  if (min !== undefined) out.minimum = min;
  if (max !== undefined) out.maximum = max;
  if (p.description) out.description = markupToText(p.description);
  if (p.verbose_description && p.verbose_description !== p.description)
    out.details = clip(markupToText(p.verbose_description), MAX_DETAILS);
  return out;
}

/**
 * One line per key of a property-string format ("virtio=<mac>,bridge=vmbr0,..."), so
 * the big disk and network formats stay readable and small.
 */
export function summarizePropertyString(format: Record<string, unknown>): PropertyStringSummary {
  const keys: PropertyStringSummary = {};
  // {"virtio": {"alias": "macaddr", "keyAlias": "model"}}: "virtio=<mac>" sets model and macaddr.
  const keyAliases = new Map<string, { names: string[]; valueKey: string }>();
  for (const [key, raw] of Object.entries(format)) {
    if (!raw || typeof raw !== "object") continue;
    const spec = raw as Record<string, unknown>;
    if (typeof spec.keyAlias === "string") {
      const group = keyAliases.get(spec.keyAlias) ?? { names: [], valueKey: String(spec.alias ?? "value") };
      group.names.push(key);
      keyAliases.set(spec.keyAlias, group);
    } else if (typeof spec.alias === "string") {
      keys[key] = `alias of ${spec.alias}`;
    } else {
      keys[key] = propertyKeyLine(spec);
    }
  }
  for (const [target, group] of keyAliases) {
    keys[target] =
      `${keys[target] ?? "<string>"} (written as <${target}>=<${group.valueKey}>, e.g. ${group.names[0]}=<${group.valueKey}>)`;
  }
  return keys;
}

function propertyKeyLine(spec: Record<string, unknown>): string {
  const type =
    typeof spec.format_description === "string"
      ? spec.format_description
      : typeof spec.type === "string"
        ? spec.type
        : "string";
  const parts = [`<${type}>`];
  if (Array.isArray(spec.enum)) parts.push(`one of ${spec.enum.join("|")}`);
  if (spec.default !== undefined && spec.default !== null) parts.push(`default ${String(spec.default)}`);
  if (toFlag(spec.optional)) parts.push("optional");
  if (toFlag(spec.default_key)) parts.push("the key may be left out");
  const min = toNumber(spec.minimum);
  const max = toNumber(spec.maximum);
  if (min !== undefined || max !== undefined) parts.push(`range ${min ?? "-inf"}..${max ?? "inf"}`);
  const text = typeof spec.description === "string" ? firstSentence(markupToText(spec.description), 160) : "";
  return `${parts.join(", ")}${text ? ` - ${text}` : ""}`;
}

function setPropertyString(out: ParameterDescription, format: Record<string, unknown>): void {
  out.format = "property string";
  out.format_keys = summarizePropertyString(format);
}

const MAX_DETAILS = 2000;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** A JSON-schema-like return value: types and names, each property on one line. */
export function summarizeSchema(schema: unknown, depth = 0): unknown {
  if (!schema || typeof schema !== "object") return schema ?? null;
  const s = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (s.type !== undefined) out.type = s.type;
  if (typeof s.description === "string") out.description = firstSentence(markupToText(s.description), 240);
  if (typeof s.format === "string") out.format = s.format;
  if (Array.isArray(s.enum)) out.enum = s.enum;
  if (toFlag(s.optional)) out.optional = true;
  if (s.items !== undefined) out.items = depth < 2 ? summarizeSchema(s.items, depth + 1) : oneLine(s.items);
  if (s.properties && typeof s.properties === "object") {
    const props: Record<string, unknown> = {};
    for (const [name, prop] of Object.entries(s.properties as Record<string, unknown>)) {
      const nested = prop && typeof prop === "object" && ("properties" in prop || "items" in prop);
      props[name] = nested && depth < 1 ? summarizeSchema(prop, depth + 1) : oneLine(prop);
    }
    out.properties = props;
  }
  if (Array.isArray(s.links) && s.links.length) out.links = s.links;
  return out;
}

/** "integer, optional, one of a|b - First sentence." */
function oneLine(schema: unknown): string {
  if (!schema || typeof schema !== "object") return String(schema);
  const s = schema as Record<string, unknown>;
  const parts = [Array.isArray(s.type) ? s.type.join("|") : typeof s.type === "string" ? s.type : "any"];
  if (toFlag(s.optional)) parts.push("optional");
  if (Array.isArray(s.enum)) parts.push(`one of ${s.enum.join("|")}`);
  const text = typeof s.description === "string" ? firstSentence(markupToText(s.description), 160) : "";
  return `${parts.join(", ")}${text ? ` - ${text}` : ""}`;
}

function describeCheck(check: unknown): string {
  if (!Array.isArray(check) || check.length === 0) return JSON.stringify(check);
  const [head, ...rest] = check as [unknown, ...unknown[]];
  switch (head) {
    case "and":
    case "or": {
      const inner = rest.map((c) => {
        const text = describeCheck(c);
        return Array.isArray(c) && (c[0] === "and" || c[0] === "or") ? `(${text})` : text;
      });
      return inner.join(` ${head} `);
    }
    case "perm": {
      const [path, privs, mode] = rest;
      const list = Array.isArray(privs) ? privs.map(String) : [];
      const quantifier = list.length > 1 ? (mode === "any" ? "any of " : "all of ") : "";
      return `${quantifier}${list.join(", ")} on ${String(path)}`;
    }
    case "userid-param":
      return rest[0] === "self"
        ? "the user in 'userid' is the caller"
        : `${String(rest[0])} on the realm of the user in 'userid'`;
    case "userid-group":
      return `${Array.isArray(rest[0]) ? rest[0].join(", ") : String(rest[0])} on a group of the user in 'userid'`;
    case "perm-modify":
      return `may modify permissions on ${String(rest[0])}`;
    case "admin":
      return "administrator";
    default:
      return JSON.stringify(check);
  }
}

export function describePermissions(p: PermissionsInfo | undefined): PermissionDescription | undefined {
  if (!p) return undefined;
  const out: PermissionDescription = {};
  if (p.check !== undefined && p.check !== null) out.check = describeCheck(p.check);
  else if (p.user === "all") out.check = "any authenticated user";
  else if (p.user === "world") out.check = "anyone, even without login";
  else if (typeof p.user === "string") out.check = `user: ${p.user}`;
  if (p.description) out.description = markupToText(p.description);
  return Object.keys(out).length ? out : undefined;
}
