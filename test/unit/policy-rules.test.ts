import { describe, expect, test } from "bun:test";
import { ConfigError } from "../../src/config.ts";
import { loadPolicyConfig } from "../../src/policy/config.ts";
import { pathSegments } from "../../src/proxmox/path.ts";
import { firstMatch, parseRules, ruleMatches } from "../../src/policy/rules.ts";

describe("parseRules", () => {
  test("commas and newlines separate rules; blanks and # lines are skipped", () => {
    const rules = parseRules("PROXMOX_DENY", "DELETE /nodes/**, post /cluster/ha/*\n\n# a comment\n* /access/**\n");
    expect(rules.map((r) => [r.method, r.segments])).toEqual([
      ["DELETE", ["nodes", "**"]],
      ["POST", ["cluster", "ha", "*"]],
      ["*", ["access", "**"]],
    ]);
    expect(rules[1]!.text).toBe("post /cluster/ha/*");
  });

  test("unset or blank gives no rules", () => {
    expect(parseRules("PROXMOX_DENY", undefined)).toEqual([]);
    expect(parseRules("PROXMOX_DENY", "  \n ")).toEqual([]);
  });

  test("literal segments are stored decoded; a trailing slash is ignored", () => {
    expect(parseRules("PROXMOX_ALLOW", "PUT /cluster/ha/resources/vm%3A100/")[0]!.segments).toEqual([
      "cluster",
      "ha",
      "resources",
      "vm:100",
    ]);
  });

  const invalid: [string, RegExp][] = [
    ["DELETE", /not 'METHOD \/path\/pattern'/],
    ["DELETE /a /b", /not 'METHOD \/path\/pattern'/],
    ["GET /nodes/**", /rules apply to writes only/],
    ["PATCH /nodes", /expected POST, PUT, DELETE or \*/],
    ["POST nodes/*", /must start with '\/'/],
    ["POST /nodes//qemu", /empty path segment/],
    ["POST /nodes/pve*/qemu", /whole path segment/],
    ["POST /nodes/?x=1", /must not contain/],
    ["POST /api2/json/nodes", /relative to \/api2\/json/],
    ["POST /nodes/../access", /invalid path segment/],
    ["POST /nodes/%zz", /invalid path segment/],
  ];
  test.each(invalid)("%p is a ConfigError naming the variable", (rule, message) => {
    let error: unknown;
    try {
      parseRules("PROXMOX_DENY", `POST /ok, ${rule}`);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe("PROXMOX_DENY");
    expect((error as Error).message).toMatch(message);
  });

  test("loadPolicyConfig reports invalid rules in PROXMOX_ALLOW at startup", () => {
    expect(() => loadPolicyConfig({ PROXMOX_ALLOW: "GET /version" })).toThrow(/PROXMOX_ALLOW: rule 'GET \/version'/);
  });
});

describe("ruleMatches", () => {
  const cases: [string, string, string, boolean][] = [
    ["POST /nodes/*/qemu/*/status/start", "POST", "/nodes/pve1/qemu/100/status/start", true],
    ["POST /nodes/*/qemu/*/status/start", "PUT", "/nodes/pve1/qemu/100/status/start", false],
    ["POST /nodes/*/qemu/*/status/start", "POST", "/nodes/pve1/qemu/100/status/stop", false],
    ["POST /nodes/*/qemu/*/status/start", "POST", "/nodes/pve1/qemu/status/start", false],
    ["* /nodes/*/qemu/*/status/start", "DELETE", "/nodes/pve1/qemu/100/status/start", true],
    ["DELETE /nodes/**", "DELETE", "/nodes/pve1/qemu/100", true],
    ["DELETE /nodes/**", "DELETE", "/nodes", true],
    ["DELETE /nodes/**", "DELETE", "/cluster/nodes", false],
    ["* /**", "POST", "/", true],
    ["* /**", "PUT", "/cluster/options", true],
    ["POST /nodes/**/status/*", "POST", "/nodes/pve1/lxc/101/status/stop", true],
    ["POST /nodes/**/status/*", "POST", "/nodes/pve1/status", false],
    ["POST /nodes/**/**/snapshot", "POST", "/nodes/pve1/qemu/100/snapshot", true],
    ["PUT /cluster/ha/resources/vm:100", "PUT", "/cluster/ha/resources/vm%3A100", true],
    [
      "DELETE /nodes/*/storage/*/content/*",
      "DELETE",
      "/nodes/pve1/storage/local/content/local%3A100%2Fvm-100-disk-0.qcow2",
      true,
    ],
    ["POST /nodes/PVE1/**", "POST", "/nodes/pve1/qemu", false],
    ["POST /nodes/*/qemu/*/status/stop", "POST", "/nodes/pve1/qemu/100/status/st%6Fp", true],
    ["POST /nodes/pve1", "POST", "/nodes/pve1/", true],
  ];
  test.each(cases)("%p with %s %s -> %p", (rule, method, path, expected) => {
    expect(ruleMatches(parseRules("PROXMOX_DENY", rule)[0]!, method, path)).toBe(expected);
  });

  test.each([
    ["DELETE /nodes/*/storage/*/content/*", "/nodes/pve1/storage/local/content/local:iso/a.iso", true],
    ["DELETE /nodes/*/storage/*/content/local:iso%2Fa.iso", "/nodes/pve1/storage/local/content/local:iso/a.iso", true],
    ["DELETE /nodes/*/storage/*/content/local:iso/*", "/nodes/pve1/storage/local/content/local:iso/a.iso", true],
    ["DELETE /nodes/*/storage/*/content/local:iso/*", "/nodes/pve1/storage/local/content/local%3Aiso%2Fa.iso", false],
    ["DELETE /nodes/*/storage/*/content/*/*", "/nodes/pve1/storage/local/content/local%3Aiso%2Fa.iso", false],
  ])(
    "a volume id is one segment, as Proxmox routes it, or its parts as written: %p with %s -> %p",
    (rule, path, expected) => {
      expect(ruleMatches(parseRules("PROXMOX_DENY", rule)[0]!, "DELETE", path)).toBe(expected);
    },
  );

  test.each([
    ["* /nodes/pve1/**", "/nodes/localhost/qemu/101/status/stop", true, false],
    ["* /nodes/localhost/**", "/nodes/pve1/qemu/101/status/stop", true, false],
    ["* /nodes/pve1/**", "/nodes/pve2/qemu/101/status/stop", false, false],
    ["* /nodes/*/qemu/localhost/**", "/nodes/pve1/qemu/101/status/stop", false, false],
    ["* /cluster/ha/resources/vm:101", "/cluster/ha/resources/101", true, false],
    ["* /cluster/ha/resources/101", "/cluster/ha/resources/ct%3A101", true, false],
    ["* /cluster/ha/resources/vm:101/migrate", "/cluster/ha/resources/101/migrate", true, false],
    ["* /cluster/ha/resources/vm:101", "/cluster/ha/resources/vm:1010", false, false],
    ["* /cluster/ha/resources/vm:101", "/cluster/ha/resources/fence:101", false, false],
    ["* /cluster/ha/groups/vm:101", "/cluster/ha/groups/101", false, false],
  ])(
    "another spelling of the same node or HA resource: %p with %s -> refusing %p, admitting %p",
    (text, path, refusing, admitting) => {
      const rule = parseRules("PROXMOX_DENY", text)[0]!;
      expect(ruleMatches(rule, "POST", path, true)).toBe(refusing);
      expect(ruleMatches(rule, "POST", path)).toBe(admitting);
      expect(firstMatch([rule], "POST", path, true) !== undefined).toBe(refusing);
    },
  );

  test("firstMatch returns the first rule that matches", () => {
    const rules = parseRules("PROXMOX_DENY", "PUT /a/**, POST /a/*, * /a/b");
    expect(firstMatch(rules, "POST", "/a/b")?.text).toBe("POST /a/*");
    expect(firstMatch(rules, "DELETE", "/a/c")).toBeUndefined();
  });

  test("pathSegments decodes each segment without splitting on encoded slashes", () => {
    expect(pathSegments("/nodes/pve1/storage/local/content/local%3Aiso%2Fa.iso")).toEqual([
      "nodes",
      "pve1",
      "storage",
      "local",
      "content",
      "local:iso/a.iso",
    ]);
    expect(pathSegments("/")).toEqual([]);
  });
});
