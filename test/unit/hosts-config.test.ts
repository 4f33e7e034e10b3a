// Several hosts (PROXMOX_HOSTS): every new setting with good and bad values, the collision
// rules, the mode rules, and the per-host policy pieces.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, ConfigProblems, loadConfig, loadConnectionConfig, type Config } from "../../src/config.ts";
import {
  GLOBAL_SETTINGS,
  hostSettingNames,
  hostVariable,
  parseHostLabels,
  renameSettings,
  splitCombinedToken,
} from "../../src/hosts/labels.ts";
import { checkRuleHosts, policyForHost, protectionForHost } from "../../src/policy/hosts.ts";
import { loadPolicyConfig } from "../../src/policy/config.ts";
import type { Protection } from "../../src/policy/protected.ts";
import { parseRules } from "../../src/policy/rules.ts";

const SECRET_A = "aaaaaaaa-1111-4aaa-8aaa-aaaaaaaaaaa1";
const SECRET_B = "bbbbbbbb-2222-4bbb-8bbb-bbbbbbbbbbb2";
const BASE = {
  PROXMOX_HOSTS: "site-a,site-b",
  PROXMOX_SITE_A_URL: "https://pve-a.example.com:8006",
  PROXMOX_SITE_A_TOKEN_ID: "mcp@pve!a",
  PROXMOX_SITE_A_TOKEN_SECRET: SECRET_A,
  PROXMOX_SITE_B_URL: "https://pve-b.example.com:8006/api2/json",
  PROXMOX_SITE_B_TOKEN: `ops@pam!b=${SECRET_B}`,
};

function problems(env: Record<string, string | undefined>): ConfigError[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return [...ConfigProblems.of(error)];
    throw error;
  }
  throw new Error("expected a ConfigError");
}

function hostOf(config: Config, label: string) {
  return config.hosts.find((host) => host.label === label)!;
}

describe("PROXMOX_HOSTS", () => {
  test.each([
    ["site-a,site-b", ["site-a", "site-b"]],
    [" a , b ", ["a", "b"]],
    ["lab", ["lab"]],
    ["0day,x-1", ["0day", "x-1"]],
    ["a".repeat(32), ["a".repeat(32)]],
    [undefined, undefined],
    ["  ", undefined],
  ])("%j gives %j", (value, labels) => {
    expect(parseHostLabels(value)).toEqual(labels);
  });

  test.each([
    ["Site-A", "label 'Site-A' is not valid"],
    ["site_a", "label 'site_a' is not valid"],
    ["-a", "label '-a' is not valid"],
    ["a".repeat(33), "is not valid"],
    ["a,,b", "has an empty entry"],
    ["a,", "has an empty entry"],
    ["a,a", "label 'a' is listed twice"],
    ["token", "like the global setting PROXMOX_TOKEN_ID"],
    ["read", "like the global setting PROXMOX_READ_ONLY"],
    ["schema", "like the global setting PROXMOX_SCHEMA_URL"],
    ["ca", "like the global setting PROXMOX_CA_FILE"],
    ["allow", "like the global setting PROXMOX_ALLOW_INSECURE_HTTP"],
    ["a,a-schema", "labels 'a' and 'a-schema' would both use PROXMOX_A_SCHEMA_URL"],
  ])("refuses %j: %s", (value, why) => {
    const [error] = problems({ ...BASE, PROXMOX_HOSTS: value });
    expect(error!.variable).toBe("PROXMOX_HOSTS");
    expect(error!.message).toStartWith("PROXMOX_HOSTS: ");
    expect(error!.message).toContain(why);
  });

  test("no global setting the server reads is missing from the collision list", () => {
    const read = new Set<string>();
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (path.endsWith(".ts"))
          for (const m of readFileSync(path, "utf8").matchAll(/\bPROXMOX_[A-Z_]+[A-Z]\b/g)) read.add(m[0]);
      }
    };
    walk(join(import.meta.dir, "../../src"));
    expect([...read].filter((name) => !(GLOBAL_SETTINGS as readonly string[]).includes(name))).toEqual([]);
  });
});

