import { LocalRefusal } from "./errors.ts";

const PCHAR = /[A-Za-z0-9\-._~!$&'()*+,;=:@%]/;

/** One path segment from a raw value: everything outside RFC 3986 pchar (and '%') is escaped. */
export function encodeSegment(value: string): string {
  return value.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@]/gu, (c) => encodeURIComponent(c));
}

function refuse(path: string, why: string): never {
  throw new LocalRefusal(
    "invalid_path",
    `path ${JSON.stringify(path)} refused: ${why}. Give a path relative to /api2/json that starts with "/", e.g. /nodes/pve/qemu/100/status/current.`,
  );
}

/**
 * Validates a path relative to /api2/json and returns it ready for the URL. Characters
 * outside RFC 3986 pchar (spaces, non-ASCII) are percent-encoded; existing escapes such as
 * %2F inside a volume id are kept exactly as given.
 */
export function validateApiPath(path: string): string {
  if (typeof path !== "string" || path.length === 0) refuse(String(path), "it is empty");
  if (!path.startsWith("/")) refuse(path, "it must start with /");
  if (/[\x00-\x1f\x7f]/.test(path)) refuse(path, "it contains control characters");
  if (path.includes("\\")) refuse(path, "it contains a backslash");
  if (path.includes("?")) refuse(path, "it contains '?'; pass query values in parameters instead");
  if (path.includes("#")) refuse(path, "it contains '#'");
  if (path.includes("//")) refuse(path, "it contains an empty segment (//)");
  if (/^\/api2(\/|$)/i.test(path)) refuse(path, "it must be relative to /api2/json, without that prefix");

  const segments = path.split("/").slice(1);
  for (const segment of segments) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      refuse(path, `segment ${JSON.stringify(segment)} has an invalid percent escape`);
    }
    if (decoded === "." || decoded === "..") refuse(path, "'.' and '..' segments are not allowed");
    if (decoded.includes("%")) refuse(path, `segment ${JSON.stringify(segment)} is encoded twice`);
    if (/[\x00-\x1f\x7f]/.test(decoded)) refuse(path, "it contains encoded control characters");
    if (decoded.includes("\\")) refuse(path, "it contains an encoded backslash");
  }
  let out = "";
  for (const char of path) {
    out += char === "/" || PCHAR.test(char) ? char : encodeURIComponent(char);
  }
  return out;
}
