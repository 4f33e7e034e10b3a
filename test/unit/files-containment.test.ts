import { describe, expect, test } from "bun:test";
import { isWithinRoot } from "../../src/files/containment.ts";

describe("isWithinRoot", () => {
  const cases: [string, string, boolean][] = [
    ["/srv/files", "/srv/files", true],
    ["/srv/files/a", "/srv/files", true],
    ["/srv/files/a/b/c.iso", "/srv/files", true],
    // CVE-2025-53110: a string prefix is not containment
    ["/srv/files-evil", "/srv/files", false],
    ["/srv/files-evil/a", "/srv/files", false],
    ["/srv/files2", "/srv/files", false],
    ["/srv/files2/a", "/srv/files", false],
    ["/srv/file", "/srv/files", false],
    ["/srv", "/srv/files", false],
    ["/", "/srv/files", false],
    ["/etc/passwd", "/srv/files", false],
    ["/srv/filesa/../files/x", "/srv/files", false],
    // a root given with a trailing separator behaves the same
    ["/srv/files/a", "/srv/files/", true],
    ["/srv/files-evil/a", "/srv/files/", false],
    ["/anything", "/", true],
  ];
  for (const [path, root, expected] of cases) {
    test(`${path} within ${root} -> ${expected}`, () => {
      expect(isWithinRoot(path, root, "/")).toBe(expected);
    });
  }

  test("uses the given separator", () => {
    expect(isWithinRoot("C:\\files\\a", "C:\\files", "\\")).toBe(true);
    expect(isWithinRoot("C:\\files-evil\\a", "C:\\files", "\\")).toBe(false);
  });
});
