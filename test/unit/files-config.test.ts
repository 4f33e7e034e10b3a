import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { DEFAULT_STALL_RULE, fileTransferDisabled, loadFileConfig, loadStallRule } from "../../src/files/config.ts";
import { FileAccess } from "../../src/files/resolver.ts";

let base: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "pve-files-config-")));
  for (const name of ["a", "b", "group", "world"]) mkdirSync(join(base, name), { mode: 0o755 });
  chmodSync(join(base, "group"), 0o775);
  chmodSync(join(base, "world"), 0o1777);
  writeFileSync(join(base, "plain-file"), "x");
  symlinkSync(join(base, "a"), join(base, "link-to-a"));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function configError(value: string): string {
  try {
    loadFileConfig({ PROXMOX_FILE_ROOTS: value });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe("PROXMOX_FILE_ROOTS");
    return (error as Error).message;
  }
  throw new Error(`${value} was accepted`);
}

describe("PROXMOX_FILE_ROOTS", () => {
  test("unset or blank disables file transfer", () => {
    expect(loadFileConfig({})).toBeUndefined();
    expect(loadFileConfig({ PROXMOX_FILE_ROOTS: "  " })).toBeUndefined();
  });

  test("roots are split by the path delimiter and resolved to real paths", () => {
    const config = loadFileConfig({
      PROXMOX_FILE_ROOTS: [join(base, "link-to-a"), join(base, "b"), `${join(base, "a")}/`].join(delimiter),
    });
    expect(config?.roots).toEqual([join(base, "a"), join(base, "b")]);
  });

  test("empty entries between delimiters are ignored, but a value with no directory is an error", () => {
    expect(loadFileConfig({ PROXMOX_FILE_ROOTS: `${delimiter}${join(base, "a")}${delimiter}` })?.roots).toEqual([
      join(base, "a"),
    ]);
    expect(configError(`${delimiter}${delimiter}`)).toContain("names no directory");
  });

  const refused: [string, () => string, string][] = [
    ["a relative path", () => "files", "not an absolute path"],
    ["a missing directory", () => join(base, "missing"), "cannot be resolved (ENOENT)"],
    ["a regular file", () => join(base, "plain-file"), "is not a directory"],
    ["a group-writable directory", () => join(base, "group"), "group- or world-writable (mode 0775)"],
    ["a world-writable sticky directory", () => join(base, "world"), "group- or world-writable (mode 1777)"],
    ["the filesystem root", () => "/", "filesystem root"],
    ["a NUL byte", () => `${base}/a\0`, "NUL"],
  ];
  for (const [what, value, message] of refused) {
    test(`refuses ${what}`, () => {
      expect(configError(value())).toContain(message);
    });
  }

  test("one bad entry among good ones fails the whole setting", () => {
    expect(configError([join(base, "a"), join(base, "group")].join(delimiter))).toContain("group");
  });

  test("loadConfig carries the roots, and stops on a bad one", () => {
    const env = {
      PROXMOX_URL: "https://pve.example.com:8006",
      PROXMOX_TOKEN_ID: "mcp@pve!t",
      PROXMOX_TOKEN_SECRET: "0123456789abcdef",
    };
    expect(loadConfig(env).files).toBeUndefined();
    expect(loadConfig({ ...env, PROXMOX_FILE_ROOTS: join(base, "b") }).files?.roots).toEqual([join(base, "b")]);
    expect(() => loadConfig({ ...env, PROXMOX_FILE_ROOTS: join(base, "world") })).toThrow(ConfigError);
  });

  test("the disabled answer says how to enable file transfer", () => {
    const refusal = fileTransferDisabled();
    expect(refusal.code).toBe("file_transfer_disabled");
    expect(refusal.message).toContain("PROXMOX_FILE_ROOTS");
    expect(refusal.message).toContain("restarts the server");
  });
});

describe("PROXMOX_TRANSFER_MIN_RATE, PROXMOX_TRANSFER_STALL_S, PROXMOX_UPLOAD_CHECKSUM", () => {
  const accepted: [Record<string, string>, { bytesPerSecond: number; windowMs: number } | null][] = [
    [{}, { bytesPerSecond: 1024, windowMs: 60_000 }],
    [{ PROXMOX_TRANSFER_MIN_RATE: " " }, { bytesPerSecond: 1024, windowMs: 60_000 }],
    [{ PROXMOX_TRANSFER_MIN_RATE: "4096" }, { bytesPerSecond: 4096, windowMs: 60_000 }],
    [{ PROXMOX_TRANSFER_STALL_S: "300" }, { bytesPerSecond: 1024, windowMs: 300_000 }],
    [
      { PROXMOX_TRANSFER_MIN_RATE: "1", PROXMOX_TRANSFER_STALL_S: "1" },
      { bytesPerSecond: 1, windowMs: 1000 },
    ],
    [{ PROXMOX_TRANSFER_MIN_RATE: "0" }, null],
  ];
  test.each(accepted)("%j -> %j", (env, rule) => {
    expect(loadStallRule(env)).toEqual(rule);
  });

  const refused: [Record<string, string>, string][] = [
    [{ PROXMOX_TRANSFER_MIN_RATE: "-1" }, "PROXMOX_TRANSFER_MIN_RATE"],
    [{ PROXMOX_TRANSFER_MIN_RATE: "1KiB" }, "PROXMOX_TRANSFER_MIN_RATE"],
    [{ PROXMOX_TRANSFER_MIN_RATE: "99999999999" }, "PROXMOX_TRANSFER_MIN_RATE"],
    [{ PROXMOX_TRANSFER_STALL_S: "0" }, "PROXMOX_TRANSFER_STALL_S"],
    [{ PROXMOX_TRANSFER_STALL_S: "1.5" }, "PROXMOX_TRANSFER_STALL_S"],
    [{ PROXMOX_UPLOAD_CHECKSUM: "maybe" }, "PROXMOX_UPLOAD_CHECKSUM"],
  ];
  test.each(refused)("%j stops the server, naming %s, even with file transfer off", (env, variable) => {
    expect(() => loadFileConfig(env)).toThrow(ConfigError);
    expect(() => loadFileConfig(env)).toThrow(variable);
  });

  test("they reach the FileAccess; a config without them gets the defaults", () => {
    const config = loadFileConfig({
      PROXMOX_FILE_ROOTS: join(base, "a"),
      PROXMOX_TRANSFER_MIN_RATE: "0",
      PROXMOX_UPLOAD_CHECKSUM: "false",
    })!;
    const files = new FileAccess(config);
    expect(files.stall).toBeUndefined();
    expect(files.uploadChecksum).toBe(false);
    const defaults = new FileAccess({ roots: [join(base, "a")] });
    expect(defaults.stall).toEqual(DEFAULT_STALL_RULE);
    expect(defaults.uploadChecksum).toBe(true);
  });
});
