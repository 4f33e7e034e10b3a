// The HTTP transport's front door, through the SDK's Streamable HTTP client and raw requests:
// sessions, authentication, Host/Origin checks and the limits.
import { afterEach, describe, expect, test } from "bun:test";
import { fakeForFile } from "../support/fake.ts";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  connectHttp,
  initializeBody,
  startHttpHarness,
  waitFor,
  type HarnessOptions,
  type HttpHarness,
} from "../support/http.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PING = JSON.stringify({ jsonrpc: "2.0", id: 99, method: "ping" });

const fake = await fakeForFile();
let harness: HttpHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(options: HarnessOptions = {}): Promise<HttpHarness> {
  harness = await startHttpHarness(fake, options);
  return harness;
}

/** Headers of a request inside an open session. */
function inSession(sessionId: string): Record<string, string> {
  return { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
}

async function errorBody(response: Response): Promise<{ code: number; message: string }> {
  expect(response.headers.get("content-type")).toBe("application/json");
  const body = (await response.json()) as { jsonrpc: string; error: { code: number; message: string }; id: null };
  expect(body.jsonrpc).toBe("2.0");
  expect(body.id).toBeNull();
  return body.error;
}

/** What a failed SDK connect or call threw, as its HTTP status. */
async function statusOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
  } catch (error) {
    return error instanceof StreamableHTTPError ? error.code : -1;
  }
  return undefined;
}

describe("session lifecycle", () => {
  test("initialize opens a session, calls reach Proxmox, DELETE ends it", async () => {
    const h = await start();
    const session = await h.connect("alice");
    const id = session.transport.sessionId!;
    expect(id).toMatch(UUID);
    expect(h.http.sessions.size).toBe(1);

    const result = await session.call("proxmox_get", { path: "/version" });
    expect((result.structuredContent as { data: { version: string } }).data.version).toBe("9.1.1");
    expect(fake.apiRequests().map((r) => `${r.method} ${r.path}`)).toEqual(["GET /version"]);

    // the SDK client holds the session's server stream (GET); the SDK allows one
    expect((await h.fetch({ method: "GET", headers: inSession(id) })).status).toBe(409);

    // an unsupported protocol version is refused by the SDK transport
    const badVersion = await h.fetch({
      method: "POST",
      body: PING,
      headers: { ...inSession(id), "mcp-protocol-version": "1999-01-01" },
    });
    expect(badVersion.status).toBe(400);

    await session.transport.terminateSession();
    expect(h.http.sessions.size).toBe(0);
    const after = await h.fetch({ method: "POST", body: PING, headers: inSession(id) });
    expect(after.status).toBe(404);
    expect((await errorBody(after)).message).toBe("Session not found");
    const short = id.slice(0, 8);
    expect(h.log.lines).toContain(`info: client alice: session ${short} opened`);
    expect(h.log.lines).toContain(`info: client alice: session ${short} closed (deleted by the client)`);
  });

  test("by hand: initialize, initialized, the server stream, DELETE", async () => {
    const h = await start();
    const init = await h.fetch({ method: "POST", body: initializeBody() });
    expect(init.status).toBe(200);
    expect(init.headers.get("content-type")).toBe("text/event-stream");
    const id = init.headers.get("mcp-session-id")!;
    expect(await init.text()).toContain('"protocolVersion":"2025-11-25"');
    const initialized = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect((await h.fetch({ method: "POST", body: initialized, headers: inSession(id) })).status).toBe(202);
    const stream = await h.fetch({ method: "GET", headers: inSession(id) });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    const deleted = await h.fetch({ method: "DELETE", headers: inSession(id) });
    expect(deleted.status).toBe(200);
    // ending the session ends its stream
    expect(await stream.text()).toBe(": stream open\n\n");
    expect(h.http.sessions.size).toBe(0);
  });

  test("only an initialize request, alone, opens a session", async () => {
    const h = await start();
    const noSession = await h.fetch({ method: "POST", body: PING });
    expect(noSession.status).toBe(400);
    expect((await errorBody(noSession)).message).toContain("Mcp-Session-Id header is required");
    const batch = await h.fetch({ method: "POST", body: `[${initializeBody()}]` });
    expect(batch.status).toBe(400);
    const get = await h.fetch({ method: "GET" });
    expect(get.status).toBe(400);
    const unknown = await h.fetch({ method: "DELETE", headers: inSession("00000000-0000-4000-8000-000000000000") });
    expect(unknown.status).toBe(404);
    const put = await h.fetch({ method: "PUT", body: PING });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST, DELETE");
    const notJson = await h.fetch({ method: "POST", body: "{not json" });
    expect(notJson.status).toBe(400);
    expect((await notJson.json()) as unknown).toMatchObject({ error: { code: -32700 } });
    expect(h.http.sessions.size).toBe(0);
  });

  test("a session belongs to the client that opened it", async () => {
    const h = await start();
    const alice = await h.connect("alice");
    const id = alice.transport.sessionId!;
    const asBob = await h.fetch({ label: "bob", method: "POST", body: PING, headers: inSession(id) });
    expect(asBob.status).toBe(404);
    const asAlice = await h.fetch({ label: "alice", method: "POST", body: PING, headers: inSession(id) });
    expect(asAlice.status).toBe(200);
    expect(await asAlice.text()).toContain('"id":99');
  });
});

