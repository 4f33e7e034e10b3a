// ACL paths as PVE::AccessControl::normalize_path (pve-access-control) reads them.
import { describe, expect, test } from "bun:test";
import { aclReach, normalizeAclPath } from "../../src/policy/acl.ts";
import { guestsTouched } from "../../src/policy/guests.ts";

describe("normalizeAclPath follows PVE::AccessControl::normalize_path", () => {
  test.each([
    ["/vms/100", "/vms/100"],
    ["//vms/100", "/vms/100"],
    ["/vms//100", "/vms/100"],
    ["/vms/100/", "/vms/100"],
    ["/vms/100//", "/vms/100"],
    ["vms/100", "/vms/100"],
    ["/vms/0100", "/vms/0100"],
    ["/", "/"],
    ["//", "/"],
    ["/pool/prod", "/pool/prod"],
    ["", undefined],
    ["0", undefined],
    ["/vms/100\u0000", undefined],
    ["/vms/ 100", undefined],
    ["/vms/100?x", undefined],
  ] as [string, string | undefined][])("%j -> %j", (path, expected) => {
    expect(normalizeAclPath(path)).toBe(expected);
  });
});

describe("aclReach", () => {
  test.each([
    ["/vms/100", true, { kind: "guest", vmid: 100 }],
    ["//vms/100", true, { kind: "guest", vmid: 100 }],
    ["/vms//100", true, { kind: "guest", vmid: 100 }],
    ["/vms/100/", false, { kind: "guest", vmid: 100 }],
    ["/vms/0100", true, { kind: "guest", vmid: 100 }],
    ["vms/100", true, { kind: "guest", vmid: 100 }],
    ["/vms/abc", true, { kind: "unreadable" }],
    ["/vms/\u0661\u0660\u0660", true, { kind: "unreadable" }],
    ["/vms/100 ", true, { kind: "unreadable" }],
    ["/vms", true, { kind: "all", what: "the ACL on /vms, which propagates to every guest" }],
    ["/vms/", true, { kind: "all", what: "the ACL on /vms, which propagates to every guest" }],
    ["/", true, { kind: "all", what: "the ACL on /, which propagates to every guest" }],
    ["/vms", false, { kind: "none" }],
    ["/", false, { kind: "none" }],
    ["/pool/prod", false, { kind: "pool", pool: "prod" }],
    ["//pool/prod/sub/", true, { kind: "pool", pool: "prod/sub" }],
    ["/storage/local", true, { kind: "none" }],
    ["/nodes/pve1", true, { kind: "none" }],
    ["/pool", true, { kind: "none" }],
  ] as [string, boolean, unknown][])("%j (propagate %p) -> %j", (path, propagate, expected) => {
    expect(aclReach(path, propagate)).toEqual(expected as ReturnType<typeof aclReach>);
  });
});

describe("PUT /access/acl through guestsTouched", () => {
  const touches = (params: Record<string, string | number>) =>
    guestsTouched("/access/acl", { roles: "PVEVMAdmin", users: "eve@pve", ...params }, "PUT");
  test.each(["//vms/100", "/vms//100", "/vms/100/", "/vms/0100", "vms/100"])("path %j touches guest 100", (path) => {
    expect(touches({ path }).guests.map((g) => g.vmid)).toEqual([100]);
  });
  test("an unreadable guest path is reported, not ignored", () => {
    expect(touches({ path: "/vms/1OO" }).unreadable).toEqual([{ where: "parameter path", value: "/vms/1OO" }]);
  });
  test("/, /vms and pools reach guests that are not named", () => {
    expect(touches({ path: "/" }).all?.action).toBe("the ACL on /, which propagates to every guest");
    expect(touches({ path: "//vms/", propagate: 1 }).all?.action).toBe(
      "the ACL on /vms, which propagates to every guest",
    );
    expect(touches({ path: "/vms", propagate: 0 }).all).toBeUndefined();
    expect(touches({ path: "/pool/prod", delete: 1 }).all?.action).toBe(
      "the ACL on pool prod, whose guests cannot be checked locally",
    );
    expect(touches({ path: "/storage/local" }).all).toBeUndefined();
  });
});
