// The README is a contract: its commands, settings and tool list must stay true. These tests
// read it and check each claim against the code, CI, and a real run where one is possible.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { HOST_SETTINGS } from "../../src/hosts/labels.ts";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { connectHarness } from "../support/mcp.ts";
import { settingsTheServerReads } from "../support/settings.ts";
import { cleanEnv, connectStdio, ensureBuilt, ROOT } from "../support/stdio.ts";
import { bundleFile, executableFile, manifestTemplate, TARGET_NAMES } from "../../scripts/release-targets.ts";

const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const ciRun = readFileSync(join(ROOT, ".ci/run"), "utf8");
const envExample = readFileSync(join(ROOT, ".env.example"), "utf8");

function codeBlocks(lang: string, text: string = readme): string[] {
  return [...text.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);
}

/** The text under a heading (given with its #s), up to the next heading of the same or a higher level. */
function section(heading: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README has no heading ${heading}`);
  const level = heading.indexOf(" ");
  const rest = readme.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level}} `, "m"));
  return end < 0 ? rest : rest.slice(0, end);
}

type ClientConfig = { mcpServers: Record<string, { command: string; args?: string[]; env: Record<string, string> }> };

const settingsTable = (() => {
  const section = readme.slice(
    readme.indexOf("## Settings"),
    readme.indexOf("\n## ", readme.indexOf("## Settings") + 5),
  );
  return new Set([...section.matchAll(/^\| `(PROXMOX_[A-Z_]+)` \|/gm)].map((m) => m[1]!));
})();

