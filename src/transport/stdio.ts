import process from "node:process";
import type { Readable, Writable } from "node:stream";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode,
  JSONRPCMessageSchema,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../log.ts";
import { InitializeGate } from "./lifecycle.ts";
import { EDGE_BYTES, LineSplitter } from "./lines.ts";
import { asRequestId, readMessageEdges, type MessageEdges } from "./request-id.ts";

/**
 * The largest JSON-RPC message read from stdin. Tool arguments are paths and parameters; even
 * a large cloud-init or a long script stays far below this, and files travel by path
 * (proxmox_upload), not inline. The SDK's own transport allows 10 MiB and, beyond that, closes
 * itself, which ends the server.
 */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export interface StdioTransportOptions {
  log: Logger;
}

const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 3 : 1)} MiB`;

/**
 * MCP over stdin/stdout, one JSON message per line, like the SDK's StdioServerTransport, but a
 * message that is too large or unreadable never stops it: it is answered with a JSON-RPC error
 * when its id can be read (dropped otherwise), logged in one stderr line, and the next line is
 * served. A request sent before initialization is complete is answered with an error and never
 * reaches a handler (InitializeGate).
 */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly stdin: Readable = process.stdin;
  private readonly stdout: Writable = process.stdout;
  private readonly log: Logger;
  private readonly maxMessageBytes = MAX_MESSAGE_BYTES;
  private readonly splitter = new LineSplitter(MAX_MESSAGE_BYTES);
  private readonly gate = new InitializeGate();
  private started = false;

  constructor(options: StdioTransportOptions) {
    this.log = options.log;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("StdioTransport already started");
    this.started = true;
    this.stdin.on("data", this.onData);
    this.stdin.on("error", this.onStdinError);
  }

  async close(): Promise<void> {
    this.stdin.off("data", this.onData);
    this.stdin.off("error", this.onStdinError);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.gate.sent(message);
    return this.write(message);
  }

  /** Writes a message, waiting for stdout to drain when its buffer is full (as the SDK's transport does). */
  private write(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(serializeMessage(message))) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  private readonly onData = (chunk: Buffer): void => {
    for (const event of this.splitter.push(chunk)) {
      if (event.kind === "oversize") {
        this.refuseOversize(event.bytes, readMessageEdges(event.head.toString("utf8"), event.tail.toString("utf8")));
      } else {
        this.receive(event.line);
      }
    }
  };

  private readonly onStdinError = (error: Error): void => {
    this.onerror?.(error);
  };

  private receive(line: Buffer): void {
    const text = line.toString("utf8");
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      const edges = readMessageEdges(text.slice(0, EDGE_BYTES), text.slice(-EDGE_BYTES));
      this.reject(
        edges,
        ErrorCode.ParseError,
        "Parse error: the message is not valid JSON.",
        `a ${line.length}-byte line that is not JSON`,
      );
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      this.reject(
        edgesOf(value),
        ErrorCode.InvalidRequest,
        "Invalid Request: not a JSON-RPC 2.0 request, notification or response that MCP accepts.",
        `a ${line.length}-byte line that is not a JSON-RPC message`,
      );
      return;
    }
    const refusal = this.gate.admit(parsed.data);
    if (refusal) {
      this.log.warn(`refused request ${describeId(refusal.id)} sent before initialization was complete`);
      void this.write(refusal);
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private refuseOversize(bytes: number, edges: MessageEdges): void {
    this.reject(
      edges,
      ErrorCode.InvalidRequest,
      `Message too large: ${bytes} bytes, and this server reads at most ${this.maxMessageBytes} bytes (${mib(this.maxMessageBytes)}) per message. ` +
        "Tool arguments never need that much; a file travels by its path (proxmox_upload reads it from PROXMOX_FILE_ROOTS).",
      `a ${mib(bytes)} message, over the ${mib(this.maxMessageBytes)} limit`,
      { bytes, limit: this.maxMessageBytes },
    );
  }

  /** Answers an unreadable message when it is a request whose id is known; one log line either way. */
  private reject(edges: MessageEdges, code: number, message: string, what: string, data?: unknown): void {
    if (edges.id === undefined || edges.response) {
      this.log.warn(`dropped ${what} on stdin (no request id could be read, so nothing was answered)`);
      return;
    }
    this.log.warn(`refused ${what} on stdin: answered request ${describeId(edges.id)} with an error`);
    const response: JSONRPCErrorResponse = {
      jsonrpc: "2.0",
      id: edges.id,
      error: { code, message, ...(data !== undefined ? { data } : {}) },
    };
    void this.write(response);
  }
}

/** The id and kind of a parsed JSON value that is not a valid message. */
function edgesOf(value: unknown): MessageEdges {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { response: false };
  const record = value as Record<string, unknown>;
  const id = asRequestId(record.id);
  const response = "result" in record || "error" in record;
  return id === undefined ? { response } : { id, response };
}

function describeId(id: RequestId | undefined): string {
  const text = JSON.stringify(id ?? null);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
