// The one place that checks local paths against PROXMOX_FILE_ROOTS. Every rule is enforced
// on real paths (symlinks resolved), and the final open is done so that a path changed after
// the check cannot redirect it: O_NOFOLLOW, and for uploads the opened inode must be the one
// that was checked; for downloads O_CREAT|O_EXCL never follows or replaces anything.
import { constants, rmSync, type BigIntStats } from "node:fs";
import { lstat, open, realpath, unlink, type FileHandle } from "node:fs/promises";
import { basename, dirname, isAbsolute, join } from "node:path";
import { LocalRefusal } from "../proxmox/errors.ts";
import { DEFAULT_STALL_RULE, OTHERS_WRITABLE, type FileConfig } from "./config.ts";
import { isWithinRoot } from "./containment.ts";
import type { StallRule } from "./meter.ts";

/** Test seams; production code passes none. */
export interface FileAccessHooks {
  /** Runs after a path was validated and before it is opened or created. */
  afterValidate?(realPath: string): void | Promise<void>;
  /** Runs before each chunk of a download is written (with the bytes written so far); a throw stands for a failing disk. */
  beforeWrite?(bytesWritten: number): void | Promise<void>;
}

export interface UploadSource {
  /** Open, read-only, on the validated regular file. The caller closes it. */
  handle: FileHandle;
  realPath: string;
  /** The base name of the path as given. */
  name: string;
  size: number;
}

export interface DownloadTarget {
  /** Open, write-only, on the file just created (mode 0600). */
  handle: FileHandle;
  path: string;
  /** Closes and removes the file; used on every failure. */
  discard(): Promise<void>;
  /** Closes the complete file and keeps it. */
  finish(): Promise<void>;
}

function refuse(message: string): never {
  throw new LocalRefusal("refused_file_path", message);
}

function errno(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? "unknown";
}

