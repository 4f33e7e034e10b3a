// Several hosts (PROXMOX_HOSTS) through the real MCP client: two loopback fakes with different
// CAs, tokens, nodes and Proxmox versions. Each test asserts what each fake received.
import { describe, expect, test } from "bun:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { readFileSync } from "node:fs";
import { VIEWER_PATH } from "../../src/catalog/loader.ts";
import { hostVariable } from "../../src/hosts/labels.ts";
import { toolPortabilityProblems, type ListedTool } from "../../scripts/portability.ts";
import { apidata, MINI_API, VIEWER_CODE } from "../support/catalog.ts";
import { SITE_A, SITE_B, useTwoHosts, type HostsHarness } from "../support/hosts.ts";
import { textOf, ALL_TOOLS } from "../support/mcp.ts";
import { haveSharedData, SCHEMA_FILES } from "../support/shared.ts";

const two = useTwoHosts();
const LABELS = ["site-a", "site-b"];

type Structured = Record<string, unknown> & { host?: string; error?: Record<string, unknown> };
const structured = (result: CallToolResult) => result.structuredContent as Structured;

function serveSchema(fake: typeof two.a, text: string): void {
  fake.file(VIEWER_PATH, () => ({ body: text, contentType: "application/javascript" }));
}

describe("the tool list", () => {
  test("every tool takes host, a required enum of the labels, and stays portable", async () => {
    const h = await two.open();
    const { tools } = await h.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS);
    for (const tool of tools) {
      const host = tool.inputSchema.properties?.host as { type: string; enum: string[]; description: string };
      expect(host).toEqual({ type: "string", enum: LABELS, description: expect.any(String) });
      expect(host.description.length).toBeLessThanOrEqual(20);
      expect(tool.inputSchema.required).toContain("host");
    }
    expect(toolPortabilityProblems(tools as ListedTool[])).toEqual([]);
    // the labels and the short description cost a little per tool, not a second tool list
    expect(Buffer.byteLength(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tools } }))).toBeLessThan(9 * 1024);
  });

  test("writing tools offer only the hosts that accept writes; with none they are not listed", async () => {
    let h = await two.open(two.env({ PROXMOX_SITE_B_READ_ONLY: "true" }));
    let tools = (await h.client.listTools()).tools;
    const enumOf = (name: string) =>
      (tools.find((t) => t.name === name)?.inputSchema.properties?.host as { enum: string[] }).enum;
    expect(enumOf("proxmox_request")).toEqual(["site-a"]);
    expect(enumOf("proxmox_upload")).toEqual(["site-a"]);
    expect(enumOf("proxmox_get")).toEqual(LABELS);
    const refused = await h.call("proxmox_request", { host: "site-b", method: "POST", path: "/nodes/beta1/qemu" });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("host must be one of: site-a");
    expect(two.seen(two.b)).toEqual([]);

    h = await two.open(two.env({ PROXMOX_READ_ONLY: "true" }));
    tools = (await h.client.listTools()).tools;
    expect(tools.map((t) => t.name)).not.toContain("proxmox_request");
    expect(tools.map((t) => t.name)).not.toContain("proxmox_upload");
  });

  test("the instructions name the labels, and each host's version once known", async () => {
    let h = await two.open();
    let instructions = h.client.getInstructions() ?? "";
    expect(instructions).toContain("several separate hosts or clusters");
    expect(instructions).toContain(": site-a, site-b.");
    expect(instructions).toContain("Every tool takes host");
    h = await two.open(two.env({ PROXMOX_SITE_B_READ_ONLY: "true" }), { learnVersions: true });
    instructions = h.client.getInstructions() ?? "";
    expect(instructions).toContain("site-a (Proxmox VE 8.4.1), site-b (Proxmox VE 9.1.1, read-only).");
    expect(two.seen(two.a)).toEqual(["GET /version"]);
    expect(two.seen(two.b)).toEqual(["GET /version"]);
  });
});

