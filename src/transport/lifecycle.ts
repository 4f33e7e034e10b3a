import {
  ErrorCode,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";

/** Requests MCP allows before initialization is complete (spec, "Lifecycle"). */
const BEFORE_INITIALIZE = new Set(["initialize", "ping"]);

/**
 * MCP's lifecycle, which the SDK's Server does not enforce (it serves tools/call on a session
 * that never sent initialize): every request but initialize and ping is refused with an error,
 * and never reaches a handler, until initialization is complete. Complete means the server
 * answered initialize successfully, or the client sent notifications/initialized after its
 * initialize request (a client may send both and its first call without waiting for the
 * answer: messages are handled in order, so initialize has been handled first). Notifications
 * and responses always pass: they start nothing.
 */
export class InitializeGate {
  private state: "new" | "initializing" | "ready" = "new";
  private readonly pendingInitialize = new Set<RequestId>();

  /** undefined to pass `message` on; otherwise the error response to send in its place. */
  admit(message: JSONRPCMessage): JSONRPCErrorResponse | undefined {
    if (this.state === "ready" || !("method" in message)) return undefined;
    if (!("id" in message)) {
      if (message.method === "notifications/initialized" && this.state === "initializing") this.state = "ready";
      return undefined;
    }
    if (message.method === "initialize") {
      this.pendingInitialize.add(message.id);
      this.state = "initializing";
    }
    if (BEFORE_INITIALIZE.has(message.method)) return undefined;
    return {
      jsonrpc: "2.0",
      id: message.id,
      error: {
        code: ErrorCode.InvalidRequest,
        message: `Server not initialized: '${message.method}' was sent before initialization was complete. Send initialize, then notifications/initialized, then other requests.`,
      },
    };
  }

  /** Watches what the server sends for its answer to `initialize`. */
  sent(message: JSONRPCMessage): void {
    if (this.state === "ready" || !("id" in message) || message.id === undefined) return;
    if (!this.pendingInitialize.delete(message.id)) return;
    if ("result" in message) this.state = "ready";
    else if (this.pendingInitialize.size === 0) this.state = "new";
  }
}
