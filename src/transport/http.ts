// MCP over Streamable HTTP (issue 15): Bun's HTTP server in front of the SDK's Streamable HTTP
// server transport (the web-standard one, which the SDK's Node wrapper also delegates to), one
// MCP server per session from createServer(deps). What runs before the SDK sees a request, in
// this order: /healthz (no checks), the Host/Origin allow-list (403), the path (404), the
// failed-authentication limit (429), the bearer token (401); then for POST the body limit (413),
// and either the sessions limit (503) for an initialize request or the session (404) and its
// limit of requests in flight (429); while draining, new sessions and requests get 503.
import type { Server } from "bun";
import {
  isInitializeRequest,
  isJSONRPCNotification,
  isJSONRPCRequest,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { within } from "../http/deadline.ts";
import { mapLogger, type Logger } from "../log.ts";
import { createServer } from "../server.ts";
import type { ServerDeps } from "../tools/deps.ts";
import {
  AUTH_FAILURE_LIMIT,
  bearerToken,
  FailureLimiter,
  matchToken,
  type ClientToken,
  type FailureLimit,
} from "./auth.ts";
import { hostAllowed, hostName, originAllowed } from "./hosts.ts";
import type { HttpConfig } from "./http-config.ts";
import { SessionRegistry, shortId, type Session } from "./sessions.ts";

export const MCP_PATH = "/mcp";
export const HEALTH_PATH = "/healthz";

export interface HttpServerOptions {
  config: HttpConfig;
  tokens: readonly ClientToken[];
  /** Shared by every session: the Proxmox client(s), the catalog, file access and the policy. */
  deps: ServerDeps;
  log: Logger;
  /** Test seams. */
  now?: () => number;
  failureLimit?: FailureLimit;
  keepAliveMs?: number;
  /** Bun's idle timeout for connections, in seconds (default 10). */
  idleTimeoutS?: number;
}

export interface HttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:8787/mcp. */
  readonly url: URL;
  readonly sessions: SessionRegistry;
  /**
   * Stops accepting, lets calls in flight finish within the drain bound, then closes every
   * session (aborting what is still running). True when nothing had to be aborted.
   */
  drain(): Promise<boolean>;
  /** Closes every session and the listener at once. */
  close(): Promise<void>;
}

/** The deps of one client's session: its identity on every write, its token's read-only mark, its label in logs. */
export function sessionDeps(shared: ServerDeps, client: ClientToken): ServerDeps {
  return {
    ...shared,
    caller: { label: client.label, readOnly: client.readOnly },
    log: mapLogger(shared.log, (message) => `client ${client.label}: ${message}`),
    transport: "http",
  };
}

function jsonRpcError(status: number, message: string, headers: Record<string, string> = {}, code = -32000): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** As the SDK answers it: the client must initialize a new session. */
function sessionNotFound(): Response {
  return jsonRpcError(404, "Session not found", {}, -32001);
}

/** No detail: whether the header was missing, malformed or wrong is not said. */
function unauthorized(): Response {
  return jsonRpcError(401, "Unauthorized", { "www-authenticate": "Bearer" });
}

/** Header values are the client's text: quoted and cut short before they reach a log line. */
function quoted(value: string | null): string {
  return value === null ? "(none)" : JSON.stringify(value.slice(0, 100));
}

/** Reads at most `max` bytes of the body; undefined when there are more. */
async function readBody(req: Request, max: number): Promise<string | undefined> {
  if (Number(req.headers.get("content-length") ?? 0) > max) return undefined;
  if (!req.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => undefined);
        return undefined;
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks).toString("utf8");
}

const OPENING_COMMENT = new TextEncoder().encode(": stream open\n\n");

/**
 * Bun sends the headers of a streamed response only with its first bytes, so a server stream
 * (GET) or a long call would leave the client waiting for them. An SSE comment, which clients
 * ignore, goes first.
 */
