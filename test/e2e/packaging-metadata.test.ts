// Install metadata kept true: the MCP Bundle manifests (validated by the pinned mcpb CLI and
// checked against the live tool list), server.json for the MCP registry, and the one version.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getMcpConfigForManifest } from "@anthropic-ai/mcpb";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { SERVER_VERSION } from "../../src/server.ts";
import {
  bundleManifest,
  manifestTemplate,
  TARGET_NAMES,
  TARGETS,
  type Manifest,
} from "../../scripts/release-targets.ts";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { connectHarness } from "../support/mcp.ts";
import { settingsTheServerReads } from "../support/settings.ts";
import { ROOT } from "../support/stdio.ts";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
  mcpName: string;
};
const MCPB_CLI = join(ROOT, "node_modules/@anthropic-ai/mcpb/dist/cli/cli.js");

/** Every PROXMOX_* variable the server reads. */
const SETTINGS = settingsTheServerReads();

let fake: FakeProxmox;
let liveTools: string[];
const work = mkdtempSync(join(tmpdir(), "pve-mcp-metadata-"));

beforeAll(async () => {
  fake = await FakeProxmox.start();
  const h = await connectHarness(fake, { deps: { readOnly: false } });
  try {
    liveTools = (await h.client.listTools()).tools.map((t) => t.name).sort();
  } finally {
    await h.close();
  }
});

afterAll(async () => {
  await fake?.stop();
  rmSync(work, { recursive: true, force: true });
});

test("the server reports package.json's version (imported at build time)", () => {
  expect(SERVER_VERSION).toBe(pkg.version);
  const bundle = readFileSync(join(ROOT, "dist/proxmox-ve-mcp.js"), "utf8");
  expect(bundle).not.toContain('"devDependencies"');
});

describe("MCP Bundle manifests", () => {
  /** Runs the pinned `mcpb validate` CLI on a manifest; resolves with its exit code and output. */
  async function mcpbValidate(name: string, manifest: unknown): Promise<{ code: number; output: string }> {
    const dir = join(work, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest));
    const proc = Bun.spawn([process.execPath, MCPB_CLI, "validate", join(dir, "manifest.json")], {
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    return { code, output: out + err };
  }

  test("`mcpb validate` accepts the manifest of every platform, and refuses a broken one", async () => {
    const { server: _, ...broken } = bundleManifest("linux-x64");
    const results = await Promise.all([
      ...TARGET_NAMES.map((target) => mcpbValidate(target, bundleManifest(target))),
      mcpbValidate("broken", broken),
    ]);
    const accepted = results.slice(0, -1);
    for (const { code, output } of accepted) {
      expect(output).toContain("Manifest schema validation passes!");
      expect(code).toBe(0);
    }
    expect(results.at(-1)!.code).toBe(1);
    expect(results.at(-1)!.output).toContain("server");
  }, 30_000);

  test.each(TARGET_NAMES)("%s: a binary server for its one platform, at package.json's version", (target) => {
    const manifest = bundleManifest(target);
    const exe = TARGETS[target].platform === "win32" ? "proxmox-ve-mcp.exe" : "proxmox-ve-mcp";
    expect(Number(manifest.manifest_version)).toBeGreaterThanOrEqual(0.3);
    expect(manifest.version).toBe(pkg.version);
    expect(manifest.name).toBe(pkg.name);
    expect(manifest.compatibility).toEqual({ platforms: [TARGETS[target].platform] });
    expect(manifest.server.type).toBe("binary");
    expect(manifest.server.entry_point).toBe(`server/${exe}`);
    expect(manifest.server.mcp_config.command).toBe(`\${__dirname}/server/${exe}`);
  });

  test("list exactly the tools the server lists in read-write mode", () => {
    expect(liveTools).toHaveLength(6);
    expect(
      manifestTemplate()
        .tools.map((t) => t.name)
        .sort(),
    ).toEqual(liveTools);
  });

  test("ask for what the issue names, with the secret kept in the keychain", () => {
    const config = manifestTemplate().user_config;
    const shape = Object.fromEntries(
      Object.entries(config).map(([key, o]) => [
        key,
        [o.type, o.required === true, o.sensitive === true, o.multiple === true, o.default],
      ]),
    );
    expect(shape).toEqual({
      proxmox_url: ["string", true, false, false, undefined],
      token_id: ["string", true, false, false, undefined],
      token_secret: ["string", true, true, false, undefined],
      ca_file: ["file", false, false, false, ""],
      file_roots: ["directory", false, false, true, []],
      read_only: ["boolean", false, false, false, true],
      protected_vms_file: ["file", false, false, false, ""],
    });
  });

  test("map every field to a setting the server reads; directories go in args", () => {
    const { mcp_config } = manifestTemplate().server;
    const used = new Set<string>();
    for (const [name, value] of Object.entries(mcp_config.env)) {
      expect(SETTINGS).toContain(name);
      const key = /^\$\{user_config\.([a-z_]+)\}$/.exec(value)?.[1];
      expect(key).toBeDefined();
      used.add(key!);
    }
    // The client expands a multiple choice into separate arguments only inside args; the
    // server takes directory arguments as PROXMOX_FILE_ROOTS (src/arguments.ts).
    expect(mcp_config.args).toEqual(["${user_config.file_roots}"]);
    used.add("file_roots");
    expect([...used].sort()).toEqual(Object.keys(manifestTemplate().user_config).sort());
  });
});

/** What the client does at install: mcpb's own getMcpConfigForManifest (Claude Desktop's code). */
async function substitute(manifest: Manifest, userConfig: Record<string, string | boolean | string[]>) {
  const config = await getMcpConfigForManifest({
    manifest: manifest as never,
    extensionPath: "/ext",
    systemDirs: { HOME: "/home/u" },
    userConfig,
    pathSeparator: sep,
  });
  return config as { command: string; args: string[]; env: Record<string, string> } | undefined;
}

describe("the client's substitution of user_config (mcpb reference code)", () => {
  const required = { proxmox_url: "https://pve:8006", token_id: "mcp@pve!agent", token_secret: "s3cret-value" };

  test("optional fields left out become empty strings and no arguments, never a literal ${...}", async () => {
    const config = await substitute(bundleManifest("linux-x64"), required);
    expect(config).toEqual({
      command: "/ext/server/proxmox-ve-mcp",
      args: [],
      env: {
        PROXMOX_URL: "https://pve:8006",
        PROXMOX_TOKEN_ID: "mcp@pve!agent",
        PROXMOX_TOKEN_SECRET: "s3cret-value",
        PROXMOX_CA_FILE: "",
        PROXMOX_READ_ONLY: "true",
        PROXMOX_PROTECTED_VMS_FILE: "",
      },
    });
  });

  test("several directories become several arguments", async () => {
    const config = await substitute(bundleManifest("linux-x64"), {
      ...required,
      file_roots: ["/a", "/b"],
      read_only: false,
    });
    expect(config?.args).toEqual(["/a", "/b"]);
    expect(config?.env.PROXMOX_READ_ONLY).toBe("false");
  });

  test("why not env: an array inside an env string stays unsubstituted", async () => {
    const manifest = bundleManifest("linux-x64");
    manifest.server.mcp_config.env = { PROXMOX_FILE_ROOTS: "${user_config.file_roots}" };
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      const config = await substitute(manifest, { ...required, file_roots: ["/a", "/b"] });
      expect(config?.env.PROXMOX_FILE_ROOTS).toBe("${user_config.file_roots}");
    } finally {
      console.warn = warn;
    }
  });

  test("a missing required field gives no configuration at all", async () => {
    const { token_secret: _, ...partial } = required;
    expect(await substitute(bundleManifest("linux-x64"), partial)).toBeUndefined();
  });
});

