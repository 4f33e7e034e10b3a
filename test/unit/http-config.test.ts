import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { hostAllowed, originAllowed, parseAllowedHosts, parseHostPort } from "../../src/transport/hosts.ts";
import { isLoopbackAddress, loadHttpConfig, parseListen, transportMode } from "../../src/transport/http-config.ts";
import { parseArguments } from "../../src/arguments.ts";
import { sharedTestPki } from "../fake/certs.ts";

describe("transportMode", () => {
  test.each([
    [[], {}, "stdio"],
    [["--http"], {}, "http"],
    [[], { PROXMOX_MCP_TRANSPORT: "http" }, "http"],
    [[], { PROXMOX_MCP_TRANSPORT: " HTTP " }, "http"],
    [[], { PROXMOX_MCP_TRANSPORT: "stdio" }, "stdio"],
    [[], { PROXMOX_MCP_TRANSPORT: "" }, "stdio"],
    [["--http"], { PROXMOX_MCP_TRANSPORT: "stdio" }, "http"],
  ])("argv %j, env %j -> %s", (argv, env, mode) => {
    const invocation = parseArguments(argv, env);
    expect(invocation.kind === "serve" && transportMode(invocation.env)).toBe(mode as "stdio" | "http");
  });

  test("an unknown transport is a configuration error", () => {
    expect(() => transportMode({ PROXMOX_MCP_TRANSPORT: "sse" })).toThrow(
      "PROXMOX_MCP_TRANSPORT: expected stdio or http",
    );
  });
});

describe("parseListen", () => {
  test.each([
    [undefined, "127.0.0.1", 8787],
    ["", "127.0.0.1", 8787],
    ["0.0.0.0:9000", "0.0.0.0", 9000],
    ["[::1]:8787", "::1", 8787],
    ["[::]:8787", "::", 8787],
    ["localhost:0", "localhost", 0],
    ["mcp.example.com:443", "mcp.example.com", 443],
  ])("%j -> %s port %d", (value, host, port) => {
    expect(parseListen(value)).toEqual({ host, port });
  });

  test.each([
    "8787",
    "127.0.0.1",
    "127.0.0.1:70000",
    "::1:8787",
    "[::1",
    "[nope]:80",
    ":8787",
    "a b:80",
    "http://x:80",
  ])("refuses %j", (value) => {
    expect(() => parseListen(value)).toThrow("PROXMOX_MCP_LISTEN: expected host:port");
  });
});

test.each([
  ["127.0.0.1", true],
  ["127.8.9.10", true],
  ["localhost", true],
  ["::1", true],
  ["0.0.0.0", false],
  ["::", false],
  ["192.168.1.5", false],
  ["mcp.example.com", false],
])("isLoopbackAddress(%s) = %p", (host, loopback) => {
  expect(isLoopbackAddress(host)).toBe(loopback);
});

describe("allowed hosts", () => {
  test("the default: the listen address, localhost, 127.0.0.1 and [::1], any port", () => {
    expect(parseAllowedHosts(undefined, "127.0.0.1").map((h) => h.name)).toEqual(["127.0.0.1", "localhost", "[::1]"]);
    expect(parseAllowedHosts("", "10.0.0.5").map((h) => h.name)).toEqual([
      "10.0.0.5",
      "localhost",
      "127.0.0.1",
      "[::1]",
    ]);
    expect(parseAllowedHosts(undefined, "::1").map((h) => h.name)).toEqual(["[::1]", "localhost", "127.0.0.1"]);
    // a wildcard is no name a client uses
    expect(parseAllowedHosts(undefined, "0.0.0.0").map((h) => h.name)).toEqual(["localhost", "127.0.0.1", "[::1]"]);
  });

  test("PROXMOX_MCP_ALLOWED_HOSTS replaces the default", () => {
    expect(parseAllowedHosts("mcp.example.com, MCP2.example.com:8443 [fd00::5]", "127.0.0.1")).toEqual([
      { name: "mcp.example.com" },
      { name: "mcp2.example.com", port: 8443 },
      { name: "[fd00::5]" },
    ]);
  });

  test.each(["http://mcp.example.com", "mcp.example.com/mcp", "*.example.com", "[zz::1]", "host:99999", "a..b"])(
    "refuses the entry %j",
    (entry) => {
      expect(() => parseAllowedHosts(entry, "127.0.0.1")).toThrow(
        `PROXMOX_MCP_ALLOWED_HOSTS: '${entry}' is not a host name`,
      );
    },
  );

  test.each([
    ["127.0.0.1:8787", { name: "127.0.0.1", port: 8787 }],
    ["LocalHost", { name: "localhost" }],
    ["localhost.:80", { name: "localhost", port: 80 }],
    ["[::1]:8787", { name: "[::1]", port: 8787 }],
    ["[::1]", { name: "[::1]" }],
    ["::1", undefined],
    ["evil.example.com:8787:1", undefined],
    ["", undefined],
  ])("parseHostPort(%j)", (text, host) => {
    expect(parseHostPort(text)).toEqual(host);
  });

  const loopback = parseAllowedHosts(undefined, "127.0.0.1");
  const named = parseAllowedHosts("mcp.example.com:8443,localhost", "0.0.0.0");

  test.each([
    ["127.0.0.1:8787", loopback, true],
    ["localhost:1234", loopback, true],
    ["[::1]:8787", loopback, true],
    ["LOCALHOST", loopback, true],
    [null, loopback, false],
    ["evil.example.com", loopback, false],
    ["evil.example.com:8787", loopback, false],
    ["localhost.evil.example.com", loopback, false],
    ["127.0.0.1.nip.io", loopback, false],
    ["mcp.example.com:8443", named, true],
    ["mcp.example.com", named, false],
    ["mcp.example.com:443", named, false],
    ["localhost:9", named, true],
  ])("Host %j", (header, allowed, ok) => {
    expect(hostAllowed(header, allowed)).toBe(ok);
  });

  test.each([
    [null, loopback, true],
    ["http://localhost:8787", loopback, true],
    ["https://127.0.0.1", loopback, true],
    ["http://[::1]:3000", loopback, true],
    ["http://evil.example.com", loopback, false],
    ["http://localhost.evil.example.com", loopback, false],
    ["null", loopback, false],
    ["file://", loopback, false],
    ["chrome-extension://abcdef", loopback, false],
    ["not a url", loopback, false],
    ["https://mcp.example.com:8443", named, true],
    ["https://mcp.example.com", named, false],
    ["http://mcp.example.com:8443", named, true],
  ])("Origin %j", (header, allowed, ok) => {
    expect(originAllowed(header, allowed)).toBe(ok);
  });
});

