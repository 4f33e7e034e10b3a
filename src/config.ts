import { readFileSync } from "node:fs";
import {
  DOCS_VARIABLE,
  loadCatalogConfig,
  parseHostsDocsSetting,
  parseSchemaUrl,
  type CatalogConfig,
  type DocsSetting,
} from "./catalog/config.ts";
import { loadFileConfig, type FileConfig } from "./files/config.ts";
import {
  HOSTS_VARIABLE,
  hostSettingNames,
  hostVariable,
  parseHostLabels,
  renameSettings,
  SINGLE_HOST_SETTINGS,
  splitCombinedToken,
} from "./hosts/labels.ts";
import { loadPolicyConfig, type PolicyConfig } from "./policy/config.ts";
import { checkRuleHosts } from "./policy/hosts.ts";
import { collectProblems, ConfigError, ConfigProblems, parseBoolean, parsePositiveInt, type Env } from "./settings.ts";

export { ConfigError, ConfigProblems, parseBoolean, parsePositiveInt, type Env };

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

/** One Proxmox host: how to reach it, where its catalog comes from, whether it is read-only. */
export interface HostConfig {
  /** The PROXMOX_HOSTS label; undefined for the one host of single-host mode. */
  label?: string | undefined;
  connection: ConnectionConfig;
  /** PROXMOX_SCHEMA_URL (or the host's own): where this host's API catalog comes from (issue 3). */
  catalog: CatalogConfig;
  /** PROXMOX_READ_ONLY, or the host's own read-only setting. */
  readOnly: boolean;
  /** For a labelled host: each single-host setting name as this host spells it, for messages. */
  settingNames: ReadonlyMap<string, string>;
}

export interface Config {
  /** The one unlabelled host of PROXMOX_URL, or the hosts of PROXMOX_HOSTS in their order. */
  hosts: HostConfig[];
  /** Local write policy: read-only mode, protected guests, rules, VLAN guard, audit trail. */
  policy: PolicyConfig;
  /** PROXMOX_FILE_ROOTS; undefined: file transfer disabled. Shared by every host. */
  files?: FileConfig | undefined;
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

/** Reads and validates every setting; throws a ConfigError naming each bad one (ConfigProblems for several). */
export function loadConfig(env: Env): Config {
  let policy: PolicyConfig | undefined;
  let hosts: HostConfig[] = [];
  let files: FileConfig | undefined;
  collectProblems([
    () => {
      policy = loadPolicyConfig(env);
    },
    () => {
      hosts = loadHostConfigs(env, policy?.readOnly ?? false);
    },
    () => {
      files = loadFileConfig(env);
    },
  ]);
  const labels = hosts[0]?.label === undefined ? undefined : hosts.map((host) => host.label!);
  checkRuleHosts(policy!, labels);
  return { hosts, policy: policy!, files };
}

/** PROXMOX_HOSTS unset: the one host of PROXMOX_URL, as before several hosts existed. Else each listed label. */
export function loadHostConfigs(env: Env, globalReadOnly: boolean): HostConfig[] {
  const labels = parseHostLabels(env[HOSTS_VARIABLE]);
  if (!labels) {
    return [
      {
        connection: loadConnectionConfig(env),
        catalog: loadCatalogConfig(env),
        readOnly: globalReadOnly,
        settingNames: new Map(),
      },
    ];
  }
  const allowInsecureHttp = parseBoolean("PROXMOX_ALLOW_INSECURE_HTTP", env.PROXMOX_ALLOW_INSECURE_HTTP, false);
  let docs: DocsSetting = { kind: "auto" };
  const hosts: HostConfig[] = [];
  collectProblems([
    ...SINGLE_HOST_SETTINGS.map((setting) => () => refuseGlobal(env, setting)),
    () => {
      docs = parseHostsDocsSetting(env[DOCS_VARIABLE]);
    },
    ...labels.map((label) => () => {
      hosts.push(loadLabelledHost(env, label, allowInsecureHttp, globalReadOnly, docs));
    }),
  ]);
  return hosts;
}

function refuseGlobal(env: Env, setting: (typeof SINGLE_HOST_SETTINGS)[number]): void {
  const name = `PROXMOX_${setting}`;
  if ((env[name] ?? "").trim() === "") return;
  throw new ConfigError(
    name,
    `is set together with ${HOSTS_VARIABLE}; with several hosts each one has its own (PROXMOX_<LABEL>_${setting}), so unset ${name} or ${HOSTS_VARIABLE}`,
  );
}

/** Runs a single-host parser for a labelled host's variable: its errors name that variable. */
function asHostSetting<T>(names: ReadonlyMap<string, string>, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(renameSettings(error.variable, names), renameSettings(error.expected, names));
  }
}

