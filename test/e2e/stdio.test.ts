// The built server as an MCP host runs it: `bun dist/index.js` over stdio, clean environment.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { base64Of, decodesToPartOf } from "../support/base64.ts";
import { textOf } from "../support/mcp.ts";
import { cleanEnv, connectStdio, ensureBuilt, runToExit, spawnRaw, type StdioSession } from "../support/stdio.ts";

// Recognisable values: if any of these shows up in output, a redaction is missing.
const TOKEN_ID = "e2e-leak@pve!probe";
const SECRET = "e2e5ec12-7f42-4b9e-9c1a-5ecre7c0ffee";
const WRONG_SECRET = "e2e0bad0-7f42-4b9e-9c1a-5ecre7bad000";

function expectNoToken(text: string, secret = SECRET): void {
  for (const form of [secret, encodeURIComponent(secret), TOKEN_ID, encodeURIComponent(TOKEN_ID)]) {
    expect(text).not.toContain(form);
  }
  expect(decodesToPartOf(text, secret)).toBe(false);
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function get(session: StdioSession, path: string, parameters?: unknown): Promise<CallToolResult> {
  const args = parameters === undefined ? { path } : { path, parameters };
  return (await session.client.callTool({ name: "proxmox_get", arguments: args })) as CallToolResult;
}

/**
 * A failed call whose whole result (text and structured content, as the model sees it) says
 * each of `says`, while neither the result nor the server's stderr holds the token.
 */
function expectRedactedFailure(s: StdioSession, result: CallToolResult, says: string[], secret = SECRET): void {
  expect(result.isError).toBe(true);
  const whole = `${textOf(result)}\n${JSON.stringify(result.structuredContent ?? {})}`;
  for (const text of says) expect(whole).toContain(text);
  expectNoToken(whole, secret);
  expectNoToken(s.stderr(), secret);
}

let fake: FakeProxmox;
const sessions: StdioSession[] = [];
const tempDir = mkdtempSync(join(tmpdir(), "pve-mcp-e2e-"));

async function session(env: Record<string, string>): Promise<StdioSession> {
  const s = await connectStdio(cleanEnv(env));
  sessions.push(s);
  return s;
}

beforeAll(async () => {
  ensureBuilt();
  fake = await FakeProxmox.start({ tokenId: TOKEN_ID, tokenSecret: SECRET });
  // A hostile or buggy server that echoes the credentials back in a 401's reason phrase.
  fake.route("GET", "/access/echo", (req) => ({
    status: 401,
    message: `invalid token value! ${req.headers.authorization} ${encodeURIComponent(String(req.headers.authorization))} ${base64Of(String(req.headers.authorization))}`,
  }));
});

afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await fake?.stop();
  rmSync(tempDir, { recursive: true, force: true });
});

describe("startup configuration errors", () => {
  const base = {
    PROXMOX_URL: "https://pve.example.com:8006",
    PROXMOX_TOKEN_ID: TOKEN_ID,
    PROXMOX_TOKEN_SECRET: SECRET,
  };
  const cases: Array<[string, Record<string, string | undefined>, string]> = [
    ["missing PROXMOX_URL", { PROXMOX_URL: undefined }, "PROXMOX_URL"],
    ["a token id without !tokenid", { PROXMOX_TOKEN_ID: "root@pam" }, "PROXMOX_TOKEN_ID"],
    ["the whole id=secret pasted as the token id", { PROXMOX_TOKEN_ID: `${TOKEN_ID}=${SECRET}` }, "PROXMOX_TOKEN_ID"],
    ["plain http to a non-loopback host", { PROXMOX_URL: "http://pve.example.com:8006" }, "PROXMOX_URL"],
    ["the secret as URL userinfo", { PROXMOX_URL: `https://root:${SECRET}@pve.example.com:8006` }, "PROXMOX_URL"],
    ["a CA file that does not exist", { PROXMOX_CA_FILE: join(tempDir, "missing-ca.pem") }, "PROXMOX_CA_FILE"],
    ["a CA file that is a directory", { PROXMOX_CA_FILE: tempDir }, "PROXMOX_CA_FILE"],
    ["a bad PROXMOX_VERIFY_TLS", { PROXMOX_VERIFY_TLS: "sometimes" }, "PROXMOX_VERIFY_TLS"],
  ];

  test.each(cases)(
    "%s: exit 1, one line naming the variable, empty stdout, no secret",
    async (_name, change, variable) => {
      const result = await runToExit(cleanEnv({ ...base, ...change }));
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr.endsWith("\n")).toBe(true);
      const lines = result.stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]!.startsWith(`proxmox-ve-mcp: configuration error: ${variable}: `)).toBe(true);
      expectNoToken(result.stdout + result.stderr);
    },
  );
});

