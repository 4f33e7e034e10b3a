// The pieces several hosts are built from: the registry, a redactor for every token, one
// parse per distinct schema, the audit line's host, and gathering every configuration problem.
import { describe, expect, test } from "bun:test";
import { Catalog } from "../../src/catalog/catalog.ts";
import { CatalogCache } from "../../src/catalog/shared.ts";
import { HostRegistry, type Host } from "../../src/hosts/registry.ts";
import { serverInstructions, SERVER_INSTRUCTIONS } from "../../src/instructions.ts";
import { auditLine } from "../../src/policy/audit.ts";
import type { ProxmoxClient } from "../../src/proxmox/client.ts";
import { createTokensRedactor } from "../../src/proxmox/redact.ts";
import { collectProblems, ConfigError, ConfigProblems } from "../../src/settings.ts";
import { apidata, MINI_API } from "../support/catalog.ts";

function host(label: string | undefined, readOnly = false): Host {
  return {
    label,
    client: { origin: `https://${label ?? "pve"}:8006` } as ProxmoxClient,
    catalog: undefined,
    readOnly,
    settingNames: new Map(),
    close: async () => {},
  };
}
const same = (text: string) => text;

describe("HostRegistry", () => {
  test("resolve: the named host; an unknown or missing label lists the labels", () => {
    const registry = new HostRegistry([host("site-a"), host("site-b", true)], same);
    expect(registry.multi).toBe(true);
    expect(registry.resolve("site-b").label).toBe("site-b");
    for (const label of ["site-c", undefined, "SITE-A"]) {
      expect(() => registry.resolve(label)).toThrow("host must be one of site-a, site-b.");
    }
    expect(registry.labels).toEqual(["site-a", "site-b"]);
    expect(registry.writableLabels).toEqual(["site-a"]);
    expect(registry.anyWritable).toBe(true);
    expect(registry.describe()).toBe("https://site-a:8006 (site-a), https://site-b:8006 (site-b)");
  });

  test("single-host mode: one unlabelled host, whatever label a call carries", () => {
    const registry = new HostRegistry([host(undefined, true)], same);
    expect(registry.multi).toBe(false);
    expect(registry.resolve(undefined).label).toBeUndefined();
    expect(registry.resolve("anything").label).toBeUndefined();
    expect(registry.labels).toEqual([]);
    expect(registry.anyWritable).toBe(false);
    expect(registry.describe()).toBe("https://pve:8006");
  });

  test.each([
    ["no host", []],
    ["two unlabelled hosts", [host(undefined), host(undefined)]],
    ["labelled and unlabelled", [host("a"), host(undefined)]],
    ["a label twice", [host("a"), host("a")]],
  ])("refuses %s", (_what, hosts) => {
    expect(() => new HostRegistry(hosts, same)).toThrow();
  });
});

describe("instructions", () => {
  test("several hosts: the labels, read-only ones and known versions, then the usual guidance", () => {
    const text = serverInstructions({
      hosts: [
        { label: "site-a", readOnly: false, version: "8.4.1" },
        { label: "site-b", readOnly: true },
        { label: "lab", readOnly: false },
      ],
    });
    expect(text).toContain(": site-a (Proxmox VE 8.4.1), site-b (read-only), lab.");
    expect(text).toEndWith(SERVER_INSTRUCTIONS.slice(SERVER_INSTRUCTIONS.indexOf("How to work:")));
  });
});

test("createTokensRedactor removes every form of every token; the longest form wins", () => {
  const redact = createTokensRedactor([
    { tokenId: "a@pve!one", tokenSecret: "secret-one-1234" },
    { tokenId: "b@pam!two", tokenSecret: "secret-two-5678" },
  ]);
  expect(
    redact("PVEAPIToken=b@pam!two=secret-two-5678 a@pve!one=secret-one-1234 secret-two-5678 b%40pam%21two a@pve!one"),
  ).toBe("PVEAPIToken=[redacted] [redacted token] [redacted secret] [redacted token id] [redacted token id]");
});

describe("CatalogCache", () => {
  const text = apidata(MINI_API);
  test("identical bytes are parsed once; each caller gets its own source", () => {
    const cache = new CatalogCache();
    const a = cache.parse(text, { kind: "cluster", location: "https://a/apidoc.js" });
    const b = cache.parse(text, { kind: "cluster", location: "https://b/apidoc.js" });
    expect(cache.size).toBe(1);
    expect(b.endpoints).toBe(a.endpoints);
    expect(b.source.location).toBe("https://b/apidoc.js");
    expect(a.source.location).toBe("https://a/apidoc.js");
    expect(b.describe("/nodes").found).toBe(true);
    expect(b.search("list virtual machines").hits.length).toBeGreaterThan(0);
    expect(b).toBeInstanceOf(Catalog);
  });
  test("different bytes are parsed separately; the same source gives the same object", () => {
    const cache = new CatalogCache();
    const a = cache.parse(text, { kind: "cluster", location: "x" });
    const c = cache.parse(apidata(MINI_API.slice(0, 1)), { kind: "cluster", location: "x" });
    expect(cache.size).toBe(2);
    expect(c.endpoints).not.toBe(a.endpoints);
    expect(cache.parse(text, { kind: "cluster", location: "x" })).toBe(a);
  });
});

test("an audit line names its host first when it has one, and not at all when it has none", () => {
  const intent = {
    tool: "proxmox_request",
    method: "POST" as const,
    path: "/nodes/a/qemu/100/status/stop",
    params: {},
  };
  const time = new Date("2025-01-01T00:00:00Z");
  expect(Object.keys(JSON.parse(auditLine(intent, { status: 200 }, time, same, "site-a")))).toEqual([
    "time",
    "host",
    "tool",
    "method",
    "path",
    "params",
    "outcome",
  ]);
  expect(JSON.parse(auditLine(intent, { status: 200 }, time, same))).not.toHaveProperty("host");
});

function thrown(fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("collectProblems", () => {
  test("one ConfigError alone is thrown as it is", () => {
    const one = new ConfigError("A", "bad");
    const fails = () => {
      throw one;
    };
    expect(thrown(() => collectProblems([() => {}, fails]))).toBe(one);
  });
  test("several are gathered, nested ones flattened, one line each", () => {
    const caught = thrown(() =>
      collectProblems([
        () => {
          throw new ConfigProblems([new ConfigError("A", "x"), new ConfigError("B", "y")]);
        },
        () => {},
        () => {
          throw new ConfigError("C", "z");
        },
      ]),
    );
    expect(caught).toBeInstanceOf(ConfigProblems);
    expect(ConfigProblems.of(caught as ConfigError).map((p) => p.message)).toEqual(["A: x", "B: y", "C: z"]);
    expect((caught as Error).message).toBe("A: x\nB: y\nC: z");
  });
  test("other errors pass through at once", () => {
    const bug = () => {
      throw new TypeError("bug");
    };
    expect(thrown(() => collectProblems([bug]))).toBeInstanceOf(TypeError);
  });
});
