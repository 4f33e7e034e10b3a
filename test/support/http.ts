// The HTTP transport under test: startHttpServer in this process with the shared deps built the
// way src/index.ts builds them, real SDK Streamable HTTP clients, and raw fetch for what a client
// library would never send.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "../../src/log.ts";
import { ProxmoxClient, type WriteGate } from "../../src/proxmox/client.ts";
import { HostRegistry } from "../../src/hosts/registry.ts";
import type { ServerDeps } from "../../src/tools/deps.ts";
import { parseTokens } from "../../src/transport/auth.ts";
import { parseAllowedHosts } from "../../src/transport/hosts.ts";
import { startHttpServer, type HttpServer, type HttpServerOptions } from "../../src/transport/http.ts";
import { MAX_BODY_BYTES, type HttpConfig, type HttpLimits, type TlsFiles } from "../../src/transport/http-config.ts";
import type { FakeProxmox } from "../fake/pve-fake.ts";
import { memoryLogger } from "./catalog.ts";
import { connectionFor, toolCaller } from "./mcp.ts";

/** A fresh random bearer token (43 characters of base64url). */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

export interface ClientSpec {
  label: string;
  readOnly?: boolean;
}

/** A tokens file (mode 0600) in a new temp directory; returns its path and each label's token. */
export function writeTokensFile(
  clients: readonly ClientSpec[],
  mode = 0o600,
): { path: string; tokens: Record<string, string> } {
  const tokens = Object.fromEntries(clients.map((c) => [c.label, newToken()]));
  const path = join(mkdtempSync(join(tmpdir(), "pve-mcp-tokens-")), "tokens");
  writeFileSync(path, clients.map((c) => `${c.label}:${tokens[c.label]}${c.readOnly ? ":read-only" : ""}\n`).join(""));
  chmodSync(path, mode);
  return { path, tokens };
}

export { memoryLogger };

export interface HttpSession {
  client: Client;
  transport: StreamableHTTPClientTransport;
  call(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<CallToolResult>;
  close(): Promise<void>;
}

export interface HttpHarness {
  http: HttpServer;
  url: URL;
  /** Each label's token. */
  tokens: Record<string, string>;
  log: Logger & { lines: string[] };
  proxmox: ProxmoxClient;
  /** A real SDK client with `Authorization: Bearer <token of label>`. */
  connect(label: string, options?: { fetch?: typeof fetch }): Promise<HttpSession>;
  /** A raw request to the endpoint (or `path`) with the label's token unless `token` says otherwise. */
  fetch(init: RequestInit & { label?: string; token?: string | null; path?: string }): Promise<Response>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  clients?: ClientSpec[];
  limits?: Partial<HttpLimits>;
  allowedHosts?: string;
  tls?: TlsFiles;
  gate?: WriteGate;
  /** The shared logger (give the gate the same one to see its lines). */
  log?: Logger & { lines: string[] };
  deps?: Partial<ServerDeps>;
  server?: Partial<Pick<HttpServerOptions, "now" | "failureLimit" | "keepAliveMs" | "idleTimeoutS">>;
}

export const DEFAULT_CLIENTS: ClientSpec[] = [{ label: "alice" }, { label: "bob", readOnly: true }];

export async function startHttpHarness(fake: FakeProxmox, options: HarnessOptions = {}): Promise<HttpHarness> {
  const clients = options.clients ?? DEFAULT_CLIENTS;
  const tokens = Object.fromEntries(clients.map((c) => [c.label, newToken()]));
  const parsed = parseTokens(
    clients.map((c) => `${c.label}:${tokens[c.label]}${c.readOnly ? ":read-only" : ""}`).join("\n"),
  );
  const log = options.log ?? memoryLogger();
  const proxmox = new ProxmoxClient({
    connection: connectionFor(fake),
    ...(options.gate ? { gate: options.gate } : {}),
  });
  const deps: ServerDeps = {
    hosts: HostRegistry.single({ client: proxmox }),
    log,
    taskPolling: { initialMs: 1, maxMs: 5 },
    ...options.deps,
  };
  const config: HttpConfig = {
    listen: { host: "127.0.0.1", port: 0 },
    tokensFile: undefined,
    allowedHosts: parseAllowedHosts(options.allowedHosts, "127.0.0.1"),
    tls: options.tls,
    allowPlainHttp: false,
    limits: {
      maxBodyBytes: MAX_BODY_BYTES,
      maxSessions: 100,
      sessionIdleMs: 600_000,
      maxRequestsPerSession: 16,
      drainMs: 5_000,
      ...options.limits,
    },
  };
  const http = startHttpServer({ config, tokens: parsed, deps, log, ...options.server });
  const sessions: HttpSession[] = [];
  const harness: HttpHarness = {
    http,
    url: http.url,
    tokens,
    log,
    proxmox,
    async connect(label, connectOptions = {}) {
      const session = await connectHttp(http.url, tokens[label]!, connectOptions.fetch);
      sessions.push(session);
      return session;
    },
    fetch({ label = "alice", token, path, ...init }) {
      const headers = new Headers(init.headers);
      const bearer = token === undefined ? tokens[label] : token;
      if (bearer !== null && !headers.has("authorization")) headers.set("authorization", `Bearer ${bearer}`);
      if (!headers.has("accept")) headers.set("accept", "application/json, text/event-stream");
      if (init.body !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
      return fetch(new URL(path ?? http.url.pathname, http.url), { ...init, headers });
    },
    async close() {
      await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
      await http.close();
      await proxmox.close();
    },
  };
  return harness;
}

/** A real SDK client over Streamable HTTP with a bearer token. */
export async function connectHttp(url: URL, token: string, customFetch?: typeof fetch): Promise<HttpSession> {
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    ...(customFetch ? { fetch: customFetch } : {}),
  });
  const client = new Client({ name: "http-test", version: "0.0.0" });
  await client.connect(transport);
  return {
    client,
    transport,
    call: toolCaller(client),
    close: () => client.close(),
  };
}

