// The linux-x64 single-file executable and MCP Bundle from release/ (built by
// `bun run release linux-x64`, which .ci/run runs before `bun test`): started without Bun on
// PATH, and the bundle unpacked and configured the way Claude Desktop does it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getMcpConfigForManifest } from "@anthropic-ai/mcpb";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, sep } from "node:path";
import { packageVersion, RELEASE_DIR } from "../../scripts/release-targets.ts";
import { sharedTestPki } from "../fake/certs.ts";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { textOf } from "../support/mcp.ts";
import {
  connectCommand,
  emptyPath,
  expectGetVersion,
  releaseBuild,
  sha256,
  type CommandSession,
} from "../support/release.ts";
import { ROOT } from "../support/stdio.ts";

const MCPB_CLI = join(ROOT, "node_modules/@anthropic-ai/mcpb/dist/cli/cli.js");
const READING_TOOLS = ["proxmox_describe_endpoint", "proxmox_download", "proxmox_get", "proxmox_search_endpoints"];
const ALL_TOOLS = [...READING_TOOLS, "proxmox_request", "proxmox_upload"].sort();

const build = releaseBuild("linux-x64");
const work = mkdtempSync(join(tmpdir(), "pve-mcp-release-"));
const noBun = emptyPath();
let https: FakeProxmox;
let http: FakeProxmox;

beforeAll(async () => {
  https = await FakeProxmox.start();
  http = await FakeProxmox.start({ tls: false });
});

afterAll(async () => {
  await https?.stop();
  await http?.stop();
  rmSync(work, { recursive: true, force: true });
  rmSync(noBun, { recursive: true, force: true });
});

async function toolNames(session: CommandSession): Promise<string[]> {
  return (await session.client.listTools()).tools.map((t) => t.name).sort();
}

describe.skipIf(build === undefined)("release/", () => {
  test("SHA256SUMS holds the sha256 of every artifact", () => {
    const lines = readFileSync(join(RELEASE_DIR, "SHA256SUMS"), "utf8").trimEnd().split("\n");
    const listed = lines.map((line) => {
      const [hash, name] = line.split("  ");
      expect(hash).toBe(sha256(join(RELEASE_DIR, name!)));
      return name!;
    });
    const artifacts = readdirSync(RELEASE_DIR).filter((f) => f !== "SHA256SUMS" && f !== "BUILD.json");
    expect(listed.sort()).toEqual(artifacts.sort());
    expect(listed).toContain(basename(build!.executable));
    expect(listed).toContain(basename(build!.bundle));
    expect(listed).toContain(`proxmox-ve-mcp-${packageVersion()}.tgz`);
  }, 30_000);
});

