// Issue 11, the docs as a second catalog source: every loading rule here fails when broken.
// The cluster and the "public" host are loopback fakes that serve /pve-docs/ as pveproxy does;
// the schema is the small fixture and the pages are small man pages in the real markup.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { parseDocsSetting, parseSchemaUrl } from "../../src/catalog/config.ts";
import { DOCS_PATH } from "../../src/catalog/docs-loader.ts";
import type { Catalog } from "../../src/catalog/catalog.ts";
import { CatalogLoader, VIEWER_PATH, type CatalogLoaderOptions } from "../../src/catalog/loader.ts";
import { createAgent } from "../../src/http/undici.ts";
import { sharedTestPki } from "../fake/certs.ts";
import { FakeProxmox, FAKE_TOKEN_SECRET } from "../fake/pve-fake.ts";
import { apidata, memoryLogger, MINI_API, VIEWER_CODE } from "../support/catalog.ts";
import { FIXTURE_DOC_PAGES, FIXTURE_DOCS } from "../support/docs.ts";
import { waitFor } from "../support/http.ts";
import { connectHarness, connectionFor, type Harness } from "../support/mcp.ts";

const SCHEMA = apidata(MINI_API) + VIEWER_CODE;
const NOWHERE_DOCS = "https://127.0.0.1:9/pve-docs/";
const STOP = "POST /nodes/{node}/qemu/{vmid}/status/stop";

let cluster: FakeProxmox;
let publicHost: FakeProxmox;
let docsDir: string;
let harness: Harness | undefined;
const loaders: CatalogLoader[] = [];

beforeAll(async () => {
  [cluster, publicHost] = await Promise.all([FakeProxmox.start(), FakeProxmox.start()]);
  docsDir = mkdtempSync(join(tmpdir(), "pve-docs-"));
  for (const [page, html] of Object.entries(FIXTURE_DOCS)) writeFileSync(join(docsDir, page), html);
});
afterAll(async () => {
  await Promise.all([cluster.stop(), publicHost.stop()]);
  rmSync(docsDir, { recursive: true, force: true });
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await Promise.all(loaders.splice(0).map((l) => l.close()));
  for (const fake of [cluster, publicHost]) {
    fake.requests.length = 0;
    fake.serveDocs(undefined);
    for (const page of FIXTURE_DOC_PAGES) fake.file(`${DOCS_PATH}${page}`, undefined);
  }
});

function loader(opts: Partial<CatalogLoaderOptions> = {}): CatalogLoader {
  cluster.file(VIEWER_PATH, () => ({ body: SCHEMA, contentType: "application/javascript" }));
  const made = new CatalogLoader({
    config: {},
    connection: connectionFor(cluster),
    log: memoryLogger(),
    publicUrl: `https://127.0.0.1:9${VIEWER_PATH}`,
    publicDocsUrl: NOWHERE_DOCS,
    docsPages: FIXTURE_DOC_PAGES,
    docsRetryAfterMs: 0,
    ...opts,
  });
  loaders.push(made);
  return made;
}

const docsRequests = (fake: FakeProxmox) =>
  fake.requests.filter((r) => r.path.startsWith(DOCS_PATH) && r.path.endsWith(".html"));
const top = (l: CatalogLoader, query: string) =>
  l
    .peek()!
    .search(query, { limit: 3 })
    .hits.map((h) => `${h.method} ${h.path}`);

/** Loads the schema, then waits for the docs load that followed it. */
async function loaded(l: CatalogLoader) {
  await l.get();
  await l.docsSettled();
  return l.peek()!;
}

async function search(l: CatalogLoader, query: string) {
  harness ??= await connectHarness(cluster, { deps: { catalog: l } });
  const result = await harness.call("proxmox_search_endpoints", { query });
  expect(result.isError).toBeFalsy();
  return result.structuredContent as {
    docs?: string;
    recognized?: string[];
    results: { method: string; path: string }[];
  };
}

