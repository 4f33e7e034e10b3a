import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileAccess, type FileAccessHooks } from "../../src/files/resolver.ts";
import { LocalRefusal } from "../../src/proxmox/errors.ts";

let base: string;
let root: string;
let outside: string;

function mkfifo(path: string): void {
  const result = Bun.spawnSync(["mkfifo", path]);
  if (result.exitCode !== 0) throw new Error(`mkfifo failed: ${result.stderr.toString()}`);
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "pve-files-resolver-")));
  root = join(base, "files");
  outside = join(base, "outside");
  for (const dir of [root, join(root, "iso"), outside, join(base, "files-evil"), join(base, "files2")])
    mkdirSync(dir, { mode: 0o755 });
  writeFileSync(join(root, "iso", "good.iso"), "good bytes");
  writeFileSync(join(outside, "secret.txt"), "secret");
  writeFileSync(join(base, "files-evil", "a"), "evil");
  writeFileSync(join(base, "files2", "a"), "two");
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function access(hooks: FileAccessHooks = {}): FileAccess {
  return new FileAccess({ roots: [root] }, hooks);
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LocalRefusal);
    expect((error as LocalRefusal).code).toBe("refused_file_path");
    return (error as Error).message;
  }
  throw new Error("was not refused");
}

describe("upload source", () => {
  test("a regular file inside the root is opened, and the handle reads that file", async () => {
    const source = await access().openForUpload(join(root, "iso", "good.iso"));
    try {
      expect(source.realPath).toBe(join(root, "iso", "good.iso"));
      expect(source.name).toBe("good.iso");
      expect(source.size).toBe(10);
      expect((await source.handle.readFile()).toString()).toBe("good bytes");
    } finally {
      await source.handle.close();
    }
  });

  test("a symlink whose target stays inside the root is followed", async () => {
    symlinkSync(join(root, "iso", "good.iso"), join(root, "latest.iso"));
    const source = await access().openForUpload(join(root, "latest.iso"));
    await source.handle.close();
    expect(source.realPath).toBe(join(root, "iso", "good.iso"));
    expect(source.name).toBe("latest.iso");
  });

  const outsideCases: [string, () => string][] = [
    ["a prefix sibling (files-evil)", () => join(base, "files-evil", "a")],
    ["a prefix sibling (files2)", () => join(base, "files2", "a")],
    ["a .. escape", () => join(root, "iso", "..", "..", "outside", "secret.txt")],
    ["a plain path outside", () => join(outside, "secret.txt")],
  ];
  for (const [what, path] of outsideCases) {
    test(`refuses ${what}`, async () => {
      expect(await refusal(access().openForUpload(path()))).toContain("outside the directories allowed");
    });
  }

  test("refuses a symlink to a file outside", async () => {
    symlinkSync(join(outside, "secret.txt"), join(root, "innocent.iso"));
    expect(await refusal(access().openForUpload(join(root, "innocent.iso")))).toContain(
      `resolves to ${join(outside, "secret.txt")}`,
    );
  });

  test("refuses a file under a symlinked parent directory that leads outside", async () => {
    symlinkSync(outside, join(root, "dir"));
    expect(await refusal(access().openForUpload(join(root, "dir", "secret.txt")))).toContain(
      "outside the directories allowed",
    );
  });

  test("refuses a chain of symlinks ending outside", async () => {
    symlinkSync(join(outside, "secret.txt"), join(root, "l3"));
    symlinkSync(join(root, "l3"), join(root, "l2"));
    symlinkSync(join(root, "l2"), join(root, "l1"));
    expect(await refusal(access().openForUpload(join(root, "l1")))).toContain("outside the directories allowed");
  });

  test("refuses a symlink loop", async () => {
    symlinkSync(join(root, "loop-b"), join(root, "loop-a"));
    symlinkSync(join(root, "loop-a"), join(root, "loop-b"));
    expect(await refusal(access().openForUpload(join(root, "loop-a")))).toContain("loop");
  });

  const badInput: [string, unknown, string][] = [
    ["a relative path", "files/iso/good.iso", "not absolute"],
    ["an empty path", "", "non-empty"],
    ["a NUL byte", "/tmp/a\0b", "NUL"],
    ["a non-string", 42, "non-empty"],
  ];
  for (const [what, input, message] of badInput) {
    test(`refuses ${what}`, async () => {
      expect(await refusal(access().openForUpload(input))).toContain(message);
    });
  }

  test("refuses a missing file", async () => {
    expect(await refusal(access().openForUpload(join(root, "nope.iso")))).toContain("does not exist");
  });

  test("refuses a directory", async () => {
    expect(await refusal(access().openForUpload(join(root, "iso")))).toContain("is a directory");
  });

  test("refuses a FIFO without blocking on it", async () => {
    mkfifo(join(root, "pipe"));
    expect(await refusal(access().openForUpload(join(root, "pipe")))).toContain("is a FIFO");
  });

  test("refuses a file below a group-writable directory inside the root", async () => {
    mkdirSync(join(root, "shared"));
    chmodSync(join(root, "shared"), 0o775);
    writeFileSync(join(root, "shared", "f.iso"), "x");
    expect(await refusal(access().openForUpload(join(root, "shared", "f.iso")))).toContain(
      "group- or world-writable (mode 0775)",
    );
  });

  test("refuses when the root itself became world-writable after startup", async () => {
    chmodSync(root, 0o777);
    expect(await refusal(access().openForUpload(join(root, "iso", "good.iso")))).toContain(`${root} (on the way to`);
  });

  test("a file swapped for a symlink to outside between check and open is not opened", async () => {
    const path = join(root, "iso", "good.iso");
    const swap = () => {
      unlinkSync(path);
      symlinkSync(join(outside, "secret.txt"), path);
    };
    expect(await refusal(access({ afterValidate: swap }).openForUpload(path))).toContain("replaced by a symbolic link");
  });

  test("a file swapped for another regular file between check and open is not used", async () => {
    const path = join(root, "iso", "good.iso");
    writeFileSync(join(root, "iso", "other"), "other bytes");
    const swap = () => renameSync(join(root, "iso", "other"), path);
    expect(await refusal(access({ afterValidate: swap }).openForUpload(path))).toContain(
      "changed between the check and the open",
    );
  });

  test("a file swapped for a FIFO between check and open is refused without blocking", async () => {
    const path = join(root, "iso", "good.iso");
    const swap = () => {
      unlinkSync(path);
      mkfifo(path);
    };
    expect(await refusal(access({ afterValidate: swap }).openForUpload(path))).toContain("now a FIFO");
  });
});