describe("isolation", () => {
  test("a call reaches only the named host, with only that host's token", async () => {
    const h = await two.open();
    const fromA = await h.call("proxmox_get", { host: "site-a", path: "/nodes" });
    expect(fromA.isError).toBeFalsy();
    expect((structured(fromA).data as { node: string }[]).map((n) => n.node)).toEqual(["alpha1", "alpha2"]);
    expect(two.seen(two.a)).toEqual(["GET /nodes"]);
    expect(two.seen(two.b)).toEqual([]);

    const fromB = await h.call("proxmox_get", { host: "site-b", path: "/nodes" });
    expect((structured(fromB).data as { node: string }[]).map((n) => n.node)).toEqual(["beta1", "beta2"]);
    expect(two.seen(two.a)).toEqual(["GET /nodes"]);
    expect(two.seen(two.b)).toEqual(["GET /nodes"]);

    // every request each fake ever saw carried its own token and never the other's
    for (const [fake, own, other] of [
      [two.a, SITE_A, SITE_B],
      [two.b, SITE_B, SITE_A],
    ] as const) {
      for (const request of fake.requests) {
        expect(request.headers.authorization).toBe(`PVEAPIToken=${own.tokenId}=${own.tokenSecret}`);
        const raw = JSON.stringify(request.headers) + request.url + request.body.toString("utf8");
        expect(raw).not.toContain(other.tokenSecret);
        expect(raw).not.toContain(other.tokenId);
      }
    }
  });

  test("each host trusts only its own CA: site-b with site-a's CA fails its TLS handshake, site-a still works", async () => {
    const h = await two.open(two.env({ PROXMOX_SITE_B_CA_FILE: two.env().PROXMOX_SITE_A_CA_FILE! }));
    const fromB = await h.call("proxmox_get", { host: "site-b", path: "/version" });
    expect(fromB.isError).toBe(true);
    expect(structured(fromB).error).toMatchObject({ failure: "tls", host: "site-b" });
    // the hint names the host's own setting, not the single-host one
    expect(textOf(fromB)).toContain(hostVariable("site-b", "CA_FILE"));
    expect(textOf(fromB)).not.toMatch(/PROXMOX_CA_FILE\b/);
    expect(two.b.apiRequests()).toEqual([]);
    const fromA = await h.call("proxmox_get", { host: "site-a", path: "/version" });
    expect(structured(fromA)).toMatchObject({ host: "site-a", data: { version: "8.4.1" } });
  });

  test("an unknown or missing host is refused with the list of labels, and nothing is sent", async () => {
    const h = await two.open();
    for (const args of [{ host: "site-c", path: "/version" }, { path: "/version" }]) {
      const result = await h.call("proxmox_get", args);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("host must be one of: site-a, site-b");
    }
    // the server's own check behind the schema: the same list
    expect(() => h.hosts.resolve("site-c")).toThrow("host must be one of site-a, site-b");
    expect([...two.a.apiRequests(), ...two.b.apiRequests()]).toEqual([]);
  });

  test("results name the host they came from, in the text too", async () => {
    two.b.route("GET", "/cluster/resources", () => ({ status: 500, message: "cluster not ready" }));
    const h = await two.open();
    const ok = await h.call("proxmox_get", { host: "site-b", path: "/version" });
    expect(JSON.parse(textOf(ok))).toEqual({
      host: "site-b",
      data: { version: "9.1.1", release: "9.1", repoid: "fake0000" },
    });
    const failed = await h.call("proxmox_get", { host: "site-b", path: "/cluster/resources" });
    expect(textOf(failed)).toStartWith("Host site-b: GET /cluster/resources failed: HTTP 500 cluster not ready");
    expect(structured(failed).error).toMatchObject({ host: "site-b", status: 500 });
  });

  test("a rejected token's hint names that host's token settings", async () => {
    const h = await two.open(two.env({ PROXMOX_SITE_A_TOKEN_SECRET: "00000000-wrong-secret" }));
    const text = textOf(await h.call("proxmox_get", { host: "site-a", path: "/version" }));
    expect(text).toContain("HTTP 401");
    expect(text).toContain("PROXMOX_SITE_A_TOKEN_ID is user@realm!tokenid");
    expect(text).toContain("PROXMOX_SITE_A_TOKEN_SECRET is that token's secret");
  });

  test("every host's token id and secret are redacted from every result of every host", async () => {
    const leak = `${SITE_A.tokenId} ${SITE_A.tokenSecret} ${encodeURIComponent(SITE_A.tokenSecret)} ${SITE_B.tokenSecret}`;
    two.b.route("GET", "/leak/error", () => ({ status: 500, message: `bad: ${leak}` }));
    two.b.route("GET", "/leak/data", () => ({ data: { note: leak } }));
    const h = await two.open();
    for (const path of ["/leak/error", "/leak/data"]) {
      const result = await h.call("proxmox_get", { host: "site-b", path });
      const all = textOf(result) + JSON.stringify(result.structuredContent);
      expect(all).toContain("[redacted");
      for (const secret of [SITE_A.tokenSecret, SITE_B.tokenSecret, encodeURIComponent(SITE_A.tokenSecret)])
        expect(all).not.toContain(secret);
      // errors lose every token id too; successful answers keep ids (UPIDs and ACLs name them)
      if (result.isError) expect(all).not.toContain(SITE_A.tokenId);
    }
  });
});