function headersAtOnce(response: Response): Response {
  if (!response.body || response.headers.get("content-type") !== "text/event-stream") return response;
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(OPENING_COMMENT);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

function cancelledRequestId(message: unknown): RequestId | undefined {
  if (!isJSONRPCNotification(message) || message.method !== "notifications/cancelled") return undefined;
  const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

export function startHttpServer(options: HttpServerOptions): HttpServer {
  const { config, tokens, deps, log } = options;
  const { limits } = config;
  const now = options.now ?? Date.now;
  const limiter = new FailureLimiter(options.failureLimit ?? AUTH_FAILURE_LIMIT);
  let draining = false;

  const sessions = new SessionRegistry({
    limits,
    now,
    ...(options.keepAliveMs !== undefined ? { keepAliveMs: options.keepAliveMs } : {}),
    newServer: (client) => createServer(sessionDeps(deps, client)),
    onClosed: (session, reason) => {
      if (reason !== "not initialized")
        log.info(`client ${session.client.label}: session ${shortId(session.id)} closed (${reason})`);
    },
  });

  /** Hands the request to the session's SDK transport; `reserved` were counted in flight for it. */
  async function serve(
    session: Session,
    req: Request,
    server: Server<undefined>,
    parsedBody?: unknown,
    reserved: RequestId[] = [],
  ): Promise<Response> {
    sessions.touch(session);
    // Answers stream as SSE for as long as a call runs (task waits, transfers); Bun's idle
    // timer is not reset by what a streamed response writes, so it is off for this request
    // (the SDK writes keep-alive comments, which end the stream once the client is gone).
    server.timeout(req, 0);
    let response: Response;
    try {
      response = await session.transport.handleRequest(req, parsedBody === undefined ? undefined : { parsedBody });
    } catch (error) {
      sessions.release(session, reserved);
      throw error;
    }
    // Anything but the 200 stream means the transport refused the messages: none is in flight.
    if (response.status !== 200) sessions.release(session, reserved);
    return headersAtOnce(response);
  }

  async function post(req: Request, server: Server<undefined>, client: ClientToken): Promise<Response> {
    const text = await readBody(req, limits.maxBodyBytes);
    if (text === undefined) {
      return jsonRpcError(413, `Payload Too Large: a request body may hold at most ${limits.maxBodyBytes} bytes`);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return jsonRpcError(400, "Parse error: Invalid JSON", {}, -32700);
    }
    const messages: unknown[] = Array.isArray(body) ? body : [body];
    const sessionId = req.headers.get("mcp-session-id");

    if (sessionId === null) {
      if (draining) return shuttingDown();
      if (!isJSONRPCRequest(body) || !isInitializeRequest(body)) {
        return jsonRpcError(
          400,
          "Bad Request: Mcp-Session-Id header is required; only an initialize request, sent alone, opens a session",
        );
      }
      if (sessions.isFull()) {
        log.warn(
          `client ${client.label}: refused a new session: all ${limits.maxSessions} are in use (PROXMOX_MCP_MAX_SESSIONS)`,
        );
        return jsonRpcError(
          503,
          `Service Unavailable: the server already holds its maximum of ${limits.maxSessions} sessions; end unused sessions (DELETE) or try again later`,
          {
            "retry-after": "30",
          },
        );
      }
      const session = await sessions.open(client);
      const response = await serve(session, req, server, body, [body.id]);
      if (session.transport.sessionId === undefined) await sessions.close(session, "not initialized");
      else log.info(`client ${client.label}: session ${shortId(session.id)} opened`);
      return response;
    }

    const session = sessions.find(sessionId, client);
    if (!session) return sessionNotFound();
    const requests = messages.filter(isJSONRPCRequest).map((message) => message.id);
    if (draining && requests.length > 0) return shuttingDown();
    if (session.inFlight.size + requests.length > limits.maxRequestsPerSession) {
      return jsonRpcError(
        429,
        `Too Many Requests: a session may have at most ${limits.maxRequestsPerSession} requests in flight; wait for one to finish`,
        {
          "retry-after": "1",
        },
      );
    }
    sessions.reserve(session, requests);
    // The SDK aborts a cancelled request and sends no answer for it.
    const cancelled = messages.map(cancelledRequestId).filter((id): id is RequestId => id !== undefined);
    sessions.release(session, cancelled);
    return serve(session, req, server, body, requests);
  }

  function shuttingDown(): Response {
    return jsonRpcError(503, "Service Unavailable: the server is shutting down", { connection: "close" });
  }

  async function handle(req: Request, server: Server<undefined>): Promise<Response> {
    const url = new URL(req.url);
    if (url.pathname === HEALTH_PATH) {
      if (req.method !== "GET" && req.method !== "HEAD")
        return new Response(null, { status: 405, headers: { allow: "GET, HEAD" } });
      return new Response(draining ? "draining\n" : "ok\n", {
        status: draining ? 503 : 200,
        headers: { "content-type": "text/plain" },
      });
    }
    const host = req.headers.get("host");
    const origin = req.headers.get("origin");
    if (!hostAllowed(host, config.allowedHosts) || !originAllowed(origin, config.allowedHosts)) {
      log.warn(
        `refused a request with Host ${quoted(host)} and Origin ${quoted(origin)}: not in PROXMOX_MCP_ALLOWED_HOSTS`,
      );
      return jsonRpcError(403, "Forbidden: Host or Origin not allowed");
    }
    if (url.pathname !== MCP_PATH) return jsonRpcError(404, `Not Found: the MCP endpoint is ${MCP_PATH}`);

    const address = server.requestIP(req)?.address ?? "unknown";
    const wait = limiter.retryAfterMs(address, now());
    if (wait > 0) return jsonRpcError(429, "Too Many Requests", { "retry-after": String(Math.ceil(wait / 1000)) });
    const client = matchToken(bearerToken(req.headers.get("authorization")), tokens);
    if (!client) {
      const exhausted = limiter.recordFailure(address, now());
      log.warn(
        `authentication failed from ${address}${exhausted ? "; further attempts from there are refused for a while" : ""}`,
      );
      return unauthorized();
    }

    if (req.method === "POST") return post(req, server, client);
    // While draining, a client may still end its session; it opens no stream.
    if (draining && req.method !== "DELETE") return shuttingDown();
    if (req.method === "GET" || req.method === "DELETE") {
      const sessionId = req.headers.get("mcp-session-id");
      if (sessionId === null) return jsonRpcError(400, "Bad Request: Mcp-Session-Id header is required");
      const session = sessions.find(sessionId, client);
      return session ? serve(session, req, server) : sessionNotFound();
    }
    return jsonRpcError(405, "Method Not Allowed", { allow: "GET, POST, DELETE" });
  }

  const server = Bun.serve({
    hostname: config.listen.host,
    port: config.listen.port,
    ...(config.tls ? { tls: { cert: config.tls.cert, key: config.tls.key } } : {}),
    // Larger declared bodies are refused by Bun itself; up to this, by post() with a JSON-RPC error.
    maxRequestBodySize: limits.maxBodyBytes * 4,
    ...(options.idleTimeoutS !== undefined ? { idleTimeout: options.idleTimeoutS } : {}),
    fetch: handle,
    error(error) {
      log.error(`HTTP request failed: ${error.message}`);
      return jsonRpcError(500, "Internal error");
    },
  });

  const url = new URL(`${config.tls ? "https" : "http"}://${hostName(config.listen.host)}:${server.port}${MCP_PATH}`);
  let stopped: Promise<void> | undefined;

  return {
    url,
    sessions,
    async drain() {
      draining = true;
      stopped ??= server.stop(false);
      const settled = await sessions.settled(limits.drainMs);
      await sessions.closeAll("server shutting down");
      // Let the last answers reach their clients, briefly.
      await within(stopped, 2000);
      await server.stop(true);
      return settled;
    },
    async close() {
      draining = true;
      await sessions.closeAll("server shutting down");
      await server.stop(true);
    },
  };
}
