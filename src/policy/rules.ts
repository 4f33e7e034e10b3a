import { ConfigError } from "../settings.ts";
import { pathSegments, writtenSegments } from "../proxmox/path.ts";

export type RuleMethod = "POST" | "PUT" | "DELETE" | "*";

/** One `METHOD /path/pattern` entry of PROXMOX_DENY or PROXMOX_ALLOW. */
export interface WriteRule {
  /** The rule as the operator wrote it, for messages. */
  text: string;
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
  const match = /^(\S+)\s+(\S+)$/.exec(text);
  if (!match) throw new ConfigError(variable, `rule '${text}' is not 'METHOD /path/pattern'; ${EXAMPLE}`);
  const method = match[1]!.toUpperCase();
  const pattern = match[2]!;
  if (method === "GET") {
    throw new ConfigError(
      variable,
      `rule '${text}' names GET, but rules apply to writes only (POST, PUT, DELETE or *); use PROXMOX_READ_ONLY or the token's role to limit reads`,
    );
  }
  if (method !== "POST" && method !== "PUT" && method !== "DELETE" && method !== "*") {
    throw new ConfigError(variable, `rule '${text}' has method '${match[1]}'; expected POST, PUT, DELETE or *`);
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
  return { text, method, segments };
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

function matchSegments(pattern: readonly string[], path: readonly string[], p: number, s: number): boolean {
  if (p === pattern.length) return s === path.length;
  const head = pattern[p]!;
  if (head === "**") {
    for (let k = s; k <= path.length; k++) if (matchSegments(pattern, path, p + 1, k)) return true;
    return false;
  }
  if (s === path.length) return false;
  return (head === "*" || head === path[s]) && matchSegments(pattern, path, p + 1, s + 1);
}

/**
 * A rule matches the path as Proxmox routes it (a volume id is one segment: '…/content/*'), or
 * as written, where a rule may spell a volume id's '/' as separators ('…/content/local:backup/**').
 */
export function ruleMatches(rule: WriteRule, method: string, path: string): boolean {
  if (rule.method !== "*" && rule.method !== method) return false;
  const routed = pathSegments(path);
  if (matchSegments(rule.segments, routed, 0, 0)) return true;
  const written = writtenSegments(path);
  return written.length !== routed.length && matchSegments(rule.segments, written, 0, 0);
}

export function firstMatch(rules: readonly WriteRule[], method: string, path: string): WriteRule | undefined {
  return rules.find((rule) => ruleMatches(rule, method, path));
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