describe.skipIf(build === undefined)("the linux-x64 executable, without Bun on PATH", () => {
  test("PATH really has no Bun", () => {
    expect(Bun.which("bun", { PATH: noBun })).toBeNull();
    expect(statSync(build!.executable).mode & 0o111).not.toBe(0);
  });

  test("--version prints package.json's version", () => {
    const result = Bun.spawnSync([build!.executable, "--version"], {
      env: { PATH: noBun },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(result.stdout.toString()).toBe(`${packageVersion()}\n`);
    expect(result.exitCode).toBe(0);
  });

  test("completes tools/list and a proxmox_get against the fake", async () => {
    const session = await connectCommand(build!.executable, [], { ...https.env(), PATH: noBun }, work);
    try {
      expect(await toolNames(session)).toEqual(ALL_TOOLS);
      await expectGetVersion(session, https);
    } finally {
      await session.close();
    }
  }, 20_000);
});

describe.skipIf(build === undefined)("the linux-x64 MCP Bundle, installed as Claude Desktop does", () => {
  const unpacked = join(work, "bundle");
  let manifest: Record<string, unknown>;

  beforeAll(() => {
    const result = Bun.spawnSync([process.execPath, MCPB_CLI, "unpack", build!.bundle, unpacked], {
      stdout: "pipe",
      stderr: "pipe",
    });
    if (result.exitCode !== 0) throw new Error(`mcpb unpack failed: ${result.stderr.toString()}`);
    manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8")) as Record<string, unknown>;
  }, 60_000);

  test("holds the manifest, the executable (still executable) and the license", () => {
    expect(readdirSync(unpacked, { recursive: true }).map(String).sort()).toEqual(
      ["LICENSE", "manifest.json", "server", join("server", "proxmox-ve-mcp")].sort(),
    );
    expect(manifest.version).toBe(packageVersion());
    expect(manifest.compatibility).toEqual({ platforms: ["linux"] });
    expect(statSync(join(unpacked, "server/proxmox-ve-mcp")).mode & 0o111).not.toBe(0);
    expect(sha256(join(unpacked, "server/proxmox-ve-mcp"))).toBe(sha256(build!.executable));
  }, 30_000);

  /** mcp_config after the client's substitution (mcpb's getMcpConfigForManifest), then started. */
  async function install(userConfig: Record<string, string | boolean | string[]>): Promise<{
    session: CommandSession;
    config: { command: string; args: string[]; env: Record<string, string> };
  }> {
    const config = (await getMcpConfigForManifest({
      manifest: manifest as never,
      extensionPath: unpacked,
      systemDirs: { HOME: work },
      userConfig,
      pathSeparator: sep,
    })) as { command: string; args: string[]; env: Record<string, string> } | undefined;
    if (config === undefined) throw new Error("the client would not start the bundle: required configuration missing");
    for (const value of [config.command, ...config.args, ...Object.values(config.env)])
      expect(value).not.toContain("${");
    return { session: await connectCommand(config.command, config.args, { ...config.env, PATH: noBun }, work), config };
  }

  test("only the required fields filled: starts read-only, file transfer off", async () => {
    const { session, config } = await install({
      proxmox_url: http.url,
      token_id: http.env().PROXMOX_TOKEN_ID!,
      token_secret: http.env().PROXMOX_TOKEN_SECRET!,
    });
    try {
      expect(config.command).toBe(join(unpacked, "server/proxmox-ve-mcp"));
      expect(config.args).toEqual([]);
      expect(config.env.PROXMOX_CA_FILE).toBe("");
      expect(await toolNames(session)).toEqual(READING_TOOLS);
      await expectGetVersion(session, http);
      const download = (await session.client.callTool({
        name: "proxmox_download",
        arguments: { path: "/version", destination: join(work, "nowhere.json") },
      })) as CallToolResult;
      expect(download.isError).toBe(true);
      expect(textOf(download)).toContain("File transfer is disabled");
    } finally {
      await session.close();
    }
  }, 20_000);

  test("optional fields given as empty values: starts the same way, listing the manifest's tools", async () => {
    const { session } = await install({
      proxmox_url: http.url,
      token_id: http.env().PROXMOX_TOKEN_ID!,
      token_secret: http.env().PROXMOX_TOKEN_SECRET!,
      ca_file: "",
      file_roots: [],
      read_only: false,
      protected_vms_file: "",
    });
    try {
      expect(await toolNames(session)).toEqual(ALL_TOOLS);
      const declared = (manifest.tools as Array<{ name: string }>).map((t) => t.name).sort();
      expect(declared).toEqual(await toolNames(session));
      await expectGetVersion(session, http);
    } finally {
      await session.close();
    }
  }, 20_000);

  test("every field filled: CA file, two folders, read-write, protected guests all take effect", async () => {
    const folders = [join(work, "isos"), join(work, "logs")];
    for (const folder of folders) mkdirSync(folder, { mode: 0o700 });
    const protectedFile = join(work, "protected.json");
    writeFileSync(protectedFile, JSON.stringify({ protected_vms: [{ vmid: 100, name: "dns", reason: "office DNS" }] }));
    const { session, config } = await install({
      proxmox_url: https.url,
      token_id: https.env().PROXMOX_TOKEN_ID!,
      token_secret: https.env().PROXMOX_TOKEN_SECRET!,
      ca_file: sharedTestPki().caFile,
      file_roots: folders,
      read_only: false,
      protected_vms_file: protectedFile,
    });
    try {
      expect(config.args).toEqual(folders);
      expect(await toolNames(session)).toEqual(ALL_TOOLS);
      await expectGetVersion(session, https);
      // the second folder is a file root: a download lands there
      const saved = (await session.client.callTool({
        name: "proxmox_download",
        arguments: { path: "/version", destination: join(folders[1]!, "version.json") },
      })) as CallToolResult;
      expect(saved.isError).toBeFalsy();
      expect(JSON.parse(readFileSync(join(folders[1]!, "version.json"), "utf8")).data.version).toBe("9.1.1");
      // the protected-guests file was read: a write to guest 100 never reaches the fake
      const before = https.apiRequests().length;
      const refused = (await session.client.callTool({
        name: "proxmox_request",
        arguments: { method: "POST", path: "/nodes/pve1/qemu/100/status/start" },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain("office DNS");
      expect(
        https
          .apiRequests()
          .slice(before)
          .filter((r) => r.method !== "GET"),
      ).toEqual([]);
    } finally {
      await session.close();
    }
  }, 20_000);
});