describe("served by the cluster", () => {
  test("the pages come from <origin>/pve-docs/ without credentials, once, and CLI commands find their endpoint", async () => {
    cluster.serveDocs(docsDir);
    const l = loader();
    await loaded(l);
    const answer = await search(l, "qm stop 100");
    expect(answer.results[0]).toMatchObject({ method: "POST", path: "/nodes/{node}/qemu/{vmid}/status/stop" });
    expect(answer.recognized).toEqual([
      expect.stringContaining("qm stop calls POST /nodes/{node}/qemu/{vmid}/status/stop"),
    ]);
    expect(answer.docs).toBe(`cluster ${cluster.url}${DOCS_PATH} (2 pages; 3 CLI commands mapped to endpoints)`);
    const seen = docsRequests(cluster);
    expect(seen.map((r) => r.path).sort()).toEqual(FIXTURE_DOC_PAGES.map((p) => `${DOCS_PATH}${p}`).sort());
    for (const r of seen) {
      expect(r.headers.authorization).toBeUndefined();
      expect(r.headers.cookie).toBeUndefined();
      expect(JSON.stringify(r.headers)).not.toContain(FAKE_TOKEN_SECRET);
    }
    await search(l, "pct start 120");
    expect(docsRequests(cluster)).toHaveLength(FIXTURE_DOC_PAGES.length);
  });

  test("a command with no API twin says so and still gets the nearest endpoints", async () => {
    cluster.serveDocs(docsDir);
    const l = loader();
    await loaded(l);
    const answer = await search(l, "qm terminal 100");
    expect(answer.recognized).toEqual([
      expect.stringContaining("qm terminal is a CLI-only command with no API endpoint"),
    ]);
    expect(answer.results.length).toBeGreaterThan(0);
  });

  test("without docs the same search still answers from the schema alone", async () => {
    const l = loader({ config: { docs: { kind: "off" } } });
    await loaded(l);
    expect(top(l, "pull the plug on a hung VM")[0]).toBe(STOP);
    const answer = await search(l, "qm stop 100");
    expect(answer.docs).toBeUndefined();
    expect(answer.recognized).toBeUndefined();
    expect(docsRequests(cluster)).toEqual([]);
  });
});

describe("missing", () => {
  test("a cluster without the pages (pveproxy's 501 'unable to open file') falls back to the public site, with public trust only", async () => {
    publicHost.serveDocs(docsDir);
    const pki = sharedTestPki();
    const l = loader({
      publicDocsUrl: `${publicHost.url}${DOCS_PATH}`,
      publicDispatcher: createAgent({ ca: pki.caPem, verifyTls: true, timeoutMs: 5000 }),
    });
    const catalog = await loaded(l);
    expect(catalog.docs?.source).toEqual({ kind: "public", location: `${publicHost.url}${DOCS_PATH}` });
    expect(docsRequests(cluster).length).toBe(FIXTURE_DOC_PAGES.length);
    for (const r of docsRequests(publicHost)) expect(r.headers.authorization).toBeUndefined();
    expect(top(l, "qm stop 100")[0]).toBe(STOP);
  });

  test("when no source has them, search works, says so, and tries again on a later search", async () => {
    const l = loader();
    const first = await search(l, "qm stop 100");
    await l.docsSettled();
    expect(first.results.length).toBeGreaterThan(0);
    const second = await search(l, "pull the plug on a hung VM");
    expect(second.docs).toContain("unavailable (cluster");
    expect(second.docs).toContain("answered HTTP 501 no such file");
    expect(second.docs).toContain(`public ${NOWHERE_DOCS}`);
    expect(second.results[0]).toMatchObject({ method: "POST", path: "/nodes/{node}/qemu/{vmid}/status/stop" });
    // The failure is not kept: once the pages are there, a later search loads them.
    cluster.serveDocs(docsDir);
    await search(l, "anything");
    await l.docsSettled();
    expect((await search(l, "qm stop 100")).recognized).toBeDefined();
  });

  test("404 on some pages: the others are used, and the missing ones are not fetched again", async () => {
    cluster.serveDocs(docsDir);
    cluster.file(`${DOCS_PATH}pct.1.html`, () => ({ status: 404, message: "Not found" }));
    const l = loader();
    const catalog = await loaded(l);
    expect(catalog.docs?.pages).toBe(1);
    const status = l.docs();
    expect(status.state === "loaded" && status.bundle.skipped).toEqual([
      { page: "pct.1.html", outcome: "answered HTTP 404 Not found" },
    ]);
    expect(top(l, "qm stop 100")[0]).toBe(STOP);
    expect((await search(l, "pct start 120")).recognized).toBeUndefined();
    await l.docsSettled();
    expect(docsRequests(cluster).filter((r) => r.path.endsWith("pct.1.html"))).toHaveLength(1);
  });

  test("a page that fails for a passing reason (503) is fetched again on a later search", async () => {
    cluster.serveDocs(docsDir);
    cluster.file(`${DOCS_PATH}pct.1.html`, () => ({ status: 503, message: "Service Unavailable" }));
    const l = loader();
    await loaded(l);
    expect((await search(l, "pct start 120")).recognized).toBeUndefined();
    cluster.file(`${DOCS_PATH}pct.1.html`, undefined);
    await l.docsSettled();
    await search(l, "anything");
    await l.docsSettled();
    expect((await search(l, "pct start 120")).recognized).toEqual([
      expect.stringContaining("pct start calls POST /nodes/{node}/lxc/{vmid}/status/start"),
    ]);
  });
});