describe("authentication", () => {
  test("no token, a wrong one, or another scheme: 401 with WWW-Authenticate: Bearer and no detail", async () => {
    const h = await start();
    const bodies = new Set<string>();
    for (const authorization of [
      null,
      "Bearer wrong-token-wrong-token-wrong-token",
      `Basic ${btoa("alice:x")}`,
      `Bearer ${h.tokens.alice}x`,
      "Bearer",
    ]) {
      const response = await h.fetch({
        method: "POST",
        body: initializeBody(),
        token: null,
        ...(authorization ? { headers: { authorization } } : {}),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
      bodies.add(await response.text());
    }
    // the same answer whatever was wrong
    expect([...bodies]).toEqual([
      JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Unauthorized" }, id: null }),
    ]);
    expect(h.http.sessions.size).toBe(0);
    expect(fake.apiRequests()).toHaveLength(0);
    expect(h.log.lines.filter((l) => l === "warn: authentication failed from 127.0.0.1")).toHaveLength(5);
  });

  test("the SDK client gets 401 with a wrong token and works with the right one", async () => {
    const h = await start();
    expect(await statusOf(connectHttp(h.url, "x".repeat(10) + h.tokens.alice!.slice(10)))).toBe(401);
    const session = await h.connect("alice");
    expect((await session.client.listTools()).tools.length).toBe(6);
  });

  test("a request inside an open session still needs the token", async () => {
    const h = await start();
    const session = await h.connect("alice");
    const response = await h.fetch({
      method: "POST",
      body: PING,
      token: null,
      headers: inSession(session.transport.sessionId!),
    });
    expect(response.status).toBe(401);
  });

  test("failed attempts are limited per source address, then refused even with the right token", async () => {
    let now = 1_000_000;
    const h = await start({
      server: { now: () => now, failureLimit: { burst: 3, refillMs: 60_000, maxTracked: 100 } },
    });
    for (let i = 0; i < 3; i++)
      expect((await h.fetch({ method: "POST", body: initializeBody(), token: "wrong" })).status).toBe(401);
    const blocked = await h.fetch({ method: "POST", body: initializeBody() });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("retry-after")).toBe("60");
    expect(blocked.headers.get("www-authenticate")).toBeNull();
    expect(h.log.lines).toContain(
      "warn: authentication failed from 127.0.0.1; further attempts from there are refused for a while",
    );
    now += 60_000;
    expect((await h.fetch({ method: "POST", body: initializeBody() })).status).toBe(200);
  });

  test("log lines name clients by label and never contain a token", async () => {
    const h = await start();
    const session = await h.connect("alice");
    await session.call("proxmox_get", { path: "/version" });
    await h.fetch({ method: "POST", body: PING, token: h.tokens.alice!.slice(1) });
    await session.transport.terminateSession();
    const text = h.log.lines.join("\n");
    expect(text).toContain("client alice:");
    for (const token of Object.values(h.tokens)) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(token.slice(1));
    }
  });
});

