import { sep as platformSep } from "node:path";

/**
 * True when `path` is `root` itself or lies below it. Both must already be real, normalized
 * absolute paths. The separator is part of the test, so /srv/files does not admit
 * /srv/files-evil or /srv/files2 (CVE-2025-53110).
 */
export function isWithinRoot(path: string, root: string, sep: string = platformSep): boolean {
  if (path === root) return true;
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}
