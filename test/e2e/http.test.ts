// HTTP mode as a process: the built server started with --http, PROXMOX_MCP_TRANSPORT=http or
// `bun start -- --http`; what it refuses at startup; and SIGTERM draining.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { installFileRoutes, type FileRoutes } from "../fake/upload.ts";
import { connectHttp, initializeBody, spawnHttpServer, waitFor, writeTokensFile } from "../support/http.ts";
import { cleanEnv, ensureBuilt, DIST, ROOT, runToExit } from "../support/stdio.ts";

let fake: FakeProxmox;
let routes: FileRoutes;
let tokens: { path: string; tokens: Record<string, string> };
let base: string;

beforeAll(async () => {
  ensureBuilt();
  fake = await FakeProxmox.start();
  routes = installFileRoutes(fake);
  tokens = writeTokensFile([{ label: "alice" }, { label: "bob", readOnly: true }]);
  base = realpathSync(mkdtempSync(join(tmpdir(), "pve-mcp-http-e2e-")));
  mkdirSync(join(base, "files"), { mode: 0o755 });
});
afterAll(async () => {
  await fake.stop();
  rmSync(base, { recursive: true, force: true });
  rmSync(dirname(tokens.path), { recursive: true, force: true });
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return cleanEnv(fake.env({ PROXMOX_MCP_TOKENS_FILE: tokens.path, PROXMOX_MCP_LISTEN: "127.0.0.1:0", ...extra }));
}

// (The table tests in test/unit/http-auth.test.ts and http-config.test.ts cover every refusal;
// these show that the entry point reads them in HTTP mode, and PROXMOX_MCP_TRANSPORT=http selects it.)
describe("startup refusals", () => {
  test.each([
    [
      "no tokens file",
      { PROXMOX_MCP_TOKENS_FILE: "" },
      "PROXMOX_MCP_TOKENS_FILE",
      "is not set; HTTP mode never runs without authentication",
    ],
    [
      "a non-loopback address without TLS",
      { PROXMOX_MCP_LISTEN: "0.0.0.0:0" },
      "PROXMOX_MCP_LISTEN",
      "0.0.0.0 is reachable from other machines",
    ],
  ])("%s: exit 1 with one line naming the setting", async (_case, extra, variable, message) => {
    const overrides: Record<string, string> = { PROXMOX_MCP_TRANSPORT: "http", ...extra };
    const run = await runToExit(env(overrides));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toStartWith(`proxmox-ve-mcp: configuration error: ${variable}: `);
    expect(run.stderr).toContain(message);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("starting HTTP mode", () => {
  test.each([
    ["--http", [DIST, "--http"], {}],
    ["bun start -- --http", ["run", "start", "--", "--http"], {}],
  ])("%s serves MCP over HTTP, and closed stdin does not stop it", async (_how, args, extra) => {
    const server = await spawnHttpServer(args, env(extra), ROOT);
    try {
      expect(server.url.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(await server.line(/listening on/)).toContain(
        "(plain HTTP, loopback only); 2 client tokens (1 read-only); Proxmox at https://127.0.0.1:",
      );
      const session = await connectHttp(server.url, tokens.tokens.alice!);
      const result = await session.client.callTool({ name: "proxmox_get", arguments: { path: "/version" } });
      expect(JSON.stringify(result.structuredContent)).toContain("9.1.1");
      await session.close();
      expect(await (await fetch(new URL("/healthz", server.url))).text()).toBe("ok\n");
    } finally {
      // SIGTERM, not SIGKILL: `bun run start` passes it on to the server it started, and a
      // killed `bun run` would leave that server running
      server.proc.kill("SIGTERM");
      await server.exited;
    }
  });

  test("a non-loopback address with PROXMOX_MCP_ALLOW_PLAIN_HTTP=true says so at startup", async () => {
    const server = await spawnHttpServer(
      [DIST, "--http"],
      env({ PROXMOX_MCP_LISTEN: "0.0.0.0:0", PROXMOX_MCP_ALLOW_PLAIN_HTTP: "true" }),
    );
    try {
      expect(await server.line(/listening on/)).toContain(
        "WITHOUT TLS (PROXMOX_MCP_ALLOW_PLAIN_HTTP=true): tokens and answers cross the network in clear text unless a TLS-terminating proxy is in front",
      );
      expect(await server.line(/accepted Host/)).toContain(
        "accepted Host and Origin names: localhost, 127.0.0.1, [::1]",
      );
    } finally {
      server.proc.kill("SIGKILL");
      await server.exited;
    }
  });
});

describe("SIGTERM", () => {
  test("stops accepting, lets the call in flight finish, then exits 0", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    fake.route("GET", "/nodes/{node}/status", async () => {
      await released;
      return { data: { finished: true } };
    });
    const server = await spawnHttpServer([DIST, "--http"], env());
    const session = await connectHttp(server.url, tokens.tokens.alice!);
    const before = fake.apiRequests().length;
    const call = session.client.callTool({ name: "proxmox_get", arguments: { path: "/nodes/pve1/status" } });
    await waitFor(() => fake.apiRequests().length > before, 10_000, "the call at the fake");
    server.proc.kill("SIGTERM");
    expect(await server.line(/draining/)).toContain(
      "SIGTERM: draining: no new requests; 1 call in flight get up to 30 s",
    );
    // nobody new gets in: the listener is closed, and a request on a connection still open gets 503
    const health = await fetch(new URL("/healthz", server.url)).then(
      (response) => response.status,
      () => "refused",
    );
    expect(["refused", 503]).toContain(health);
    const opening = await fetch(server.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${tokens.tokens.alice}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: initializeBody(),
    }).then(
      (response) => response.status,
      () => "refused",
    );
    expect(["refused", 503]).toContain(opening);
    release();
    const result = await call;
    expect(result.structuredContent).toEqual({ data: { finished: true } });
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain("client alice: session");
    expect(server.stderr()).toContain("closed (server shutting down)");
    expect(server.stderr()).toContain("proxmox-ve-mcp info: stopped");
    expect(server.stderr()).not.toContain("were cancelled");
    await session.close();
  });

  test("after the drain time, running calls are cancelled and unfinished downloads removed", async () => {
    const filepath = "/var/log/never-ends.log";
    routes.serve(filepath, { size: 64 * 1024 * 1024, hangAfter: 256 * 1024 });
    const destination = join(base, "files", "never-ends.log");
    const server = await spawnHttpServer(
      [DIST, "--http"],
      env({ PROXMOX_MCP_DRAIN_S: "1", PROXMOX_FILE_ROOTS: join(base, "files") }),
    );
    const session = await connectHttp(server.url, tokens.tokens.alice!);
    const call = session.client
      .callTool({
        name: "proxmox_download",
        arguments: {
          path: "/nodes/pve1/storage/pbs/file-restore/download",
          parameters: { volume: "pbs:backup/vm/1/x", filepath },
          destination,
        },
      })
      .catch((error: unknown) => error);
    await routes.sent(filepath, 256 * 1024);
    await waitFor(() => existsSync(destination), 10_000, "the download to start");
    const stopping = performance.now();
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(performance.now() - stopping).toBeLessThan(10_000);
    expect(server.stderr()).toContain("calls still running after the drain time were cancelled");
    expect(existsSync(destination)).toBe(false);
    await session.close();
    await call;
  });
});