describe("refused", () => {
  test("a page announcing more than the size cap is refused before reading; the others are used", async () => {
    cluster.serveDocs(docsDir);
    cluster.file(`${DOCS_PATH}qm.1.html`, () => ({ body: Buffer.alloc(300 * 1024, 0x20), contentType: "text/html" }));
    const l = loader({ docsMaxBytes: 256 * 1024 });
    await loaded(l);
    const status = l.docs();
    expect(status.state === "loaded" && status.bundle.skipped).toEqual([
      { page: "qm.1.html", outcome: `announced ${300 * 1024} bytes, more than the 0.3 MiB cap` },
    ]);
    expect(top(l, "pct start 120")[0]).toBe("POST /nodes/{node}/lxc/{vmid}/status/start");
  });

  test("a page sending more than the size cap is cut off while reading; the others are used", async () => {
    cluster.serveDocs(docsDir);
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    cluster.file(`${DOCS_PATH}pct.1.html`, () => ({
      contentType: "text/html",
      stream: Readable.from(
        (function* () {
          for (let i = 0; i < 64; i++) {
            sent++;
            yield chunk;
          }
        })(),
      ),
    }));
    const l = loader({ docsMaxBytes: 256 * 1024 });
    await loaded(l);
    const status = l.docs();
    expect(status.state === "loaded" && status.bundle.skipped).toEqual([
      { page: "pct.1.html", outcome: "sent more than the 0.3 MiB cap" },
    ]);
    expect(sent).toBeLessThan(64);
    expect(top(l, "qm stop 100")[0]).toBe(STOP);
  });

  test("a redirect is refused, not followed", async () => {
    cluster.serveDocs(docsDir);
    cluster.file(`${DOCS_PATH}qm.1.html`, () => ({
      status: 302,
      message: "Found",
      headers: { location: `${publicHost.url}${DOCS_PATH}qm.1.html` },
    }));
    publicHost.serveDocs(docsDir);
    const l = loader({ publicDocsUrl: `${publicHost.url}${DOCS_PATH}` });
    await loaded(l);
    const status = l.docs();
    expect(status.state === "loaded" && status.bundle.skipped).toEqual([
      { page: "qm.1.html", outcome: expect.stringContaining("answered HTTP 302 (a redirect to") },
    ]);
    expect(docsRequests(publicHost)).toEqual([]);
  });

  test("garbage instead of pages: nothing is used, search still answers, and it is no reason to go to the public site", async () => {
    cluster.file(`${DOCS_PATH}qm.1.html`, () => ({ body: "<html><body><p>maintenance</p>", contentType: "text/html" }));
    cluster.file(`${DOCS_PATH}pct.1.html`, () => ({
      body: Buffer.from([0, 255, 1, 254, 60, 62]),
      contentType: "text/html",
    }));
    publicHost.serveDocs(docsDir);
    const l = loader({ publicDocsUrl: `${publicHost.url}${DOCS_PATH}` });
    await loaded(l);
    expect(l.docs()).toMatchObject({ state: "unavailable" });
    expect(JSON.stringify(l.docs())).toContain("is not a pve-docs page");
    expect(docsRequests(publicHost)).toEqual([]);
    expect(top(l, "pull the plug on a hung VM")[0]).toBe(STOP);
  });
});

