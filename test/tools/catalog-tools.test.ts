// Issue 3 "done when": both tools listed and working through the MCP client against the
// loopback fake cluster serving the real PVE 9.1 schema at /pve-docs/api-viewer/apidoc.js.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { readFileSync } from "node:fs";
import { DOCS_PAGES } from "../../src/catalog/docs-loader.ts";
import { CatalogLoader, VIEWER_PATH } from "../../src/catalog/loader.ts";
import { silentLogger } from "../../src/log.ts";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { VIEWER_CODE } from "../support/catalog.ts";
import { connectHarness, connectionFor, textOf, type Harness } from "../support/mcp.ts";
import { DOCS_DIR, haveSharedData, SCHEMA_DIR, SCHEMA_FILES } from "../support/shared.ts";

const present = haveSharedData("catalog tool tests", SCHEMA_DIR);

let fake: FakeProxmox;
let loader: CatalogLoader;
let h: Harness;

beforeAll(async () => {
  fake = await FakeProxmox.start();
  if (present) {
    const published = readFileSync(SCHEMA_FILES["9.1"].file, "utf8") + VIEWER_CODE;
    fake.file(VIEWER_PATH, () => ({ body: published, contentType: "application/javascript" }));
    fake.serveDocs(DOCS_DIR);
  }
  loader = new CatalogLoader({
    config: {},
    connection: connectionFor(fake),
    log: silentLogger,
    publicUrl: `https://127.0.0.1:9${VIEWER_PATH}`,
    publicDocsUrl: "https://127.0.0.1:9/pve-docs/",
  });
  h = await connectHarness(fake, { deps: { catalog: loader } });
  if (present) {
    // The real docs take a moment to parse; the tests below are about answers, not about that wait.
    await loader.get();
    await loader.docsSettled();
  }
}, 60_000);
afterAll(async () => {
  await h.close();
  await loader.close();
  await fake.stop();
});

const SOURCE = () => `cluster ${fake.url}${VIEWER_PATH}`;

type Hit = { method: string; path: string; description: string; refuses_api_tokens?: true };
function hits(result: CallToolResult): Hit[] {
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as { results: Hit[] }).results;
}

describe("listing", () => {
  test("both tools are listed, read-only, with a title and all four annotations, also in read-only mode", async () => {
    for (const readOnly of [false, true]) {
      const harness = await connectHarness(fake, { client: { readOnly }, deps: { readOnly, catalog: loader } });
      try {
        const { tools } = await harness.client.listTools();
        for (const name of ["proxmox_search_endpoints", "proxmox_describe_endpoint"]) {
          const tool = tools.find((t) => t.name === name);
          expect(tool?.title).toBeString();
          expect(tool?.annotations).toEqual({
            readOnlyHint: true,
            destructiveHint: false,
            idempotentHint: true,
            openWorldHint: true,
          });
        }
      } finally {
        await harness.close();
      }
    }
  });
});

