import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, type Env } from "../settings.ts";
import { decodeOrKeep } from "../proxmox/path.ts";

export const SCHEMA_URL_VARIABLE = "PROXMOX_SCHEMA_URL";
export const DOCS_VARIABLE = "PROXMOX_DOCS";

/** Where PROXMOX_SCHEMA_URL points: an https URL (apidoc.js or the viewer's index.html) or a local file. */
export type SchemaLocation =
  | {
      kind: "url";
      /** What is fetched and shown: origin and path only. Userinfo, query and fragment are never sent. */
      url: URL;
      display: string;
      /** What was removed from the setting (for one warning), e.g. ["user name and password"]. */
      dropped: string[];
      /** Strings that must never appear in output (userinfo, query values). */
      secrets: string[];
    }
  | { kind: "file"; path: string };

/**
 * PROXMOX_DOCS: the cluster's documentation pages as a second catalog source. "auto" finds them
 * beside the schema (the same source order and trust), "off" never loads them, and a location
 * (an https URL or a local directory) says where the pve-docs pages are.
 */
export type DocsSetting = { kind: "auto" } | { kind: "off" } | SchemaLocation;

export interface CatalogConfig {
  /** PROXMOX_SCHEMA_URL; undefined: the cluster's own viewer, then the public one. */
  schema?: SchemaLocation | undefined;
  /** PROXMOX_DOCS; undefined means "auto". */
  docs?: DocsSetting | undefined;
}

const EXPECTED = "expected an https URL of the API viewer's apidoc.js or index.html, or a local file path";
const DOCS_EXPECTED =
  "expected off, on, or where the pve-docs pages are: an https URL of the directory or a local directory";

/** Userinfo and query values, raw and decoded, that are at least 3 characters long. */
export function urlSecrets(url: URL): string[] {
  const found = new Set<string>();
  const add = (value: string) => {
    for (const form of [value, decodeOrKeep(value), encodeURIComponent(decodeOrKeep(value))])
      if (form.length >= 3) found.add(form);
  };
  if (url.username) add(url.username);
  if (url.password) add(url.password);
  if (url.username && url.password) add(`${url.username}:${url.password}`);
  for (const value of url.searchParams.values()) add(value);
  for (const part of url.search.replace(/^\?/, "").split("&")) {
    const value = part.split("=").slice(1).join("=");
    if (value) add(value);
  }
  return [...found].sort((a, b) => b.length - a.length);
}

export function parseSchemaUrl(value: string | undefined, cwd: string = process.cwd()): SchemaLocation | undefined {
  return parseLocation(SCHEMA_URL_VARIABLE, EXPECTED, value, cwd);
}

/** An https URL (credentials and query dropped, never sent) or a local path, for one setting. */
function parseLocation(
  variable: string,
  expected: string,
  value: string | undefined,
  cwd: string,
): SchemaLocation | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const text = value.trim();
  if (/[\x00-\x1f]/.test(text)) throw new ConfigError(variable, `contains control characters; ${expected}`);
  if (/^file:/i.test(text)) {
    try {
      return { kind: "file", path: fileURLToPath(text) };
    } catch {
      throw new ConfigError(variable, `is not a usable file: URL; ${expected}`);
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new ConfigError(variable, `is not a valid URL; ${expected}`);
    }
    if (url.protocol !== "https:") {
      // The message must not echo the value: it may carry a password.
      throw new ConfigError(variable, `uses ${url.protocol.replace(/:$/, "")}, not https; ${expected}`);
    }
    // No credentials go to a catalog host, so a user name, password or query string is dropped.
    const dropped = [
      ...(url.username || url.password ? ["user name and password"] : []),
      ...(url.search ? ["query string"] : []),
    ];
    const fetched = new URL(`${url.origin}${url.pathname}`);
    return { kind: "url", url: fetched, display: fetched.href, dropped, secrets: urlSecrets(url) };
  }
  if (/^[^/]*@/.test(text) || text.includes("?")) {
    // Looks like a URL without its scheme (user@host/..., ...?token=): a file path would show it whole.
    throw new ConfigError(variable, `looks like a URL without https:// (it has '@' or '?'); ${expected}`);
  }
  return { kind: "file", path: resolve(cwd, text) };
}

/** PROXMOX_DOCS: on (the default, beside the schema), off, or an https URL or local directory of the pages. */
export function parseDocsSetting(value: string | undefined, cwd: string = process.cwd()): DocsSetting {
  const text = value?.trim() ?? "";
  if (["", "on", "true", "yes", "1", "auto"].includes(text.toLowerCase())) return { kind: "auto" };
  if (["off", "false", "no", "0"].includes(text.toLowerCase())) return { kind: "off" };
  const location = parseLocation(DOCS_VARIABLE, DOCS_EXPECTED, text, cwd)!;
  if (location.kind === "url" && !location.url.pathname.endsWith("/")) {
    // A directory: /pve-docs means /pve-docs/, so pages resolve inside it.
    location.url = new URL(`${location.url.href}/`);
    location.display = location.url.href;
  }
  return location;
}

export function loadCatalogConfig(env: Env): CatalogConfig {
  return { schema: parseSchemaUrl(env[SCHEMA_URL_VARIABLE]), docs: parseDocsSetting(env[DOCS_VARIABLE]) };
}

/**
 * PROXMOX_DOCS with several hosts: on or off for all of them. Each host's docs come from beside
 * its own schema (its own version), so one URL or directory for every host is refused.
 */
export function parseHostsDocsSetting(value: string | undefined): DocsSetting {
  const setting = parseDocsSetting(value);
  if (setting.kind === "auto" || setting.kind === "off") return setting;
  throw new ConfigError(
    DOCS_VARIABLE,
    "with PROXMOX_HOSTS takes only on or off: each host's docs come from beside its own schema (set PROXMOX_<LABEL>_SCHEMA_URL to move them)",
  );
}
