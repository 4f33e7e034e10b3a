import type { Readable } from "node:stream";
import type { ConnectionConfig } from "../config.ts";
import { withDeadline } from "../http/deadline.ts";
import { createAgent, firstHeader, request, type Dispatcher } from "../http/undici.ts";
import { parseUpid } from "../tasks/upid.ts";
import { httpErrorOf, readWholeAnswer } from "./answers.ts";
import type {
  ApiCall,
  ApiResult,
  CallerIdentity,
  CallPreview,
  HttpMethod,
  StreamCall,
  StreamResponse,
  UploadCall,
  WriteGate,
  WriteIntent,
  WriteOutcome,
} from "./calls.ts";
import { confirmationRefusal, type Confirm } from "./confirm.ts";
import { LocalRefusal, ProxmoxHttpError, ProxmoxTransportError } from "./errors.ts";
import { checkFormSize, encodeParams, type Params } from "./params.ts";
import { validateApiPath } from "./path.ts";
import { createSecretRedactor, createTokensRedactor, type Redactor, type TokenCredentials } from "./redact.ts";
import { classifyTransportError } from "./transport-errors.ts";

// The call types live in calls.ts (below the policy, which builds on them); importers of the
// client find them here too.
export * from "./calls.ts";

export interface ClientOptions {
  connection: ConnectionConfig;
  /** Second wall of read-only mode: refuse every non-GET here too. */
  readOnly?: boolean;
  gate?: WriteGate;
  /** Defaults to an Agent built from the connection's TLS settings. */
  dispatcher?: Dispatcher;
  /** The other hosts' tokens (several hosts): removed from every output too, though never sent here. */
  alsoRedact?: readonly TokenCredentials[];
}

interface SendRequest {
  method: HttpMethod;
  path: string;
  query: string;
  body: string | Readable | undefined;
  contentType: string | undefined;
  contentLength?: number | undefined;
}

function callerOf(call: { caller?: CallerIdentity | undefined }): { caller?: CallerIdentity } {
  return call.caller ? { caller: call.caller } : {};
}

/** One Proxmox host reached with one API token. Build one per host; nothing here is global. */
export class ProxmoxClient {
  readonly origin: string;
  readonly timeoutMs: number;
  readonly readOnly: boolean;
  /** Removes the token in any form from text meant for a person, a model or a log. */
  readonly redact: Redactor;
  /** Removes the token from errors, and only the secret from successful answers (UPIDs and ACLs hold the token id). */
  private readonly answerRedactors: { token: Redactor; secret: Redactor };
  private readonly apiBase: string;
  private readonly authorization: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly gate: WriteGate | undefined;

  constructor(options: ClientOptions) {
    const { connection } = options;
    this.origin = connection.origin;
    this.apiBase = connection.apiBase;
    this.timeoutMs = connection.timeoutMs;
    this.readOnly = options.readOnly ?? false;
    this.gate = options.gate;
    this.authorization = `PVEAPIToken=${connection.tokenId}=${connection.tokenSecret}`;
    const tokens = [connection, ...(options.alsoRedact ?? [])];
    this.redact = createTokensRedactor(tokens);
    this.answerRedactors = {
      token: this.redact,
      secret: createSecretRedactor(...tokens.map((token) => token.tokenSecret)),
    };
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ??
      createAgent({ ca: connection.ca, verifyTls: connection.verifyTls, timeoutMs: connection.timeoutMs });
  }

  /** A JSON or text call whose answer is read whole (at most 512 KiB). */
  async call(call: ApiCall): Promise<ApiResult> {
    const { intent, request } = this.prepare(call);
    return this.perform(
      intent,
      request,
      { caller: call.signal, timeoutMs: this.timeoutMs },
      (response) =>
        readWholeAnswer(response, call.method, intent.path, call.responseFormat ?? "json", this.answerRedactors),
      call.confirm,
    );
  }

