import { afterEach, describe, expect, test } from "bun:test";
import { fakeForFile } from "../support/fake.ts";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Catalog } from "../../src/catalog/catalog.ts";
import { staticCatalogProvider } from "../../src/catalog/loader.ts";
import { MINI_APIDOC_JS } from "../fixtures/mini-schema.ts";
import { connectHarness, textOf, type Harness } from "../support/mcp.ts";

const fake = await fakeForFile({ nodes: ["pve1", "pve2"] });
let h: Harness;
const catalog = Catalog.fromText(MINI_APIDOC_JS, { kind: "inline", location: "mini-schema" });

afterEach(async () => {
  await h?.close();
});

async function open(withCatalog = true): Promise<Harness> {
  h = await connectHarness(fake, withCatalog ? { deps: { catalog: staticCatalogProvider(catalog) } } : {});
  return h;
}

function hints(result: CallToolResult): string[] {
  expect(result.isError).toBe(true);
  return ((result.structuredContent as { error: { hints?: string[] } }).error.hints ?? []) as string[];
}

describe("errors that teach", () => {
  test("403: the privilege the endpoint needs, from its permissions", async () => {
    fake.route("POST", "/nodes/{node}/qemu/{vmid}/status/start", () => ({
      status: 403,
      message: "Permission check failed (/vms/101, VM.PowerMgmt)",
    }));
    await open();
    const result = await h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/101/status/start" });
    expect(hints(result)).toContain("POST /nodes/{node}/qemu/{vmid}/status/start needs VM.PowerMgmt on /vms/{vmid}.");
  });

  test("403 on an endpoint with allowtoken 0: no API token can call it", async () => {
    fake.route("PUT", "/access/password", () => ({
      status: 403,
      message: "URI '/access/password' not available with API token, need proper ticket.",
    }));
    await open();
    const result = await h.call("proxmox_request", {
      method: "PUT",
      path: "/access/password",
      parameters: { userid: "a@pve", password: "x" },
    });
    expect(hints(result).join("\n")).toContain("no token can call it");
  });

  test("400: the rejected parameters and the accepted ones with types", async () => {
    fake.route("POST", "/nodes/{node}/qemu/{vmid}/status/start", () => ({
      status: 400,
      message: "Parameter verification failed.",
      errors: { timeot: "property is not defined in schema and the schema does not allow additional properties" },
    }));
    await open();
    const result = await h.call("proxmox_request", {
      method: "POST",
      path: "/nodes/pve1/qemu/100/status/start",
      parameters: { timeot: 5 },
    });
    expect(textOf(result)).toContain("Rejected parameters: timeot: property is not defined");
    expect(hints(result).join("\n")).toContain("accepts: timeout (integer)");
  });

  test("501: up to three closest endpoints with their methods", async () => {
    await open();
    const result = await h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/100/status/stopp" });
    const text = hints(result).join("\n");
    expect(text).toContain("Closest existing endpoints:");
    expect(text).toContain("POST /nodes/{node}/qemu/{vmid}/status/stop");
  });

  test("501 on a path that exists with this method: the values in the path, not the methods", async () => {
    fake.route("POST", "/nodes/{node}/qemu/{vmid}/status/start", (req) => ({
      status: 501,
      message: `Method 'POST ${req.path}' not implemented`,
    }));
    await open();
    const result = await h.call("proxmox_request", { method: "POST", path: "/nodes/PVE1/qemu/100/status/start" });
    const text = hints(result).join("\n");
    expect(text).not.toContain("but not with POST");
    expect(text).toContain("check node 'PVE1', vmid '100'");
    expect(text).toContain("use 'pve1', not 'PVE1'");
    expect(textOf(result)).toContain("use 'pve1', not 'PVE1'");
    expect(fake.apiRequests().map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /nodes/PVE1/qemu/100/status/start",
      "GET /nodes",
    ]);
  });

  test("501 with a method the path does not take: the methods it takes", async () => {
    await open();
    const result = await h.call("proxmox_request", { method: "PUT", path: "/nodes/pve1/qemu/100/status/start" });
    expect(hints(result).join("\n")).toContain(
      "/nodes/{node}/qemu/{vmid}/status/start exists, but not with PUT; it takes POST",
    );
  });

  test.each([
    [595, "Connection timed out"],
    [596, "Broken pipe"],
    [500, "hostname lookup 'PVE1' failed - failed to get address info for: PVE1: Name or service not known"],
  ])("%d node problem: the cluster's real node names from one GET /nodes", async (status, message) => {
    fake.route("GET", "/nodes/{node}/qemu", () => ({ status, message }));
    await open(false);
    const result = await h.call("proxmox_get", { path: "/nodes/PVE1/qemu" });
    const text = hints(result).join("\n");
    expect(text).toContain("This cluster's nodes: pve1 (online), pve2 (online).");
    expect(text).toContain("use 'pve1', not 'PVE1'");
    expect(fake.apiRequests().map((r) => `${r.method} ${r.path}`)).toEqual(["GET /nodes/PVE1/qemu", "GET /nodes"]);
  });

  test("500 does not exist: the object is missing; how to list what exists", async () => {
    fake.route("GET", "/nodes/{node}/qemu/{vmid}/config", () => ({
      status: 500,
      message: "Configuration file 'nodes/pve1/qemu-server/999.conf' does not exist",
    }));
    await open();
    const text = hints(await h.call("proxmox_get", { path: "/nodes/pve1/qemu/999/config" })).join("\n");
    expect(text).toContain("The object does not exist");
    expect(text).toContain("List what exists with GET /nodes/pve1/qemu/999");
  });

  test("401: token, expiry, disabled user and the PROXMOX_TOKEN_ID format", async () => {
    h = await connectHarness(fake, {
      env: { PROXMOX_TOKEN_SECRET: "not-the-secret" },
      deps: { catalog: staticCatalogProvider(catalog) },
    });
    const text = hints(await h.call("proxmox_get", { path: "/version" })).join("\n");
    for (const words of ["user@realm!tokenid", "expired", "enabled", "PROXMOX_TOKEN_SECRET"])
      expect(text).toContain(words);
  });

  test("without a catalog the error still comes back, with the basic hint", async () => {
    fake.route("POST", "/nodes/{node}/qemu/{vmid}/status/start", () => ({
      status: 403,
      message: "Permission check failed (/vms/101, VM.PowerMgmt)",
    }));
    await open(false);
    const result = await h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/101/status/start" });
    expect(hints(result)).toHaveLength(1);
    expect(textOf(result)).toContain("VM.PowerMgmt");
  });

  test("a catalog that cannot load in time does not hold up the error for long", async () => {
    fake.route("POST", "/nodes/{node}/qemu/{vmid}/status/start", () => ({
      status: 403,
      message: "Permission check failed (/vms/101, VM.PowerMgmt)",
    }));
    const never = {
      peek: () => undefined,
      get: (signal?: AbortSignal) =>
        new Promise<never>((_, reject) => signal?.addEventListener("abort", () => reject(new Error("gave up")))),
    };
    h = await connectHarness(fake, { deps: { catalog: never } });
    const started = performance.now();
    const result = await h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/101/status/start" });
    expect(result.isError).toBe(true);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe("schema-aware help before sending", () => {
  test("'true'/'false' for a boolean parameter are sent as 1/0; unknown names warn but are sent", async () => {
    fake.route("POST", "/nodes/{node}/qemu/{vmid}/config", (req) => ({ data: req.params }));
    await open();
    const result = await h.call("proxmox_request", {
      method: "POST",
      path: "/nodes/pve1/qemu/100/config",
      parameters: { onboot: "true", memroy: "2048" },
    });
    expect(result.isError).toBeFalsy();
    expect(fake.apiRequests()[0]!.params).toEqual({ onboot: "1", memroy: "2048" });
    const warnings = (result.structuredContent as { warnings: string[] }).warnings;
    expect(warnings[0]).toContain("'memroy'");
  });

  test("without a loaded catalog the parameters go as given", async () => {
    fake.route("POST", "/nodes/{node}/qemu/{vmid}/config", (req) => ({ data: req.params }));
    await open(false);
    await h.call("proxmox_request", {
      method: "POST",
      path: "/nodes/pve1/qemu/100/config",
      parameters: { onboot: "true" },
    });
    expect(fake.apiRequests()[0]!.params).toEqual({ onboot: "true" });
  });
});
