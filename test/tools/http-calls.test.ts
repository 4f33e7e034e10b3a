// Tool calls over the HTTP transport, through the SDK's Streamable HTTP client: cancellation,
// closing a session mid-call, task waits and transfers, read-only labels, the client label in the
// audit trail and logs, the file tools' wording, TLS, and calls longer than Bun's idle timeout.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { fakeForFile } from "../support/fake.ts";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileAccess } from "../../src/files/resolver.ts";
import { LocalRefusal } from "../../src/proxmox/errors.ts";
import { sharedTestPki } from "../fake/certs.ts";
import { FAKE_TOKEN_ID, FAKE_TOKEN_SECRET, FakeProxmox } from "../fake/pve-fake.ts";
import { installFileRoutes, type FileRoutes } from "../fake/upload.ts";
import { memoryLogger, startHttpHarness, waitFor, type HarnessOptions, type HttpHarness } from "../support/http.ts";
import { connectHarness, textOf, ALL_TOOLS } from "../support/mcp.ts";
import { expectRefusal, policyGate, routeGuestActions } from "../support/policy.ts";

const fake = await fakeForFile();
let routes: FileRoutes;
let harness: HttpHarness | undefined;
let base: string;
let root: string;

routes = installFileRoutes(fake);
routeGuestActions(fake);
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "pve-mcp-http-calls-")));
  root = join(base, "files");
  mkdirSync(root, { mode: 0o755 });
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  rmSync(base, { recursive: true, force: true });
});

async function start(options: HarnessOptions = {}): Promise<HttpHarness> {
  harness = await startHttpHarness(fake, { deps: { files: new FileAccess({ roots: [root] }) }, ...options });
  return harness;
}

/** A route that answers only when the test says so. */
function heldRoute(path: string): { release(): void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  fake.route("GET", path, async () => {
    await released;
    return { data: { held: true } };
  });
  return { release };
}

describe("cancellation and closing", () => {
  test("cancelling a call aborts its Proxmox request and frees its slot", async () => {
    const h = await start();
    heldRoute("/nodes/{node}/status");
    const session = await h.connect("alice");
    const controller = new AbortController();
    const call = session.call("proxmox_get", { path: "/nodes/pve1/status" }, { signal: controller.signal });
    await waitFor(() => fake.apiRequests().length === 1, 5_000, "the call at the fake");
    expect(h.http.sessions.inFlightCount()).toBe(1);
    controller.abort();
    await expect(call).rejects.toThrow();
    await waitFor(() => fake.apiRequests()[0]!.abandoned === true, 5_000, "the Proxmox request to be aborted");
    expect(h.http.sessions.inFlightCount()).toBe(0);
    // the session goes on
    expect((await session.call("proxmox_get", { path: "/version" })).isError).toBeFalsy();
  });

  test("ending a session aborts its running calls", async () => {
    const h = await start();
    heldRoute("/nodes/{node}/status");
    const session = await h.connect("alice");
    const call = session.call("proxmox_get", { path: "/nodes/pve1/status" }).catch((error: unknown) => error);
    await waitFor(() => fake.apiRequests().length === 1, 5_000, "the call at the fake");
    await session.transport.terminateSession();
    await waitFor(() => fake.apiRequests()[0]!.abandoned === true, 5_000, "the Proxmox request to be aborted");
    expect(h.http.sessions.size).toBe(0);
    await session.close();
    expect(await call).toBeInstanceOf(Error);
  });

  test("ending a session removes its unfinished download", async () => {
    const h = await start();
    const filepath = "/etc/big.bin";
    routes.serve(filepath, { size: 8 * 1024 * 1024, hangAfter: 512 * 1024 });
    const destination = join(root, "big.bin");
    const session = await h.connect("alice");
    const call = session
      .call("proxmox_download", {
        path: "/nodes/pve1/storage/pbs/file-restore/download",
        parameters: { volume: "pbs:backup/vm/100/2026-01-01T00:00:00Z", filepath },
        destination,
      })
      .catch((error: unknown) => error);
    await routes.sent(filepath, 512 * 1024);
    expect(existsSync(destination)).toBe(true);
    await session.transport.terminateSession();
    await waitFor(() => !existsSync(destination), 5_000, "the partial download to be removed");
    await session.close();
    await call;
  });
});