/** An initialize request as a client sends it. */
export function initializeBody(id = 1): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
  });
}

/** Waits until `condition` holds, checking every few milliseconds; fails after `ms`. */
export async function waitFor(condition: () => boolean, ms = 5_000, what = "condition"): Promise<void> {
  const until = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(5);
  }
}

export interface SpawnedHttpServer {
  proc: ReturnType<typeof Bun.spawn>;
  /** The MCP endpoint from the startup line. */
  url: URL;
  stderr(): string;
  /** Resolves when stderr has a line matching `pattern`. */
  line(pattern: RegExp, ms?: number): Promise<string>;
  /** Resolves with the exit code. */
  exited: Promise<number>;
}

/** Starts `bun <args>` (the built server in HTTP mode) and waits for its startup line. */
export async function spawnHttpServer(
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<SpawnedHttpServer> {
  const proc = Bun.spawn([process.execPath, ...args], {
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    ...(cwd ? { cwd } : {}),
  });
  let text = "";
  const watchers: Array<() => void> = [];
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr) {
      text += decoder.decode(chunk, { stream: true });
      for (const wake of watchers.splice(0)) wake();
    }
    for (const wake of watchers.splice(0)) wake();
  })();
  const exited = proc.exited;
  let ended = false;
  void exited.then(() => {
    ended = true;
    for (const wake of watchers.splice(0)) wake();
  });
  const line = async (pattern: RegExp, ms = 15_000): Promise<string> => {
    const until = performance.now() + ms;
    for (;;) {
      const found = text.split("\n").find((l) => pattern.test(l));
      if (found !== undefined) return found;
      if (ended || performance.now() > until)
        throw new Error(`no stderr line matching ${pattern}; stderr so far:\n${text}`);
      await Promise.race([new Promise<void>((resolve) => watchers.push(resolve)), Bun.sleep(100)]);
    }
  };
  const started = await line(/listening on /);
  return { proc, url: new URL(/listening on (\S+)/.exec(started)![1]!), stderr: () => text, line, exited };
}