/** The token of a labelled host: _TOKEN_ID and _TOKEN_SECRET, or the combined _TOKEN. */
function loadHostToken(env: Env, label: string): { tokenId: string; tokenSecret: string } {
  const names = hostSettingNames(label, false);
  const combinedName = hostVariable(label, "TOKEN");
  const combined = env[combinedName];
  const separate = [hostVariable(label, "TOKEN_ID"), hostVariable(label, "TOKEN_SECRET")].filter(
    (name) => (env[name] ?? "").trim() !== "",
  );
  if (combined === undefined || combined.trim() === "") {
    if (separate.length === 0) {
      throw new ConfigError(
        names.get("PROXMOX_TOKEN_ID")!,
        `is not set; expected user@realm!tokenid with ${names.get("PROXMOX_TOKEN_SECRET")}, or both at once as ${combinedName}=user@realm!tokenid=secret`,
      );
    }
    return asHostSetting(names, () => ({
      tokenId: parseTokenId(env[names.get("PROXMOX_TOKEN_ID")!]),
      tokenSecret: parseTokenSecret(env[names.get("PROXMOX_TOKEN_SECRET")!]),
    }));
  }
  if (separate.length > 0) {
    throw new ConfigError(combinedName, `is set together with ${separate.join(" and ")}; give the token one way only`);
  }
  const parts = splitCombinedToken(combined);
  if (!parts) {
    throw new ConfigError(
      combinedName,
      "is malformed; expected user@realm!tokenid=secret, as copied from the Proxmox UI",
    );
  }
  const asCombined = new Map([
    ["PROXMOX_TOKEN_ID", combinedName],
    ["PROXMOX_TOKEN_SECRET", combinedName],
  ]);
  return asHostSetting(asCombined, () => ({
    tokenId: parseTokenId(parts.tokenId),
    tokenSecret: parseTokenSecret(parts.tokenSecret),
  }));
}

function loadLabelledHost(
  env: Env,
  label: string,
  allowInsecureHttp: boolean,
  globalReadOnly: boolean,
  docs: DocsSetting,
): HostConfig {
  const names = hostSettingNames(label, false);
  const value = (setting: Parameters<typeof hostVariable>[1]) => env[hostVariable(label, setting)];
  let origin = "";
  let token = { tokenId: "", tokenSecret: "" };
  let ca: string | undefined;
  let verifyTls = true;
  let timeoutMs = 0;
  let catalog: CatalogConfig = {};
  let readOnlyOwn = false;
  collectProblems([
    () => {
      origin = asHostSetting(names, () => parseProxmoxUrl(value("URL"), allowInsecureHttp));
    },
    () => {
      token = loadHostToken(env, label);
    },
    () => {
      ca = asHostSetting(names, () => readCaFile(value("CA_FILE")));
    },
    () => {
      verifyTls = parseBoolean(hostVariable(label, "VERIFY_TLS"), value("VERIFY_TLS"), true);
    },
    () => {
      timeoutMs = parsePositiveInt(
        hostVariable(label, "TIMEOUT_MS"),
        value("TIMEOUT_MS"),
        120_000,
        86_400_000,
        "milliseconds",
      );
    },
    () => {
      catalog = { schema: asHostSetting(names, () => parseSchemaUrl(value("SCHEMA_URL"))), docs };
    },
    () => {
      readOnlyOwn = parseBoolean(hostVariable(label, "READ_ONLY"), value("READ_ONLY"), false);
    },
  ]);
  return {
    label,
    connection: { origin, apiBase: `${origin}/api2/json`, ...token, verifyTls, ca, timeoutMs },
    catalog,
    readOnly: globalReadOnly || readOnlyOwn,
    settingNames: hostSettingNames(label, readOnlyOwn && !globalReadOnly),
  };
}
