// Helpers for the packaging tests: an MCP client on any command, and the release/ artifacts
// that `bun run release linux-x64` builds (.ci/run builds them before `bun test`).
import { expect } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  bundleFile,
  executableFile,
  packageVersion,
  RELEASE_DIR,
  type TargetName,
} from "../../scripts/release-targets.ts";
import type { FakeProxmox } from "../fake/pve-fake.ts";
import { ensureBuilt, ROOT } from "./stdio.ts";

/** The bundle dist/index.js launches; a release records which one it was built beside. */
const BUNDLE = join(ROOT, "dist/proxmox-ve-mcp.js");

/** proxmox_get /version answers the fake's version, and the fake saw exactly that GET with the token. */
export async function expectGetVersion(session: CommandSession, fake: FakeProxmox): Promise<void> {
  const before = fake.apiRequests().length;
  const result = (await session.client.callTool({
    name: "proxmox_get",
    arguments: { path: "/version" },
  })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  expect((result.structuredContent as { data: { version: string } }).data.version).toBe("9.1.1");
  const sent = fake.apiRequests().slice(before);
  expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual(["GET /api2/json/version"]);
  expect(sent[0]!.headers.authorization).toBe(fake.authorization);
}

export interface CommandSession {
  client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/** A real SDK client over stdio to `command args`, as an MCP host starts a server. */
export async function connectCommand(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<CommandSession> {
  const transport = new StdioClientTransport({ command, args, env, stderr: "pipe", ...(cwd ? { cwd } : {}) });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "packaging-test", version: "0.0.0" });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`${command} did not start: ${String(error)}\nstderr: ${stderr}`);
  }
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** An empty directory to use as PATH: nothing, Bun included, can be found on it. */
export function emptyPath(): string {
  return mkdtempSync(join(tmpdir(), "pve-mcp-empty-path-"));
}

export function sha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

export interface ReleaseBuild {
  executable: string;
  bundle: string;
}

/**
 * The target's executable and bundle in release/, when they were built from the current
 * dist/index.js. Otherwise: under CI=true this throws (.ci/run builds them), else it warns
 * loudly and returns undefined so the caller skips.
 */
export function releaseBuild(target: TargetName): ReleaseBuild | undefined {
  ensureBuilt();
  const executable = join(RELEASE_DIR, executableFile(target));
  const bundle = join(RELEASE_DIR, bundleFile(target));
  const infoFile = join(RELEASE_DIR, "BUILD.json");
  let problem: string | undefined;
  if (!existsSync(infoFile) || !existsSync(executable) || !existsSync(bundle)) {
    problem = `release/ has no ${target} build`;
  } else {
    const info = JSON.parse(readFileSync(infoFile, "utf8")) as { version: string; dist_sha256: string };
    if (info.dist_sha256 !== sha256(BUNDLE) || info.version !== packageVersion()) {
      problem = `release/ was built from another dist/proxmox-ve-mcp.js`;
    }
  }
  if (problem === undefined) return { executable, bundle };
  const message = `${problem}, so the ${target} executable and bundle tests cannot run`;
  if (process.env.CI === "true")
    throw new Error(`${message} (CI=true requires it: .ci/run runs bun run release ${target})`);
  process.stderr.write(`\n!!! SKIPPED ${message}. Run \`bun run release ${target}\` first (about 30 s).\n\n`);
  return undefined;
}