/** Resolves when the loader's wait for the docs is next called; the call itself goes on. */
function nextWait(l: CatalogLoader): Promise<void> {
  return new Promise((resolve) => {
    const original = l.docsAwaited.bind(l);
    l.docsAwaited = async (signal?: AbortSignal) => {
      resolve();
      await original(signal);
    };
  });
}

/** Serves the docs with qm.1.html held back until the returned function is called. */
function serveDocsHoldingQm(): () => void {
  cluster.serveDocs(docsDir);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  cluster.file(`${DOCS_PATH}qm.1.html`, async () => {
    await gate;
    return { body: FIXTURE_DOCS["qm.1.html"]!, contentType: "text/html" };
  });
  return release;
}

describe("sharing the link", () => {
  test("the pages are requested only once the schema is in: they never share its link or this process with it", async () => {
    cluster.serveDocs(docsDir);
    const l = loader();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    cluster.file(VIEWER_PATH, async () => {
      await gate;
      return { body: SCHEMA, contentType: "application/javascript" };
    });
    const got = l.get();
    got.catch(() => undefined);
    await waitFor(() => cluster.requests.some((r) => r.path === VIEWER_PATH), 5_000, "the schema request");
    // A docs load started with the schema would settle now, its pages served at once; none started.
    await l.docsSettled();
    expect(docsRequests(cluster)).toEqual([]);
    release();
    await got;
    await l.docsSettled();
    expect(
      docsRequests(cluster)
        .map((r) => r.path.slice(DOCS_PATH.length))
        .sort(),
    ).toEqual([...FIXTURE_DOC_PAGES].sort());
    expect(l.peek()!.docs).toBeDefined();
  });

  test("a schema that cannot be had starts no docs load: there is nothing to attach them to", async () => {
    cluster.serveDocs(docsDir);
    const l = loader();
    cluster.file(VIEWER_PATH, () => ({ status: 503, body: "busy" }));
    publicHost.file(VIEWER_PATH, undefined);
    await expect(l.get()).rejects.toThrow();
    await l.docsSettled();
    expect(docsRequests(cluster)).toEqual([]);
    // Once the schema can be had, the docs follow it.
    cluster.file(VIEWER_PATH, () => ({ body: SCHEMA, contentType: "application/javascript" }));
    const catalog = await loaded(l);
    expect(docsRequests(cluster)).toHaveLength(FIXTURE_DOC_PAGES.length);
    expect(catalog.docs).toBeDefined();
  });

  test("a load its callers abandoned that lands after the next one does not replace the catalog the docs went to", async () => {
    cluster.serveDocs(docsDir);
    const l = loader();
    // The first load is held until the test lets it land; every later one is the real load.
    const loadOf = l as unknown as { load: (signal: AbortSignal) => Promise<Catalog> };
    const real = loadOf.load.bind(l);
    let landFirst!: () => void;
    let firstLanding: Promise<Catalog> | undefined;
    let loads = 0;
    loadOf.load = (signal) => {
      if (++loads > 1) return real(signal);
      firstLanding = (async () => {
        const catalog = await real(new AbortController().signal);
        await new Promise<void>((resolve) => (landFirst = resolve));
        return catalog;
      })();
      return firstLanding;
    };
    const cancel = new AbortController();
    const abandoned = l.get(cancel.signal);
    await waitFor(() => landFirst !== undefined, 5_000, "the first load to be held");
    cancel.abort();
    await expect(abandoned).rejects.toThrow();
    const searched = await loaded(l);
    expect(searched.docs).toBeDefined();
    landFirst();
    // The loader took the first load's outcome before this test does: its handler came first.
    await firstLanding;
    expect(l.peek()).toBe(searched);
    expect(await l.get()).toBe(searched);
  });
});

