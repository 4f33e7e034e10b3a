import { LocalRefusal } from "./errors.ts";

export type Scalar = string | number | boolean;
export type ParamValue = Scalar | Scalar[];
export type Params = Record<string, ParamValue>;

/** Proxmox refuses form or JSON bodies over this size with a 501. */
export const MAX_FORM_BYTES = 512 * 1024;

function refuse(message: string): never {
  throw new LocalRefusal("invalid_parameters", message);
}

function checkScalar(name: string, value: unknown): Scalar {
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) refuse(`parameter '${name}' is not a finite number`);
    return value;
  }
  if (value === null) {
    refuse(
      `parameter '${name}' is null; leave it out to keep the current value, or name it in 'delete' to clear a setting`,
    );
  }
  if (typeof value === "object") {
    refuse(
      `parameter '${name}' is an object; Proxmox property strings are plain strings, e.g. net0 = "virtio,bridge=vmbr0,firewall=1"`,
    );
  }
  refuse(`parameter '${name}' has unsupported type ${typeof value}`);
}

/** Names of JavaScript object internals; no Proxmox parameter is called so (the 9.1 schema has none). */
const RESERVED_NAMES = new Set(["__proto__", "constructor", "prototype"]);

/**
 * zod builds its output object by assignment, which silently drops an own "__proto__" key (as
 * JSON.parse creates it). The input schema renames that key to this marker first, so that
 * normalizeParameters can refuse it by name instead of losing it.
 */
export const PROTO_KEY_MARKER = "\u0000__proto__";

/** An object with an own "__proto__" key, copied with that key renamed to PROTO_KEY_MARKER; anything else unchanged. */
export function keepProtoKey(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value) || !Object.hasOwn(value, "__proto__"))
    return value;
  const copy: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) copy[name === "__proto__" ? PROTO_KEY_MARKER : name] = item;
  return copy;
}

/**
 * Checks the tool's `parameters` argument: an object of scalars or arrays of scalars (a JSON
 * string of one was already parsed by the input schema). Everything else is refused, and so
 * are the names __proto__, constructor and prototype, which would be dropped or misread.
 */
export function normalizeParameters(value: unknown): Params {
  if (value === undefined) return {};
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    refuse('parameters must be an object such as {"vmid": 100}');
  }
  const out: Params = {};
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    const name = key === PROTO_KEY_MARKER ? "__proto__" : key;
    if (RESERVED_NAMES.has(name)) {
      refuse(
        `parameter '${name}' is refused: it names a JavaScript object internal, not a Proxmox parameter (no endpoint has one of that name), and would be dropped or misread instead of sent. Remove it`,
      );
    }
    out[name] = Array.isArray(raw) ? raw.map((item, i) => checkScalar(`${name}[${i}]`, item)) : checkScalar(name, raw);
  }
  return out;
}

/** A parameter value as Proxmox reads it: booleans as 1/0. */
export function scalarText(value: Scalar): string {
  if (typeof value === "boolean") return value ? "1" : "0";
  return String(value);
}

/** Each value of a parameter (an array item by item) as Proxmox reads it. */
export function scalarTexts(value: ParamValue): string[] {
  return (Array.isArray(value) ? value : [value]).map(scalarText);
}

/** Form/query encoding as Proxmox reads it: booleans as 1/0, arrays as repeated keys. */
export function encodeParams(params: Params): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    const key = encodeURIComponent(name);
    for (const item of Array.isArray(value) ? value : [value]) {
      parts.push(`${key}=${encodeURIComponent(scalarText(item))}`);
    }
  }
  return parts.join("&");
}

/**
 * The parameters as Proxmox reads the form or query string encodeParams builds. pve-http-server's
 * decode_urlencoded (PVE::APIServer::AnyEvent) joins a repeated name's values with NUL, but an
 * empty value ("name=") is undefined there: alone it leaves the parameter out, after other values
 * it drops them too (older versions keep them, as the values as written show). So vmid="" on
 * prunebackups is no vmid, and propagate="" on an ACL is Proxmox's default.
 */
export function receivedParams(params: Params): Params {
  const out: Params = {};
  for (const [name, value] of Object.entries(params)) {
    const items = Array.isArray(value) ? value : [value];
    const last = items.findLastIndex((item) => scalarText(item) === "");
    const kept = items.slice(last + 1);
    if (kept.length === 0) continue;
    out[name] = Array.isArray(value) ? kept : kept[0]!;
  }
  return out;
}

export function checkFormSize(body: string): void {
  const bytes = Buffer.byteLength(body);
  if (bytes > MAX_FORM_BYTES) {
    throw new LocalRefusal(
      "request_too_large",
      `the encoded parameters are ${bytes} bytes, over Proxmox's 512 KiB limit for a request body; split the change into smaller requests`,
    );
  }
}