function kindOf(stat: BigIntStats): string {
  if (stat.isDirectory()) return "a directory";
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
  if (stat.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

function modeText(mode: bigint | number): string {
  return (Number(mode) & 0o7777).toString(8).padStart(4, "0");
}

export class FileAccess {
  readonly roots: readonly string[];
  readonly hooks: FileAccessHooks;
  /** When a transfer counts as stalled; undefined: never. */
  readonly stall: StallRule | undefined;
  /** Whether uploads send a sha256 checksum by default where the endpoint takes one. */
  readonly uploadChecksum: boolean;
  /** Downloads still being written: removed by removeUnfinished() when the process stops. */
  private readonly unfinished = new Set<string>();

  constructor(config: FileConfig, hooks: FileAccessHooks = {}) {
    this.roots = [...config.roots];
    this.hooks = hooks;
    this.stall = config.stall === undefined ? DEFAULT_STALL_RULE : (config.stall ?? undefined);
    this.uploadChecksum = config.uploadChecksum ?? true;
  }

  /** Validates `input` as an upload source and opens it once, without following a final symlink. */
  async openForUpload(input: unknown): Promise<UploadSource> {
    const given = this.checkGiven(input, "file_path");
    const real = await this.realPath(given, "file_path");
    const root = this.rootOf(real, given);
    await this.checkDirectories(dirname(real), root, given);
    const checked = await lstat(real, { bigint: true }).catch((error: unknown) =>
      refuse(`${given} cannot be read (${errno(error)})`),
    );
    if (!checked.isFile()) refuse(`${given} is ${kindOf(checked)}; only regular files can be uploaded`);
    await this.hooks.afterValidate?.(real);

    let handle: FileHandle;
    try {
      // O_NONBLOCK: a FIFO swapped in after the check must not block the open.
      handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      const code = errno(error);
      if (code === "ELOOP") refuse(`${given} was replaced by a symbolic link after it was checked; nothing was sent`);
      refuse(`${given} cannot be opened (${code}); nothing was sent`);
    }
    try {
      const opened = await handle.stat({ bigint: true });
      if (!opened.isFile() || opened.dev !== checked.dev || opened.ino !== checked.ino) {
        refuse(
          `${given} changed between the check and the open (now ${opened.isFile() ? "a different file" : kindOf(opened)}); nothing was sent`,
        );
      }
      return { handle, realPath: real, name: basename(given), size: Number(opened.size) };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Validates `input` as a download destination and creates it exclusively with mode 0600. The
   * parent must exist inside a root; the file itself must not exist (not even as a dangling symlink).
   */
  async createForDownload(input: unknown): Promise<DownloadTarget> {
    const given = this.checkGiven(input, "destination");
    const name = basename(given);
    if (given.endsWith("/") || name === "" || name === "." || name === "..") {
      refuse(
        `destination ${given} does not name a file; give the full path of a new file, e.g. ${this.roots[0]}/task.log`,
      );
    }
    const parent = await this.realPath(dirname(given), "destination's parent directory");
    const root = this.rootOf(parent, given);
    await this.checkDirectories(parent, root, given);
    const target = join(parent, name);
    await this.hooks.afterValidate?.(target);

    let handle: FileHandle;
    try {
      handle = await open(
        target,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o600,
      );
    } catch (error) {
      const code = errno(error);
      if (code === "EEXIST") {
        refuse(
          `destination ${given} already exists (possibly as a symbolic link); downloads never overwrite, so choose a new file name`,
        );
      }
      refuse(`destination ${given} cannot be created (${code})`);
    }
    this.unfinished.add(target);
    let discarded = false;
    const discard = async () => {
      if (discarded) return;
      discarded = true;
      await handle.close().catch(() => undefined);
      await unlink(target).catch(() => undefined);
      // only now: a shutdown racing this cleanup still finds the file listed
      this.unfinished.delete(target);
    };
    const finish = async () => {
      await handle.close();
      this.unfinished.delete(target);
    };
    try {
      // The umask can only remove bits; set exactly 0600 whatever it is.
      await handle.chmod(0o600);
    } catch (error) {
      await discard();
      refuse(`destination ${given} could not be restricted to mode 0600 (${errno(error)}); it was removed`);
    }
    return { handle, path: target, discard, finish };
  }

  /** Removes every download still being written; for shutdown, when no handler will clean up. */
  removeUnfinished(): void {
    for (const target of this.unfinished) rmSync(target, { force: true });
    this.unfinished.clear();
  }

  private checkGiven(input: unknown, what: string): string {
    if (typeof input !== "string" || input === "") refuse(`${what} must be a non-empty absolute path`);
    if (input.includes("\0")) refuse(`${what} contains a NUL byte`);
    if (!isAbsolute(input))
      refuse(`${what} ${JSON.stringify(input)} is not absolute; give a full path inside ${this.rootsText()}`);
    return input;
  }

  private async realPath(path: string, what: string): Promise<string> {
    try {
      return await realpath(path);
    } catch (error) {
      const code = errno(error);
      if (code === "ENOENT")
        refuse(`${what} ${path} does not exist${what === "file_path" ? "" : "; create the directory first"}`);
      if (code === "ELOOP") refuse(`${what} ${path} runs into a loop of symbolic links`);
      if (code === "ENOTDIR") refuse(`${what} ${path} goes through something that is not a directory`);
      refuse(`${what} ${path} cannot be resolved (${code})`);
    }
  }

  private rootOf(real: string, given: string): string {
    const root = this.roots.find((r) => isWithinRoot(real, r));
    if (root === undefined) {
      refuse(
        `${given} resolves to ${real}, which is outside the directories allowed for file transfer (${this.rootsText()}); symbolic links are followed before this check`,
      );
    }
    return root;
  }

  /** `dir` and each directory above it up to and including `root`: real directories that others cannot write to. */
  private async checkDirectories(dir: string, root: string, given: string): Promise<void> {
    for (let current = dir; ; current = dirname(current)) {
      const stat = await lstat(current, { bigint: true }).catch((error: unknown) =>
        refuse(`${current} cannot be read (${errno(error)})`),
      );
      if (!stat.isDirectory()) refuse(`${current} (on the way to ${given}) changed after it was resolved`);
      if ((Number(stat.mode) & OTHERS_WRITABLE) !== 0) {
        refuse(
          `${current} (on the way to ${given}) is group- or world-writable (mode ${modeText(stat.mode)}), so another user could swap files in it; run chmod go-w ${current}`,
        );
      }
      if (current === root || current === dirname(current)) return;
    }
  }

  private rootsText(): string {
    return this.roots.join(", ");
  }
}
