// ACL paths as pve-access-control reads them (pure). PUT /access/acl normalises `path` with
// PVE::AccessControl::normalize_path (src/PVE/AccessControl.pm) before it finds the ACL tree
// node, and only then checks it with check_path (skipped when `delete` is set).

/**
 * PVE::AccessControl::normalize_path: undefined for an empty value; runs of '/' collapsed, one
 * trailing '/' removed, a missing leading '/' added; undefined when anything but letters,
 * digits, '.', '-', '_' and '/' remains. "//vms/100", "vms//100/" and "/vms/100/" are /vms/100.
 */
export function normalizeAclPath(path: string): string | undefined {
  if (path === "" || path === "0") return undefined; // Perl's !$path
  let out = path.replace(/\/+/g, "/").replace(/\/$/, "");
  if (out === "") out = "/";
  if (!out.startsWith("/")) out = `/${out}`;
  return /^[\p{L}\p{N}._\/-]+$/u.test(out) ? out : undefined;
}

export type AclReach =
  /** The ACL is on one guest (/vms/<id>, or below it). */
  | { kind: "guest"; vmid: number }
  /** The ACL reaches every guest: / or /vms, propagated. */
  | { kind: "all"; what: string }
  /** The ACL reaches the members of a pool, which are not known locally. */
  | { kind: "pool"; pool: string }
  /** The path is not one Proxmox would accept, so what it reaches cannot be told. */
  | { kind: "unreadable" }
  | { kind: "none" };

/**
 * Which guests an ACL change on `path` reaches. /vms/0100 counts as /vms/100 (Proxmox keys the
 * tree by the text, so it would be another node; counting it fails closed).
 */
export function aclReach(path: string, propagate: boolean): AclReach {
  const normal = normalizeAclPath(path);
  if (normal === undefined) return { kind: "unreadable" };
  const [first, second] = normal.split("/").slice(1);
  if (first === "vms" && second !== undefined) {
    return /^\d+$/.test(second) ? { kind: "guest", vmid: Number(second) } : { kind: "unreadable" };
  }
  if (first === "pool" && second !== undefined) return { kind: "pool", pool: normal.slice("/pool/".length) };
  if (propagate && (normal === "/" || normal === "/vms")) {
    return { kind: "all", what: `the ACL on ${normal}, which propagates to every guest` };
  }
  return { kind: "none" };
}
