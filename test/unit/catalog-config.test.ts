// Issue 3: PROXMOX_SCHEMA_URL, and secrets in it never shown or sent.
import { describe, expect, test } from "bun:test";
import { parseSchemaUrl, urlSecrets } from "../../src/catalog/config.ts";
import { createListRedactor } from "../../src/proxmox/redact.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";

describe("PROXMOX_SCHEMA_URL", () => {
  test.each([[undefined], [""], ["   "]])("%j: not set", (value) => {
    expect(parseSchemaUrl(value)).toBeUndefined();
  });

  test("an https URL of apidoc.js or the viewer page", () => {
    expect(parseSchemaUrl("https://docs.example.com/pve-docs/api-viewer/index.html")).toEqual({
      kind: "url",
      url: new URL("https://docs.example.com/pve-docs/api-viewer/index.html"),
      display: "https://docs.example.com/pve-docs/api-viewer/index.html",
      dropped: [],
      secrets: [],
    });
  });

  test("userinfo, query and fragment are neither sent nor shown, and are known as secrets", () => {
    const location = parseSchemaUrl(
      "https://admin:hunter22@docs.example.com:8443/apidoc.js?token=abc123secret&v=1#frag",
    );
    if (location?.kind !== "url") throw new Error("expected a URL");
    expect(location.url.href).toBe("https://docs.example.com:8443/apidoc.js");
    expect(location.display).toBe("https://docs.example.com:8443/apidoc.js");
    expect(location.dropped).toEqual(["user name and password", "query string"]);
    expect(location.secrets).toEqual(expect.arrayContaining(["admin:hunter22", "hunter22", "admin", "abc123secret"]));
    expect(location.secrets).not.toContain("1");
  });

  test.each([
    ["/srv/pve/apidoc.js", "/srv/pve/apidoc.js"],
    ["apidoc.js", "/work/dir/apidoc.js"],
    ["./docs/index.html", "/work/dir/docs/index.html"],
    ["file:///srv/pve/apidoc.js", "/srv/pve/apidoc.js"],
  ])("local file %j -> %j", (value, path) => {
    expect(parseSchemaUrl(value, "/work/dir")).toEqual({ kind: "file", path });
  });

  test.each([
    ["http://docs.example.com/apidoc.js", "uses http, not https"],
    ["ftp://u:secretpw@docs.example.com/apidoc.js", "uses ftp, not https"],
    ["https://exa mple.com/x", "not a valid URL"],
    ["/srv/a\nb", "control characters"],
    ["admin:secretpw@pve.example.com/pve-docs/api-viewer/apidoc.js", "without https://"],
    ["pve.example.com:8006/apidoc.js?token=secretpw", "without https://"],
  ])("%j is refused: %s", (value, message) => {
    let error: unknown;
    try {
      parseSchemaUrl(value);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain("PROXMOX_SCHEMA_URL");
    expect((error as ConfigError).message).toContain(message);
    expect((error as ConfigError).message).not.toContain("secretpw");
  });

  test("loadConfig reads it", () => {
    const config = loadConfig({
      PROXMOX_URL: "https://pve.example.com:8006",
      PROXMOX_TOKEN_ID: "mcp@pve!agent",
      PROXMOX_TOKEN_SECRET: "00000000-0000-0000-0000-000000000000",
      PROXMOX_SCHEMA_URL: "/srv/apidoc.js",
    });
    expect(config.hosts[0]!.catalog.schema).toEqual({ kind: "file", path: "/srv/apidoc.js" });
  });
});

describe("redaction", () => {
  test("every form of a secret goes", () => {
    const secrets = urlSecrets(new URL("https://us%40er:p%2Fss@h/x?k=a%20b%20c"));
    const text = "failed for us%40er us@er:p/ss p%2Fss and a b c, a%20b%20c";
    const out = createListRedactor(secrets)(text);
    for (const s of ["us%40er", "us@er", "p/ss", "p%2Fss", "a b c", "a%20b%20c"]) expect(out).not.toContain(s);
  });
});
