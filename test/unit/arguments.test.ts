import { describe, expect, test } from "bun:test";
import { delimiter } from "node:path";
import { parseArguments, usage } from "../../src/arguments.ts";
import { ConfigError } from "../../src/settings.ts";

const env = { PROXMOX_URL: "https://pve.example.com:8006" };

describe("parseArguments", () => {
  test.each([
    [[], env],
    [[""], env],
    [["", "  "], env],
    [["/srv/a"], { ...env, PROXMOX_FILE_ROOTS: "/srv/a" }],
    [["/srv/a", "", "/srv/b"], { ...env, PROXMOX_FILE_ROOTS: `/srv/a${delimiter}/srv/b` }],
    // relative paths are passed on, so the file-roots parser names them as not absolute
    [["isos"], { ...env, PROXMOX_FILE_ROOTS: "isos" }],
  ] as Array<[string[], Record<string, string>]>)("%j serves with %j", (args, expected) => {
    expect(parseArguments(args, env)).toEqual({ kind: "serve", env: expected });
  });

  test("an empty PROXMOX_FILE_ROOTS does not conflict with directory arguments", () => {
    expect(parseArguments(["/srv/a"], { ...env, PROXMOX_FILE_ROOTS: " " })).toEqual({
      kind: "serve",
      env: { ...env, PROXMOX_FILE_ROOTS: "/srv/a" },
    });
  });

  test("the environment it was given is not changed", () => {
    const given = { ...env };
    parseArguments(["/srv/a"], given);
    expect(given).toEqual(env);
  });

  test.each([
    [["--version"], "version"],
    [["-v"], "version"],
    [["/srv/a", "--help"], "help"],
    [["-h"], "help"],
  ] as Array<[string[], "version" | "help"]>)("%j -> %s", (args, kind) => {
    expect(parseArguments(args, env).kind).toBe(kind);
  });

  test.each([
    [["--stdio"], "unknown option --stdio"],
    [["/srv/a", "-x"], "unknown option -x"],
    [[`/srv/a${delimiter}/srv/b`], `contains "${delimiter}"`],
  ] as Array<[string[], string]>)("%j is refused: %s", (args, says) => {
    expect(() => parseArguments(args, env)).toThrow(ConfigError);
    expect(() => parseArguments(args, env)).toThrow(says);
  });

  test("directories both as arguments and in PROXMOX_FILE_ROOTS are refused", () => {
    expect(() => parseArguments(["/srv/a"], { ...env, PROXMOX_FILE_ROOTS: "/srv/b" })).toThrow(
      "both as arguments and in PROXMOX_FILE_ROOTS",
    );
  });
});

test("usage names the name, the version and the required settings", () => {
  const text = usage("proxmox-ve-mcp", "1.2.3");
  expect(text).toStartWith("proxmox-ve-mcp 1.2.3: ");
  for (const name of ["PROXMOX_URL", "PROXMOX_TOKEN_ID", "PROXMOX_TOKEN_SECRET", "PROXMOX_FILE_ROOTS"])
    expect(text).toContain(name);
});