describe("loadHttpConfig", () => {
  const pki = sharedTestPki();
  const cert = join(pki.dir, "server.pem");
  const key = join(pki.dir, "server.key");

  test("defaults", () => {
    const config = loadHttpConfig({});
    expect(config.listen).toEqual({ host: "127.0.0.1", port: 8787 });
    expect(config.tls).toBeUndefined();
    expect(config.limits).toEqual({
      maxBodyBytes: 4 * 1024 * 1024,
      maxSessions: 100,
      sessionIdleMs: 1_800_000,
      maxRequestsPerSession: 16,
      drainMs: 30_000,
    });
  });

  test("a non-loopback address needs TLS, or the explicit plain-HTTP switch", () => {
    expect(() => loadHttpConfig({ PROXMOX_MCP_LISTEN: "0.0.0.0:8787" })).toThrow(
      "PROXMOX_MCP_LISTEN: 0.0.0.0 is reachable from other machines, and without TLS the bearer tokens would cross the network in clear text",
    );
    expect(
      loadHttpConfig({ PROXMOX_MCP_LISTEN: "0.0.0.0:8787", PROXMOX_MCP_ALLOW_PLAIN_HTTP: "true" }).allowPlainHttp,
    ).toBe(true);
    const tls = loadHttpConfig({
      PROXMOX_MCP_LISTEN: "0.0.0.0:8787",
      PROXMOX_MCP_TLS_CERT: cert,
      PROXMOX_MCP_TLS_KEY: key,
    }).tls;
    expect(tls?.cert).toContain("BEGIN CERTIFICATE");
    expect(tls?.key).toContain("PRIVATE KEY");
  });

  test.each([
    [{ PROXMOX_MCP_TLS_CERT: "/x" }, "PROXMOX_MCP_TLS_KEY: is not set"],
    [{ PROXMOX_MCP_TLS_KEY: "/x" }, "PROXMOX_MCP_TLS_CERT: is not set"],
    [
      { PROXMOX_MCP_TLS_CERT: "/nonexistent.pem", PROXMOX_MCP_TLS_KEY: "/nonexistent.key" },
      "PROXMOX_MCP_TLS_CERT: cannot read /nonexistent.pem (ENOENT)",
    ],
    [{ PROXMOX_MCP_TLS_CERT: key, PROXMOX_MCP_TLS_KEY: key }, "holds no PEM certificate"],
    [{ PROXMOX_MCP_TLS_CERT: cert, PROXMOX_MCP_TLS_KEY: cert }, "holds no PEM private key"],
    [{ PROXMOX_MCP_ALLOW_PLAIN_HTTP: "maybe" }, "PROXMOX_MCP_ALLOW_PLAIN_HTTP: expected true or false"],
    [{ PROXMOX_MCP_MAX_SESSIONS: "0" }, "PROXMOX_MCP_MAX_SESSIONS: expected a whole number from 1"],
    [{ PROXMOX_MCP_SESSION_IDLE_S: "1.5" }, "PROXMOX_MCP_SESSION_IDLE_S: expected a whole number of seconds"],
    [{ PROXMOX_MCP_MAX_REQUESTS_PER_SESSION: "x" }, "PROXMOX_MCP_MAX_REQUESTS_PER_SESSION: expected a whole number"],
    [{ PROXMOX_MCP_DRAIN_S: "-1" }, "PROXMOX_MCP_DRAIN_S: expected a whole number of seconds"],
  ])("%j is refused", (env, message) => {
    expect(() => loadHttpConfig(env)).toThrow(message);
  });

  test("limits from the environment", () => {
    const { limits } = loadHttpConfig({
      PROXMOX_MCP_MAX_SESSIONS: "5",
      PROXMOX_MCP_SESSION_IDLE_S: "60",
      PROXMOX_MCP_MAX_REQUESTS_PER_SESSION: "2",
      PROXMOX_MCP_DRAIN_S: "3",
    });
    expect(limits).toMatchObject({ maxSessions: 5, sessionIdleMs: 60_000, maxRequestsPerSession: 2, drainMs: 3_000 });
  });
});
