// Settings of the HTTP transport (issue 15). Read only when the server runs in HTTP mode; the
// tokens file is read by auth.ts.
import { readFileSync, statSync } from "node:fs";
import { isIPv4, isIPv6 } from "node:net";
import { ConfigError, parseBoolean, parsePositiveInt, type Env } from "../settings.ts";
import { parseAllowedHosts, parseHostPort, type AllowedHost } from "./hosts.ts";

export type TransportMode = "stdio" | "http";

/** `--http` on the command line, else PROXMOX_MCP_TRANSPORT (default stdio). */
export const TRANSPORT_VARIABLE = "PROXMOX_MCP_TRANSPORT";

/** PROXMOX_MCP_TRANSPORT (which --http sets, see arguments.ts). */
export function transportMode(env: Env): TransportMode {
  const value = env[TRANSPORT_VARIABLE]?.trim().toLowerCase();
  if (value === undefined || value === "" || value === "stdio") return "stdio";
  if (value === "http") return "http";
  throw new ConfigError("PROXMOX_MCP_TRANSPORT", "expected stdio or http");
}

export interface ListenAddress {
  /** An IP address (IPv6 without brackets) or a host name. */
  host: string;
  /** 0: any free port (the startup line names it). */
  port: number;
}

export const DEFAULT_LISTEN = "127.0.0.1:8787";

/** PROXMOX_MCP_LISTEN: host:port, [v6]:port. */
export function parseListen(value: string | undefined): ListenAddress {
  const text = value === undefined || value.trim() === "" ? DEFAULT_LISTEN : value.trim();
  const expected = `expected host:port, e.g. ${DEFAULT_LISTEN}, 0.0.0.0:8787 or [::1]:8787`;
  const match = /^(.*):(\d{1,5})$/.exec(text);
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) throw new ConfigError("PROXMOX_MCP_LISTEN", expected);
  const rawHost = match[1]!;
  const bracketed = /^\[(.*)\]$/.exec(rawHost);
  const host = bracketed ? bracketed[1]! : rawHost;
  if (bracketed ? !isIPv6(host) : isIPv6(host) || parseHostPort(host) === undefined) {
    throw new ConfigError("PROXMOX_MCP_LISTEN", expected);
  }
  return { host, port };
}

/** Only this machine can reach the address. */
export function isLoopbackAddress(host: string): boolean {
  const h = host.toLowerCase();
  return h === "localhost" || h === "::1" || (isIPv4(h) && h.startsWith("127."));
}

export interface TlsFiles {
  certFile: string;
  keyFile: string;
  cert: string;
  key: string;
}

export interface HttpLimits {
  /** Largest request body read (413 beyond). */
  maxBodyBytes: number;
  /** Open sessions at most (503 beyond). */
  maxSessions: number;
  /** A session without a request in flight is closed after this long without a request. */
  sessionIdleMs: number;
  /** Requests of one session being answered at once (429 beyond). */
  maxRequestsPerSession: number;
  /** On SIGTERM, how long in-flight calls may still run. */
  drainMs: number;
}

export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface HttpConfig {
  listen: ListenAddress;
  tokensFile: string | undefined;
  allowedHosts: AllowedHost[];
  tls: TlsFiles | undefined;
  /** PROXMOX_MCP_ALLOW_PLAIN_HTTP: a non-loopback address without TLS (a TLS proxy in front). */
  allowPlainHttp: boolean;
  limits: HttpLimits;
}

function readPem(variable: string, path: string, marker: RegExp, what: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(
      variable,
      `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? "unreadable"}); expected ${what}`,
    );
  }
  if (!marker.test(text)) throw new ConfigError(variable, `${path} holds no PEM ${what}`);
  return text;
}

/** PROXMOX_MCP_TLS_CERT and PROXMOX_MCP_TLS_KEY: both or neither. */
export function loadTls(env: Env): TlsFiles | undefined {
  const certFile = env.PROXMOX_MCP_TLS_CERT?.trim() || undefined;
  const keyFile = env.PROXMOX_MCP_TLS_KEY?.trim() || undefined;
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile) {
    const missing = certFile ? "PROXMOX_MCP_TLS_KEY" : "PROXMOX_MCP_TLS_CERT";
    throw new ConfigError(
      missing,
      "is not set; HTTPS needs both the certificate (chain) and its private key, as PEM files",
    );
  }
  return {
    certFile,
    keyFile,
    cert: readPem("PROXMOX_MCP_TLS_CERT", certFile, /-----BEGIN CERTIFICATE-----/, "certificate"),
    key: readPem("PROXMOX_MCP_TLS_KEY", keyFile, /-----BEGIN [A-Z ]*PRIVATE KEY-----/, "private key"),
  };
}

/** A warning when the TLS key can be read by other users. */
export function tlsKeyWarning(tls: TlsFiles | undefined): string | undefined {
  if (!tls) return undefined;
  const mode = statSync(tls.keyFile).mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  return `TLS key ${tls.keyFile} has mode ${mode.toString(8).padStart(4, "0")}, so other users can read it; chmod 600 it`;
}

export function loadHttpConfig(env: Env): HttpConfig {
  const listen = parseListen(env.PROXMOX_MCP_LISTEN);
  const tls = loadTls(env);
  const allowPlainHttp = parseBoolean("PROXMOX_MCP_ALLOW_PLAIN_HTTP", env.PROXMOX_MCP_ALLOW_PLAIN_HTTP, false);
  if (!tls && !allowPlainHttp && !isLoopbackAddress(listen.host)) {
    throw new ConfigError(
      "PROXMOX_MCP_LISTEN",
      `${listen.host} is reachable from other machines, and without TLS the bearer tokens would cross the network in clear text; set PROXMOX_MCP_TLS_CERT and PROXMOX_MCP_TLS_KEY, or PROXMOX_MCP_ALLOW_PLAIN_HTTP=true when a TLS-terminating proxy is in front`,
    );
  }
  return {
    listen,
    tokensFile: env.PROXMOX_MCP_TOKENS_FILE,
    allowedHosts: parseAllowedHosts(env.PROXMOX_MCP_ALLOWED_HOSTS, listen.host),
    tls,
    allowPlainHttp,
    limits: {
      maxBodyBytes: MAX_BODY_BYTES,
      maxSessions: parsePositiveInt("PROXMOX_MCP_MAX_SESSIONS", env.PROXMOX_MCP_MAX_SESSIONS, 100, 100_000),
      sessionIdleMs:
        parsePositiveInt("PROXMOX_MCP_SESSION_IDLE_S", env.PROXMOX_MCP_SESSION_IDLE_S, 1800, 604_800, "seconds") * 1000,
      maxRequestsPerSession: parsePositiveInt(
        "PROXMOX_MCP_MAX_REQUESTS_PER_SESSION",
        env.PROXMOX_MCP_MAX_REQUESTS_PER_SESSION,
        16,
        1000,
      ),
      drainMs: parsePositiveInt("PROXMOX_MCP_DRAIN_S", env.PROXMOX_MCP_DRAIN_S, 30, 3600, "seconds") * 1000,
    },
  };
}
