// File transfer through the built server over stdio, as an MCP host runs it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { downloadContent, installFileRoutes, type FileRoutes } from "../fake/upload.ts";
import { uploadEndpointSchema } from "../support/catalog.ts";
import { sha256 } from "../support/files.ts";
import { textOf } from "../support/mcp.ts";
import { cleanEnv, connectStdio, DIST, ensureBuilt, runToExit, type StdioSession } from "../support/stdio.ts";

let fake: FakeProxmox;
let routes: FileRoutes;
let session: StdioSession | undefined;
const base = realpathSync(mkdtempSync(join(tmpdir(), "pve-files-e2e-")));
const root = join(base, "files");

beforeAll(async () => {
  ensureBuilt();
  mkdirSync(root, { mode: 0o755 });
  fake = await FakeProxmox.start();
  routes = installFileRoutes(fake);
});
afterAll(async () => {
  await session?.close();
  await fake.stop();
  rmSync(base, { recursive: true, force: true });
});

async function upload(session: StdioSession, file: string): Promise<CallToolResult> {
  return (await session.client.callTool({
    name: "proxmox_upload",
    arguments: {
      path: "/nodes/pve1/storage/local/upload",
      file_path: join(root, file),
      parameters: { content: "iso" },
    },
  })) as CallToolResult;
}

async function restore(session: StdioSession, filepath: string, destination: string): Promise<CallToolResult> {
  return (await session.client.callTool({
    name: "proxmox_download",
    arguments: {
      path: "/nodes/pve1/storage/pbs/file-restore/download",
      parameters: { volume: "v", filepath },
      destination: join(root, destination),
    },
  })) as CallToolResult;
}

describe("file transfer over stdio", () => {
  test("a file goes up and a file comes back byte-identical", async () => {
    session = await connectStdio(cleanEnv({ ...fake.env(), PROXMOX_FILE_ROOTS: root }));
    const content = randomBytes(4 * 1024 * 1024 + 1);
    writeFileSync(join(root, "up.iso"), content);
    const up = await upload(session, "up.iso");
    expect(up.isError).toBeFalsy();
    expect(routes.uploads.at(-1)?.sha256).toBe(sha256(content));

    const spec = { size: 3 * 1024 * 1024 + 17, seed: 3 };
    routes.serve("/e2e.zip", spec);
    const down = await restore(session, "/e2e.zip", "down.zip");
    expect(down.isError).toBeFalsy();
    const onDisk = readFileSync(join(root, "down.zip"));
    expect(onDisk.equals(downloadContent(spec))).toBe(true);
    expect((down.structuredContent as { sha256: string }).sha256).toBe(sha256(onDisk));
  });

  test("closing stdin in the middle of a download stops the server and leaves no partial file", async () => {
    routes.serve("/endless.zip", { size: 16 * 1024 * 1024, hangAfter: 2 * 1024 * 1024 });
    const partial = join(root, "endless.zip");
    const proc = Bun.spawn([process.execPath, DIST], {
      env: cleanEnv({ ...fake.env(), PROXMOX_FILE_ROOTS: root }),
      stdin: "pipe",
      stdout: "pipe",
      stderr: "ignore",
    });
    const send = (message: Record<string, unknown>) =>
      proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    send({
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    });
    send({ method: "notifications/initialized" });
    const arrived = routes.sent("/endless.zip", 2 * 1024 * 1024);
    send({
      id: 2,
      method: "tools/call",
      params: {
        name: "proxmox_download",
        arguments: {
          path: "/nodes/pve1/storage/pbs/file-restore/download",
          parameters: { volume: "v", filepath: "/endless.zip" },
          destination: partial,
        },
      },
    });
    await arrived;
    for (let i = 0; i < 100 && !existsSync(partial); i++) await Bun.sleep(10);
    expect(existsSync(partial)).toBe(true);
    await proc.stdin.end();
    expect(await proc.exited).toBe(0);
    expect(existsSync(partial)).toBe(false);
  });

  test("the built server reads the stall rule and the schema that decides the default checksum", async () => {
    const schema = join(base, "apidoc.js");
    writeFileSync(schema, uploadEndpointSchema());
    const tuned = await connectStdio(
      cleanEnv({
        ...fake.env(),
        PROXMOX_FILE_ROOTS: root,
        PROXMOX_SCHEMA_URL: schema,
        PROXMOX_TRANSFER_MIN_RATE: "100000",
        PROXMOX_TRANSFER_STALL_S: "1",
      }),
    );
    try {
      const content = randomBytes(100_000);
      writeFileSync(join(root, "sum.iso"), content);
      const up = await upload(tuned, "sum.iso");
      expect(up.isError).toBeFalsy();
      expect(routes.uploads.at(-1)?.params).toMatchObject({
        "checksum-algorithm": "sha256",
        checksum: sha256(content),
      });
      expect(up.structuredContent).toMatchObject({
        volid: "local:iso/sum.iso",
        checksum: { algorithm: "sha256", source: "computed" },
      });

      routes.serve("/trickle.zip", { size: 8 * 1024 * 1024, pace: { after: 512 * 1024, bytes: 100, everyMs: 50 } });
      const down = await restore(tuned, "/trickle.zip", "trickle.zip");
      expect(down.isError).toBe(true);
      expect((down.structuredContent as { error: { failure: string } }).error.failure).toBe("stalled");
      expect(existsSync(join(root, "trickle.zip"))).toBe(false);
    } finally {
      await tuned.close();
    }
  }, 30_000);

  test("a group-writable root stops the server at startup with exit 1, a clear message and nothing on stdout", async () => {
    const shared = join(base, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o775);
    const exited = await runToExit(cleanEnv({ ...fake.env(), PROXMOX_FILE_ROOTS: [root, shared].join(delimiter) }));
    expect(exited.code).toBe(1);
    expect(exited.stdout).toBe("");
    expect(exited.stderr).toContain("PROXMOX_FILE_ROOTS");
    expect(exited.stderr).toContain("group- or world-writable");
  });

  test("without PROXMOX_FILE_ROOTS both tools are listed and explain how to enable them", async () => {
    const plain = await connectStdio(cleanEnv(fake.env()));
    try {
      const names = (await plain.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("proxmox_upload");
      expect(names).toContain("proxmox_download");
      const result = (await plain.client.callTool({
        name: "proxmox_download",
        arguments: { path: "/version", destination: join(root, "v.json") },
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("File transfer is disabled");
      expect(textOf(result)).toContain("PROXMOX_FILE_ROOTS");
    } finally {
      await plain.close();
    }
  });
});