  /**
   * What `call` would send and whether the local rules (read-only mode, the gate's checks that
   * need no request) let it through. Sends nothing and reads nothing. Throws LocalRefusal for
   * a path or parameters that cannot be sent at all.
   */
  preview(call: ApiCall): CallPreview {
    const { intent, request } = this.prepare(call);
    let refusal: LocalRefusal | undefined;
    try {
      this.checkReadOnly(intent);
      if (intent.method === "GET") this.gate?.authorizeRead?.(intent);
      else this.gate?.precheck(intent);
    } catch (error) {
      if (!(error instanceof LocalRefusal)) throw error;
      refusal = error;
    }
    const confirmation = refusal || intent.method === "GET" ? undefined : this.gate?.confirmationRule(intent);
    return {
      method: request.method,
      path: request.path,
      url: `${this.apiBase}${request.path}${request.query ? `?${request.query}` : ""}`,
      ...(typeof request.body === "string" ? { body: request.body } : {}),
      ...(refusal ? { refusal } : {}),
      deferred: refusal || intent.method === "GET" ? [] : (this.gate?.deferredChecks(intent) ?? []),
      ...(confirmation ? { confirmation } : {}),
    };
  }

  private prepare(call: ApiCall): { intent: WriteIntent; request: SendRequest } {
    const path = validateApiPath(call.path);
    const params = call.params ?? {};
    const encoded = encodeParams(params);
    const hasBody = call.method === "POST" || call.method === "PUT";
    if (hasBody) checkFormSize(encoded);
    return {
      intent: { tool: call.tool, ...callerOf(call), method: call.method, path, params },
      request: {
        method: call.method,
        path,
        query: hasBody ? "" : encoded,
        body: hasBody ? encoded : undefined,
        contentType: hasBody ? "application/x-www-form-urlencoded" : undefined,
      },
    };
  }

  /**
   * A write whose body is streamed from a file (uploads); the JSON answer is read whole. The
   * timeouts are the agent's header and idle-body limits, so a transfer that keeps moving
   * is not cut off.
   */
  async upload(call: UploadCall): Promise<ApiResult> {
    const path = validateApiPath(call.path);
    return this.perform(
      {
        tool: call.tool,
        ...callerOf(call),
        method: "POST",
        path,
        params: call.upload.params,
        upload: { fileName: call.upload.fileName, bytes: call.upload.bytes },
      },
      {
        method: "POST",
        path,
        query: encodeParams(call.query ?? {}),
        body: call.body.stream,
        contentType: call.body.contentType,
        contentLength: call.body.length,
      },
      { caller: call.signal },
      (response) => readWholeAnswer(response, "POST", path, "json", this.answerRedactors),
      call.confirm,
    );
  }

  /**
   * A GET whose answer is streamed to the caller (downloads). Non-2xx answers throw
   * ProxmoxHttpError; timeouts are the agent's header and idle-body limits.
   */
  async stream(call: StreamCall): Promise<StreamResponse> {
    const path = validateApiPath(call.path);
    return this.perform(
      { tool: call.tool, method: "GET", path, params: call.query ?? {} },
      { method: "GET", path, query: encodeParams(call.query ?? {}), body: undefined, contentType: undefined },
      { caller: call.signal },
      async (response) => {
        if (response.statusCode < 200 || response.statusCode > 299)
          throw await httpErrorOf(response, "GET", path, this.redact);
        return {
          status: response.statusCode,
          contentType: firstHeader(response.headers["content-type"]),
          headers: response.headers,
          body: response.body,
        };
      },
    );
  }

  /** Convenience for internal reads (task status, node list, network config). */
  async getData(path: string, params: Params = {}, signal?: AbortSignal, tool = "internal"): Promise<unknown> {
    const result = await this.call({ tool, method: "GET", path, params, ...(signal ? { signal } : {}) });
    return result.envelope?.data;
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close().catch(() => undefined);
  }

