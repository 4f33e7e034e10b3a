// The sessions of the HTTP transport: one MCP server and one SDK Streamable HTTP transport per
// session, bound to the client (token label) that opened it. Counts the requests each session
// has in flight, closes idle sessions, and closes everything on shutdown. Closing a session
// aborts its running tool calls (the SDK aborts every handler's signal when its transport closes).
import { randomUUID } from "node:crypto";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isJSONRPCErrorResponse, isJSONRPCResultResponse, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { within } from "../http/deadline.ts";
import type { ClientToken } from "./auth.ts";
import type { HttpLimits } from "./http-config.ts";

export type CloseReason = "deleted by the client" | "idle" | "server shutting down" | "not initialized";

export interface Session {
  readonly id: string;
  readonly client: ClientToken;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: McpServer;
  /** Requests accepted and not answered yet (nor cancelled). */
  readonly inFlight: Set<RequestId>;
  lastSeen: number;
  closeReason?: CloseReason;
}

export interface SessionRegistryOptions {
  limits: Pick<HttpLimits, "maxSessions" | "sessionIdleMs">;
  /** The MCP server of a new session of this client. */
  newServer(client: ClientToken): McpServer;
  /** Called once per session when it is gone, however it ended. */
  onClosed?(session: Session, reason: CloseReason): void;
  /** SSE keep-alive comments on open streams (the SDK's default: 15 s). */
  keepAliveMs?: number;
  now?: () => number;
}

/** A session id shortened for logs: enough to tell sessions apart, too little to use one. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();
  private readonly now: () => number;
  private readonly sweeper: ReturnType<typeof setInterval>;
  private settledWaiters: Array<() => void> = [];

  constructor(private readonly options: SessionRegistryOptions) {
    this.now = options.now ?? Date.now;
    const idle = options.limits.sessionIdleMs;
    this.sweeper = setInterval(() => this.closeIdle(), Math.max(20, Math.min(idle / 2, 30_000)));
    this.sweeper.unref?.();
  }

  get size(): number {
    return this.sessions.size;
  }

  isFull(): boolean {
    return this.sessions.size >= this.options.limits.maxSessions;
  }

  /** A new session for `client`; its transport still has to answer the initialize request. */
  async open(client: ClientToken): Promise<Session> {
    const id = randomUUID();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      ...(this.options.keepAliveMs !== undefined ? { keepAliveMs: this.options.keepAliveMs } : {}),
    });
    const server = this.options.newServer(client);
    const session: Session = { id, client, transport, server, inFlight: new Set(), lastSeen: this.now() };
    // Set before connect: the SDK chains it before its own close handling.
    transport.onclose = () => this.forget(session);
    await server.connect(transport);
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return send(message, options);
      try {
        return await send(message, options);
      } finally {
        session.lastSeen = this.now();
        if (message.id !== undefined) this.release(session, [message.id]);
      }
    };
    this.sessions.set(id, session);
    return session;
  }

  /** The session with this id, only for the client that opened it. */
  find(id: string, client: ClientToken): Session | undefined {
    const session = this.sessions.get(id);
    return session && session.client.label === client.label ? session : undefined;
  }

  touch(session: Session): void {
    session.lastSeen = this.now();
  }

  /** Counts requests as in flight before the transport sees them. */
  reserve(session: Session, ids: readonly RequestId[]): void {
    for (const id of ids) session.inFlight.add(id);
  }

  /** Requests answered, cancelled, or refused by the transport. */
  release(session: Session, ids: readonly RequestId[]): void {
    for (const id of ids) session.inFlight.delete(id);
    if (this.settledWaiters.length > 0 && this.inFlightCount() === 0) {
      for (const wake of this.settledWaiters.splice(0)) wake();
    }
  }

  inFlightCount(): number {
    let count = 0;
    for (const session of this.sessions.values()) count += session.inFlight.size;
    return count;
  }

  /** Resolves true once no request is in flight in any session, or false after `ms`. */
  async settled(ms: number): Promise<boolean> {
    if (this.inFlightCount() === 0) return true;
    const waiter = new Promise<boolean>((resolve) => this.settledWaiters.push(() => resolve(true)));
    return (await within(waiter, ms)) ?? false;
  }

  /** Closes the session: its streams end and its running calls are aborted. */
  async close(session: Session, reason: CloseReason): Promise<void> {
    session.closeReason ??= reason;
    await session.server.close().catch(() => undefined);
    this.forget(session);
  }

  async closeAll(reason: CloseReason): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((session) => this.close(session, reason)));
  }

  /** Sessions with nothing in flight and no request for the idle time. */
  closeIdle(): void {
    const cutoff = this.now() - this.options.limits.sessionIdleMs;
    for (const session of this.sessions.values()) {
      if (session.inFlight.size === 0 && session.lastSeen <= cutoff) void this.close(session, "idle");
    }
  }

  private forget(session: Session): void {
    if (this.sessions.get(session.id) !== session) return;
    this.sessions.delete(session.id);
    // A DELETE from the client closes the transport without going through close().
    const reason = session.closeReason ?? "deleted by the client";
    session.closeReason = reason;
    this.release(session, [...session.inFlight]);
    this.options.onClosed?.(session, reason);
  }
}
