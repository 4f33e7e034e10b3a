import { ConfigError, parseBoolean, parsePositiveInt, type Env } from "../settings.ts";
import { parseRules, type WriteRule } from "./rules.ts";

/** Local write policy (issue 6). Files named here are read when the gate is built, not here. */
export interface PolicyConfig {
  /** PROXMOX_READ_ONLY: writing tools are not listed and the client refuses every non-GET. */
  readOnly: boolean;
  /** PROXMOX_PROTECTED_VMS_FILE: JSON list of guests no write may touch. */
  protectedVmsFile: string | undefined;
  /** PROXMOX_DENY: writes matching any of these are refused. */
  deny: WriteRule[];
  /** PROXMOX_ALLOW: when set, only writes matching one of these pass. */
  allow: WriteRule[] | undefined;
  /** PROXMOX_AUDIT_LOG: JSON-lines file receiving every write attempt and refusal. */
  auditLog: string | undefined;
  /** PROXMOX_VLAN_GUARD (default true): refuse tagged NICs on bridges that are not VLAN-aware. */
  vlanGuard: boolean;
  /** PROXMOX_READ_ONLY_ALLOW_OUTBOUND (default false): in read-only mode, still allow GETs that make a node contact other hosts. */
  readOnlyAllowOutbound: boolean;
  /** PROXMOX_READ_ONLY_ALLOW_GUEST_CONTENT (default false): in read-only mode, still allow GETs that read inside guests and backups. */
  readOnlyAllowGuestContent: boolean;
  /** PROXMOX_CONFIRM: writes matching these are held until a person confirms them in the client. */
  confirm: WriteRule[];
  /** PROXMOX_CONFIRM_TIMEOUT_S: how long a confirmation may take before the write is refused. */
  confirmTimeoutS: number;
}

export const DEFAULT_CONFIRM_TIMEOUT_S = 120;

function optionalPath(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined || value.trim() === "") return undefined;
  if (/[\x00-\x1f]/.test(value)) throw new ConfigError(name, "contains control characters; expected a file path");
  return value.trim();
}

export function loadPolicyConfig(env: Env): PolicyConfig {
  const allow = parseRules("PROXMOX_ALLOW", env.PROXMOX_ALLOW);
  return {
    readOnly: parseBoolean("PROXMOX_READ_ONLY", env.PROXMOX_READ_ONLY, false),
    protectedVmsFile: optionalPath(env, "PROXMOX_PROTECTED_VMS_FILE"),
    deny: parseRules("PROXMOX_DENY", env.PROXMOX_DENY),
    allow: allow.length > 0 ? allow : undefined,
    auditLog: optionalPath(env, "PROXMOX_AUDIT_LOG"),
    vlanGuard: parseBoolean("PROXMOX_VLAN_GUARD", env.PROXMOX_VLAN_GUARD, true),
    readOnlyAllowOutbound: parseBoolean(
      "PROXMOX_READ_ONLY_ALLOW_OUTBOUND",
      env.PROXMOX_READ_ONLY_ALLOW_OUTBOUND,
      false,
    ),
    readOnlyAllowGuestContent: parseBoolean(
      "PROXMOX_READ_ONLY_ALLOW_GUEST_CONTENT",
      env.PROXMOX_READ_ONLY_ALLOW_GUEST_CONTENT,
      false,
    ),
    confirm: parseRules("PROXMOX_CONFIRM", env.PROXMOX_CONFIRM),
    confirmTimeoutS: parsePositiveInt(
      "PROXMOX_CONFIRM_TIMEOUT_S",
      env.PROXMOX_CONFIRM_TIMEOUT_S,
      DEFAULT_CONFIRM_TIMEOUT_S,
      3600,
      "seconds",
    ),
  };
}
