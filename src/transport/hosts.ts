// The DNS-rebinding defence of the HTTP transport: a browser tricked into sending requests to
// this server still names the attacker's host in Host and its page's origin in Origin, so both
// are checked against the names the operator expects clients to use.
import { isIPv4, isIPv6 } from "node:net";
import { ConfigError } from "../settings.ts";

/** A name clients may use for this server; without a port, any port matches. */
export interface AllowedHost {
  /** Lower case; IPv6 in brackets, as in a Host header: [::1]. */
  name: string;
  port?: number;
}

const DNS_NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

function validName(name: string): boolean {
  if (name.startsWith("[") && name.endsWith("]")) return isIPv6(name.slice(1, -1));
  return isIPv4(name) || DNS_NAME.test(name);
}

/** `name`, `name:port`, `[v6]` or `[v6]:port`, as in a Host header; undefined when it is none of these. */
export function parseHostPort(text: string): AllowedHost | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(text.trim().toLowerCase());
  if (!match) return undefined;
  const name = match[1]!.replace(/\.$/, "");
  if (!validName(name)) return undefined;
  if (match[2] === undefined) return { name };
  const port = Number(match[2]);
  return port >= 1 && port <= 65535 ? { name, port } : undefined;
}

/** A listen address as it appears in a Host header (IPv6 in brackets). */
export function hostName(address: string): string {
  return isIPv6(address) ? `[${address.toLowerCase()}]` : address.toLowerCase();
}

const WILDCARDS = new Set(["0.0.0.0", "::", "[::]"]);
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/** PROXMOX_MCP_ALLOWED_HOSTS, or the default: the listen address (unless a wildcard), localhost, 127.0.0.1, [::1]. */
export function parseAllowedHosts(value: string | undefined, listenHost: string): AllowedHost[] {
  if (value === undefined || value.trim() === "") {
    const names = WILDCARDS.has(listenHost) ? LOOPBACK_NAMES : [hostName(listenHost), ...LOOPBACK_NAMES];
    return [...new Set(names)].map((name) => ({ name }));
  }
  return value
    .split(/[\s,]+/)
    .filter((entry) => entry !== "")
    .map((entry) => {
      const host = parseHostPort(entry);
      if (!host) {
        throw new ConfigError(
          "PROXMOX_MCP_ALLOWED_HOSTS",
          `'${entry}' is not a host name or address with an optional port; expected e.g. mcp.example.com,mcp.example.com:8443,[::1]`,
        );
      }
      return host;
    });
}

function matches(host: AllowedHost, allowed: readonly AllowedHost[]): boolean {
  return allowed.some((entry) => entry.name === host.name && (entry.port === undefined || entry.port === host.port));
}

/** The Host header names an allowed host. A request without one is refused (HTTP/1.1 requires it). */
export function hostAllowed(header: string | null, allowed: readonly AllowedHost[]): boolean {
  const host = header === null ? undefined : parseHostPort(header);
  return host !== undefined && matches(host, allowed);
}

/** No Origin header (not a browser), or an http(s) origin on an allowed host. "null" and other schemes are refused. */
export function originAllowed(header: string | null, allowed: readonly AllowedHost[]): boolean {
  if (header === null) return true;
  let url: URL;
  try {
    url = new URL(header);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  return matches({ name: url.hostname.toLowerCase().replace(/\.$/, ""), port }, allowed);
}
