import { readFileSync } from "node:fs";
import { loadCatalogConfig, type CatalogConfig } from "./catalog/config.ts";
import { loadFileConfig, type FileConfig } from "./files/config.ts";
import { loadPolicyConfig, type PolicyConfig } from "./policy/config.ts";
import { ConfigError, parseBoolean, parsePositiveInt, type Env } from "./settings.ts";

export { ConfigError, parseBoolean, parsePositiveInt, type Env };

export interface ConnectionConfig {
  /** https://host:port, no path. */
  origin: string;
  /** origin + "/api2/json". */
  apiBase: string;
  tokenId: string;
  tokenSecret: string;
  verifyTls: boolean;
  /** PEM bundle trusted for this connection only. */
  ca?: string | undefined;
  timeoutMs: number;
}

export interface Config {
  connection: ConnectionConfig;
  /** Local write policy: read-only mode, protected guests, rules, VLAN guard, audit trail. */
  policy: PolicyConfig;
  /** PROXMOX_FILE_ROOTS; undefined: file transfer disabled. */
  files?: FileConfig | undefined;
  /** PROXMOX_SCHEMA_URL: where the API catalog comes from (issue 3). */
  catalog: CatalogConfig;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** PROXMOX_URL -> origin. Tolerates a trailing /api2/json; refuses anything that could leak or confuse. */
export function parseProxmoxUrl(value: string | undefined, allowInsecureHttp: boolean): string {
  const name = "PROXMOX_URL";
  const expected = "expected the cluster address, e.g. https://pve.example.com:8006";
  if (!value || value.trim() === "") throw new ConfigError(name, `is not set; ${expected}`);
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ConfigError(name, `is not a URL; ${expected}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ConfigError(name, `must use https; ${expected}`);
  }
  if (url.username || url.password) {
    throw new ConfigError(
      name,
      "must not contain a user name or password; put the token in PROXMOX_TOKEN_ID and PROXMOX_TOKEN_SECRET",
    );
  }
  if (url.search || value.includes("?")) throw new ConfigError(name, `must not contain a query string; ${expected}`);
  if (url.hash || value.includes("#")) throw new ConfigError(name, `must not contain a fragment; ${expected}`);
  const path = url.pathname.replace(/\/+$/, "");
  if (path !== "" && path !== "/api2/json") {
    throw new ConfigError(name, `must have no path other than /api2/json; ${expected}`);
  }
  if (url.protocol === "http:" && !allowInsecureHttp && !isLoopbackHost(url.hostname)) {
    throw new ConfigError(
      name,
      "uses plain http to a non-loopback host, which would send the token in clear text; use https, or set PROXMOX_ALLOW_INSECURE_HTTP=true",
    );
  }
  return url.origin;
}

const TOKEN_ID = /^[^\s@!=:]+@[A-Za-z][A-Za-z0-9._-]*![A-Za-z][A-Za-z0-9._-]*$/;

export function parseTokenId(value: string | undefined): string {
  const expected = "expected user@realm!tokenid, e.g. mcp@pve!agent";
  if (!value || value.trim() === "") throw new ConfigError("PROXMOX_TOKEN_ID", `is not set; ${expected}`);
  if (!TOKEN_ID.test(value.trim())) throw new ConfigError("PROXMOX_TOKEN_ID", `is malformed; ${expected}`);
  return value.trim();
}

export function parseTokenSecret(value: string | undefined): string {
  const expected = "expected the token's secret (a UUID shown once when the token was created)";
  if (!value || value.trim() === "") throw new ConfigError("PROXMOX_TOKEN_SECRET", `is not set; ${expected}`);
  const secret = value.trim();
  // Proxmox secrets are UUIDs; a very short value would also be "redacted" out of ordinary text.
  if (secret.length < 8) throw new ConfigError("PROXMOX_TOKEN_SECRET", `is too short; ${expected}`);
  if (/[\s\x00-\x1f\x7f]/.test(secret)) {
    throw new ConfigError("PROXMOX_TOKEN_SECRET", `contains whitespace or control characters; ${expected}`);
  }
  return secret;
}

export function readCaFile(
  path: string | undefined,
  read: (p: string) => string = (p) => readFileSync(p, "utf8"),
): string | undefined {
  if (path === undefined || path.trim() === "") return undefined;
  let pem: string;
  try {
    pem = read(path.trim());
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new ConfigError(
      "PROXMOX_CA_FILE",
      `cannot read ${path.trim()} (${code}); expected a PEM file such as a copy of /etc/pve/pve-root-ca.pem`,
    );
  }
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) {
    throw new ConfigError(
      "PROXMOX_CA_FILE",
      `${path.trim()} holds no PEM certificate; expected a PEM file such as a copy of /etc/pve/pve-root-ca.pem`,
    );
  }
  return pem;
}

export function loadConnectionConfig(env: Env): ConnectionConfig {
  const allowInsecureHttp = parseBoolean("PROXMOX_ALLOW_INSECURE_HTTP", env.PROXMOX_ALLOW_INSECURE_HTTP, false);
  const origin = parseProxmoxUrl(env.PROXMOX_URL, allowInsecureHttp);
  return {
    origin,
    apiBase: `${origin}/api2/json`,
    tokenId: parseTokenId(env.PROXMOX_TOKEN_ID),
    tokenSecret: parseTokenSecret(env.PROXMOX_TOKEN_SECRET),
    verifyTls: parseBoolean("PROXMOX_VERIFY_TLS", env.PROXMOX_VERIFY_TLS, true),
    ca: readCaFile(env.PROXMOX_CA_FILE),
    timeoutMs: parsePositiveInt("PROXMOX_TIMEOUT_MS", env.PROXMOX_TIMEOUT_MS, 120_000, 86_400_000, "milliseconds"),
  };
}

/** Reads and validates every setting; throws ConfigError for the first bad one. */
export function loadConfig(env: Env): Config {
  return {
    connection: loadConnectionConfig(env),
    policy: loadPolicyConfig(env),
    files: loadFileConfig(env),
    catalog: loadCatalogConfig(env),
  };
}
