import { closeSync, constants, fstatSync, openSync, writeSync } from "node:fs";
import { ConfigError } from "../settings.ts";
import type { WriteIntent, WriteOutcome } from "../proxmox/calls.ts";
import type { ParamValue } from "../proxmox/params.ts";
import { redactDeep, type Redactor } from "../proxmox/redact.ts";
import { pathSegments } from "../proxmox/path.ts";

export const REDACTED = "[redacted]";

/** Parameter names whose values are credentials: password, cipassword, secret, key, token and the like. */
const SECRET_NAME = /pass|secret|token|key|cred|auth|private|psk|cookie|ticket|signature|header|otp/i;
/** Names the pattern catches that hold nothing secret (checked against the PVE 9.1 schema). */
const NOT_SECRET = new Set([
  "keyboard",
  "authid",
  "author",
  "authsupported",
  "tokenid",
  "token-coefficient",
  "generate-password",
  "webauthn",
]);
/** `name=value` inside a property string whose name looks secret. */
const SECRET_PROPERTY = /(^|,)([A-Za-z0-9_-]*(?:pass|secret|token|key|psk)[A-Za-z0-9_-]*)=([^,]*)/gi;

export function isSecretName(name: string, path = ""): boolean {
  if (NOT_SECRET.has(name.toLowerCase())) return false;
  if (SECRET_NAME.test(name)) return true;
  // ACME DNS plugin `data` holds the provider's API credentials.
  return name === "data" && pathSegments(path).includes("acme");
}

function redactScalar(value: string | number | boolean): string | number | boolean {
  return typeof value === "string" ? value.replace(SECRET_PROPERTY, `$1$2=${REDACTED}`) : value;
}

/** Parameters fit for a log: secret-looking values replaced, secrets inside property strings too. */
export function redactParams(params: Record<string, ParamValue>, path = ""): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const [name, value] of Object.entries(params)) {
    if (isSecretName(name, path)) out[name] = REDACTED;
    else out[name] = Array.isArray(value) ? value.map(redactScalar) : redactScalar(value);
  }
  return out;
}

/** The secret values of these parameters, to scrub them from error texts that may echo them. */
function secretValues(params: Record<string, ParamValue>, path: string): string[] {
  return Object.entries(params)
    .filter(([name]) => isSecretName(name, path))
    .flatMap(([, value]) => (Array.isArray(value) ? value : [value]).map(String))
    .filter((value) => value.length >= 4);
}

export type AuditResult = "ok" | "failed" | "refused";

export interface AuditEntry {
  time: string;
  /** The PROXMOX_HOSTS label of the host written to (several hosts only). */
  host?: string;
  /** HTTP mode: the label of the client's token. */
  client?: string;
  tool: string;
  method: string;
  path: string;
  params: Record<string, ParamValue>;
  upload?: { fileName: string; bytes: number };
  outcome: WriteOutcome & { result: AuditResult };
}

function resultOf(outcome: WriteOutcome): AuditResult {
  if (outcome.refusal) return "refused";
  if (outcome.status !== undefined && outcome.status >= 200 && outcome.status <= 299 && !outcome.error) return "ok";
  return "failed";
}

/** One audit line (no trailing newline): redacted parameters, and the token removed from all of it. */
export function auditLine(
  intent: WriteIntent,
  outcome: WriteOutcome,
  time: Date,
  redact: Redactor,
  host?: string,
): string {
  const scrub = (text: string) =>
    secretValues(intent.params, intent.path).reduce((out, secret) => out.split(secret).join(REDACTED), text);
  const entry: AuditEntry = {
    time: time.toISOString(),
    ...(host !== undefined ? { host } : {}),
    ...(intent.caller ? { client: intent.caller.label } : {}),
    tool: intent.tool,
    method: intent.method,
    path: intent.path,
    params: redactParams(intent.params, intent.path),
    ...(intent.upload ? { upload: intent.upload } : {}),
    outcome: {
      result: resultOf(outcome),
      ...(outcome.confirmation ? { confirmation: outcome.confirmation } : {}),
      ...(outcome.status !== undefined ? { status: outcome.status } : {}),
      ...(outcome.upid ? { upid: outcome.upid } : {}),
      ...(outcome.refusal ? { refusal: outcome.refusal } : {}),
      ...(outcome.error ? { error: scrub(outcome.error) } : {}),
    },
  };
  return JSON.stringify(redactDeep(entry, redact));
}

/** HTTP mode: one stderr line per write and refusal, naming the client (never parameters or the token). */
export function clientLogLine(intent: WriteIntent, outcome: WriteOutcome): string | undefined {
  if (!intent.caller) return undefined;
  const result = resultOf(outcome);
  const detail = outcome.refusal ?? (outcome.status !== undefined ? String(outcome.status) : undefined);
  return `client ${intent.caller.label}: ${intent.tool} ${intent.method} ${intent.path} ${result}${detail ? ` (${detail})` : ""}`;
}

const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);

/**
 * PROXMOX_AUDIT_LOG. Opened per line, so a rotated file is recreated (0600); symlinks are not
 * followed, so nobody can point the trail at another file by planting a link.
 */
export class AuditFile {
  constructor(readonly path: string) {}

  /** Creates the file if needed; returns a warning when it is readable by others. */
  open(): string | undefined {
    let fd: number;
    try {
      fd = openSync(this.path, APPEND_FLAGS, 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "unwritable";
      const why = code === "ELOOP" ? "it is a symbolic link, which is not followed" : code;
      throw new ConfigError(
        "PROXMOX_AUDIT_LOG",
        `cannot open ${this.path} for appending (${why}); expected a writable file path whose directory exists`,
      );
    }
    try {
      const mode = fstatSync(fd).mode & 0o777;
      if ((mode & 0o077) !== 0) {
        return `audit log ${this.path} has mode ${mode.toString(8).padStart(4, "0")}, so other users can read it; chmod 600 it`;
      }
      return undefined;
    } finally {
      closeSync(fd);
    }
  }

  /** Appends one line; throws the file system's error. */
  append(line: string): void {
    const fd = openSync(this.path, APPEND_FLAGS, 0o600);
    try {
      writeSync(fd, `${line}\n`);
    } finally {
      closeSync(fd);
    }
  }

  /** Why a line could not be appended right now, or undefined when it can. */
  problem(): string | undefined {
    try {
      closeSync(openSync(this.path, APPEND_FLAGS, 0o600));
      return undefined;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code ?? String(error);
    }
  }
}