  /**
   * The one path every request takes: local rules (read-only, the gate), the request, reading
   * its answer, and the audit record of the outcome. Nothing is retried.
   */
  private async perform<T extends { status: number; envelope?: Record<string, unknown> }>(
    intent: WriteIntent,
    request: SendRequest,
    signals: { caller: AbortSignal | undefined; timeoutMs?: number },
    read: (response: Dispatcher.ResponseData) => Promise<T>,
    confirm?: Confirm,
  ): Promise<T> {
    const confirmed = await this.admit(intent, signals.caller, confirm);
    // the deadline starts once the request may leave, not while a person is being asked
    const { caller, timeoutMs } = signals;
    const deadline = timeoutMs !== undefined ? withDeadline(caller, timeoutMs) : undefined;
    const confirmation = confirmed ? { confirmation: "accepted" as const } : {};
    try {
      const value = await read(await this.send(request, deadline?.signal ?? caller));
      this.recordWrite(intent, { ...confirmation, status: value.status, upid: parseUpid(value.envelope?.data)?.upid });
      return value;
    } catch (error) {
      const failure = this.failureOf(error, caller, deadline?.timedOut() ?? false);
      this.recordWrite(intent, {
        ...confirmation,
        ...(failure instanceof ProxmoxHttpError
          ? { status: failure.status, error: failure.message }
          : { error: failure.message }),
      });
      throw failure;
    } finally {
      deadline?.done();
    }
  }

  /**
   * The local rules: for a read, the gate's read checks; for a write, read-only mode, the gate,
   * and a person's confirmation when a PROXMOX_CONFIRM rule holds it. Returns whether a person
   * confirmed it.
   */
  private async admit(intent: WriteIntent, signal: AbortSignal | undefined, confirm?: Confirm): Promise<boolean> {
    try {
      if (intent.method === "GET") {
        this.gate?.authorizeRead?.(intent);
        return false;
      }
      this.checkReadOnly(intent);
      await this.gate?.authorize(intent, this, signal);
      const rule = this.gate?.confirmationRule(intent);
      if (rule === undefined) return false;
      const request = { method: intent.method, path: intent.path, params: intent.params, upload: intent.upload, rule };
      const answer = confirm ? await confirm(request, signal) : "unavailable";
      if (signal?.aborted) throw signal.reason;
      const refusal = confirmationRefusal(answer, request);
      if (refusal) throw refusal;
      return true;
    } catch (error) {
      if (error instanceof LocalRefusal) this.gate?.record(intent, { refusal: error.code, error: error.message });
      throw error;
    }
  }

  private checkReadOnly(intent: WriteIntent): void {
    if (intent.method === "GET") return;
    if (this.readOnly) {
      throw new LocalRefusal(
        "refused_read_only",
        `${intent.method} ${intent.path} refused: this server runs with PROXMOX_READ_ONLY=true, so only GET requests reach Proxmox. Ask the operator to turn read-only mode off if the change is intended.`,
      );
    }
    if (intent.caller?.readOnly) {
      throw new LocalRefusal(
        "refused_read_only",
        `${intent.method} ${intent.path} refused: the client ${intent.caller.label} uses a token marked read-only in PROXMOX_MCP_TOKENS_FILE, so only GET requests reach Proxmox. Ask the operator for a token that may write if the change is intended.`,
      );
    }
  }

  private recordWrite(intent: WriteIntent, outcome: WriteOutcome): void {
    if (intent.method === "GET" || !this.gate) return;
    this.gate.record(intent, { ...outcome, ...(outcome.error ? { error: this.redact(outcome.error) } : {}) });
  }

  private async send(req: SendRequest, signal: AbortSignal | undefined): Promise<Dispatcher.ResponseData> {
    const headers: Record<string, string> = {
      authorization: this.authorization,
      accept: "application/json, text/plain;q=0.9, */*;q=0.5",
    };
    if (req.contentType) headers["content-type"] = req.contentType;
    if (req.contentLength !== undefined) headers["content-length"] = String(req.contentLength);
    const url = `${this.apiBase}${req.path}${req.query ? `?${req.query}` : ""}`;
    return request(url, {
      method: req.method,
      headers,
      body: req.body ?? null,
      dispatcher: this.dispatcher,
      ...(signal ? { signal } : {}),
    });
  }

  /**
   * The error a failed call reports: this module's own as they are, anything else (undici's)
   * classified as a transport failure and redacted. Also for failures while a streamed answer
   * is read, after stream() returned.
   */
  failureOf(error: unknown, callerSignal: AbortSignal | undefined, timedOut = false): Error {
    if (error instanceof ProxmoxHttpError || error instanceof LocalRefusal || error instanceof ProxmoxTransportError) {
      return error;
    }
    return classifyTransportError(error, {
      origin: this.origin,
      cancelled: callerSignal?.aborted ?? false,
      timedOut,
      timeoutMs: this.timeoutMs,
      redact: this.redact,
    });
  }
}