describe("a real MCP client over stdio", () => {
  let s: StdioSession;
  beforeAll(async () => {
    s = await session(fake.env());
  });

  test("tools/list has proxmox_get and proxmox_request, each with a title and all four annotations", async () => {
    const { tools } = await s.client.listTools();
    const byName = new Map<string, Tool>(tools.map((t) => [t.name, t]));
    expect(byName.has("proxmox_get")).toBe(true);
    expect(byName.has("proxmox_request")).toBe(true);
    for (const tool of tools) {
      expect(typeof tool.title === "string" && tool.title.length > 0).toBe(true);
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
        expect(typeof tool.annotations?.[hint]).toBe("boolean");
      }
    }
    expect(byName.get("proxmox_get")!.annotations?.readOnlyHint).toBe(true);
    expect(byName.get("proxmox_request")!.annotations?.destructiveHint).toBe(true);
    expect(s.client.getInstructions()).toContain("/api2/json");
  });

  test("proxmox_get /version returns the envelope, sent with the token header over the CA-verified connection", async () => {
    const before = fake.apiRequests().length;
    const result = await get(s, "/version");
    expect(result.isError).toBeFalsy();
    const envelope = { data: { version: "9.1.1", release: "9.1", repoid: "fake0000" } };
    expect(result.structuredContent).toEqual(envelope);
    expect(JSON.parse(textOf(result))).toEqual(envelope);
    const sent = fake.apiRequests().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe("/api2/json/version");
    expect(sent[0]!.headers.authorization).toBe(fake.authorization);
  });

  test("parameters sent as a JSON string reach the query string, booleans as 1/0", async () => {
    const before = fake.apiRequests().length;
    const result = await get(s, "/nodes", JSON.stringify({ type: "vm", full: true }));
    expect(result.isError).toBeFalsy();
    const sent = fake.apiRequests().slice(before);
    expect(sent.map((r) => r.url)).toEqual(["/api2/json/nodes?type=vm&full=1"]);
  });

  test("a 401 that echoes the token is redacted in the result and on stderr", async () => {
    expectRedactedFailure(s, await get(s, "/access/echo"), ["401", "invalid token value!", "PROXMOX_TOKEN_SECRET"]);
  });

  test("stdout carried only JSON-RPC messages", () => {
    expect(s.errors).toEqual([]);
  });
});

describe("failures of the connection, each in its own process", () => {
  test("a rejected token (401, empty body) gets the token hint and no secret anywhere", async () => {
    const s = await session(fake.env({ PROXMOX_TOKEN_SECRET: WRONG_SECRET }));
    expectRedactedFailure(
      s,
      await get(s, "/version"),
      ["401", "Authentication failed!", "PROXMOX_TOKEN_SECRET"],
      WRONG_SECRET,
    );
  });

  test("nothing listening: a connection error with the port hint and no secret anywhere", async () => {
    const port = await closedPort();
    const s = await session(fake.env({ PROXMOX_URL: `https://127.0.0.1:${port}` }));
    expectRedactedFailure(s, await get(s, "/version"), [`127.0.0.1:${port}`, "refused", "8006"]);
  });

  test("without PROXMOX_CA_FILE the bundled client refuses the self-signed fake (real undici, TLS honoured)", async () => {
    const env = fake.env();
    delete env.PROXMOX_CA_FILE;
    const before = fake.apiRequests().length;
    const s = await session(env);
    expectRedactedFailure(s, await get(s, "/version"), ["PROXMOX_CA_FILE"]);
    expect(fake.apiRequests().length).toBe(before);
  });
});

describe("process lifetime and stdout hygiene", () => {
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
  };

  test("a whole session writes only JSON-RPC lines to stdout, and the process exits promptly when stdin closes", async () => {
    const raw = spawnRaw(cleanEnv(fake.env()));
    try {
      raw.send(initialize);
      expect((await raw.response(1)).result).toBeDefined();
      raw.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      raw.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      raw.send({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "proxmox_get", arguments: { path: "/version" } },
      });
      raw.send({
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "proxmox_get", arguments: { path: "/nope/../x" } },
      });
      expect(((await raw.response(2)).result as { tools: unknown[] }).tools.length).toBeGreaterThanOrEqual(2);
      expect(((await raw.response(3)).result as CallToolResult).isError).toBeFalsy();
      expect(((await raw.response(4)).result as CallToolResult).isError).toBe(true);

      const { code, ms } = await raw.closeStdin();
      expect(code).toBe(0);
      expect(ms).toBeLessThan(1000);
      const lines = raw.stdoutLines();
      expect(lines).toHaveLength(4);
      for (const line of lines) {
        const message = JSON.parse(line) as Record<string, unknown>;
        expect(message.jsonrpc).toBe("2.0");
      }
      expect(raw.stderr()).not.toContain(SECRET);
    } finally {
      raw.kill();
    }
  });

  test("it also exits promptly when stdin closes while a call is still waiting on Proxmox", async () => {
    const reached = Promise.withResolvers<void>();
    fake.route("GET", "/cluster/hang", () => {
      reached.resolve();
      return { hang: true };
    });
    const raw = spawnRaw(cleanEnv(fake.env()));
    try {
      raw.send(initialize);
      await raw.response(1);
      raw.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      raw.send({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "proxmox_get", arguments: { path: "/cluster/hang" } },
      });
      await reached.promise;
      const { ms } = await raw.closeStdin();
      expect(ms).toBeLessThan(1000);
    } finally {
      raw.kill();
    }
  });
});
