import { realpathSync, statSync } from "node:fs";
import { delimiter, isAbsolute } from "node:path";
import { ConfigError, parseBoolean, parsePositiveInt, type Env } from "../settings.ts";
import { LocalRefusal } from "../proxmox/errors.ts";
import type { StallRule } from "./meter.ts";

export const FILE_ROOTS_VARIABLE = "PROXMOX_FILE_ROOTS";
export const MIN_RATE_VARIABLE = "PROXMOX_TRANSFER_MIN_RATE";
export const STALL_VARIABLE = "PROXMOX_TRANSFER_STALL_S";
export const UPLOAD_CHECKSUM_VARIABLE = "PROXMOX_UPLOAD_CHECKSUM";

/** Below 1 KiB/s for 60 s a transfer counts as stalled, unless the operator says otherwise. */
export const DEFAULT_STALL_RULE: StallRule = { bytesPerSecond: 1024, windowMs: 60_000 };

export interface FileConfig {
  /** Real paths (symlinks resolved) of the directories file transfer may touch. */
  roots: string[];
  /** When a transfer counts as stalled; null: never. Default DEFAULT_STALL_RULE. */
  stall?: StallRule | null;
  /** Send a sha256 checksum with uploads when the endpoint takes one. Default true. */
  uploadChecksum?: boolean;
}

/** Mode bits that let other users create, rename or remove entries in a directory. */
export const OTHERS_WRITABLE = 0o022;

const EXPECTED = `expected absolute directories separated by "${delimiter}", e.g. /srv/pve-files${delimiter}/home/me/isos`;

function rootError(entry: string, why: string): ConfigError {
  return new ConfigError(FILE_ROOTS_VARIABLE, `${JSON.stringify(entry)} ${why}`);
}

function resolveRoot(entry: string): string {
  if (entry.includes("\0")) throw rootError(entry, `contains a NUL byte; ${EXPECTED}`);
  if (!isAbsolute(entry)) throw rootError(entry, `is not an absolute path; ${EXPECTED}`);
  let real: string;
  try {
    real = realpathSync(entry);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw rootError(entry, `cannot be resolved (${code}); create the directory first, ${EXPECTED}`);
  }
  const stat = statSync(real);
  if (!stat.isDirectory()) throw rootError(entry, `is not a directory; ${EXPECTED}`);
  if (real === "/") throw rootError(entry, "is the filesystem root; name the directories meant for transfers");
  if ((stat.mode & OTHERS_WRITABLE) !== 0) {
    const mode = (stat.mode & 0o7777).toString(8).padStart(4, "0");
    throw rootError(
      entry,
      `is group- or world-writable (mode ${mode}), so another user could swap files in it; run chmod go-w ${real}`,
    );
  }
  return real;
}

const MAX_RATE = 1024 * 1024 * 1024;

/** PROXMOX_TRANSFER_MIN_RATE and PROXMOX_TRANSFER_STALL_S -> the stall rule; a rate of 0 turns it off. */
export function loadStallRule(env: Env): StallRule | null {
  const seconds = parsePositiveInt(
    STALL_VARIABLE,
    env[STALL_VARIABLE],
    DEFAULT_STALL_RULE.windowMs / 1000,
    86_400,
    "seconds",
  );
  const raw = env[MIN_RATE_VARIABLE]?.trim();
  if (raw === undefined || raw === "")
    return { bytesPerSecond: DEFAULT_STALL_RULE.bytesPerSecond, windowMs: seconds * 1000 };
  if (!/^\d+$/.test(raw) || Number(raw) > MAX_RATE) {
    throw new ConfigError(
      MIN_RATE_VARIABLE,
      `expected a whole number of bytes per second from 0 (no limit) to ${MAX_RATE}`,
    );
  }
  const rate = Number(raw);
  return rate === 0 ? null : { bytesPerSecond: rate, windowMs: seconds * 1000 };
}

/** The file transfer settings; undefined when PROXMOX_FILE_ROOTS is unset (the others are still checked). */
export function loadFileConfig(env: Env): FileConfig | undefined {
  const stall = loadStallRule(env);
  const uploadChecksum = parseBoolean(UPLOAD_CHECKSUM_VARIABLE, env[UPLOAD_CHECKSUM_VARIABLE], true);
  const value = env[FILE_ROOTS_VARIABLE];
  if (value === undefined || value.trim() === "") return undefined;
  const entries = value
    .split(delimiter)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 0) throw new ConfigError(FILE_ROOTS_VARIABLE, `names no directory; ${EXPECTED}`);
  return { roots: [...new Set(entries.map(resolveRoot))], stall, uploadChecksum };
}

/** What both transfer tools answer when PROXMOX_FILE_ROOTS is unset. */
export function fileTransferDisabled(): LocalRefusal {
  return new LocalRefusal(
    "file_transfer_disabled",
    `File transfer is disabled: this server was started without ${FILE_ROOTS_VARIABLE}. To enable it, the operator sets ${FILE_ROOTS_VARIABLE} to one or more absolute directories (separated by "${delimiter}", each existing and not group- or world-writable) and restarts the server; uploads are then read from, and downloads written to, those directories only.`,
  );
}
