// The built server's stdin framing, spawned as an MCP host runs it: oversize and broken
// messages are answered or dropped, one stderr line each, and the server keeps serving; no
// request is served before initialize has been answered.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { cleanEnv, ensureBuilt, spawnRaw, type RawSession } from "../support/stdio.ts";

const MiB = 1024 * 1024;
const LIMIT = 4 * MiB;
// Generous: tens of MiB through a pipe on a shared 2-core machine; a hang still fails.
const BIG_TIMEOUT_MS = 60_000;

let fake: FakeProxmox;
const sessions: RawSession[] = [];

beforeAll(async () => {
  ensureBuilt();
  fake = await FakeProxmox.start();
});

afterAll(async () => {
  for (const s of sessions) await s.closeStdin();
  await fake?.stop();
});

function start(): RawSession {
  const s = spawnRaw(cleanEnv(fake.env()));
  sessions.push(s);
  return s;
}

const initializeRequest = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "0" } },
});
const initializedNotification = { jsonrpc: "2.0", method: "notifications/initialized" };

/** The MCP handshake: initialize with `id`, its result, then notifications/initialized. */
async function initialize(s: RawSession, id = 1): Promise<void> {
  s.send(initializeRequest(id));
  expect(await s.response(id)).toHaveProperty("result");
  s.send(initializedNotification);
}

const getVersion = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "proxmox_get", arguments: { path: "/version" } },
});

/** A tools/call line of about `bytes` bytes, written the way the MCP TypeScript SDK orders it (id last). */
function bigCall(id: number, bytes: number): string {
  const pad = "x".repeat(bytes - 150);
  return `{"method":"tools/call","params":{"name":"proxmox_get","arguments":{"path":"/version","parameters":{"pad":"${pad}"}}},"jsonrpc":"2.0","id":${id}}`;
}

/** The API paths the fake received after its first `before` requests. */
const pathsSince = (before: number) =>
  fake
    .apiRequests()
    .slice(before)
    .map((r) => r.path);

/** Every stdout line must be one JSON-RPC message MCP accepts. */
function expectOnlyJsonRpc(s: RawSession): void {
  for (const line of s.stdoutLines()) expect(JSONRPCMessageSchema.safeParse(JSON.parse(line)).success).toBe(true);
}

const warningsIn = (stderr: string) => stderr.split("\n").filter((line) => line.includes("on stdin"));

/** The stdin warnings after the first `from`, once there are `count` of them. */
async function newWarnings(s: RawSession, from: number, count: number): Promise<string[]> {
  const stderr = await s.stderrWhen((text) => warningsIn(text).length >= from + count);
  return warningsIn(stderr).slice(from);
}

