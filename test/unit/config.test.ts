import { describe, expect, test } from "bun:test";
import {
  ConfigError,
  loadConnectionConfig,
  parseBoolean,
  parsePositiveInt,
  parseProxmoxUrl,
  parseTokenId,
  parseTokenSecret,
  readCaFile,
} from "../../src/config.ts";

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error("expected a ConfigError");
}

describe("parseProxmoxUrl", () => {
  test.each([
    ["https://pve.example.com:8006", false, "https://pve.example.com:8006"],
    ["https://pve.example.com:8006/", false, "https://pve.example.com:8006"],
    ["https://pve.example.com:8006/api2/json", false, "https://pve.example.com:8006"],
    ["https://pve.example.com:8006/api2/json/", false, "https://pve.example.com:8006"],
    ["https://10.0.0.5:8006", false, "https://10.0.0.5:8006"],
    ["http://127.0.0.1:8006", false, "http://127.0.0.1:8006"],
    ["http://localhost:8006", false, "http://localhost:8006"],
    ["http://[::1]:8006", false, "http://[::1]:8006"],
    ["http://pve.lan:8006", true, "http://pve.lan:8006"],
  ])("%s (insecure http allowed: %s)", (input, allowInsecure, expected) => {
    expect(parseProxmoxUrl(input, allowInsecure)).toBe(expected);
  });

  test.each([
    [undefined, "is not set"],
    ["", "is not set"],
    ["pve.example.com:8006", "must use https"],
    ["ftp://pve:21", "must use https"],
    ["not a url", "is not a URL"],
    ["https://root:pw@pve:8006", "user name or password"],
    ["https://pve:8006/?x=1", "query string"],
    ["https://pve:8006/#top", "fragment"],
    ["https://pve:8006/other", "no path other than /api2/json"],
    ["http://pve.lan:8006", "PROXMOX_ALLOW_INSECURE_HTTP"],
    ["http://10.1.1.1:8006", "PROXMOX_ALLOW_INSECURE_HTTP"],
  ])("refuses %j", (input, why) => {
    const error = configError(() => parseProxmoxUrl(input, false));
    expect(error.variable).toBe("PROXMOX_URL");
    expect(error.message).toStartWith("PROXMOX_URL: ");
    expect(error.message).toContain(why);
  });

  test("a refused URL with a password does not echo it", () => {
    expect(configError(() => parseProxmoxUrl("https://root:hunter2@pve:8006", false)).message).not.toContain("hunter2");
  });
});

describe("parseTokenId", () => {
  test.each(["root@pam!mcp", "mcp@pve!agent-1", "svc.user@ldap-corp!read_only"])("accepts %s", (id) => {
    expect(parseTokenId(id)).toBe(id);
  });
  test.each([
    undefined,
    "",
    "root@pam",
    "root!mcp",
    "@pam!x",
    "root@pam!",
    "root@pam!x=y",
    "root@pam!x y",
    "root@pam!1bad",
  ])("refuses %j", (id) => {
    expect(configError(() => parseTokenId(id)).variable).toBe("PROXMOX_TOKEN_ID");
  });
});

describe("parseTokenSecret", () => {
  test.each(["", "s", "1234567", "has space inside"])("refuses %j", (value) => {
    expect(configError(() => parseTokenSecret(value)).variable).toBe("PROXMOX_TOKEN_SECRET");
  });
  test("accepts a UUID", () => {
    expect(parseTokenSecret("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")).toBe("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0");
  });
});

describe("parseBoolean and parsePositiveInt", () => {
  test.each([
    [undefined, true, true],
    ["", false, false],
    ["true", false, true],
    ["TRUE", false, true],
    ["1", false, true],
    ["false", true, false],
    ["0", true, false],
    ["no", true, false],
  ])("parseBoolean(%j, fallback %s) = %s", (value, fallback, expected) => {
    expect(parseBoolean("X", value, fallback)).toBe(expected);
  });
  test("parseBoolean refuses other words", () => {
    expect(configError(() => parseBoolean("PROXMOX_VERIFY_TLS", "maybe", true)).message).toBe(
      "PROXMOX_VERIFY_TLS: expected true or false",
    );
  });
  test.each([
    [undefined, 120000],
    ["5000", 5000],
  ])("parsePositiveInt(%j) = %d", (value, expected) => {
    expect(parsePositiveInt("PROXMOX_TIMEOUT_MS", value, 120000, 86400000)).toBe(expected);
  });
  test.each(["0", "-5", "1.5", "10s", "99999999999"])("parsePositiveInt refuses %j", (value) => {
    expect(configError(() => parsePositiveInt("PROXMOX_TIMEOUT_MS", value, 120000, 86400000)).variable).toBe(
      "PROXMOX_TIMEOUT_MS",
    );
  });
});

describe("readCaFile", () => {
  test("unset means default trust", () => {
    expect(readCaFile(undefined)).toBeUndefined();
  });
  test("a missing file names the variable and the path", () => {
    const error = configError(() => readCaFile("/nonexistent/ca.pem"));
    expect(error.variable).toBe("PROXMOX_CA_FILE");
    expect(error.message).toContain("/nonexistent/ca.pem");
  });
  test("a file without a certificate is refused", () => {
    expect(configError(() => readCaFile("/x.pem", () => "hello")).message).toContain("no PEM certificate");
  });
});

describe("loadConnectionConfig", () => {
  const base = {
    PROXMOX_URL: "https://pve:8006/api2/json",
    PROXMOX_TOKEN_ID: "mcp@pve!t",
    PROXMOX_TOKEN_SECRET: "s3cr3t-value",
  };
  test("defaults", () => {
    const c = loadConnectionConfig(base);
    expect(c).toEqual({
      origin: "https://pve:8006",
      apiBase: "https://pve:8006/api2/json",
      tokenId: "mcp@pve!t",
      tokenSecret: "s3cr3t-value",
      verifyTls: true,
      ca: undefined,
      timeoutMs: 120000,
    });
  });
  test("each missing variable is named", () => {
    for (const name of ["PROXMOX_URL", "PROXMOX_TOKEN_ID", "PROXMOX_TOKEN_SECRET"] as const) {
      const env: Record<string, string | undefined> = { ...base, [name]: undefined };
      expect(configError(() => loadConnectionConfig(env)).variable).toBe(name);
    }
  });
  test("no error message contains the secret", () => {
    const env = { ...base, PROXMOX_VERIFY_TLS: "perhaps" };
    expect(configError(() => loadConnectionConfig(env)).message).not.toContain("s3cr3t-value");
  });
});
