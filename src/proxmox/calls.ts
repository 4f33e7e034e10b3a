// What a call to Proxmox is, as the tools, the policy gate and the audit trail see it. Types
// and small pure helpers only: the client (client.ts) and the policy (../policy) both build on
// this module, and it imports neither.
import type { Readable } from "node:stream";
import type { Confirm } from "./confirm.ts";
import type { LocalRefusal } from "./errors.ts";
import type { Params } from "./params.ts";

export const HTTP_METHODS = ["GET", "POST", "PUT", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Larger answers are not returned to the model; proxmox_download saves them to a file. */
export const MAX_RESPONSE_BYTES = 512 * 1024;

/** Who a call is made for in HTTP mode: the label of the client's token (stdio has none). */
export interface CallerIdentity {
  label: string;
  /** The token is marked read-only: writes are refused as in read-only mode. */
  readOnly: boolean;
}

/** A write as the policy gate and the audit trail see it. */
export interface WriteIntent {
  tool: string;
  caller?: CallerIdentity;
  method: HttpMethod;
  /** The validated path, relative to /api2/json. */
  path: string;
  params: Params;
  upload?: { fileName: string; bytes: number };
}

export interface WriteOutcome {
  /** "accepted" when a person confirmed the write (PROXMOX_CONFIRM). */
  confirmation?: "accepted";
  status?: number;
  upid?: string;
  error?: string;
  refusal?: string;
}

/**
 * Local safety rules. `authorize` runs before every non-GET request leaves and throws a
 * LocalRefusal to stop it; `authorizeRead` does the same for GETs (the few that reach other
 * hosts or inside guests); `record` sees every write attempt's outcome and every refusal.
 */
export interface WriteGate {
  authorize(intent: WriteIntent, reader: ApiReader, signal?: AbortSignal): Promise<void>;
  authorizeRead?(intent: WriteIntent): void;
  record(intent: WriteIntent, outcome: WriteOutcome): void;
  /** The checks of `authorize` that need no request; throws LocalRefusal. */
  precheck(intent: WriteIntent): void;
  /** What `authorize` would still check by reading from Proxmox, in words. */
  deferredChecks(intent: WriteIntent): string[];
  /** The PROXMOX_CONFIRM rule that makes this write wait for a person's yes, if any. */
  confirmationRule(intent: WriteIntent): string | undefined;
}

/** What a call would send and what the local rules say of it, found without sending anything. */
export interface CallPreview {
  method: HttpMethod;
  /** The validated path, relative to /api2/json. */
  path: string;
  /** The whole URL, query string included. */
  url: string;
  /** The form body of a POST or PUT, as sent. */
  body?: string;
  /** The local refusal the call would meet; undefined when the local rules let it through. */
  refusal?: LocalRefusal;
  /** Checks that read from Proxmox when the call is sent, and so are not made here. */
  deferred: string[];
  /** The PROXMOX_CONFIRM rule that would hold the call for a person's yes. */
  confirmation?: string;
}

export interface ApiCall {
  /** The MCP tool on whose behalf the call is made (audit trail). */
  tool: string;
  caller?: CallerIdentity | undefined;
  method: HttpMethod;
  path: string;
  params?: Params;
  responseFormat?: "json" | "text";
  signal?: AbortSignal;
  /** Asks a person about a write that PROXMOX_CONFIRM holds; without it such a write is refused. */
  confirm?: Confirm | undefined;
}

export interface ApiResult {
  status: number;
  contentType: string;
  /** The Proxmox envelope ({data, total?, changes?}) of a JSON answer. */
  envelope?: Record<string, unknown>;
  /** The body of a text answer, or of any answer when text was asked for. */
  text?: string;
  bytes: number;
}

/** A GET whose answer goes to the caller as a stream (downloads). */
export interface StreamCall {
  tool: string;
  path: string;
  /** Query-string parameters. */
  query?: Params;
  signal?: AbortSignal;
}

/** A POST whose body is streamed from a file (uploads). */
export interface UploadCall {
  tool: string;
  caller?: CallerIdentity | undefined;
  path: string;
  /** Query-string parameters. */
  query?: Params;
  body: { stream: Readable; length: number; contentType: string };
  /** What the gate and the audit trail see: the file and all of the upload's parameters. */
  upload: { fileName: string; bytes: number; params: Params };
  signal?: AbortSignal;
  confirm?: Confirm | undefined;
}

export interface StreamResponse {
  status: number;
  contentType: string;
  headers: Record<string, string | string[] | undefined>;
  body: Readable & AsyncIterable<Uint8Array>;
}

/** What the policy needs of a client to read before it decides (the VLAN guard). */
export interface ApiReader {
  getData(path: string, params?: Params, signal?: AbortSignal, tool?: string): Promise<unknown>;
  /** Removes the token from text (an error's message) before it is shown. */
  redact(text: string): string;
}

const TEXTUAL = /^(text\/|application\/(json|javascript|xml|x-yaml|yaml)|[^;]*\+(json|xml))/i;

export function isTextual(contentType: string): boolean {
  return contentType === "" || TEXTUAL.test(contentType);
}

/** The JSON envelope as Proxmox sent it, or the text body. */
export function resultPayload(result: ApiResult): Record<string, unknown> {
  if (result.envelope) return { ...result.envelope };
  return { content_type: result.contentType, text: result.text ?? "" };
}