describe("oversize and broken messages on stdin", () => {
  let s: RawSession;
  let nextId = 100;
  beforeAll(async () => {
    s = start();
    await initialize(s);
  });

  const sizes: [string, number][] = [
    ["9.9 MiB", Math.round(9.9 * MiB)],
    ["10.01 MiB (over the SDK's own 10 MiB buffer)", Math.round(10.01 * MiB)],
    ["20 MiB", 20 * MiB],
    ["30 MiB", 30 * MiB],
  ];

  test.each(sizes)(
    "a %s valid request: answered with an error for its id, then the next request is served",
    async (_label, bytes) => {
      const id = nextId++;
      const before = fake.apiRequests().length;
      const warned = warningsIn(s.stderr()).length;
      s.sendLine(bigCall(id, bytes));
      const next = nextId++;
      s.send(getVersion(next));
      const refused = await s.response(id);
      expect(refused.error).toMatchObject({ code: -32600, data: { limit: LIMIT } });
      expect((refused.error as { data: { bytes: number } }).data.bytes).toBeGreaterThan(bytes - 200);
      expect(String((refused.error as { message: string }).message)).toContain("too large");
      const served = (await s.response(next)) as { result: { content: { text: string }[] } };
      expect(served.result.content[0]!.text).toContain("9.1");
      // only the follow-up reached Proxmox
      expect(pathsSince(before)).toEqual(["/version"]);
      expect(await newWarnings(s, warned, 1)).toEqual([expect.stringContaining(`answered request ${id}`)]);
    },
    BIG_TIMEOUT_MS,
  );

  test.each(sizes)(
    "a %s line of broken JSON with its id first: answered with an error, then served",
    async (_label, bytes) => {
      const id = nextId++;
      const warned = warningsIn(s.stderr()).length;
      s.sendLine(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"pad":"${"y".repeat(bytes)}`);
      const next = nextId++;
      s.send(getVersion(next));
      expect((await s.response(id)).error).toMatchObject({ code: -32600 });
      expect(await s.response(next)).toHaveProperty("result");
      expect(await newWarnings(s, warned, 1)).toEqual([expect.stringContaining("answered request")]);
    },
    BIG_TIMEOUT_MS,
  );

  test.each(sizes)(
    "a %s line of junk without an id: dropped with one stderr line, then served",
    async (_label, bytes) => {
      const warned = warningsIn(s.stderr()).length;
      const linesBefore = s.stdoutLines().length;
      s.sendLine("z".repeat(bytes));
      const next = nextId++;
      s.send(getVersion(next));
      expect(await s.response(next)).toHaveProperty("result");
      // the only new stdout line is the follow-up's answer
      expect(s.stdoutLines().length).toBe(linesBefore + 1);
      expect(await newWarnings(s, warned, 1)).toEqual([expect.stringContaining("dropped")]);
    },
    BIG_TIMEOUT_MS,
  );

  test(
    "a request just under the limit is read and served",
    async () => {
      const id = nextId++;
      const pad = "p".repeat(LIMIT - 200);
      s.sendLine(`{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"_meta":{"pad":"${pad}"}}}`);
      expect(await s.response(id)).toEqual({ jsonrpc: "2.0", id, result: {} });
    },
    BIG_TIMEOUT_MS,
  );

  test("a normal-size line that is not JSON: a parse error when its id is readable, else dropped", async () => {
    const id = nextId++;
    s.sendLine(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{`);
    expect((await s.response(id)).error).toMatchObject({ code: -32700 });
    const warned = warningsIn(s.stderr()).length;
    s.sendLine("not json");
    const next = nextId++;
    s.send(getVersion(next));
    expect(await s.response(next)).toHaveProperty("result");
    expect(await newWarnings(s, warned, 1)).toEqual([expect.stringContaining("dropped")]);
  });

  test("valid JSON that is not a JSON-RPC message: Invalid Request for its id", async () => {
    const id = nextId++;
    s.send({ jsonrpc: "1.0", id, method: "tools/list" });
    expect((await s.response(id)).error).toMatchObject({ code: -32600 });
  });

  test("stdout carried only JSON-RPC messages throughout, and the server is still there", async () => {
    const next = nextId++;
    s.send(getVersion(next));
    expect(await s.response(next)).toHaveProperty("result");
    expectOnlyJsonRpc(s);
  });
});

describe("before initialize", () => {
  test("tools/call is refused and reaches nothing; ping is answered; after initialize the call is served", async () => {
    const s = start();
    const before = fake.apiRequests().length;
    s.send(getVersion(1));
    const refused = await s.response(1);
    expect(refused.error).toMatchObject({ code: -32600 });
    expect(String((refused.error as { message: string }).message)).toContain("not initialized");
    s.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect((await s.response(2)).error).toMatchObject({ code: -32600 });
    s.send({ jsonrpc: "2.0", id: 3, method: "ping" });
    expect(await s.response(3)).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
    expect(fake.apiRequests().length).toBe(before);

    await initialize(s, 4);
    s.send(getVersion(5));
    expect(await s.response(5)).toHaveProperty("result");
    expect(pathsSince(before)).toEqual(["/version"]);
    await s.stderrWhen((text) => text.includes("before initialization was complete"));
    expectOnlyJsonRpc(s);
  });

  test("a client that sends initialize, initialized and its first call at once is served", async () => {
    const s = start();
    const before = fake.apiRequests().length;
    const handshake = [initializeRequest(1), initializedNotification, getVersion(2)];
    s.sendLine(handshake.map((message) => JSON.stringify(message)).join("\n"));
    expect(await s.response(1)).toHaveProperty("result");
    expect(await s.response(2)).toHaveProperty("result");
    expect(pathsSince(before)).toEqual(["/version"]);
  });
});
