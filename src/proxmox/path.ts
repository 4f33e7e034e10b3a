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
    // the server decodes the whole path before it splits it, so an encoded '/' separates too
    if (decoded.split("/").some((part) => part === "." || part === "..")) {
      refuse(path, "'.' and '..' segments are not allowed");
    }
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

/** decodeURIComponent, or the text unchanged when it is not validly encoded. */
export function decodeOrKeep(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The segments of a path as written, each decoded: an encoded '/' stays inside its segment. */
export function writtenSegments(path: string): string[] {
  return path
    .split("/")
    .filter((segment) => segment.length > 0)
    .map(decodeOrKeep);
}

/**
 * Mount points whose subclass PVE::RESTHandler registers with fragmentDelimiter '': its
 * map_path_to_methods joins every segment after them into one, so nothing below them is a
 * separate segment. pve-storage mounts PVE::API2::Storage::Content so at {storage}/content
 * (PVE::API2::Storage::Status), because volume ids contain '/'. undefined is any value.
 */
const WHOLE_TAIL_MOUNTS: readonly (readonly (string | undefined)[])[] = [
  ["nodes", undefined, "storage", undefined, "content"],
];

/**
 * The segments of a path as Proxmox routes them, each decoded: after /nodes/{node}/storage/
 * {storage}/content the rest is one segment, the volume id, however its '/' are written
 * (/content/local:iso/a.iso and /content/local%3Aiso%2Fa.iso both end in "local:iso/a.iso").
 */
export function pathSegments(path: string): string[] {
  const segments = writtenSegments(path);
  for (const mount of WHOLE_TAIL_MOUNTS) {
    if (segments.length > mount.length + 1 && mount.every((part, i) => part === undefined || part === segments[i])) {
      return [...segments.slice(0, mount.length), segments.slice(mount.length).join("/")];
    }
  }
  return segments;
}

/** The node named by a /nodes/{node}/... path. */
export function nodeOfPath(path: string): string | undefined {
  const segments = pathSegments(path);
  return segments[0] === "nodes" && segments[1] ? segments[1] : undefined;
}

/** True when a path carries an encoded '/', which Proxmox treats as a separator when routing. */
export function hasEncodedSlash(path: string): boolean {
  return /%2f/i.test(path);
}

/**
 * A validated path as pve-http-server routes it: decoded whole, split on '/', each segment
 * re-encoded. `/nodes/pve/qemu%2F100/status/stop` becomes `/nodes/pve/qemu/100/status/stop`.
 */
export function serverView(path: string): string {
  const segments = decodeURIComponent(path)
    .split("/")
    .filter((segment) => segment.length > 0);
  return `/${segments.map(encodeSegment).join("/")}`;
}