describe("Host and Origin", () => {
  test("a foreign Host is refused with 403 before authentication", async () => {
    const h = await start();
    for (const token of [null, undefined]) {
      const response = await h.fetch({
        method: "POST",
        body: initializeBody(),
        token,
        headers: { host: "evil.example.com" },
      });
      expect(response.status).toBe(403);
      expect((await errorBody(response)).message).toBe("Forbidden: Host or Origin not allowed");
    }
    expect(h.log.lines.filter((l) => l.startsWith("warn: authentication failed"))).toHaveLength(0);
    expect(h.log.lines).toContain(
      'warn: refused a request with Host "evil.example.com" and Origin (none): not in PROXMOX_MCP_ALLOWED_HOSTS',
    );
  });

  test("a foreign Origin is refused; a local one is accepted", async () => {
    const h = await start();
    const evil = await h.fetch({
      method: "POST",
      body: initializeBody(),
      headers: { origin: "http://evil.example.com" },
    });
    expect(evil.status).toBe(403);
    const opaque = await h.fetch({ method: "POST", body: initializeBody(), headers: { origin: "null" } });
    expect(opaque.status).toBe(403);
    const local = await h.fetch({
      method: "POST",
      body: initializeBody(),
      headers: { origin: "http://localhost:6274" },
    });
    expect(local.status).toBe(200);
    expect(local.headers.get("mcp-session-id")).toMatch(UUID);
  });

  test("PROXMOX_MCP_ALLOWED_HOSTS replaces the default names", async () => {
    const h = await start({ allowedHosts: "mcp.example.com" });
    expect((await h.fetch({ method: "POST", body: initializeBody() })).status).toBe(403);
    const named = await h.fetch({
      method: "POST",
      body: initializeBody(),
      headers: { host: "mcp.example.com", origin: "https://mcp.example.com" },
    });
    expect(named.status).toBe(200);
  });

  test("other paths are 404; /healthz answers without authentication or detail", async () => {
    const h = await start();
    expect((await h.fetch({ method: "POST", body: PING, path: "/other" })).status).toBe(404);
    for (const host of [undefined, "10.1.2.3:8787"]) {
      const health = await fetch(new URL("/healthz", h.url), host ? { headers: { host } } : {});
      expect(health.status).toBe(200);
      expect(await health.text()).toBe("ok\n");
    }
    const post = await fetch(new URL("/healthz", h.url), { method: "POST" });
    expect(post.status).toBe(405);
  });
});

