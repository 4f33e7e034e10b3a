// Several hosts (PROXMOX_HOSTS): the labels, the names of each label's settings and the rules
// that keep those names apart from the global settings. Pure; config.ts reads the values.
import { ConfigError } from "../settings.ts";

export const HOSTS_VARIABLE = "PROXMOX_HOSTS";

/** Lower-case letters, digits and '-', starting with a letter or digit, at most 32 characters. */
const LABEL = /^[a-z0-9][a-z0-9-]{0,31}$/;
const LABEL_RULE = "lower-case letters, digits and '-', starting with a letter or digit, at most 32 characters";

/** Every global setting; a label whose settings would read like one of them is refused. */
export const GLOBAL_SETTINGS = [
  "PROXMOX_URL",
  "PROXMOX_TOKEN_ID",
  "PROXMOX_TOKEN_SECRET",
  "PROXMOX_VERIFY_TLS",
  "PROXMOX_CA_FILE",
  "PROXMOX_TIMEOUT_MS",
  "PROXMOX_ALLOW_INSECURE_HTTP",
  "PROXMOX_SCHEMA_URL",
  "PROXMOX_DOCS",
  "PROXMOX_FILE_ROOTS",
  "PROXMOX_TRANSFER_MIN_RATE",
  "PROXMOX_TRANSFER_STALL_S",
  "PROXMOX_UPLOAD_CHECKSUM",
  "PROXMOX_READ_ONLY",
  "PROXMOX_PROTECTED_VMS_FILE",
  "PROXMOX_DENY",
  "PROXMOX_ALLOW",
  "PROXMOX_VLAN_GUARD",
  "PROXMOX_AUDIT_LOG",
  "PROXMOX_READ_ONLY_ALLOW_OUTBOUND",
  "PROXMOX_READ_ONLY_ALLOW_GUEST_CONTENT",
  "PROXMOX_CONFIRM",
  "PROXMOX_CONFIRM_TIMEOUT_S",
  "PROXMOX_MCP_TRANSPORT",
  "PROXMOX_MCP_LISTEN",
  "PROXMOX_MCP_TOKENS_FILE",
  "PROXMOX_MCP_ALLOWED_HOSTS",
  "PROXMOX_MCP_TLS_CERT",
  "PROXMOX_MCP_TLS_KEY",
  "PROXMOX_MCP_ALLOW_PLAIN_HTTP",
  "PROXMOX_MCP_MAX_SESSIONS",
  "PROXMOX_MCP_SESSION_IDLE_S",
  "PROXMOX_MCP_MAX_REQUESTS_PER_SESSION",
  "PROXMOX_MCP_DRAIN_S",
  HOSTS_VARIABLE,
] as const;

/** What each label's settings are called after PROXMOX_<LABEL>_. */
export const HOST_SETTINGS = [
  "URL",
  "TOKEN_ID",
  "TOKEN_SECRET",
  "TOKEN",
  "CA_FILE",
  "VERIFY_TLS",
  "TIMEOUT_MS",
  "SCHEMA_URL",
  "READ_ONLY",
] as const;
export type HostSetting = (typeof HOST_SETTINGS)[number];

/**
 * The single-host settings that each host has its own copy of. With PROXMOX_HOSTS they must
 * not be set: a global value would be ambiguous (which host's token? whose CA?).
 */
export const SINGLE_HOST_SETTINGS = [
  "URL",
  "TOKEN_ID",
  "TOKEN_SECRET",
  "CA_FILE",
  "VERIFY_TLS",
  "TIMEOUT_MS",
  "SCHEMA_URL",
] as const satisfies readonly HostSetting[];

export function isHostLabel(text: string): boolean {
  return LABEL.test(text);
}

/** PROXMOX_<LABEL>_<SETTING>, the label upper-cased with '-' as '_'. */
export function hostVariable(label: string, setting: HostSetting): string {
  return `${hostPrefix(label)}${setting}`;
}

function hostPrefix(label: string): string {
  return `PROXMOX_${label.toUpperCase().replaceAll("-", "_")}_`;
}

/**
 * PROXMOX_HOSTS: a comma-separated list of distinct labels. Returns undefined when unset or
 * blank (single-host mode). Throws one ConfigError naming every problem with the list.
 */
export function parseHostLabels(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const labels = value.split(",").map((item) => item.trim());
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const label of labels) {
    if (label === "") problems.push("has an empty entry");
    else if (!isHostLabel(label)) problems.push(`label '${label}' is not valid (${LABEL_RULE})`);
    else if (seen.has(label)) problems.push(`label '${label}' is listed twice`);
    else {
      const clash = GLOBAL_SETTINGS.find((name) => name.startsWith(hostPrefix(label)));
      if (clash)
        problems.push(
          `label '${label}' is refused: its settings would start with ${hostPrefix(label)}, like the global setting ${clash}; choose another label`,
        );
    }
    seen.add(label);
  }
  if (problems.length === 0) problems.push(...sharedNames(labels));
  if (problems.length > 0)
    throw new ConfigError(HOSTS_VARIABLE, `${problems.join("; ")}; expected e.g. ${HOSTS_VARIABLE}=site-a,site-b`);
  return labels;
}

/** Two labels whose settings would share a name (a + SCHEMA_URL and a-schema + URL). */
function sharedNames(labels: readonly string[]): string[] {
  const owner = new Map<string, string>();
  const problems: string[] = [];
  for (const label of labels) {
    for (const setting of HOST_SETTINGS) {
      const name = hostVariable(label, setting);
      const other = owner.get(name);
      if (other !== undefined) problems.push(`labels '${other}' and '${label}' would both use ${name}; rename one`);
      owner.set(name, label);
    }
  }
  return problems;
}

/** The token as copied from the Proxmox UI or an Authorization header: [PVEAPIToken=]user@realm!tokenid=secret. */
export function splitCombinedToken(value: string): { tokenId: string; tokenSecret: string } | undefined {
  const text = value.trim().replace(/^PVEAPIToken=/i, "");
  const eq = text.indexOf("=");
  if (eq <= 0 || eq === text.length - 1) return undefined;
  return { tokenId: text.slice(0, eq), tokenSecret: text.slice(eq + 1) };
}

/**
 * Single-host hints and messages name the global settings (PROXMOX_CA_FILE, ...); for a
 * labelled host they are rewritten to that host's own (PROXMOX_<LABEL>_CA_FILE, ...).
 */
export function hostSettingNames(label: string, readOnlyOwn: boolean): Map<string, string> {
  const names = new Map<string, string>(
    SINGLE_HOST_SETTINGS.map((setting) => [`PROXMOX_${setting}`, hostVariable(label, setting)]),
  );
  if (readOnlyOwn) names.set("PROXMOX_READ_ONLY", hostVariable(label, "READ_ONLY"));
  return names;
}

/** Replaces whole setting names in `text` by `names` (one pass, so nothing is renamed twice). */
export function renameSettings(text: string, names: ReadonlyMap<string, string>): string {
  if (names.size === 0) return text;
  const pattern = new RegExp(`\\b(${[...names.keys()].join("|")})\\b`, "g");
  return text.replace(pattern, (name) => names.get(name) ?? name);
}