describe("README", () => {
  test("the two commands are the ones CI runs", () => {
    const [setup, testCommand] = codeBlocks("sh", section("## Two commands"));
    expect(setup).toStartWith("npm install -g bun && bun install --frozen-lockfile && bun run build\n");
    expect(testCommand!.trim()).toBe("bun test");
    for (const step of ["npm install -g", "bun install --frozen-lockfile", "bun run build", "\nbun test "])
      expect(ciRun).toContain(step);
  });

  test("the settings table lists exactly the variables the server reads, and .env.example has each", () => {
    const read = new Set(settingsTheServerReads());
    expect([...settingsTable].sort()).toEqual([...read].sort());
    for (const name of read) expect(envExample).toMatch(new RegExp(`^#?${name}=`, "m"));
  });

  test("the Claude Desktop block is valid JSON whose env holds real settings", () => {
    const [block] = codeBlocks("json", section("### Claude Desktop"));
    const config = JSON.parse(block!) as ClientConfig;
    const server = config.mcpServers.proxmox!;
    expect(server.args![0]).toEndWith("/dist/index.js");
    for (const name of Object.keys(server.env)) expect(settingsTable.has(name)).toBe(true);
  });

  test("every JSON example parses", () => {
    const blocks = codeBlocks("json");
    expect(blocks.length).toBeGreaterThan(5);
    for (const block of blocks) expect(() => JSON.parse(block)).not.toThrow();
  });

  test("every local link points at a file that exists", () => {
    const links = [...readme.matchAll(/\]\(([^)#:]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(3);
    for (const link of links) expect(existsSync(join(ROOT, link))).toBe(true);
  });
});

describe("README Install", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { name: string; version: string };
  const ways = [
    "### 1. Claude Desktop bundle (.mcpb)",
    "### 2. Package, with `bunx`",
    "### 3. Single-file executable",
    "### 4. From source",
  ];

  test("comes first, with the four ways in order, each saying what it needs installed", () => {
    expect(readme.indexOf("\n## Install\n")).toBeGreaterThan(0);
    expect(readme.indexOf("\n## Install\n")).toBeLessThan(readme.indexOf("\n## Two commands\n"));
    expect([...section("## Install").matchAll(/^### .*$/gm)].map((m) => m[0])).toEqual(ways);
    for (const way of ways) expect(section(way).trimStart()).toStartWith("Needs: ");
  });

  test("from source is the two commands, which stay as they are", () => {
    expect(section("### 4. From source")).toContain("[two commands](#two-commands)");
  });

  test("the bunx entry runs this package at package.json's version", () => {
    const [block] = codeBlocks("json", section("### 2. Package, with `bunx`"));
    const server = (JSON.parse(block!) as ClientConfig).mcpServers.proxmox!;
    expect(server.command).toEndWith("/bunx");
    expect(server.args).toEqual([`${pkg.name}@${pkg.version}`]);
    for (const name of Object.keys(server.env)) expect(settingsTable.has(name)).toBe(true);
    const pinned = [...readme.matchAll(new RegExp(`${pkg.name}@(\\d+\\.\\d+\\.\\d+)`, "g"))].map((m) => m[1]);
    expect(pinned.length).toBeGreaterThan(1);
    expect(new Set(pinned)).toEqual(new Set([pkg.version]));
  });

  test("the executable entry and every release file named are ones `bun run release` builds", () => {
    const [block] = codeBlocks("json", section("### 3. Single-file executable"));
    const server = (JSON.parse(block!) as ClientConfig).mcpServers.proxmox!;
    const built = new Set([...TARGET_NAMES.flatMap((t) => [executableFile(t), bundleFile(t)])]);
    expect(built.has(server.command.split("/").at(-1)!)).toBe(true);
    for (const name of Object.keys(server.env)) expect(settingsTable.has(name)).toBe(true);
    const named = [...section("## Install").matchAll(/`(proxmox-ve-mcp-[a-z0-9-]+(?:\.exe|\.mcpb)?)`/g)].map(
      (m) => m[1]!,
    );
    expect(new Set(named)).toEqual(built);
  });

  test("the bundle's form table matches the manifest: each field and the setting it fills", () => {
    const rows = [
      ...section("### 1. Claude Desktop bundle (.mcpb)").matchAll(/^\| ([^|`]+?) \| `(PROXMOX_[A-Z_]+)` \|/gm),
    ].map((m) => [m[1]!, m[2]!]);
    const { user_config, server } = manifestTemplate();
    const settingOf = (key: string) =>
      server.mcp_config.args.includes(`\${user_config.${key}}`)
        ? "PROXMOX_FILE_ROOTS"
        : (Object.entries(server.mcp_config.env).find(([, value]) => value === `\${user_config.${key}}`)?.[0] ?? "");
    const fromManifest = Object.entries(user_config).map(([key, option]) => [
      option.title.replace(/ \(optional\)$/, ""),
      settingOf(key),
    ]);
    expect(rows).toEqual(fromManifest);
  });
});

describe("README against a running server", () => {
  let fake: FakeProxmox;
  beforeAll(async () => {
    fake = await FakeProxmox.start();
  });
  afterAll(async () => {
    await fake.stop();
  });

  test("the tools table names exactly the tools the server lists", async () => {
    const h = await connectHarness(fake, { deps: { readOnly: false } });
    try {
      const listed = (await h.client.listTools()).tools.map((t) => t.name).sort();
      const section = readme.slice(readme.indexOf("## Tools"), readme.indexOf("### `proxmox_get`"));
      const documented = [...section.matchAll(/^\| `(proxmox_[a-z_]+)` \|/gm)].map((m) => m[1]!).sort();
      expect(documented).toEqual(listed);
    } finally {
      await h.close();
    }
  });

  test("the skill sidecar commands work: install -m 600 .env.example, then bun --env-file", async () => {
    ensureBuilt();
    const dir = mkdtempSync(join(tmpdir(), "pve-mcp-sidecar-"));
    try {
      const envFile = join(dir, "proxmox-ve-mcp.env");
      execFileSync("install", ["-m", "600", join(ROOT, ".env.example"), envFile]);
      expect(statSync(envFile).mode & 0o777).toBe(0o600);
      // "then edit it": point the example at the fake
      const values = fake.env();
      let text = readFileSync(envFile, "utf8");
      for (const [name, value] of Object.entries(values))
        text = text.replace(new RegExp(`^#?${name}=.*$`, "m"), `${name}=${value}`);
      writeFileSync(envFile, text);
      // the secret reaches the server only through the file
      const session = await connectStdio(cleanEnv({}), [`--env-file=${envFile}`]);
      try {
        const result = await session.client.callTool({ name: "proxmox_get", arguments: { path: "/version" } });
        expect(result.isError).toBeFalsy();
        expect((result.structuredContent as { data: { version: string } }).data.version).toBe("9.1.1");
      } finally {
        await session.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("README, Several hosts", () => {
  const section = readme.slice(readme.indexOf("## Several hosts"), readme.indexOf("\n## ", readme.indexOf("## Several hosts") + 5));
  const block = (lang: string) => new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(section)![1]!;
  const pemDir = mkdtempSync(join(tmpdir(), "pve-mcp-readme-hosts-"));
  const pem = join(pemDir, "ca.pem");
  writeFileSync(pem, "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
  afterAll(() => rmSync(pemDir, { recursive: true, force: true }));
  /** The example's CA paths do not exist here: point them at a PEM file that does. */
  const withPem = (env: Record<string, string>) =>
    Object.fromEntries(Object.entries(env).map(([k, v]) => [k, k.endsWith("_CA_FILE") ? pem : v]));

  test("the two-host .env example loads: two hosts, both token forms, site-b read-only", () => {
    const env: Record<string, string> = {};
    for (const line of block("sh").split("\n")) {
      const m = /^([A-Z_]+)=(.*)$/.exec(line);
      if (m) env[m[1]!] = m[2]!.replace(/^'(.*)'$/, "$1");
    }
    const config = loadConfig(withPem(env));
    expect(config.hosts.map((h) => [h.label, h.connection.tokenId, h.readOnly])).toEqual([
      ["site-a", "mcp@pve!agent", false],
      ["site-b", "mcp@pve!agent", true],
    ]);
  });

  test("the Claude Desktop entry's env loads the same two hosts", () => {
    const config = JSON.parse(block("json")) as { mcpServers: { proxmox: { env: Record<string, string> } } };
    const hosts = loadConfig(withPem(config.mcpServers.proxmox.env)).hosts;
    expect(hosts.map((h) => [h.label, h.connection.origin])).toEqual([
      ["site-a", "https://pve-a.example.com:8006"],
      ["site-b", "https://10.20.0.5:8006"],
    ]);
  });

  test("every per-host setting the server reads is documented", () => {
    for (const setting of HOST_SETTINGS) expect(section).toContain(`_${setting}`);
  });
});