describe("draining", () => {
  test("a call in flight finishes; then its session is closed", async () => {
    const h = await start();
    const held = heldRoute("/nodes/{node}/status");
    const session = await h.connect("alice");
    const call = session.call("proxmox_get", { path: "/nodes/pve1/status" });
    await waitFor(() => fake.apiRequests().length === 1, 5_000, "the call at the fake");
    const drained = h.http.drain();
    held.release();
    expect((await call).structuredContent).toEqual({ data: { held: true } });
    expect(await drained).toBe(true);
    expect(h.http.sessions.size).toBe(0);
    expect(h.log.lines.some((l) => l.endsWith("closed (server shutting down)"))).toBe(true);
  });

  test("a call still running after the drain time is cancelled", async () => {
    const h = await start({ limits: { drainMs: 100 } });
    heldRoute("/nodes/{node}/status");
    const session = await h.connect("alice");
    const call = session.call("proxmox_get", { path: "/nodes/pve1/status" }).catch((error: unknown) => error);
    await waitFor(() => fake.apiRequests().length === 1, 5_000, "the call at the fake");
    expect(await h.http.drain()).toBe(false);
    await waitFor(() => fake.apiRequests()[0]!.abandoned === true, 5_000, "the Proxmox request to be aborted");
    await session.close();
    await call;
  });
});

describe("calls as on stdio", () => {
  test("a write with wait=true returns the finished task", async () => {
    const h = await start();
    const session = await h.connect("alice");
    const result = await session.call("proxmox_request", {
      method: "POST",
      path: "/nodes/pve1/qemu/101/status/start",
      wait: true,
    });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { task: { ok: boolean; type: string } }).task).toMatchObject({
      ok: true,
      type: "qmstart",
    });
  });

  test("an upload reads the file on the server's machine", async () => {
    const h = await start();
    const file = join(root, "small.iso");
    writeFileSync(file, "iso bytes");
    const session = await h.connect("alice");
    const result = await session.call("proxmox_upload", {
      path: "/nodes/pve1/storage/local/upload",
      file_path: file,
      parameters: { content: "iso" },
    });
    expect(result.isError).toBeFalsy();
    expect(routes.uploads.at(-1)?.size).toBe(9);
  });

  test("a call longer than Bun's idle timeout keeps its stream", async () => {
    // Bun closes a connection idle for idleTimeout (rounded up to 4 s) even while a response
    // streams; the transport turns that off for MCP requests once they are authenticated.
    let keepAlives = 0;
    const counting: typeof fetch = Object.assign(
      async (input: string | URL | Request, init?: RequestInit) => {
        const response = await fetch(input, init);
        // the answers to POSTs only: the client's server stream (GET) gets its own keep-alives
        if (!response.body || init?.method !== "POST" || response.headers.get("content-type") !== "text/event-stream")
          return response;
        const decoder = new TextDecoder();
        const body = response.body.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              keepAlives += decoder.decode(chunk, { stream: true }).split(": keepalive").length - 1;
              controller.enqueue(chunk);
            },
          }),
        );
        return new Response(body, { status: response.status, headers: response.headers });
      },
      { preconnect: fetch.preconnect },
    );
    const h = await start({ server: { idleTimeoutS: 1, keepAliveMs: 150 } });
    fake.route("GET", "/nodes/{node}/status", async () => {
      // held until the stream has stayed open well past Bun's 4-second idle tick
      await waitFor(() => keepAlives >= 32, 20_000, "keep-alive comments");
      return { data: { held: true } };
    });
    const session = await h.connect("alice", { fetch: counting });
    const result = await session.call("proxmox_get", { path: "/nodes/pve1/status" });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ data: { held: true } });
  }, 30_000);
});