describe.skipIf(!present)("proxmox_search_endpoints on PVE 9.1", () => {
  test("plain words find the endpoint; the result names its source; the schema was fetched once, without a token", async () => {
    const result = await h.call("proxmox_search_endpoints", { query: "take a snapshot of VM 100" });
    expect(hits(result)[0]).toEqual({
      method: "POST",
      path: "/nodes/{node}/qemu/{vmid}/snapshot",
      description: "Snapshot a VM.",
    });
    expect(result.structuredContent).toMatchObject({ source: SOURCE(), query: "take a snapshot of VM 100" });
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    const fetched = fake.requests.filter((r) => r.path === VIEWER_PATH);
    expect(fetched).toHaveLength(1);
    expect(fetched[0]!.headers.authorization).toBeUndefined();
  });

  test("endpoints that refuse API tokens are flagged", async () => {
    const result = await h.call("proxmox_search_endpoints", {
      query: "log in with user name and password for a ticket",
    });
    expect(hits(result).find((hit) => hit.path === "/access/ticket")).toMatchObject({
      method: "POST",
      refuses_api_tokens: true,
    });
  });

  test("method filter, limit and offset; next_offset while more remain", async () => {
    const first = await h.call("proxmox_search_endpoints", { query: "firewall rules", method: "GET", limit: 3 });
    expect(hits(first)).toHaveLength(3);
    expect(hits(first).every((hit) => hit.method === "GET")).toBe(true);
    expect(first.structuredContent).toMatchObject({ next_offset: 3 });
    const second = await h.call("proxmox_search_endpoints", {
      query: "firewall rules",
      method: "GET",
      limit: 3,
      offset: 3,
    });
    expect(hits(second)[0]).not.toEqual(hits(first)[0]);
    expect((second.structuredContent as { total: number }).total).toBe(
      (first.structuredContent as { total: number }).total,
    );
  });

  test("nothing found suggests broader words", async () => {
    const result = await h.call("proxmox_search_endpoints", { query: "xyzzy plugh" });
    const { total, results, hint } = result.structuredContent as { total: number; results: unknown[]; hint: string };
    expect({ total, results }).toEqual({ total: 0, results: [] });
    expect(hint).toContain("broader");
    expect(hint).toContain("path_prefix");
  });

  test("a CLI command of the cluster's man pages finds the endpoint it calls, and says so", async () => {
    const result = await h.call("proxmox_search_endpoints", { query: "qm set 100 --memory 4096" });
    expect(hits(result)[0]).toMatchObject({ method: "PUT", path: "/nodes/{node}/qemu/{vmid}/config" });
    expect(result.structuredContent).toMatchObject({
      docs: expect.stringMatching(
        new RegExp(
          `^cluster ${fake.url}/pve-docs/ \\(${DOCS_PAGES.length} pages; \\d+ CLI commands mapped to endpoints\\)$`,
        ),
      ),
      recognized: ["qm set calls PUT /nodes/{node}/qemu/{vmid}/config (from the qm man page)"],
    });
    const pct = await h.call("proxmox_search_endpoints", { query: "pct set 200 --memory 2048" });
    expect(hits(pct)[0]).toMatchObject({ method: "PUT", path: "/nodes/{node}/lxc/{vmid}/config" });
  });

  test.each([
    ["pvesh get /cluster/resources", "GET /cluster/resources"],
    ["pvesh set /nodes/pve1/dns --search example.com", "PUT /nodes/{node}/dns"],
    ["pvesh create /nodes/pve1/qemu/100/snapshot --snapname pre", "POST /nodes/{node}/qemu/{vmid}/snapshot"],
    ["pvesh delete /access/users/bob@pve", "DELETE /access/users/{userid}"],
    ["pvesh ls /cluster/ha", "GET /cluster/ha"],
    ["DELETE /nodes/pve1/qemu/100/snapshot/pre", "DELETE /nodes/{node}/qemu/{vmid}/snapshot/{snapname}"],
    ["what does GET /api2/json/nodes/pve1/lxc/101/config return", "GET /nodes/{node}/lxc/{vmid}/config"],
  ])("%s names %s", async (query, expected) => {
    const result = await h.call("proxmox_search_endpoints", { query });
    const [first] = hits(result);
    expect(`${first!.method} ${first!.path}`).toBe(expected);
    expect((result.structuredContent as { recognized: string[] }).recognized).toHaveLength(1);
  });

  test("path_prefix alone lists the endpoints under a path, in tree order, paged", async () => {
    const result = await h.call("proxmox_search_endpoints", { path_prefix: "/cluster/ha", limit: 5 });
    const list = hits(result);
    expect(list[0]).toEqual({ method: "GET", path: "/cluster/ha", description: "Directory index." });
    expect(list.every((hit) => hit.path.startsWith("/cluster/ha"))).toBe(true);
    expect(result.structuredContent).toMatchObject({ path_prefix: "/cluster/ha", next_offset: 5 });
    const all = hits(await h.call("proxmox_search_endpoints", { path_prefix: "/cluster/ha", limit: 100 }));
    expect((result.structuredContent as { total: number }).total).toBe(all.length);
    expect(all.map((x) => `${x.method} ${x.path}`)).toContain("POST /cluster/ha/resources/{sid}/migrate");
  });

  test("path_prefix takes a concrete path, and narrows a query to that subtree", async () => {
    const storage = hits(await h.call("proxmox_search_endpoints", { path_prefix: "/nodes/pve1/storage", limit: 100 }));
    expect(storage.length).toBeGreaterThan(5);
    expect(storage.every((x) => x.path.startsWith("/nodes/{node}/storage"))).toBe(true);
    const narrowed = hits(
      await h.call("proxmox_search_endpoints", { query: "firewall rules", path_prefix: "/nodes/{node}/lxc" }),
    );
    expect(narrowed.length).toBeGreaterThan(0);
    expect(narrowed.every((x) => x.path.startsWith("/nodes/{node}/lxc/"))).toBe(true);
  });

  test("an unknown path_prefix says what to try instead; neither query nor path_prefix is an error", async () => {
    const none = await h.call("proxmox_search_endpoints", { path_prefix: "/nosuch" });
    expect(none.structuredContent).toMatchObject({
      total: 0,
      results: [],
      hint: expect.stringContaining("shorter prefix"),
    });
    const neither = await h.call("proxmox_search_endpoints", {});
    expect(neither.isError).toBe(true);
    expect(textOf(neither)).toContain("Give a query, a path_prefix, or both.");
  });

  test("a limit over 100 is refused by the input schema", async () => {
    const result = await h.call("proxmox_search_endpoints", { query: "vm", limit: 101 });
    expect(result.isError).toBe(true);
  });
});

