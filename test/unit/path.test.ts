import { describe, expect, test } from "bun:test";
import { LocalRefusal } from "../../src/proxmox/errors.ts";
import { encodeSegment, pathSegments, serverView, validateApiPath, writtenSegments } from "../../src/proxmox/path.ts";

describe("validateApiPath accepts", () => {
  test.each([
    ["/", "/"],
    ["/version", "/version"],
    ["/nodes/pve1/qemu/100/status/current", "/nodes/pve1/qemu/100/status/current"],
    [
      "/nodes/pve/storage/local/content/local%3Aiso%2Fdebian.iso",
      "/nodes/pve/storage/local/content/local%3Aiso%2Fdebian.iso",
    ],
    [
      "/nodes/pve/storage/local/content/local:iso%2Fdebian.iso",
      "/nodes/pve/storage/local/content/local:iso%2Fdebian.iso",
    ],
    ["/cluster/ha/resources/vm:100", "/cluster/ha/resources/vm:100"],
    ["/access/users/mcp@pve", "/access/users/mcp@pve"],
    ["/nodes/pve/qemu/100/snapshot/before upgrade", "/nodes/pve/qemu/100/snapshot/before%20upgrade"],
    ["/nodes/pvé", "/nodes/pv%C3%A9"],
    [
      "/nodes/pve/tasks/UPID:pve:00010D94:001CA6EA:6124E1B9:vzdump:100:root@pam:/status",
      "/nodes/pve/tasks/UPID:pve:00010D94:001CA6EA:6124E1B9:vzdump:100:root@pam:/status",
    ],
    ["/a.b/..c", "/a.b/..c"],
  ])("%s", (input, expected) => {
    expect(validateApiPath(input)).toBe(expected);
  });
});

describe("validateApiPath refuses", () => {
  test.each([
    ["", "empty"],
    ["nodes", "must start with /"],
    ["//nodes", "empty segment"],
    ["/nodes//pve", "empty segment"],
    ["/api2/json/nodes", "relative to /api2/json"],
    ["/API2/json/nodes", "relative to /api2/json"],
    ["/api2", "relative to /api2/json"],
    ["/nodes?x=1", "'?'"],
    ["/nodes#frag", "'#'"],
    ["/nodes\\pve", "backslash"],
    ["/nodes/pve\n", "control"],
    ["/nodes/\x00", "control"],
    ["/nodes/pve\x7f", "control"],
    ["/nodes/./pve", "'.' and '..'"],
    ["/nodes/../access", "'.' and '..'"],
    ["/nodes/..", "'.' and '..'"],
    ["/nodes/%2e%2e/access", "'.' and '..'"],
    ["/nodes/%2E/access", "'.' and '..'"],
    ["/nodes/.%2e/access", "'.' and '..'"],
    ["/nodes/%252e%252e", "encoded twice"],
    ["/nodes/local%253Aiso", "encoded twice"],
    ["/nodes/%zz", "invalid percent escape"],
    ["/nodes/%0a", "encoded control"],
    ["/nodes/a%5Cb", "encoded backslash"],
  ])("%j (%s)", (input, why) => {
    let error: unknown;
    try {
      validateApiPath(input);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LocalRefusal);
    expect((error as LocalRefusal).code).toBe("invalid_path");
    expect((error as LocalRefusal).message).toContain(why);
  });
});

describe("encodeSegment", () => {
  test.each([
    ["UPID:pve:0001:0002:6124E1B9:vzdump:100:root@pam!tok:", "UPID:pve:0001:0002:6124E1B9:vzdump:100:root@pam!tok:"],
    ["local:iso/debian.iso", "local:iso%2Fdebian.iso"],
    ["before upgrade", "before%20upgrade"],
    ["é", "%C3%A9"],
  ])("%s -> %s", (value, expected) => {
    expect(encodeSegment(value)).toBe(expected);
    expect(validateApiPath(`/x/${encodeSegment(value)}`)).toBe(`/x/${expected}`);
  });
});

describe("serverView: the path as Proxmox routes it", () => {
  test.each([
    ["/nodes/pve/qemu/100/status/stop", "/nodes/pve/qemu/100/status/stop"],
    ["/nodes/pve/qemu%2F100/status/stop", "/nodes/pve/qemu/100/status/stop"],
    ["/nodes/pve1%2Fexecute", "/nodes/pve1/execute"],
    [
      "/nodes/pve/storage/local/content/local%3Aiso%2Fdebian.iso",
      "/nodes/pve/storage/local/content/local:iso/debian.iso",
    ],
  ])("%s -> %s", (path, expected) => {
    expect(serverView(validateApiPath(path))).toBe(expected);
  });
  test.each([["/nodes/a/x%2F..%2Fy"], ["/nodes/a/%2E%2E%2Fy"], ["/nodes/a/x%2F."]])(
    "an encoded '/' cannot smuggle a dot segment: %s",
    (path) => {
      expect(() => validateApiPath(path)).toThrow("'.' and '..'");
    },
  );
});

describe("pathSegments: the segments as PVE::RESTHandler routes them", () => {
  test.each([
    ["/nodes/pve/qemu/100/status/stop", ["nodes", "pve", "qemu", "100", "status", "stop"]],
    [
      "/nodes/pve/storage/pbs/content/pbs:backup/vm/100/2025-01-01T00:00:00Z",
      ["nodes", "pve", "storage", "pbs", "content", "pbs:backup/vm/100/2025-01-01T00:00:00Z"],
    ],
    [
      "/nodes/pve/storage/local/content/local:iso%2Fa.iso",
      ["nodes", "pve", "storage", "local", "content", "local:iso/a.iso"],
    ],
    [
      "/nodes/pve/storage/local/content/local%3A100/vm-100-disk-0.qcow2/",
      ["nodes", "pve", "storage", "local", "content", "local:100/vm-100-disk-0.qcow2"],
    ],
    ["/nodes/pve/storage/local/content", ["nodes", "pve", "storage", "local", "content"]],
    ["/nodes/pve/storage/local/prunebackups", ["nodes", "pve", "storage", "local", "prunebackups"]],
    ["/nodes/pve/storage/local/file-restore/list", ["nodes", "pve", "storage", "local", "file-restore", "list"]],
    ["/cluster/storage/local/content/a/b", ["cluster", "storage", "local", "content", "a", "b"]],
  ])("%s", (path, expected) => {
    expect(pathSegments(path)).toEqual(expected);
  });

  test("writtenSegments keeps every '/' written as a separator", () => {
    expect(writtenSegments("/nodes/pve/storage/local/content/local:iso/a.iso")).toEqual([
      "nodes",
      "pve",
      "storage",
      "local",
      "content",
      "local:iso",
      "a.iso",
    ]);
  });
});