describe("client identity", () => {
  test("a read-only label sees no writing tools; a writing label sees all", async () => {
    const h = await start();
    const alice = await h.connect("alice");
    const bob = await h.connect("bob");
    const names = async (s: typeof alice) => (await s.client.listTools()).tools.map((t) => t.name).sort();
    expect(await names(alice)).toEqual(ALL_TOOLS);
    expect(await names(bob)).toEqual([
      "proxmox_describe_endpoint",
      "proxmox_download",
      "proxmox_get",
      "proxmox_search_endpoints",
    ]);
    const refused = await bob.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/101/status/start" });
    expect(refused.isError).toBe(true);
    expect(fake.apiRequests()).toHaveLength(0);
    // reading works
    expect((await bob.call("proxmox_get", { path: "/version" })).isError).toBeFalsy();
  });

  test("writes and refusals are audited and logged with the client's label, never its token", async () => {
    const audit = join(base, "audit.jsonl");
    const log = memoryLogger();
    const gate = policyGate({ PROXMOX_AUDIT_LOG: audit, PROXMOX_DENY: "DELETE /nodes/**" }, log);
    const h = await start({ gate, log });
    const alice = await h.connect("alice");
    expect(
      (await alice.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/101/status/start" })).isError,
    ).toBeFalsy();
    expectRefusal(
      await alice.call("proxmox_request", { method: "DELETE", path: "/nodes/pve1/qemu/101" }),
      "refused_rule",
    );
    const file = join(root, "t.iso");
    writeFileSync(file, "x");
    await alice.call("proxmox_upload", {
      path: "/nodes/pve1/storage/local/upload",
      file_path: file,
      parameters: { content: "iso" },
    });
    // the client's second wall for a read-only label, below the tool list
    await expect(
      h.proxmox.call({
        tool: "proxmox_request",
        caller: { label: "bob", readOnly: true },
        method: "POST",
        path: "/nodes/pve1/qemu/101/status/stop",
      }),
    ).rejects.toThrow(LocalRefusal);

    const entries = readFileSync(audit, "utf8")
      .trimEnd()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as {
            client?: string;
            method: string;
            path: string;
            outcome: { result: string; refusal?: string };
          },
      );
    expect(entries.map((e) => `${e.client} ${e.method} ${e.path} ${e.outcome.result}`)).toEqual([
      "alice POST /nodes/pve1/qemu/101/status/start ok",
      "alice DELETE /nodes/pve1/qemu/101 refused",
      "alice POST /nodes/pve1/storage/local/upload ok",
      "bob POST /nodes/pve1/qemu/101/status/stop refused",
    ]);
    expect(entries[3]!.outcome.refusal).toBe("refused_read_only");
    expect(fake.apiRequests().map((r) => `${r.method} ${r.path}`)).not.toContain(
      "POST /nodes/pve1/qemu/101/status/stop",
    );
    expect(log.lines).toContain("info: client alice: proxmox_request POST /nodes/pve1/qemu/101/status/start ok (200)");
    expect(log.lines).toContain(
      "info: client alice: proxmox_request DELETE /nodes/pve1/qemu/101 refused (refused_rule)",
    );
    expect(log.lines).toContain(
      "info: client bob: proxmox_request POST /nodes/pve1/qemu/101/status/stop refused (refused_read_only)",
    );
    const everything = `${readFileSync(audit, "utf8")}\n${log.lines.join("\n")}`;
    for (const secret of [...Object.values(h.tokens), FAKE_TOKEN_SECRET, FAKE_TOKEN_ID])
      expect(everything).not.toContain(secret);
  });

  test("a read-only label's refusal says what to ask for", async () => {
    const h = await start();
    let error: unknown;
    try {
      await h.proxmox.call({
        tool: "proxmox_request",
        caller: { label: "bob", readOnly: true },
        method: "DELETE",
        path: "/nodes/pve1/qemu/101",
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LocalRefusal);
    expect((error as LocalRefusal).code).toBe("refused_read_only");
    expect((error as Error).message).toBe(
      "DELETE /nodes/pve1/qemu/101 refused: the client bob uses a token marked read-only in PROXMOX_MCP_TOKENS_FILE, so only GET requests reach Proxmox. Ask the operator for a token that may write if the change is intended.",
    );
  });
});

describe("file tools over HTTP", () => {
  test("their descriptions and the instructions say the paths are on the server's machine", async () => {
    const h = await start();
    const session = await h.connect("alice");
    const tools = (await session.client.listTools()).tools;
    const text = (name: string) => {
      const tool = tools.find((t) => t.name === name)!;
      return `${tool.title} ${tool.description}`;
    };
    expect(text("proxmox_download")).toContain("to a new file on the machine running this server (not the client's)");
    expect(text("proxmox_upload")).toContain("Send a file on the machine running this server (not the client's)");
    for (const name of ["proxmox_download", "proxmox_upload"]) expect(text(name)).not.toContain("local file");
    expect(session.client.getInstructions()).toContain("are on the machine running this server, not the user's");
  });

  test("over stdio they keep their wording", async () => {
    const local = await connectHarness(fake, { deps: { readOnly: false } });
    try {
      const tools = (await local.client.listTools()).tools;
      for (const name of ["proxmox_download", "proxmox_upload"]) {
        const tool = tools.find((t) => t.name === name)!;
        expect(`${tool.title} ${tool.description}`).toContain("local file");
        expect(tool.description).not.toContain("machine running this server");
      }
      expect(local.client.getInstructions()).toContain(
        "- Local files (proxmox_upload, proxmox_download) must be inside",
      );
    } finally {
      await local.close();
    }
  });
});

describe("TLS", () => {
  test("PROXMOX_MCP_TLS_CERT/KEY serve HTTPS that a client trusting the CA can use", async () => {
    const pki = sharedTestPki();
    const h = await start({
      tls: {
        certFile: join(pki.dir, "server.pem"),
        keyFile: join(pki.dir, "server.key"),
        cert: pki.serverCert,
        key: pki.serverKey,
      },
    });
    expect(h.url.protocol).toBe("https:");
    const trusting = Object.assign(
      (input: string | URL | Request, init?: RequestInit) => fetch(input, { ...init, tls: { ca: pki.caPem } }),
      {
        preconnect: fetch.preconnect,
      },
    );
    const session = await h.connect("alice", { fetch: trusting });
    const result = await session.call("proxmox_get", { path: "/version" });
    expect(textOf(result)).toContain("9.1.1");
    // without the CA the certificate is not trusted; plain HTTP on the TLS port gets nowhere
    await expect(fetch(h.url, { method: "POST" })).rejects.toThrow();
    await expect(fetch(h.url.href.replace("https:", "http:"), { method: "POST" })).rejects.toThrow();
  });
});