describe("download destination", () => {
  test("creates a new empty file with mode 0600 whatever the umask", async () => {
    const previous = process.umask(0);
    try {
      const target = await access().createForDownload(join(root, "task.log"));
      await target.handle.close();
      expect(target.path).toBe(join(root, "task.log"));
      expect(statSync(target.path).mode & 0o777).toBe(0o600);
      expect(statSync(target.path).size).toBe(0);
    } finally {
      process.umask(previous);
    }
  });

  test("discard removes the file", async () => {
    const target = await access().createForDownload(join(root, "partial.bin"));
    await target.handle.write(Buffer.from("partial"));
    await target.discard();
    expect(existsSync(join(root, "partial.bin"))).toBe(false);
  });

  test("never overwrites an existing file", async () => {
    const path = join(root, "iso", "good.iso");
    expect(await refusal(access().createForDownload(path))).toContain("already exists");
    expect(readFileSync(path, "utf8")).toBe("good bytes");
  });

  test("a dangling symlink at the destination is not followed: nothing is created outside", async () => {
    symlinkSync(join(outside, "created.txt"), join(root, "dangling"));
    expect(await refusal(access().createForDownload(join(root, "dangling")))).toContain(
      "already exists (possibly as a symbolic link)",
    );
    expect(existsSync(join(outside, "created.txt"))).toBe(false);
  });

  test("a symlink planted at the destination between check and create is not followed", async () => {
    const path = join(root, "new.log");
    const plant = () => symlinkSync(join(outside, "secret.txt"), path);
    expect(await refusal(access({ afterValidate: plant }).createForDownload(path))).toContain("already exists");
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("secret");
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
  });

  test("a dangling symlink planted between check and create creates nothing outside", async () => {
    const path = join(root, "new.log");
    const plant = () => symlinkSync(join(outside, "planted.txt"), path);
    await refusal(access({ afterValidate: plant }).createForDownload(path));
    expect(existsSync(join(outside, "planted.txt"))).toBe(false);
  });

  const refusedDestinations: [string, () => string, string][] = [
    ["a missing parent directory", () => join(root, "no-such-dir", "f"), "does not exist; create the directory first"],
    ["a prefix sibling (files-evil)", () => join(base, "files-evil", "new"), "outside the directories allowed"],
    ["a prefix sibling (files2)", () => join(base, "files2", "new"), "outside the directories allowed"],
    ["a .. escape", () => join(root, "..", "outside", "new"), "outside the directories allowed"],
    ["a trailing slash", () => `${root}/iso/`, "does not name a file"],
    ["a '..' final component", () => `${root}/iso/..`, "does not name a file"],
    ["a relative path", () => "task.log", "not absolute"],
  ];
  for (const [what, path, message] of refusedDestinations) {
    test(`refuses ${what}`, async () => {
      expect(await refusal(access().createForDownload(path()))).toContain(message);
    });
  }

  test("refuses a parent that is a symlink leading outside, creating nothing there", async () => {
    symlinkSync(outside, join(root, "out"));
    expect(await refusal(access().createForDownload(join(root, "out", "new.txt")))).toContain(
      "outside the directories allowed",
    );
    expect(existsSync(join(outside, "new.txt"))).toBe(false);
  });

  test("refuses a group-writable parent directory", async () => {
    mkdirSync(join(root, "drop"));
    chmodSync(join(root, "drop"), 0o770);
    expect(await refusal(access().createForDownload(join(root, "drop", "f")))).toContain("mode 0770");
    expect(existsSync(join(root, "drop", "f"))).toBe(false);
  });

  test("a second root is honoured", async () => {
    const target = await new FileAccess({ roots: [root, outside] }).createForDownload(join(outside, "second.txt"));
    await target.discard();
  });
});