describe.skipIf(!present)("proxmox_describe_endpoint on PVE 9.1", () => {
  test("a concrete path is matched to its template and described", async () => {
    const result = await h.call("proxmox_describe_endpoint", { path: "/nodes/pve1/qemu/100/snapshot", method: "POST" });
    expect(result.isError).toBeFalsy();
    const d = result.structuredContent as Record<string, unknown> & { methods: Array<Record<string, unknown>> };
    expect(d.source).toBe(SOURCE());
    expect(d.path).toBe("/nodes/{node}/qemu/{vmid}/snapshot");
    expect(d.matched).toEqual({ input: "/nodes/pve1/qemu/100/snapshot", params: { node: "pve1", vmid: "100" } });
    expect(d.children).toEqual(["/nodes/{node}/qemu/{vmid}/snapshot/{snapname}"]);
    expect(d.methods).toHaveLength(1);
    expect(d.methods[0]).toMatchObject({
      method: "POST",
      name: "snapshot",
      allowtoken: true,
      protected: true,
      proxyto: "node",
      download_allowed: false,
      permissions: { check: "VM.Snapshot on /vms/{vmid}" },
      returns: { type: "string" },
    });
    expect(d.methods[0]!.parameters).toContainEqual({
      name: "snapname",
      type: "string",
      optional: false,
      format: "pve-configid",
      typetext: "<string>",
      description: "The name of the snapshot.",
    });
  });

  test("the largest path stays far below the 512 KiB answer cap", async () => {
    const result = await h.call("proxmox_describe_endpoint", { path: "/nodes/{node}/qemu/{vmid}/config" });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result).length).toBeLessThan(256 * 1024);
  });

  test("an unknown path is an error that names the closest existing ones", async () => {
    const result = await h.call("proxmox_describe_endpoint", { path: "/nodes/pve1/qemu/100/snapshots" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      "/nodes/pve1/qemu/100/snapshots is not a path of the Proxmox API (649 endpoints known)",
    );
    const error = (result.structuredContent as { error: { code: string; closest: string[] } }).error;
    expect(error.code).toBe("unknown_path");
    expect(error.closest[0]).toBe("/nodes/{node}/qemu/{vmid}/snapshot");
  });

  test("an unknown method names the methods there are", async () => {
    const result = await h.call("proxmox_describe_endpoint", { path: "/version", method: "DELETE" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("/version has no DELETE method; it has GET.");
  });
});

describe("without a catalog provider", () => {
  test("the tools say the catalog is unavailable instead of failing obscurely", async () => {
    const bare = await connectHarness(fake);
    try {
      const result = await bare.call("proxmox_search_endpoints", { query: "vm" });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("no API catalog could be loaded: this server has no catalog source");
    } finally {
      await bare.close();
    }
  });
});
