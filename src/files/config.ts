import { realpathSync, statSync } from "node:fs";
import { delimiter, isAbsolute } from "node:path";
import { ConfigError, type Env } from "../settings.ts";
import { LocalRefusal } from "../proxmox/errors.ts";

export const FILE_ROOTS_VARIABLE = "PROXMOX_FILE_ROOTS";

export interface FileConfig {
  /** Real paths (symlinks resolved) of the directories file transfer may touch. */
  roots: string[];
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

/** PROXMOX_FILE_ROOTS -> the real root directories, or undefined when file transfer is off. */
export function loadFileConfig(env: Env): FileConfig | undefined {
  const value = env[FILE_ROOTS_VARIABLE];
  if (value === undefined || value.trim() === "") return undefined;
  const entries = value
    .split(delimiter)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 0) throw new ConfigError(FILE_ROOTS_VARIABLE, `names no directory; ${EXPECTED}`);
  return { roots: [...new Set(entries.map(resolveRoot))] };
}

/** What both transfer tools answer when PROXMOX_FILE_ROOTS is unset. */
export function fileTransferDisabled(): LocalRefusal {
  return new LocalRefusal(
    "file_transfer_disabled",
    `File transfer is disabled: this server was started without ${FILE_ROOTS_VARIABLE}. To enable it, the operator sets ${FILE_ROOTS_VARIABLE} to one or more absolute directories (separated by "${delimiter}", each existing and not group- or world-writable) and restarts the server; uploads are then read from, and downloads written to, those directories only.`,
  );
}
