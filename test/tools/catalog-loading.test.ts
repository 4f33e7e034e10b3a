// Issue 3, loading rules: every rule here fails when broken. The schema is a small fixture;
// the cluster and the "public" host are loopback fakes. The docs (issue 11) are off here, so
// only the schema is fetched; catalog-docs.test.ts covers them.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { parseSchemaUrl } from "../../src/catalog/config.ts";
import {
  CatalogLoader,
  CatalogUnavailableError,
  VIEWER_PATH,
  type CatalogLoaderOptions,
} from "../../src/catalog/loader.ts";
import { createAgent } from "../../src/http/undici.ts";
import { sharedTestPki } from "../fake/certs.ts";
import { FakeProxmox, FAKE_TOKEN_SECRET } from "../fake/pve-fake.ts";
import { apidata, memoryLogger, MINI_API, VIEWER_CODE } from "../support/catalog.ts";
import { connectHarness, connectionFor, textOf, type Harness } from "../support/mcp.ts";

const SCHEMA = apidata(MINI_API) + VIEWER_CODE;
const DOCS_OFF = { kind: "off" } as const;
/** Nothing listens on the discard port: a public host that is never there. */
const NOWHERE = `https://127.0.0.1:9${VIEWER_PATH}`;

let cluster: FakeProxmox;
let publicHost: FakeProxmox;
let harness: Harness | undefined;
const loaders: CatalogLoader[] = [];

beforeAll(async () => {
  [cluster, publicHost] = await Promise.all([FakeProxmox.start(), FakeProxmox.start()]);
});
afterAll(async () => {
  await Promise.all([cluster.stop(), publicHost.stop()]);
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await Promise.all(loaders.splice(0).map((l) => l.close()));
  for (const fake of [cluster, publicHost]) {
    fake.requests.length = 0;
    fake.file(VIEWER_PATH, () => ({ status: 404, message: "Not found" }));
  }
});

function loader(opts: Partial<CatalogLoaderOptions> = {}): CatalogLoader {
  const made = new CatalogLoader({
    config: { docs: DOCS_OFF },
    connection: connectionFor(cluster),
    log: memoryLogger(),
    publicUrl: NOWHERE,
    ...opts,
  });
  loaders.push(made);
  return made;
}

async function connect(catalog: CatalogLoader): Promise<Harness> {
  harness = await connectHarness(cluster, { deps: { catalog } });
  return harness;
}

const viewerRequests = (fake: FakeProxmox) => fake.requests.filter((r) => r.path === VIEWER_PATH);

async function loadError(l: CatalogLoader, signal?: AbortSignal): Promise<CatalogUnavailableError> {
  try {
    await l.get(signal);
  } catch (error) {
    if (error instanceof CatalogUnavailableError) return error;
    throw error;
  }
  throw new Error("expected the load to fail");
}

function serve(fake: FakeProxmox, text = SCHEMA): void {
  fake.file(VIEWER_PATH, () => ({ body: text, contentType: "application/javascript" }));
}

/** Serves the schema only once the returned function is called, to hold loads in flight. */
function serveWhenReleased(fake: FakeProxmox): () => void {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  fake.file(VIEWER_PATH, async () => {
    await gate;
    return { body: SCHEMA, contentType: "application/javascript" };
  });
  return release;
}

describe("the cluster's own viewer first", () => {
  test("fetched from <origin>/pve-docs/api-viewer/apidoc.js with no Authorization header, and named as the source", async () => {
    serve(cluster);
    const h = await connect(loader());
    const result = await h.call("proxmox_search_endpoints", { query: "roll back a snapshot" });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ source: `cluster ${cluster.url}${VIEWER_PATH}` });
    const [seen, ...more] = viewerRequests(cluster);
    expect(more).toEqual([]);
    expect(seen!.method).toBe("GET");
    expect(seen!.headers.authorization).toBeUndefined();
    expect(seen!.headers.cookie).toBeUndefined();
    expect(JSON.stringify(seen!.headers)).not.toContain(FAKE_TOKEN_SECRET);
  });

  test("kept until restart: later calls fetch nothing", async () => {
    serve(cluster);
    const l = loader();
    const first = await l.get();
    expect(await l.get()).toBe(first);
    expect(l.peek()).toBe(first);
    expect(viewerRequests(cluster)).toHaveLength(1);
  });

  test("peek does no I/O", () => {
    const l = loader();
    expect(l.peek()).toBeUndefined();
    expect(viewerRequests(cluster)).toHaveLength(0);
  });
});