/** A call that will not be answered: whether it has settled yet, and a way to cancel it. */
function hanging(h: HostsHarness, name: string, args: Record<string, unknown>) {
  const cancel = new AbortController();
  let settled = false;
  const done = h
    .call(name, args, { signal: cancel.signal })
    .catch(() => undefined)
    .finally(() => (settled = true));
  return {
    settled: () => settled,
    cancel: async () => {
      cancel.abort();
      await done;
    },
  };
}

describe("a slow or dead host never delays another", () => {
  test("site-b answers while a call to site-a hangs", async () => {
    two.a.route("GET", "/cluster/resources", () => ({ hang: true }));
    const h = await two.open();
    const reached = two.a.nextRequest();
    const stuck = hanging(h, "proxmox_get", { host: "site-a", path: "/cluster/resources" });
    await reached;
    const fromB = await h.call("proxmox_get", { host: "site-b", path: "/version" });
    expect(structured(fromB)).toMatchObject({ host: "site-b", data: { version: "9.1.1" } });
    expect(stuck.settled()).toBe(false);
    await stuck.cancel();
  });

  test("site-b's catalog loads while site-a's viewer hangs, and with site-a down altogether", async () => {
    two.a.file(VIEWER_PATH, () => ({ hang: true }));
    serveSchema(two.b, apidata(MINI_API) + VIEWER_CODE);
    let h = await two.open();
    const stuck = hanging(h, "proxmox_search_endpoints", { host: "site-a", query: "list vms" });
    // site-a's docs pages load beside its viewer; what hangs is the viewer
    expect((await two.a.requestTo(VIEWER_PATH)).path).toBe(VIEWER_PATH);
    const fromB = await h.call("proxmox_search_endpoints", { host: "site-b", query: "list vms" });
    expect(fromB.isError).toBeFalsy();
    expect(structured(fromB).host).toBe("site-b");
    expect(stuck.settled()).toBe(false);
    await stuck.cancel();

    // nothing listens at site-a's address: its calls fail on their own, site-b's succeed
    h = await two.open(two.env({ PROXMOX_SITE_A_URL: "https://127.0.0.1:9" }));
    const [deadA, liveB] = await Promise.all([
      h.call("proxmox_get", { host: "site-a", path: "/version" }),
      h.call("proxmox_get", { host: "site-b", path: "/version" }),
    ]);
    expect(structured(deadA).error).toMatchObject({ failure: "connect", host: "site-a" });
    expect(structured(liveB).data).toMatchObject({ version: "9.1.1" });
  });
});