describe("slow", () => {
  test("the first search never waits for docs still loading; a query naming a CLI tool waits for them (up to the grace)", async () => {
    const release = serveDocsHoldingQm();
    // A grace far longer than the test's own timeout: only a query that does not wait can answer.
    const l = loader({ docsGraceMs: 600_000 });
    const plain = await search(l, "pull the plug on a hung VM");
    expect(plain.docs).toBe("still loading; this answer is from the schema alone");
    expect(plain.results[0]).toMatchObject({ method: "POST", path: "/nodes/{node}/qemu/{vmid}/status/stop" });
    // The CLI query asks to wait: the pages are released only once it does.
    const waiting = nextWait(l);
    const cli = search(l, "qm stop 100");
    await waiting;
    release();
    const answer = await cli;
    expect(answer.recognized).toEqual([expect.stringContaining("qm stop calls")]);
  });

  test("the first search is not held up: it answers from the schema alone and says so, later searches use the docs", async () => {
    const release = serveDocsHoldingQm();
    const l = loader({ docsGraceMs: 50 });
    const first = await search(l, "qm stop 100");
    expect(first.docs).toBe("still loading; this answer is from the schema alone");
    expect(first.recognized).toBeUndefined();
    release();
    await l.docsSettled();
    const later = await search(l, "qm stop 100");
    expect(later.recognized).toBeDefined();
    expect(later.results[0]).toMatchObject({ method: "POST", path: "/nodes/{node}/qemu/{vmid}/status/stop" });
  });

  test("after the first search, a plain search waits for the docs still loading and answers with them", async () => {
    const release = serveDocsHoldingQm();
    const l = loader({ docsGraceMs: 600_000 });
    const first = await search(l, "pull the plug on a hung VM");
    expect(first.docs).toBe("still loading; this answer is from the schema alone");
    const waiting = nextWait(l);
    const later = search(l, "pull the plug on a hung VM");
    await waiting;
    release();
    const answer = await later;
    expect(answer.docs).toContain("(2 pages;");
    expect(answer.results[0]).toMatchObject({ method: "POST", path: "/nodes/{node}/qemu/{vmid}/status/stop" });
  });

  test("slow docs cost the searches the grace once: when it has run out, later searches answer at once", async () => {
    const release = serveDocsHoldingQm();
    const graceMs = 300;
    const l = loader({ docsGraceMs: graceMs });
    await search(l, "pull the plug on a hung VM");
    const started = performance.now();
    const second = await search(l, "pull the plug on a hung VM");
    expect(performance.now() - started).toBeGreaterThanOrEqual(graceMs - 20);
    expect(second.docs).toBe("still loading; this answer is from the schema alone");
    // A wait of its own would take the grace again; the third answers well within it.
    const third = await Promise.race([
      search(l, "pull the plug on a hung VM"),
      Bun.sleep(graceMs - 50).then(() => "still waiting" as const),
    ]);
    expect(third).not.toBe("still waiting");
    expect(third !== "still waiting" && third.docs).toBe("still loading; this answer is from the schema alone");
    // Nor does a query naming a CLI tool wait again.
    const cli = await Promise.race([
      search(l, "qm stop 100"),
      Bun.sleep(graceMs - 50).then(() => "still waiting" as const),
    ]);
    expect(cli !== "still waiting" && cli.docs).toBe("still loading; this answer is from the schema alone");
    release();
    await l.docsSettled();
    expect((await search(l, "pull the plug on a hung VM")).docs).toContain("(2 pages;");
  });

  test("a search cancelled while it waits for the docs stops waiting", async () => {
    const release = serveDocsHoldingQm();
    const l = loader({ docsGraceMs: 600_000 });
    await search(l, "pull the plug on a hung VM");
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const waiting = new Promise<void>((resolve) => {
      const awaited = l.docsAwaited.bind(l);
      l.docsAwaited = async (signal?: AbortSignal) => {
        resolve();
        await awaited(signal);
        stop();
      };
    });
    const cancel = new AbortController();
    const call = harness!
      .call("proxmox_search_endpoints", { query: "pull the plug on a hung VM" }, { signal: cancel.signal })
      .catch(() => "cancelled");
    await waiting;
    cancel.abort();
    expect(await call).toBe("cancelled");
    const outcome = await Promise.race([stopped.then(() => "stopped"), Bun.sleep(2_000).then(() => "waiting")]);
    expect(outcome).toBe("stopped");
    expect(l.docs().state).toBe("loading");
    release();
  });

  test("a docs load after a failed one is never waited for", async () => {
    const l = loader({ docsGraceMs: 600_000 });
    await loaded(l);
    expect(l.docs().state).toBe("unavailable");
    const release = serveDocsHoldingQm();
    const answer = await search(l, "pull the plug on a hung VM");
    expect(answer.docs).toContain("the docs are tried again later");
    expect(l.docs().state).toBe("loading");
    release();
  });

  test("a page that never answers times out; the load ends and the rest is used", async () => {
    cluster.serveDocs(docsDir);
    cluster.file(`${DOCS_PATH}pct.1.html`, () => ({ hang: true }));
    const l = loader({ timeoutMs: 300, docsGraceMs: 0 });
    await loaded(l);
    const status = l.docs();
    expect(status.state === "loaded" && status.bundle.skipped).toEqual([
      { page: "pct.1.html", outcome: "gave no complete answer within 300 ms" },
    ]);
  });
});