describe("then the public viewer", () => {
  test("a 404 from the cluster falls back to the public host, which gets no credentials either", async () => {
    serve(publicHost);
    const publicUrl = `${publicHost.url}${VIEWER_PATH}`;
    const pki = sharedTestPki();
    // Test-only trust for the loopback "public" host; the default is public trust (next test).
    const l = loader({ publicUrl, publicDispatcher: createAgent({ ca: pki.caPem, verifyTls: true, timeoutMs: 5000 }) });
    const catalog = await l.get();
    expect(catalog.source).toEqual({ kind: "public", location: publicUrl });
    expect(viewerRequests(cluster)).toHaveLength(1);
    const [seen] = viewerRequests(publicHost);
    expect(seen!.headers.authorization).toBeUndefined();
  });

  test("PROXMOX_VERIFY_TLS=false is for the cluster only: the public host is still verified", async () => {
    serve(publicHost);
    const publicUrl = `${publicHost.url}${VIEWER_PATH}`;
    const error = await loadError(
      loader({ publicUrl, connection: connectionFor(cluster, { PROXMOX_CA_FILE: "", PROXMOX_VERIFY_TLS: "false" }) }),
    );
    expect(error.attempts.map((a) => a.source.kind)).toEqual(["cluster", "public"]);
    expect(error.attempts[0]!.outcome).toBe("answered HTTP 404 Not found");
    expect(error.attempts[1]!.outcome).toMatch(/could not be reached: .*(certificate|self.signed|verify)/i);
    expect(viewerRequests(publicHost)).toHaveLength(0);
  });

  test("a configured schema URL on another origin gets public trust, not the cluster's CA", async () => {
    serve(publicHost);
    const error = await loadError(
      loader({ config: { schema: parseSchemaUrl(`${publicHost.url}${VIEWER_PATH}`), docs: DOCS_OFF } }),
    );
    expect(error.attempts.map((a) => a.source.kind)).toEqual(["configured"]);
    expect(error.attempts[0]!.outcome).toMatch(/could not be reached: .*(certificate|self.signed|verify)/i);
    expect(viewerRequests(publicHost)).toHaveLength(0);
  });

  test("the public host is reached with default trust only, never with the cluster's CA", async () => {
    serve(publicHost);
    const publicUrl = `${publicHost.url}${VIEWER_PATH}`;
    // The cluster agent trusts the test CA that signed publicHost's certificate; the public one must not.
    const error = await loadError(loader({ publicUrl }));
    expect(error.attempts.map((a) => a.source.kind)).toEqual(["cluster", "public"]);
    expect(error.attempts[0]!.outcome).toBe("answered HTTP 404 Not found");
    expect(error.attempts[1]!.outcome).toMatch(/could not be reached: .*(certificate|self.signed|verify)/i);
    expect(viewerRequests(publicHost)).toHaveLength(0);
  });

  test("an unreachable cluster falls back too", async () => {
    serve(publicHost);
    const connection = { ...connectionFor(cluster), origin: "https://127.0.0.1:9" };
    const pki = sharedTestPki();
    const l = loader({
      connection,
      publicUrl: `${publicHost.url}${VIEWER_PATH}`,
      publicDispatcher: createAgent({ ca: pki.caPem, verifyTls: true, timeoutMs: 5000 }),
    });
    expect((await l.get()).source.kind).toBe("public");
  });

  test("when nothing loads, search and describe say what was tried, and proxmox_get still works", async () => {
    const h = await connect(loader());
    for (const [tool, args] of [
      ["proxmox_search_endpoints", { query: "vm" }],
      ["proxmox_describe_endpoint", { path: "/nodes" }],
    ] as const) {
      const result = await h.call(tool, args);
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toContain("no API catalog could be loaded");
      expect(text).toContain(`cluster ${cluster.url}${VIEWER_PATH} answered HTTP 404`);
      expect(text).toContain(`public ${NOWHERE} could not be reached`);
      expect(text).toContain("PROXMOX_SCHEMA_URL");
      const error = (result.structuredContent as { error: { code: string; tried: unknown[] } }).error;
      expect(error.code).toBe("catalog_unavailable");
      expect(error.tried).toHaveLength(2);
    }
    const get = await h.call("proxmox_get", { path: "/version" });
    expect(get.isError).toBeFalsy();
  });
});