describe("server.json for the MCP registry", () => {
  const server = JSON.parse(readFileSync(join(ROOT, "server.json"), "utf8")) as {
    $schema: string;
    name: string;
    description: string;
    version: string;
    packages: Array<{
      registryType: string;
      registryBaseUrl: string;
      identifier: string;
      version: string;
      transport: { type: string };
      packageArguments: Array<Record<string, unknown>>;
      environmentVariables: Array<{
        name: string;
        description: string;
        isRequired?: boolean;
        isSecret?: boolean;
        format?: string;
        default?: string;
      }>;
    }>;
  };
  const [npm] = server.packages;

  test("is in step with package.json: name, version, and the npm package", () => {
    expect(server.version).toBe(pkg.version);
    expect(server.name).toBe(pkg.mcpName);
    expect(npm!.identifier).toBe(pkg.name);
    expect(npm!.version).toBe(pkg.version);
  });

  test("has the shape the registry's schema asks for", () => {
    expect(server.$schema).toMatch(
      /^https:\/\/static\.modelcontextprotocol\.io\/schemas\/\d{4}-\d{2}-\d{2}\/server\.schema\.json$/,
    );
    expect(server.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(server.description.length).toBeGreaterThan(0);
    expect(server.description.length).toBeLessThanOrEqual(100);
    expect(server.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(server.packages).toHaveLength(1);
    expect(npm!.registryType).toBe("npm");
    expect(npm!.registryBaseUrl).toBe("https://registry.npmjs.org");
    expect(npm!.transport).toEqual({ type: "stdio" });
    for (const arg of npm!.packageArguments) {
      expect(arg.type).toBe("positional");
      expect(typeof arg.valueHint).toBe("string");
    }
    for (const v of npm!.environmentVariables) {
      expect(
        Object.keys(v).every((k) => ["name", "description", "isRequired", "isSecret", "format", "default"].includes(k)),
      ).toBe(true);
      expect(v.description.length).toBeGreaterThan(0);
      if (v.format !== undefined) expect(["string", "number", "boolean", "filepath"]).toContain(v.format);
      if (v.default !== undefined) expect(typeof v.default).toBe("string");
    }
  });

  test("lists every setting the stdio server reads; the three required, only the secret marked secret", () => {
    const vars = npm!.environmentVariables;
    // The entry describes the stdio transport; PROXMOX_MCP_* configure HTTP mode (README, "Run it as a service").
    expect(vars.map((v) => v.name).sort()).toEqual(SETTINGS.filter((name) => !name.startsWith("PROXMOX_MCP_")));
    expect(vars.filter((v) => v.isRequired).map((v) => v.name)).toEqual([
      "PROXMOX_URL",
      "PROXMOX_TOKEN_ID",
      "PROXMOX_TOKEN_SECRET",
    ]);
    expect(vars.filter((v) => v.isSecret).map((v) => v.name)).toEqual(["PROXMOX_TOKEN_SECRET"]);
  });
});