describe("where they come from", () => {
  test("PROXMOX_DOCS=off: no page is ever requested", async () => {
    cluster.serveDocs(docsDir);
    const l = loader({ config: { docs: parseDocsSetting("off") } });
    await loaded(l);
    await search(l, "qm stop 100");
    expect(docsRequests(cluster)).toEqual([]);
    expect(l.docs()).toEqual({ state: "off" });
  });

  test("a local directory (air-gapped sites): read from the files, nothing fetched", async () => {
    const l = loader({ config: { docs: parseDocsSetting(docsDir) } });
    const catalog = await loaded(l);
    expect(catalog.docs?.source).toEqual({ kind: "configured", location: docsDir });
    expect(docsRequests(cluster)).toEqual([]);
    expect(top(l, "qm stop 100")[0]).toBe(STOP);
  });

  test("beside a local PROXMOX_SCHEMA_URL: the directory above api-viewer/", async () => {
    const viewer = join(docsDir, "api-viewer");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(viewer, { recursive: true });
    writeFileSync(join(viewer, "apidoc.js"), SCHEMA);
    const l = loader({ config: { schema: parseSchemaUrl(join(viewer, "apidoc.js")) } });
    const catalog = await loaded(l);
    expect(catalog.docs?.source).toEqual({ kind: "configured", location: docsDir });
    expect(docsRequests(cluster)).toEqual([]);
  });

  test("beside a PROXMOX_SCHEMA_URL on another origin: fetched from there with public trust, never from the cluster", async () => {
    publicHost.serveDocs(docsDir);
    publicHost.file(VIEWER_PATH, () => ({ body: SCHEMA, contentType: "application/javascript" }));
    const pki = sharedTestPki();
    const l = loader({
      config: { schema: parseSchemaUrl(`${publicHost.url}${VIEWER_PATH}`) },
      publicDispatcher: createAgent({ ca: pki.caPem, verifyTls: true, timeoutMs: 5000 }),
    });
    const catalog = await loaded(l);
    expect(catalog.docs?.source).toEqual({ kind: "configured", location: `${publicHost.url}${DOCS_PATH}` });
    expect(docsRequests(cluster)).toEqual([]);
    expect(docsRequests(publicHost)).toHaveLength(FIXTURE_DOC_PAGES.length);
  });

  test("each host's catalog gets that host's docs: the source belongs to the loader, not the process", async () => {
    cluster.serveDocs(docsDir);
    const onlyQm = mkdtempSync(join(tmpdir(), "pve-docs-qm-"));
    writeFileSync(join(onlyQm, "qm.1.html"), FIXTURE_DOCS["qm.1.html"]!);
    publicHost.serveDocs(onlyQm);
    publicHost.file(VIEWER_PATH, () => ({ body: SCHEMA, contentType: "application/javascript" }));
    try {
      const a = loader();
      const b = loader({ connection: connectionFor(publicHost) });
      const [ca, cb] = await Promise.all([loaded(a), loaded(b)]);
      expect(ca.docs?.pages).toBe(2);
      expect(cb.docs?.pages).toBe(1);
      expect(cb.docs?.source.location).toBe(`${publicHost.url}${DOCS_PATH}`);
    } finally {
      rmSync(onlyQm, { recursive: true, force: true });
    }
  });
});