describe("each host's settings", () => {
  test("both token forms, the URL forms and the defaults", () => {
    const config = loadConfig(BASE);
    expect(config.hosts.map((host) => host.label)).toEqual(["site-a", "site-b"]);
    expect(hostOf(config, "site-a")).toMatchObject({
      connection: {
        origin: "https://pve-a.example.com:8006",
        apiBase: "https://pve-a.example.com:8006/api2/json",
        tokenId: "mcp@pve!a",
        tokenSecret: SECRET_A,
        verifyTls: true,
        ca: undefined,
        timeoutMs: 120_000,
      },
      catalog: { schema: undefined },
      readOnly: false,
    });
    expect(hostOf(config, "site-b").connection).toMatchObject({
      origin: "https://pve-b.example.com:8006",
      tokenId: "ops@pam!b",
      tokenSecret: SECRET_B,
    });
  });

  const caDir = mkdtempSync(join(tmpdir(), "pve-mcp-hosts-ca-"));
  const caFile = join(caDir, "ca.pem");
  writeFileSync(caFile, "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
  const notPem = join(caDir, "not.pem");
  writeFileSync(notPem, "hello");

  // [variable, value, what site-a gets]
  const good: [string, string, (config: Config) => unknown, unknown][] = [
    [
      "PROXMOX_SITE_A_URL",
      "http://127.0.0.1:8006",
      (c) => hostOf(c, "site-a").connection.origin,
      "http://127.0.0.1:8006",
    ],
    ["PROXMOX_SITE_A_TOKEN_ID", "root@pam!x_1", (c) => hostOf(c, "site-a").connection.tokenId, "root@pam!x_1"],
    ["PROXMOX_SITE_A_TOKEN_SECRET", " 12345678 ", (c) => hostOf(c, "site-a").connection.tokenSecret, "12345678"],
    ["PROXMOX_SITE_A_CA_FILE", caFile, (c) => hostOf(c, "site-a").connection.ca, readFileSync(caFile, "utf8")],
    ["PROXMOX_SITE_A_VERIFY_TLS", "false", (c) => hostOf(c, "site-a").connection.verifyTls, false],
    ["PROXMOX_SITE_A_TIMEOUT_MS", "5000", (c) => hostOf(c, "site-a").connection.timeoutMs, 5000],
    [
      "PROXMOX_SITE_A_SCHEMA_URL",
      "/srv/apidoc.js",
      (c) => hostOf(c, "site-a").catalog.schema,
      { kind: "file", path: "/srv/apidoc.js" },
    ],
    ["PROXMOX_SITE_A_READ_ONLY", "yes", (c) => hostOf(c, "site-a").readOnly, true],
    ["PROXMOX_SITE_A_READ_ONLY", "0", (c) => hostOf(c, "site-a").readOnly, false],
  ];
  test.each(good)("%s=%j is accepted", (variable, value, read, expected) => {
    const config = loadConfig({ ...BASE, [variable]: value });
    expect(read(config)).toEqual(expected);
    // the other host is untouched
    expect(hostOf(config, "site-b").connection.origin).toBe("https://pve-b.example.com:8006");
    expect(hostOf(config, "site-b").readOnly).toBe(false);
  });

  const bad: [string, string | undefined, string][] = [
    ["PROXMOX_SITE_A_URL", undefined, "is not set"],
    ["PROXMOX_SITE_A_URL", "pve-a:8006", "must use https"],
    [
      "PROXMOX_SITE_A_URL",
      "https://root:pw@pve-a:8006",
      "put the token in PROXMOX_SITE_A_TOKEN_ID and PROXMOX_SITE_A_TOKEN_SECRET",
    ],
    ["PROXMOX_SITE_A_URL", "http://pve-a.lan:8006", "PROXMOX_ALLOW_INSECURE_HTTP"],
    ["PROXMOX_SITE_A_TOKEN_ID", "root@pam", "is malformed"],
    ["PROXMOX_SITE_A_TOKEN_SECRET", "short", "is too short"],
    ["PROXMOX_SITE_A_CA_FILE", "/nonexistent/ca.pem", "cannot read /nonexistent/ca.pem"],
    ["PROXMOX_SITE_A_CA_FILE", notPem, "holds no PEM certificate"],
    ["PROXMOX_SITE_A_VERIFY_TLS", "maybe", "expected true or false"],
    ["PROXMOX_SITE_A_TIMEOUT_MS", "0", "expected a whole number of milliseconds"],
    ["PROXMOX_SITE_A_TIMEOUT_MS", "10s", "expected a whole number of milliseconds"],
    ["PROXMOX_SITE_A_SCHEMA_URL", "http://docs.example.com/apidoc.js", "not https"],
    ["PROXMOX_SITE_A_SCHEMA_URL", "user@host/apidoc.js", "without https://"],
    ["PROXMOX_SITE_A_READ_ONLY", "sometimes", "expected true or false"],
  ];
  test.each(bad)("%s=%j is refused: %s", (variable, value, why) => {
    const found = problems({ ...BASE, [variable]: value });
    expect(found.map((p) => p.variable)).toEqual([variable]);
    expect(found[0]!.message).toStartWith(`${variable}: `);
    expect(found[0]!.message).toContain(why);
    expect(found[0]!.message).not.toContain(SECRET_A);
  });

  test("a missing token names both forms", () => {
    const found = problems({ ...BASE, PROXMOX_SITE_A_TOKEN_ID: undefined, PROXMOX_SITE_A_TOKEN_SECRET: undefined });
    expect(found.map((p) => p.variable)).toEqual(["PROXMOX_SITE_A_TOKEN_ID"]);
    expect(found[0]!.message).toContain("PROXMOX_SITE_A_TOKEN=user@realm!tokenid=secret");
  });

  test.each([
    [`ops@pam!b=${SECRET_B}`, "ops@pam!b", SECRET_B],
    [`PVEAPIToken=ops@pam!b=${SECRET_B}`, "ops@pam!b", SECRET_B],
    [` svc@ldap!read_only=${SECRET_B} `, "svc@ldap!read_only", SECRET_B],
  ])("PROXMOX_SITE_B_TOKEN=%j is accepted", (value, tokenId, tokenSecret) => {
    expect(hostOf(loadConfig({ ...BASE, PROXMOX_SITE_B_TOKEN: value }), "site-b").connection).toMatchObject({
      tokenId,
      tokenSecret,
    });
  });

  test.each([
    ["nonsense", "is malformed"],
    ["ops@pam!b=", "is malformed"],
    [`=${SECRET_B}`, "is malformed"],
    [`ops@pam=${SECRET_B}`, "is malformed; expected user@realm!tokenid"],
    ["ops@pam!b=short", "is too short"],
  ])("PROXMOX_SITE_B_TOKEN=%j is refused: %s", (value, why) => {
    const found = problems({ ...BASE, PROXMOX_SITE_B_TOKEN: value });
    expect(found.map((p) => p.variable)).toEqual(["PROXMOX_SITE_B_TOKEN"]);
    expect(found[0]!.message).toContain(why);
    expect(found[0]!.message).not.toContain(SECRET_B);
  });

  test("the combined token together with a separate one is refused", () => {
    const found = problems({ ...BASE, PROXMOX_SITE_B_TOKEN_SECRET: SECRET_B });
    expect(found.map((p) => p.variable)).toEqual(["PROXMOX_SITE_B_TOKEN"]);
    expect(found[0]!.message).toContain("together with PROXMOX_SITE_B_TOKEN_SECRET");
  });

  test("splitCombinedToken splits at the first '=' after an optional header prefix", () => {
    expect(splitCombinedToken("a@b!c=x=y")).toEqual({ tokenId: "a@b!c", tokenSecret: "x=y" });
    expect(splitCombinedToken("pveapitoken=a@b!c=s")).toEqual({ tokenId: "a@b!c", tokenSecret: "s" });
    expect(splitCombinedToken("a@b!c")).toBeUndefined();
  });

  test("read-only: global for every host, or per host", () => {
    let config = loadConfig({ ...BASE, PROXMOX_READ_ONLY: "true" });
    expect(config.hosts.map((host) => host.readOnly)).toEqual([true, true]);
    config = loadConfig({ ...BASE, PROXMOX_SITE_B_READ_ONLY: "true" });
    expect(config.hosts.map((host) => host.readOnly)).toEqual([false, true]);
    expect(hostOf(config, "site-b").settingNames.get("PROXMOX_READ_ONLY")).toBe("PROXMOX_SITE_B_READ_ONLY");
    expect(hostOf(config, "site-a").settingNames.has("PROXMOX_READ_ONLY")).toBe(false);
  });

  test("only listed labels are read: settings of other labels are ignored, even bad ones", () => {
    const config = loadConfig({ ...BASE, PROXMOX_SITE_C_URL: "ftp://nowhere", PROXMOX_SITE_C_TOKEN: "x" });
    expect(config.hosts.map((host) => host.label)).toEqual(["site-a", "site-b"]);
  });

  test("every problem of every host is its own line naming its variable", () => {
    const found = problems({
      ...BASE,
      PROXMOX_SITE_A_URL: undefined,
      PROXMOX_SITE_A_VERIFY_TLS: "maybe",
      PROXMOX_SITE_B_TOKEN: "nonsense",
      PROXMOX_VLAN_GUARD: "perhaps",
    });
    expect(found.map((p) => p.variable).sort()).toEqual(
      ["PROXMOX_SITE_A_URL", "PROXMOX_SITE_A_VERIFY_TLS", "PROXMOX_SITE_B_TOKEN", "PROXMOX_VLAN_GUARD"].sort(),
    );
    for (const problem of found) expect(problem.message).not.toContain("\n");
  });
});

describe("the two modes", () => {
  test.each([
    ["PROXMOX_URL", "https://pve:8006"],
    ["PROXMOX_TOKEN_ID", "mcp@pve!x"],
    ["PROXMOX_TOKEN_SECRET", SECRET_A],
    ["PROXMOX_CA_FILE", "/etc/ca.pem"],
    ["PROXMOX_VERIFY_TLS", "false"],
    ["PROXMOX_TIMEOUT_MS", "1000"],
    ["PROXMOX_SCHEMA_URL", "/srv/apidoc.js"],
  ])("%s together with PROXMOX_HOSTS is refused", (variable, value) => {
    const found = problems({ ...BASE, [variable]: value });
    expect(found.map((p) => p.variable)).toEqual([variable]);
    expect(found[0]!.message).toContain("is set together with PROXMOX_HOSTS");
    expect(found[0]!.message).not.toContain(SECRET_A);
  });

  test("global settings that stay global with several hosts are accepted", () => {
    const config = loadConfig({
      ...BASE,
      PROXMOX_ALLOW_INSECURE_HTTP: "true",
      PROXMOX_SITE_A_URL: "http://pve-a.lan:8006",
      PROXMOX_READ_ONLY: "false",
      PROXMOX_VLAN_GUARD: "false",
    });
    expect(hostOf(config, "site-a").connection.origin).toBe("http://pve-a.lan:8006");
    expect(config.policy.vlanGuard).toBe(false);
  });

  test("single-host settings are unchanged: one unlabelled host, labelled settings not read", () => {
    const env = {
      PROXMOX_URL: "https://pve:8006",
      PROXMOX_TOKEN_ID: "mcp@pve!t",
      PROXMOX_TOKEN_SECRET: SECRET_A,
      PROXMOX_SITE_A_URL: "not read",
    };
    const config = loadConfig(env);
    expect(config.hosts).toHaveLength(1);
    expect(config.hosts[0]!.label).toBeUndefined();
    expect(config.hosts[0]!.connection).toEqual(loadConnectionConfig(env));
    expect(config.hosts[0]!.settingNames.size).toBe(0);
  });
});

describe("host labels in rules", () => {
  test.each([
    ["site-a: DELETE /**", "site-a", "DELETE", ["**"]],
    ["site-a:DELETE /**", "site-a", "DELETE", ["**"]],
    ["b2 : * /access/**", "b2", "*", ["access", "**"]],
    ["POST /nodes/*", undefined, "POST", ["nodes", "*"]],
  ])("%j", (text, host, method, segments) => {
    const [rule] = parseRules("PROXMOX_DENY", text);
    expect(rule).toEqual({ text, method, segments, ...(host ? { host } : {}) } as never);
  });

  test.each([
    ["Site-A: DELETE /**", "is not a host label"],
    ["site_a: DELETE /**", "is not a host label"],
    ["site-a: GET /**", "rules apply to writes only"],
    ["site-a: DELETE", "is not 'METHOD /path/pattern'"],
  ])("refuses %j: %s", (text, why) => {
    expect(() => parseRules("PROXMOX_DENY", text)).toThrow(why);
  });

  test("a label not in PROXMOX_HOSTS is a startup error; without PROXMOX_HOSTS any label is", () => {
    let found = problems({ ...BASE, PROXMOX_DENY: "site-c: DELETE /**", PROXMOX_ALLOW: "site-b: POST /x, zz: PUT /y" });
    expect(found.map((p) => [p.variable, p.message.includes("not in PROXMOX_HOSTS (site-a, site-b)")])).toEqual([
      ["PROXMOX_DENY", true],
      ["PROXMOX_ALLOW", true],
    ]);
    found = problems({
      PROXMOX_URL: "https://pve:8006",
      PROXMOX_TOKEN_ID: "mcp@pve!t",
      PROXMOX_TOKEN_SECRET: SECRET_A,
      PROXMOX_DENY: "pve1: DELETE /**",
    });
    expect(found[0]!.variable).toBe("PROXMOX_DENY");
    expect(found[0]!.message).toContain("host labels need PROXMOX_HOSTS");
    expect(() => checkRuleHosts(loadPolicyConfig({ PROXMOX_DENY: "a: DELETE /x" }), ["a"])).not.toThrow();
  });

  test("each host's policy: unlabelled rules and its own; an allow list only where one applies", () => {
    const policy = loadPolicyConfig({
      PROXMOX_DENY: "DELETE /**, site-a: PUT /cluster/**, site-b: POST /access/**",
      PROXMOX_ALLOW: "site-b: POST /nodes/**",
    });
    const a = policyForHost(policy, "site-a", true);
    expect(a.readOnly).toBe(true);
    expect(a.deny.map((r) => r.text)).toEqual(["DELETE /**", "site-a: PUT /cluster/**"]);
    expect(a.allow).toBeUndefined();
    const b = policyForHost(policy, "site-b", false);
    expect(b.deny.map((r) => r.text)).toEqual(["DELETE /**", "site-b: POST /access/**"]);
    expect(b.allow?.map((r) => r.text)).toEqual(["site-b: POST /nodes/**"]);
  });

  test.each([
    ["off", "off"],
    ["on", "auto"],
    ["", "auto"],
  ])("PROXMOX_DOCS=%j applies to every host as %s", (value, kind) => {
    const hosts = loadConfig({ ...BASE, PROXMOX_DOCS: value }).hosts;
    expect(hosts.map((h) => h.catalog.docs?.kind as string | undefined)).toEqual([kind, kind]);
  });

  test("PROXMOX_DOCS with several hosts takes on or off, not one place for every host's docs", () => {
    const found = problems({ ...BASE, PROXMOX_DOCS: "/srv/pve-docs" });
    expect(found.map((p) => p.variable)).toEqual(["PROXMOX_DOCS"]);
    expect(found[0]!.message).toContain("takes only on or off");
  });

  test("PROXMOX_CONFIRM rules take a host label too, and an unknown one is a startup error", () => {
    const policy = loadPolicyConfig({ PROXMOX_CONFIRM: "DELETE /**, site-a: POST /nodes/*/qemu/*/status/stop" });
    expect(policyForHost(policy, "site-a", false).confirm.map((r) => r.text)).toEqual([
      "DELETE /**",
      "site-a: POST /nodes/*/qemu/*/status/stop",
    ]);
    expect(policyForHost(policy, "site-b", false).confirm.map((r) => r.text)).toEqual(["DELETE /**"]);
    const found = problems({ ...BASE, PROXMOX_CONFIRM: "site-c: DELETE /**" });
    expect(found.map((p) => p.variable)).toEqual(["PROXMOX_CONFIRM"]);
  });
});

describe("protected guests per host", () => {
  const ok: Protection = {
    status: "ok",
    file: "/p.json",
    guests: [
      { vmid: 100, name: "a", reason: "r", host: "site-a" },
      { vmid: 101, name: "b", reason: "r", host: "site-b" },
      { vmid: 105, name: "all", reason: "r" },
    ],
  };
  test.each([
    ["site-a", [100, 105]],
    ["site-b", [101, 105]],
  ])("on %s: %j", (label, vmids) => {
    const got = protectionForHost(ok, label, ["site-a", "site-b"]);
    expect(got.status === "ok" ? got.guests.map((g) => g.vmid) : got).toEqual(vmids);
  });
  test("single-host mode: host is a free label and every entry applies", () => {
    expect(protectionForHost(ok, undefined, undefined)).toBe(ok);
  });
  test("an unknown label makes the file unusable for every host", () => {
    for (const label of ["site-a", "site-b"]) {
      const got = protectionForHost(ok, label, ["site-a", "site-c"]);
      expect(got).toMatchObject({ status: "broken", file: "/p.json" });
      expect(got.status === "broken" && got.problem).toContain("vmid 101 names host 'site-b'");
    }
  });
  test("a broken file stays broken; no file stays none", () => {
    const broken: Protection = { status: "broken", file: "/p.json", problem: "x" };
    expect(protectionForHost(broken, "site-a", ["site-a"])).toBe(broken);
    expect(protectionForHost({ status: "none" }, "site-a", ["site-a"])).toEqual({ status: "none" });
  });
});

describe("messages name the host's own settings", () => {
  test("renameSettings replaces whole names once", () => {
    const names = hostSettingNames("site-a", true);
    expect(
      renameSettings(
        "Set PROXMOX_CA_FILE, PROXMOX_URL and PROXMOX_READ_ONLY; PROXMOX_ALLOW_INSECURE_HTTP stays; PROXMOX_URLS is another word",
        names,
      ),
    ).toBe(
      "Set PROXMOX_SITE_A_CA_FILE, PROXMOX_SITE_A_URL and PROXMOX_SITE_A_READ_ONLY; PROXMOX_ALLOW_INSECURE_HTTP stays; PROXMOX_URLS is another word",
    );
    expect(hostVariable("a-b-c", "TOKEN")).toBe("PROXMOX_A_B_C_TOKEN");
  });
});