describe("loading rules", () => {
  test("a redirect is refused, not followed, and is no reason to try the public host", async () => {
    cluster.file(VIEWER_PATH, () => ({
      status: 302,
      message: "Found",
      headers: { location: `${publicHost.url}${VIEWER_PATH}` },
    }));
    serve(publicHost);
    const error = await loadError(loader({ publicUrl: `${publicHost.url}${VIEWER_PATH}` }));
    expect(error.attempts).toHaveLength(1);
    expect(error.attempts[0]!.outcome).toContain("answered HTTP 302 (a redirect to");
    expect(error.attempts[0]!.outcome).toContain("redirects are refused");
    expect(viewerRequests(publicHost)).toHaveLength(0);
  });

  test("8 MiB cap: a truthful Content-Length over it is refused before reading", async () => {
    cluster.file(VIEWER_PATH, () => ({
      body: Buffer.alloc(8 * 1024 * 1024 + 1, 0x20),
      contentType: "application/javascript",
    }));
    const error = await loadError(loader());
    expect(error.attempts[0]!.outcome).toBe(`announced ${8 * 1024 * 1024 + 1} bytes, more than the 8 MiB cap`);
  });

  test("8 MiB cap: a body without Content-Length is cut off while reading", async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    cluster.file(VIEWER_PATH, () => ({
      contentType: "application/javascript",
      stream: Readable.from(
        (function* () {
          for (let i = 0; i < 32; i++) {
            sent++;
            yield chunk;
          }
        })(),
      ),
    }));
    const error = await loadError(loader());
    expect(error.attempts[0]!.outcome).toBe("sent more than the 8 MiB cap");
    expect(sent).toBeLessThan(32);
  });

  test("a timeout ends the load and names the limit", async () => {
    cluster.file(VIEWER_PATH, () => ({ hang: true }));
    const error = await loadError(loader({ timeoutMs: 300 }));
    expect(error.attempts[0]!.outcome).toBe("gave no complete answer within 300 ms");
  });

  test("eight concurrent first callers share one fetch", async () => {
    const release = serveWhenReleased(cluster);
    const h = await connect(loader());
    const calls = Array.from({ length: 8 }, (_, i) =>
      h.call("proxmox_search_endpoints", { query: i % 2 ? "snapshot" : "acl" }),
    );
    await cluster.nextRequest();
    release();
    const results = await Promise.all(calls);
    expect(results.every((r) => !r.isError)).toBe(true);
    expect(viewerRequests(cluster)).toHaveLength(1);
  });

  test("recovery after a 503: the failure is not cached, and a 503 is not a reason to use the public host", async () => {
    cluster.file(VIEWER_PATH, () => ({ status: 503, message: "Service Unavailable" }));
    const l = loader();
    const error = await loadError(l);
    expect(error.attempts).toEqual([
      {
        source: { kind: "cluster", location: `${cluster.url}${VIEWER_PATH}` },
        outcome: "answered HTTP 503 Service Unavailable",
      },
    ]);
    serve(cluster);
    expect((await l.get()).size).toBe(21);
    expect(viewerRequests(cluster)).toHaveLength(2);
  });

  test("recovery after a parse failure", async () => {
    serve(cluster, "<!-- maintenance page --> not a schema");
    const l = loader();
    const error = await loadError(l);
    expect(error.attempts[0]!.outcome).toContain("is not a usable API schema: no API schema found");
    serve(cluster);
    expect((await l.get()).size).toBe(21);
  });

  test("a cancelled load does not poison the cache, and the abandoned fetch is dropped", async () => {
    cluster.file(VIEWER_PATH, () => ({ hang: true }));
    const l = loader();
    const controller = new AbortController();
    const pending = loadError(l, controller.signal);
    const seen = await cluster.nextRequest();
    controller.abort();
    const error = await pending;
    expect(error.cancelled).toBe(true);
    expect(error.message).toBe("loading the API catalog was cancelled");
    for (let i = 0; i < 50 && !seen.abandoned; i++) await Bun.sleep(10);
    expect(seen.abandoned).toBe(true);
    serve(cluster);
    expect((await l.get()).size).toBe(21);
  });

  test("one caller giving up does not cancel the load others wait for", async () => {
    const release = serveWhenReleased(cluster);
    const l = loader();
    const controller = new AbortController();
    const quitter = loadError(l, controller.signal);
    const stayer = l.get();
    await cluster.nextRequest();
    controller.abort();
    expect((await quitter).cancelled).toBe(true);
    release();
    expect((await stayer).size).toBe(21);
    expect(viewerRequests(cluster)).toHaveLength(1);
  });
});