describe("limits", () => {
  test("a body over 4 MiB is refused with 413, declared or streamed", async () => {
    const h = await start();
    const session = await h.connect("alice");
    const big = JSON.stringify({ jsonrpc: "2.0", id: 5, method: "ping", params: { pad: "x".repeat(4 * 1024 * 1024) } });
    const declared = await h.fetch({ method: "POST", body: big, headers: inSession(session.transport.sessionId!) });
    expect(declared.status).toBe(413);
    expect((await errorBody(declared)).message).toBe(
      "Payload Too Large: a request body may hold at most 4194304 bytes",
    );
    const bytes = new TextEncoder().encode(big);
    const streamed = await h.fetch({
      method: "POST",
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 65536) controller.enqueue(bytes.subarray(i, i + 65536));
          controller.close();
        },
      }),
      headers: inSession(session.transport.sessionId!),
    });
    expect(streamed.status).toBe(413);
    // just under the limit is fine
    const fits = JSON.stringify({
      jsonrpc: "2.0",
      id: 6,
      method: "ping",
      params: { pad: "x".repeat(4 * 1024 * 1024 - 100) },
    });
    expect(
      (await h.fetch({ method: "POST", body: fits, headers: inSession(session.transport.sessionId!) })).status,
    ).toBe(200);
  });

  test("sessions beyond the maximum are refused with 503 until one ends", async () => {
    const h = await start({ limits: { maxSessions: 2 } });
    const first = await h.connect("alice");
    await h.connect("bob");
    const refused = await h.fetch({ method: "POST", body: initializeBody() });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect((await errorBody(refused)).message).toContain("maximum of 2 sessions");
    expect(await statusOf(connectHttp(h.url, h.tokens.alice!))).toBe(503);
    await first.transport.terminateSession();
    await h.connect("alice");
    expect(h.http.sessions.size).toBe(2);
  });

  test("more requests in flight than a session may have: 429, and the slots come back", async () => {
    const h = await start({ limits: { maxRequestsPerSession: 2 } });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    fake.route("GET", "/nodes/{node}/status", async () => {
      await released;
      return { data: { uptime: 1 } };
    });
    const session = await h.connect("alice");
    const calls = [0, 1].map(() => session.call("proxmox_get", { path: "/nodes/pve1/status" }));
    await waitFor(() => fake.apiRequests().length === 2, 5_000, "two calls at the fake");
    expect(h.http.sessions.inFlightCount()).toBe(2);
    const raw = await h.fetch({ method: "POST", body: PING, headers: inSession(session.transport.sessionId!) });
    expect(raw.status).toBe(429);
    expect(raw.headers.get("retry-after")).toBe("1");
    expect((await errorBody(raw)).message).toContain("at most 2 requests in flight");
    expect(await statusOf(session.call("proxmox_get", { path: "/version" }))).toBe(429);
    release();
    for (const result of await Promise.all(calls)) expect(result.isError).toBeFalsy();
    await waitFor(() => h.http.sessions.inFlightCount() === 0, 5_000, "slots released");
    expect((await session.call("proxmox_get", { path: "/version" })).isError).toBeFalsy();
  });

  test("an idle session expires; one with a call in flight does not", async () => {
    let now = 0;
    const h = await start({ limits: { sessionIdleMs: 60_000 }, server: { now: () => now } });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    fake.route("GET", "/nodes/{node}/status", async () => {
      await released;
      return { data: {} };
    });
    const idle = await h.connect("alice");
    const busy = await h.connect("alice");
    const call = busy.call("proxmox_get", { path: "/nodes/pve1/status" });
    await waitFor(() => fake.apiRequests().length === 1, 5_000, "the call at the fake");
    now += 60_000;
    h.http.sessions.closeIdle();
    expect(h.http.sessions.size).toBe(1);
    expect(h.log.lines).toContain(`info: client alice: session ${idle.transport.sessionId!.slice(0, 8)} closed (idle)`);
    const expired = await h.fetch({ method: "POST", body: PING, headers: inSession(idle.transport.sessionId!) });
    expect(expired.status).toBe(404);
    // the busy one is kept, and its idle time counts from its answer
    release();
    expect((await call).isError).toBeFalsy();
    now += 59_000;
    h.http.sessions.closeIdle();
    expect(h.http.sessions.size).toBe(1);
    now += 1_000;
    h.http.sessions.closeIdle();
    expect(h.http.sessions.size).toBe(0);
  });

  test("the idle sweep runs on its own", async () => {
    const h = await start({ limits: { sessionIdleMs: 50 } });
    await h.connect("alice");
    expect(h.http.sessions.size).toBe(1);
    await waitFor(() => h.http.sessions.size === 0, 5_000, "the idle session to be closed");
  });
});
