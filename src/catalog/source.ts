import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { firstHeader, request, type Dispatcher } from "../http/undici.ts";
import { discard, readCapped } from "../http/body.ts";
import { describeErrorChain } from "../proxmox/transport-errors.ts";

/** A catalog source that could not deliver; `kind` decides whether the next source is tried. */
export class SourceFailure extends Error {
  constructor(
    /** missing: 404/410; unreachable: no HTTP answer; cancelled: the caller gave up; refused: a rule said no; invalid: not a schema. */
    readonly kind: "missing" | "unreachable" | "cancelled" | "refused" | "invalid" | "http",
    message: string,
  ) {
    super(message);
    this.name = "SourceFailure";
  }
}

export const MAX_SCHEMA_BYTES = 8 * 1024 * 1024;

export interface FetchOptions {
  dispatcher: Dispatcher;
  signal: AbortSignal;
  /** Aborted when the time is up, to tell a timeout from a cancellation. */
  deadline: AbortSignal;
  timeoutMs: number;
  maxBytes: number;
  /** Removes anything secret from text that will be shown. */
  redact: (text: string) => string;
  /** What the request accepts; the schema's script types by default. */
  accept?: string;
}

export interface Fetched {
  text: string;
  contentType: string;
}

const HEADERS = {
  accept: "application/javascript, text/javascript, text/html;q=0.9, */*;q=0.5",
  "user-agent": "proxmox-ve-mcp (API catalog)",
};

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
}

/**
 * GET one URL: no credentials, no redirects, a size cap checked against Content-Length
 * and again while reading, a deadline. The dispatcher decides which certificates are trusted.
 */
export async function fetchCapped(url: URL, options: FetchOptions): Promise<Fetched> {
  const { redact } = options;
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, {
      method: "GET",
      headers: options.accept ? { ...HEADERS, accept: options.accept } : HEADERS,
      dispatcher: options.dispatcher,
      signal: options.signal,
    });
  } catch (error) {
    throw transportFailure(error, options);
  }
  const status = response.statusCode;
  if (status < 200 || status > 299) {
    discard(response.body);
    if (status >= 300 && status < 400) {
      const location = firstHeader(response.headers.location);
      throw new SourceFailure(
        "refused",
        `answered HTTP ${status} (a redirect${location ? ` to ${redact(location)}` : ""}); redirects are refused`,
      );
    }
    const reason = response.statusText ? ` ${redact(response.statusText)}` : "";
    throw new SourceFailure(
      status === 404 || status === 410 || isMissingFile(status, response.statusText) ? "missing" : "http",
      `answered HTTP ${status}${reason}`,
    );
  }
  const announced = Number(firstHeader(response.headers["content-length"]));
  if (Number.isFinite(announced) && announced > options.maxBytes) {
    discard(response.body);
    throw new SourceFailure("refused", `announced ${announced} bytes, more than the ${mib(options.maxBytes)} cap`);
  }
  let bytes: Buffer | undefined;
  try {
    bytes = await readCapped(response.body, options.maxBytes);
  } catch (error) {
    throw transportFailure(error, options);
  }
  if (bytes === undefined) throw new SourceFailure("refused", `sent more than the ${mib(options.maxBytes)} cap`);
  return { text: bytes.toString("utf8"), contentType: firstHeader(response.headers["content-type"]) };
}

/**
 * pve-http-server answers a file it does not have with 501, not 404: its static file handler
 * dies with "unable to open file '<path>' - No such file or directory" (or "no such file
 * '<path>'" for a name outside its directories), and the error becomes the reason phrase
 * (pve-http-server, src/PVE/APIServer/AnyEvent.pm, sub handle_request).
 */
function isMissingFile(status: number, reason: string | undefined): boolean {
  return status === 501 && /^(unable to open file .* - No such file or directory|no such file )/i.test(reason ?? "");
}

function transportFailure(error: unknown, options: FetchOptions): SourceFailure {
  if (options.deadline.aborted)
    return new SourceFailure("unreachable", `gave no complete answer within ${options.timeoutMs} ms`);
  if (options.signal.aborted) return new SourceFailure("cancelled", "the load was cancelled");
  return new SourceFailure("unreachable", `could not be reached: ${options.redact(describeErrorChain(error))}`);
}

/** Reads a local file (air-gapped sites) with the same size cap. */
export async function readCappedFile(path: string, maxBytes: number, signal: AbortSignal): Promise<Fetched> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new SourceFailure("invalid", "is not a regular file");
    if (info.size > maxBytes)
      throw new SourceFailure("refused", `is ${info.size} bytes, more than the ${mib(maxBytes)} cap`);
    const bytes = await readCapped(createReadStream(path, { signal }), maxBytes);
    if (bytes === undefined) throw new SourceFailure("refused", `is more than the ${mib(maxBytes)} cap`);
    return {
      text: bytes.toString("utf8"),
      contentType: path.endsWith(".html") || path.endsWith(".htm") ? "text/html" : "",
    };
  } catch (error) {
    if (error instanceof SourceFailure) throw error;
    if (signal.aborted) throw new SourceFailure("cancelled", "the load was cancelled");
    const code = (error as NodeJS.ErrnoException).code;
    throw new SourceFailure(
      code === "ENOENT" ? "missing" : "unreachable",
      `cannot be read (${code ?? describeErrorChain(error)})`,
    );
  }
}

/** The viewer page rather than the data: an HTML document. */
export function looksLikeHtml(fetched: Fetched): boolean {
  if (/^text\/html/i.test(fetched.contentType)) return true;
  return /^\s*(<!doctype html|<html|<head|<script)/i.test(fetched.text.slice(0, 512));
}

/** The src of the page's apidoc.js script (the viewer loads the schema with a plain script tag). */
export function findApidocScript(html: string): string | undefined {
  // Loaded here, not at startup: only a viewer page needs an HTML parser. The slim build is
  // htmlparser2 alone, without parse5 and the encoding sniffers the full cheerio pulls in.
  const { load } = require("cheerio/slim") as typeof import("cheerio/slim");
  const $ = load(html);
  const sources = $("script[src]")
    .map((_, el) => $(el).attr("src") ?? "")
    .get()
    .filter((src) => src.length > 0);
  return sources.find((src) => /(^|\/)apidoc\.js([?#].*)?$/i.test(src));
}

/** Resolves the script against the page; only the page's own origin is accepted, never with userinfo. */
export function resolveScriptUrl(src: string, page: URL): URL {
  const url = new URL(src, page);
  if (url.origin !== page.origin || url.protocol !== page.protocol) {
    throw new SourceFailure("refused", `loads apidoc.js from another origin (${url.origin}), which is refused`);
  }
  url.username = "";
  url.password = "";
  url.hash = "";
  return url;
}

/** The same rule for a local index.html: the script must be a file beside it. */
export function resolveScriptFile(src: string, pagePath: string): string {
  const page = pathToFileURL(pagePath);
  const url = new URL(src, page);
  if (url.protocol !== "file:")
    throw new SourceFailure("refused", `loads apidoc.js from ${url.origin}, not from a local file`);
  return fileURLToPath(url);
}