describe("a catalog per host", () => {
  test("loaded from the host the call names, on its first search, and not from the other", async () => {
    serveSchema(two.a, apidata(MINI_API) + VIEWER_CODE);
    serveSchema(two.b, apidata(MINI_API) + VIEWER_CODE);
    const h = await two.open();
    const viewer = (fake: typeof two.a) => fake.requests.filter((r) => r.path === VIEWER_PATH);
    expect(viewer(two.a)).toEqual([]);
    const result = await h.call("proxmox_search_endpoints", { host: "site-b", query: "list virtual machines" });
    expect(structured(result).source).toBe(`cluster ${two.b.url}${VIEWER_PATH}`);
    expect(viewer(two.a)).toEqual([]);
    expect(viewer(two.b)).toHaveLength(1);
    // no Authorization to a catalog host: the token stays with the API
    expect(viewer(two.b)[0]!.headers.authorization).toBeUndefined();
  });

  test("hosts serving identical schema bytes share one parsed catalog, each under its own source", async () => {
    serveSchema(two.a, apidata(MINI_API) + VIEWER_CODE);
    serveSchema(two.b, apidata(MINI_API) + VIEWER_CODE);
    const h = await two.open();
    const [fromA, fromB] = await Promise.all(
      LABELS.map((host) => h.call("proxmox_describe_endpoint", { host, path: "/nodes/{node}/qemu" })),
    );
    expect(structured(fromA!).source).toBe(`cluster ${two.a.url}${VIEWER_PATH}`);
    expect(structured(fromB!).source).toBe(`cluster ${two.b.url}${VIEWER_PATH}`);
    const [catalogA, catalogB] = LABELS.map((label) => h.hosts.resolve(label).catalog!.peek()!);
    expect(catalogA!.endpoints).toBe(catalogB!.endpoints);
    expect(catalogA!.source).not.toEqual(catalogB!.source);
  });

  test("different schema bytes are parsed separately", async () => {
    serveSchema(two.a, apidata(MINI_API) + VIEWER_CODE);
    serveSchema(two.b, apidata(MINI_API.slice(0, 1)) + VIEWER_CODE);
    const h = await two.open();
    for (const host of LABELS) await h.call("proxmox_describe_endpoint", { host, path: "/nodes" });
    const [catalogA, catalogB] = LABELS.map((label) => h.hosts.resolve(label).catalog!.peek()!);
    expect(catalogA!.endpoints).not.toBe(catalogB!.endpoints);
  });

  describe.if(haveSharedData("the 8.4 and 9.1 schemas"))("Proxmox VE 8.4 on site-a, 9.1 on site-b", () => {
    const schema = (version: "8.4" | "9.1") => readFileSync(SCHEMA_FILES[version].file, "utf8");

    test("each host's search and describe use its own version", async () => {
      serveSchema(two.a, schema("8.4"));
      serveSchema(two.b, schema("9.1"));
      const h = await two.open();
      const search = async (host: string) =>
        (
          structured(await h.call("proxmox_search_endpoints", { host, query: "bulk migrate guests", limit: 10 }))
            .results as { path: string }[]
        ).map((r) => r.path);
      expect(await search("site-b")).toContain("/cluster/bulk-action/guest/migrate");
      expect(await search("site-a")).not.toContain("/cluster/bulk-action/guest/migrate");
      const describe = (host: string) =>
        h.call("proxmox_describe_endpoint", { host, path: "/cluster/bulk-action/guest/migrate" });
      const onA = await describe("site-a");
      expect(onA.isError).toBe(true);
      expect(structured(onA).error).toMatchObject({ code: "unknown_path", host: "site-a" });
      const onB = await describe("site-b");
      expect(onB.isError).toBeFalsy();
      expect(structured(onB)).toMatchObject({ host: "site-b", path: "/cluster/bulk-action/guest/migrate" });
      expect(h.hosts.resolve("site-a").catalog!.peek()!.size).toBe(SCHEMA_FILES["8.4"].endpoints);
      expect(h.hosts.resolve("site-b").catalog!.peek()!.size).toBe(SCHEMA_FILES["9.1"].endpoints);
    }, 30_000); // parsing two real schemas

    test("advice on a failed call comes from that host's own catalog", async () => {
      serveSchema(two.a, schema("8.4"));
      serveSchema(two.b, schema("9.1"));
      const h = await two.open();
      // load both catalogs first: advice waits for a catalog only briefly
      for (const host of LABELS) await h.call("proxmox_describe_endpoint", { host, path: "/version" });
      const call = (host: string) => h.call("proxmox_get", { host, path: "/cluster/bulk-action/guest/migrate" });
      const onB = textOf(await call("site-b"));
      expect(onB).toContain("/cluster/bulk-action/guest/migrate exists, but not with GET; it takes POST.");
      const onA = textOf(await call("site-a"));
      expect(onA).toContain("Closest existing endpoints:");
      expect(onA).not.toContain("exists, but not with GET");
    }, 30_000);
  });
});
