// Reading an answer: a whole JSON or text body within the size cap, or the error a non-2xx
// answer carries. Proxmox's own message, errors and reason phrase are kept; the token is not.
import { discard, readCapped } from "../http/body.ts";
import { firstHeader, type Dispatcher } from "../http/undici.ts";
import { isTextual, MAX_RESPONSE_BYTES, type ApiResult, type HttpMethod } from "./calls.ts";
import { ProxmoxHttpError, ProxmoxTransportError } from "./errors.ts";
import type { Redactor } from "./redact.ts";

const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * A 2xx answer read whole: the JSON envelope, or the text. Not text, or more than
 * MAX_RESPONSE_BYTES, is refused with the way to get it instead. `redactSecret` removes the
 * token's secret from what is returned.
 */
export async function readWholeAnswer(
  response: Dispatcher.ResponseData,
  method: HttpMethod,
  path: string,
  format: "json" | "text",
  redact: { token: Redactor; secret: Redactor },
): Promise<ApiResult> {
  if (response.statusCode < 200 || response.statusCode > 299) {
    throw await httpErrorOf(response, method, path, redact.token);
  }
  const contentType = firstHeader(response.headers["content-type"]);
  if (!isTextual(contentType)) {
    discard(response.body);
    throw new ProxmoxTransportError(
      "not_text",
      `${method} ${path} answered ${contentType}, which is not text`,
      "Save it with proxmox_download and a destination inside PROXMOX_FILE_ROOTS.",
    );
  }
  const bytes = await readCapped(response.body, MAX_RESPONSE_BYTES);
  if (bytes === undefined) {
    throw new ProxmoxTransportError(
      "too_large",
      `${method} ${path} answered more than ${MAX_RESPONSE_BYTES / 1024} KiB, too much to return to the model`,
      "Narrow the request (filters such as type=, limit=/start= on logs), or save the answer to a file with proxmox_download.",
    );
  }
  const text = redact.secret(bytes.toString("utf8"));
  if (format === "json" && /json/i.test(contentType)) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
        return {
          status: response.statusCode,
          contentType,
          envelope: parsed as Record<string, unknown>,
          bytes: bytes.length,
        };
      }
    } catch {
      // not JSON after all: hand it back as text
    }
  }
  return { status: response.statusCode, contentType, text, bytes: bytes.length };
}

/** The error of a non-2xx answer, with Proxmox's message and per-parameter errors, redacted. */
export async function httpErrorOf(
  response: Dispatcher.ResponseData,
  method: HttpMethod,
  path: string,
  redact: Redactor,
): Promise<ProxmoxHttpError> {
  const bytes = await readCapped(response.body, MAX_ERROR_BODY_BYTES).catch(() => undefined);
  let detail = "";
  let errors: Record<string, string> | undefined;
  if (bytes && bytes.length > 0) {
    try {
      const body = JSON.parse(bytes.toString("utf8")) as { message?: unknown; errors?: unknown };
      if (typeof body.message === "string") detail = body.message.trim();
      if (body.errors && typeof body.errors === "object") {
        errors = Object.fromEntries(Object.entries(body.errors).map(([k, v]) => [k, String(v).trim()]));
      }
    } catch {
      detail = bytes.toString("utf8").trim().slice(0, 2000);
    }
  }
  const location = firstHeader(response.headers.location);
  return new ProxmoxHttpError(
    method,
    path,
    response.statusCode,
    redact(response.statusText ?? ""),
    redact(detail),
    errors,
    location ? redact(location) : undefined,
  );
}