describe("PROXMOX_SCHEMA_URL", () => {
  const SECRET_USER = "catalog-admin";
  const SECRET_PASS = "pa55-w0rd-xyz";
  const SECRET_QUERY = "q-token-1234567";

  function configured(url: string, opts: Partial<CatalogLoaderOptions> = {}) {
    const log = memoryLogger();
    return { l: loader({ config: { schema: parseSchemaUrl(url), docs: DOCS_OFF }, log, ...opts }), log };
  }

  function expectNoSecret(...texts: string[]): void {
    for (const text of texts) for (const s of [SECRET_USER, SECRET_PASS, SECRET_QUERY]) expect(text).not.toContain(s);
  }

  test("a secret in the URL is never sent and never shown, on success", async () => {
    cluster.file("/docs/apidoc.js", () => ({ body: SCHEMA, contentType: "application/javascript" }));
    const base = new URL(cluster.url);
    const { l, log } = configured(
      `https://${SECRET_USER}:${SECRET_PASS}@${base.host}/docs/apidoc.js?token=${SECRET_QUERY}`,
    );
    const h = await connect(l);
    const result = await h.call("proxmox_search_endpoints", { query: "acl" });
    expect(result.structuredContent).toMatchObject({ source: `configured ${cluster.url}/docs/apidoc.js` });
    const [seen] = cluster.requests.filter((r) => r.path === "/docs/apidoc.js");
    expect(seen!.url).toBe("/docs/apidoc.js");
    expect(seen!.headers.authorization).toBeUndefined();
    expectNoSecret(JSON.stringify(seen!.headers), JSON.stringify(result), log.lines.join("\n"));
    expect(log.lines.join("\n")).toContain("are not sent");
  });

  test("a secret in the URL is never shown, on failure either", async () => {
    cluster.file("/docs/apidoc.js", () => ({ status: 500, message: `boom ${SECRET_QUERY}` }));
    const base = new URL(cluster.url);
    const { l, log } = configured(
      `https://${SECRET_USER}:${SECRET_PASS}@${base.host}/docs/apidoc.js?token=${SECRET_QUERY}`,
    );
    const h = await connect(l);
    const result: CallToolResult = await h.call("proxmox_describe_endpoint", { path: "/nodes" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`configured ${cluster.url}/docs/apidoc.js answered HTTP 500`);
    expectNoSecret(JSON.stringify(result), log.lines.join("\n"));
  });

  test("the viewer's index.html: its apidoc.js script is found and loaded, with no fallback elsewhere", async () => {
    cluster.file("/pve-docs/api-viewer/index.html", () => ({
      body: '<!DOCTYPE html><html><head><script type="text/javascript" src="extjs/ext-all.js"></script><script type="text/javascript" src="apidoc.js"></script></head><body></body></html>',
      contentType: "text/html; charset=utf-8",
    }));
    serve(cluster);
    const { l } = configured(`${cluster.url}/pve-docs/api-viewer/index.html`);
    const catalog = await l.get();
    expect(catalog.source).toEqual({ kind: "configured", location: `${cluster.url}/pve-docs/api-viewer/index.html` });
    expect(cluster.requests.map((r) => r.path)).toEqual(["/pve-docs/api-viewer/index.html", VIEWER_PATH]);
  });

  test("a page whose script lives on another origin is refused", async () => {
    cluster.file("/page.html", () => ({
      body: `<html><script src="${publicHost.url}/apidoc.js"></script></html>`,
      contentType: "text/html",
    }));
    const { l } = configured(`${cluster.url}/page.html`);
    const error = await loadError(l);
    expect(error.attempts[0]!.outcome).toBe(
      `loads apidoc.js from another origin (${publicHost.url}), which is refused`,
    );
    expect(publicHost.requests).toHaveLength(0);
  });

  test("a configured URL that fails is not replaced by the cluster or the public viewer", async () => {
    serve(cluster);
    cluster.file("/missing.js", () => ({ status: 404, message: "Not found" }));
    const { l } = configured(`${cluster.url}/missing.js`);
    const error = await loadError(l);
    expect(error.attempts.map((a) => a.source.kind)).toEqual(["configured"]);
    expect(viewerRequests(cluster)).toHaveLength(0);
  });

  test("a local file, and a local index.html beside its apidoc.js (air-gapped sites)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pve-catalog-"));
    try {
      writeFileSync(join(dir, "apidoc.js"), SCHEMA);
      writeFileSync(join(dir, "index.html"), '<html><head><script src="apidoc.js"></script></head></html>');
      for (const file of ["apidoc.js", "index.html"]) {
        const { l } = configured(join(dir, file));
        const catalog = await l.get();
        expect(catalog.size).toBe(21);
        expect(catalog.source).toEqual({ kind: "configured", location: join(dir, file) });
      }
      const { l } = configured(join(dir, "nope.js"));
      expect((await loadError(l)).attempts[0]!.outcome).toBe("cannot be read (ENOENT)");
      expect(cluster.requests).toHaveLength(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
