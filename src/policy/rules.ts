import { isHostLabel } from "../hosts/labels.ts";
import { ConfigError } from "../settings.ts";
import { pathSegments, writtenSegments } from "../proxmox/path.ts";

export type RuleMethod = "POST" | "PUT" | "DELETE" | "*";

/** One `[host:] METHOD /path/pattern` entry of PROXMOX_DENY or PROXMOX_ALLOW. */
export interface WriteRule {
  /** The rule as the operator wrote it, for messages. */
  text: string;
  /** The PROXMOX_HOSTS label the rule is limited to; undefined: every host. */
  host?: string;
  method: RuleMethod;
  /** Decoded literal segments, "*" (exactly one segment) or "**" (any number, none included). */
  segments: string[];
}

const EXAMPLE = "e.g. 'DELETE /nodes/*/qemu/**' or '* /cluster/ha/**'";

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function parseRule(variable: string, text: string): WriteRule {
  const match = /^(?:([^\s:/]+)\s*:\s*)?([^\s:]+)\s+(\S+)$/.exec(text);
  if (!match) throw new ConfigError(variable, `rule '${text}' is not 'METHOD /path/pattern'; ${EXAMPLE}`);
  const host = match[1];
  if (host !== undefined && !isHostLabel(host)) {
    throw new ConfigError(
      variable,
      `rule '${text}' starts with '${host}:', which is not a host label of PROXMOX_HOSTS`,
    );
  }
  const method = match[2]!.toUpperCase();
  const pattern = match[3]!;
  if (method === "GET") {
    throw new ConfigError(
      variable,
      `rule '${text}' names GET, but rules apply to writes only (POST, PUT, DELETE or *); use PROXMOX_READ_ONLY or the token's role to limit reads`,
    );
  }
  if (method !== "POST" && method !== "PUT" && method !== "DELETE" && method !== "*") {
    throw new ConfigError(variable, `rule '${text}' has method '${match[2]}'; expected POST, PUT, DELETE or *`);
  }
  if (!pattern.startsWith("/"))
    throw new ConfigError(variable, `rule '${text}': the path pattern must start with '/'; ${EXAMPLE}`);
  if (/[?#\\]/.test(pattern))
    throw new ConfigError(variable, `rule '${text}': the path pattern must not contain '?', '#' or '\\'`);
  if (/^\/api2(\/|$)/i.test(pattern))
    throw new ConfigError(variable, `rule '${text}': write the path relative to /api2/json, without that prefix`);
  const raw = pattern === "/" ? [] : pattern.replace(/\/$/, "").split("/").slice(1);
  const segments: string[] = [];
  for (const segment of raw) {
    if (segment === "") throw new ConfigError(variable, `rule '${text}' has an empty path segment (//)`);
    if (segment === "*" || segment === "**") {
      segments.push(segment);
      continue;
    }
    if (segment.includes("*")) {
      throw new ConfigError(
        variable,
        `rule '${text}': '*' and '**' must stand for a whole path segment (as in /nodes/*/qemu), not part of one`,
      );
    }
    const decoded = decodeSegment(segment);
    if (decoded === undefined || decoded === "." || decoded === "..") {
      throw new ConfigError(variable, `rule '${text}' has an invalid path segment '${segment}'`);
    }
    segments.push(decoded);
  }
  return { text, method, segments, ...(host !== undefined ? { host } : {}) };
}

/**
 * Parses a list of rules separated by commas or newlines. Blank entries and lines starting
 * with '#' are skipped; an unset or blank value gives an empty list.
 */
export function parseRules(variable: string, value: string | undefined): WriteRule[] {
  if (value === undefined || value.trim() === "") return [];
  return value
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== "" && !item.startsWith("#"))
    .map((item) => parseRule(variable, item));
}

/** Whether a rule's literal segment names the path's segment at `index`. */
type SameSegment = (literal: string, path: readonly string[], index: number) => boolean;

const spelledOut: SameSegment = (literal, path, index) => literal === path[index];

const HA_GUEST = /^(?:(?:vm|ct):)?(\d+)$/;

/**
 * Also true for another spelling Proxmox resolves to the same node or HA resource:
 * - the node 'localhost' is the node the request reaches (pve-manager PVE::HTTPServer
 *   rest_handler handles it locally, as it does its own name), so it may be any node a rule
 *   names, and a rule naming 'localhost' may mean any node;
 * - an HA resource 100 is vm:100 or ct:100 (pve-ha-manager PVE::HA::Config::parse_sid reads a
 *   bare id as the guest's type).
 */
const sameObject: SameSegment = (literal, path, index) => {
  if (spelledOut(literal, path, index)) return true;
  const value = path[index]!;
  if (index === 1 && path[0] === "nodes") return value === "localhost" || literal === "localhost";
  if (index === 3 && path[0] === "cluster" && path[1] === "ha" && path[2] === "resources") {
    const guest = HA_GUEST.exec(value)?.[1];
    return guest !== undefined && guest === HA_GUEST.exec(literal)?.[1];
  }
  return false;
};

function matchSegments(
  pattern: readonly string[],
  path: readonly string[],
  p: number,
  s: number,
  same: SameSegment,
): boolean {
  if (p === pattern.length) return s === path.length;
  const head = pattern[p]!;
  if (head === "**") {
    for (let k = s; k <= path.length; k++) if (matchSegments(pattern, path, p + 1, k, same)) return true;
    return false;
  }
  if (s === path.length) return false;
  return (head === "*" || same(head, path, s)) && matchSegments(pattern, path, p + 1, s + 1, same);
}

/**
 * A rule matches the path as Proxmox routes it (a volume id is one segment: '…/content/*'), or
 * as written, where a rule may spell a volume id's '/' as separators ('…/content/local:backup/**').
 * A rule that refuses or holds writes (PROXMOX_DENY, PROXMOX_CONFIRM) also matches the other
 * spellings of a node or HA resource it names (sameObject); one that admits them
 * (PROXMOX_ALLOW) only what it spells out.
 */
export function ruleMatches(rule: WriteRule, method: string, path: string, refusing = false): boolean {
  if (rule.method !== "*" && rule.method !== method) return false;
  const same = refusing ? sameObject : spelledOut;
  const routed = pathSegments(path);
  if (matchSegments(rule.segments, routed, 0, 0, same)) return true;
  const written = writtenSegments(path);
  return written.length !== routed.length && matchSegments(rule.segments, written, 0, 0, same);
}

export function firstMatch(
  rules: readonly WriteRule[],
  method: string,
  path: string,
  refusing = false,
): WriteRule | undefined {
  return rules.find((rule) => ruleMatches(rule, method, path, refusing));
}

/**
 * True when a rule spells out the endpoint `template` (/nodes/{node}/storage/{storage}/prunebackups):
 * no '**', and '*' only where the template has a placeholder. Such a rule in PROXMOX_ALLOW is
 * the operator's explicit consent to that endpoint, which a broad pattern is not.
 */
export function namesEndpoint(rule: WriteRule, template: string): boolean {
  const parts = template.split("/").slice(1);
  if (rule.segments.length !== parts.length) return false;
  return rule.segments.every((segment, i) => {
    const placeholder = /^\{.+\}$/.test(parts[i]!);
    if (segment === "**") return false;
    if (segment === "*") return placeholder;
    return placeholder || segment === parts[i];
  });
}

/** The allow rule an operator would write for exactly this endpoint: placeholders become '*'. */
export function endpointRule(method: string, template: string): string {
  return `${method} ${template.replace(/\{[^}]+\}/g, "*")}`;
}
