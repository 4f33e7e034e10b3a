import { afterEach, describe, expect, test } from "bun:test";
import { fakeForFile } from "../support/fake.ts";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Agent as BunStandInAgent, request as bunStandInRequest } from "undici";
import { FakeProxmox, FAKE_TOKEN_ID, FAKE_TOKEN_SECRET } from "../fake/pve-fake.ts";
import { sharedTestPki } from "../fake/certs.ts";
import { base64Of, decodesToPartOf } from "../support/base64.ts";
import { connectHarness, textOf, type Harness } from "../support/mcp.ts";
import { assertRealUndici, Agent as RealAgent } from "../../src/http/undici.ts";
import type { Dispatcher } from "../../src/http/undici.ts";

const fake = await fakeForFile();
let harness: Harness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function open(env: Record<string, string> = {}, opts: Parameters<typeof connectHarness>[1] = {}): Promise<Harness> {
  harness = await connectHarness(fake, { ...opts, env });
  return harness;
}

function structuredError(result: CallToolResult): Record<string, unknown> {
  expect(result.isError).toBe(true);
  return (result.structuredContent as { error: Record<string, unknown> }).error;
}

function expectNoToken(result: CallToolResult): void {
  const everything = JSON.stringify(result);
  for (const form of [FAKE_TOKEN_SECRET, FAKE_TOKEN_ID, encodeURIComponent(FAKE_TOKEN_ID)]) {
    expect(everything).not.toContain(form);
  }
}

describe("envelope and parameters", () => {
  test("proxmox_get returns the envelope as text and structuredContent", async () => {
    fake.route("GET", "/cluster/resources", () => ({ data: [{ vmid: 100 }], extra: { total: 1 } }));
    const h = await open();
    const result = await h.call("proxmox_get", { path: "/cluster/resources", parameters: { type: "vm" } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ data: [{ vmid: 100 }], total: 1 });
    expect(JSON.parse(textOf(result))).toEqual({ data: [{ vmid: 100 }], total: 1 });
    const seen = fake.apiRequests()[0]!;
    expect(seen.url).toBe("/api2/json/cluster/resources?type=vm");
    expect(seen.headers.authorization).toBe(`PVEAPIToken=${FAKE_TOKEN_ID}=${FAKE_TOKEN_SECRET}`);
    expect(seen.headers["csrfpreventiontoken"]).toBeUndefined();
    expect(seen.body.length).toBe(0);
  });

  test("POST sends a form body with booleans as 1/0 and arrays as repeated keys", async () => {
    fake.route("POST", "/nodes/{node}/qemu/{vmid}/config", (req) => ({ data: req.params }));
    const h = await open();
    const result = await h.call("proxmox_request", {
      method: "POST",
      path: "/nodes/pve1/qemu/100/config",
      parameters: { net0: "virtio,bridge=vmbr0,firewall=1", onboot: true, balloon: 0, tags: ["a", "b"] },
    });
    expect(result.isError).toBeFalsy();
    const seen = fake.apiRequests()[0]!;
    expect(seen.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(seen.url).toBe("/api2/json/nodes/pve1/qemu/100/config");
    expect(seen.params).toEqual({ net0: "virtio,bridge=vmbr0,firewall=1", onboot: "1", balloon: "0", tags: ["a", "b"] });
    expect(seen.headers["transfer-encoding"]).toBeUndefined();
  });

  test("PUT sends a form body too; DELETE puts parameters in the query and sends no body", async () => {
    fake.route("PUT", "/nodes/{node}/qemu/{vmid}/resize", () => ({ data: null }));
    fake.route("DELETE", "/nodes/{node}/qemu/{vmid}", () => ({ data: "UPID:pve1:0001:0002:6124E1B9:qmdestroy:130:mcp@pve!test:" }));
    const h = await open();
    await h.call("proxmox_request", { method: "PUT", path: "/nodes/pve1/qemu/110/resize", parameters: { disk: "scsi0", size: "+20G" } });
    await h.call("proxmox_request", { method: "DELETE", path: "/nodes/pve1/qemu/130", parameters: { purge: true } });
    const [put, del] = fake.apiRequests();
    expect(put!.body.toString()).toBe("disk=scsi0&size=%2B20G");
    expect(put!.params).toEqual({ disk: "scsi0", size: "+20G" });
    expect(del!.url).toBe("/api2/json/nodes/pve1/qemu/130?purge=1");
    await h.call("proxmox_request", { method: "DELETE", path: "/nodes/pve1/qemu/130", parameters: { "destroy-unreferenced-disks": 1, skiplock: [1, 0] } });
    expect(fake.apiRequests()[2]!.params).toEqual({ "destroy-unreferenced-disks": "1", skiplock: ["1", "0"] });
    expect(del!.body.length).toBe(0);
    expect(del!.headers["content-type"]).toBeUndefined();
  });

  test("parameters given as a JSON string are accepted", async () => {
    fake.route("GET", "/nodes/{node}/tasks", (req) => ({ data: req.params }));
    const h = await open();
    const result = await h.call("proxmox_get", { path: "/nodes/pve1/tasks", parameters: '{"limit": 5, "errors": true}' });
    expect(result.structuredContent).toEqual({ data: { limit: "5", errors: "1" } });
  });

  test("a percent-encoded slash in a volume id reaches the server unchanged", async () => {
    fake.route("GET", "/nodes/{node}/storage/{storage}/content/{volume}", (req) => ({ data: { volid: req.pathParams.volume } }));
    const h = await open();
    const result = await h.call("proxmox_get", { path: "/nodes/pve/storage/local/content/local%3Aiso%2Fdebian.iso" });
    expect(result.structuredContent).toEqual({ data: { volid: "local:iso/debian.iso" } });
    expect(fake.apiRequests()[0]!.url).toBe("/api2/json/nodes/pve/storage/local/content/local%3Aiso%2Fdebian.iso");
  });

  test.each([
    [{ path: "/nodes/../access" }, "invalid_path"],
    [{ path: "/api2/json/nodes" }, "invalid_path"],
    [{ path: "/nodes", parameters: { net0: { model: "virtio" } } }, "invalid_parameters"],
    [{ path: "/nodes", parameters: { vmid: null } }, "invalid_parameters"],
  ])("refused locally before any HTTP call: %j", async (args, code) => {
    const h = await open();
    const result = await h.call("proxmox_get", args);
    expect(structuredError(result).code).toBe(code);
    expect(fake.requests.length).toBe(0);
  });

  test.each(["[1]", "not json", "42"])("parameters %j that is no object is refused by the input schema", async (parameters) => {
    const h = await open();
    const result = await h.call("proxmox_get", { path: "/nodes", parameters });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("parameters must be an object");
    expect(fake.requests.length).toBe(0);
  });

  test("a form body over 512 KiB is refused locally", async () => {
    const h = await open();
    const result = await h.call("proxmox_request", {
      method: "POST",
      path: "/nodes/pve1/qemu/100/config",
      parameters: { description: "x".repeat(600 * 1024) },
    });
    expect(structuredError(result).code).toBe("request_too_large");
    expect(fake.requests.length).toBe(0);
  });

  test("response_format text returns a text body", async () => {
    const upid = fake.startTask("pve1", "qmstart", "100", { log: ["line one", "TASK OK"] });
    const h = await open();
    const result = await h.call("proxmox_request", {
      method: "GET",
      path: `/nodes/pve1/tasks/${upid}/log`,
      parameters: { download: 1 },
      response_format: "text",
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ content_type: "text/plain", text: "line one\nTASK OK\n" });
  });
});

describe("errors as Proxmox sends them", () => {
  test("403 carries status, reason phrase, message and a hint", async () => {
    fake.route("POST", "/nodes/{node}/qemu/{vmid}/status/start", () => ({ status: 403, message: "Permission check failed (/vms/101, VM.PowerMgmt)" }));
    const h = await open();
    const result = await h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/101/status/start" });
    const error = structuredError(result);
    expect(error.status).toBe(403);
    expect(error.reason).toBe("Permission check failed (/vms/101, VM.PowerMgmt)");
    expect(String(error.hints)).toContain("privilege");
    expect(textOf(result)).toContain("VM.PowerMgmt");
  });

  test("400 carries the per-parameter errors", async () => {
    fake.route("POST", "/nodes/{node}/qemu/{vmid}/status/shutdown", () => ({
      status: 400,
      message: "Parameter verification failed.",
      errors: { "overrule-shutdown": "property is not defined in schema and the schema does not allow additional properties" },
    }));
    const h = await open();
    const result = await h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/100/status/shutdown", parameters: { "overrule-shutdown": 1 } });
    const error = structuredError(result);
    expect(error.status).toBe(400);
    expect(error.errors).toEqual({ "overrule-shutdown": "property is not defined in schema and the schema does not allow additional properties" });
  });

  test("older servers: the message lives only in the reason phrase", async () => {
    const legacy = await FakeProxmox.start({ legacyErrors: true });
    legacy.route("GET", "/nodes/{node}/qemu/{vmid}/config", () => ({ status: 500, message: "Configuration file 'nodes/pve/qemu-server/999.conf' does not exist" }));
    const h = await connectHarness(legacy);
    try {
      const result = await h.call("proxmox_get", { path: "/nodes/pve/qemu/999/config" });
      const error = structuredError(result);
      expect(error.reason).toBe("Configuration file 'nodes/pve/qemu-server/999.conf' does not exist");
      expect(error.detail).toBeUndefined();
      expect(textOf(result)).toContain("does not exist");
    } finally {
      await h.close();
      await legacy.stop();
    }
  });

  test("401 has an empty body; the hint names the token settings and nothing leaks", async () => {
    const h = await open({ PROXMOX_TOKEN_SECRET: "wrong-secret-value-123" });
    const result = await h.call("proxmox_get", { path: "/version" });
    const error = structuredError(result);
    expect(error.status).toBe(401);
    expect(error.reason).toBe("Authentication failed!");
    expect(String(error.hints)).toContain("PROXMOX_TOKEN_ID");
    expect(JSON.stringify(result)).not.toContain("wrong-secret-value-123");
    expect(JSON.stringify(result)).not.toContain(FAKE_TOKEN_ID);
  });

  test("the fake itself answers 501 for a body on GET (so the client must never send one)", async () => {
    const res = await fetchFake("GET", "/api2/json/version", "x=1");
    expect(res.status).toBe(501);
  });
});

/** A raw request straight to the fake, bypassing the client under test. */
async function fetchFake(method: string, path: string, body?: string): Promise<{ status: number }> {
  const { request, Agent } = await import("../../src/http/undici.ts");
  const dispatcher = new Agent({ connect: { ca: sharedTestPki().caPem } });
  try {
    const res = await request(`${fake.url}${path}`, {
      method: method as "GET",
      dispatcher,
      headers: { authorization: fake.authorization, "content-type": "application/x-www-form-urlencoded" },
      ...(body ? { body } : {}),
    });
    await res.body.dump();
    return { status: res.statusCode };
  } finally {
    await dispatcher.close();
  }
}

describe("TLS trust lives on this connection", () => {
  test("default trust refuses the server's private CA, with a PROXMOX_CA_FILE hint", async () => {
    const h = await open({ PROXMOX_CA_FILE: "" });
    const result = await h.call("proxmox_get", { path: "/version" });
    const error = structuredError(result);
    expect(error.failure).toBe("tls");
    expect(String(error.hints)).toContain("PROXMOX_CA_FILE");
    expect(fake.apiRequests().length).toBe(0);
    expectNoToken(result);
  });

  test("PROXMOX_CA_FILE with the right CA is accepted", async () => {
    const h = await open({ PROXMOX_CA_FILE: sharedTestPki().caFile });
    expect((await h.call("proxmox_get", { path: "/version" })).isError).toBeFalsy();
  });

  test("another CA is refused", async () => {
    const h = await open({ PROXMOX_CA_FILE: sharedTestPki().otherCaFile });
    expect(structuredError(await h.call("proxmox_get", { path: "/version" })).failure).toBe("tls");
  });

  test("PROXMOX_VERIFY_TLS=false accepts, for this connection only", async () => {
    const h = await open({ PROXMOX_CA_FILE: "", PROXMOX_VERIFY_TLS: "false" });
    expect((await h.call("proxmox_get", { path: "/version" })).isError).toBeFalsy();
    // a second client built from default settings in the same process still refuses
    const strict = await connectHarness(fake, { env: { PROXMOX_CA_FILE: "" } });
    try {
      expect(structuredError(await strict.call("proxmox_get", { path: "/version" })).failure).toBe("tls");
    } finally {
      await strict.close();
    }
    expect(process.env.NODE_TLS_REJECT_UNAUTHORIZED).toBeUndefined();
  });
});

describe("nothing is retried and no redirect is followed", () => {
  test("a redirect is an error result; the fake sees one request", async () => {
    fake.route("GET", "/nodes", () => ({ status: 302, headers: { location: `${fake.url}/api2/json/version` } }));
    const h = await open();
    const result = await h.call("proxmox_get", { path: "/nodes" });
    const error = structuredError(result);
    expect(error.status).toBe(302);
    expect(String(error.hints)).toContain("Redirects are never followed");
    expect(fake.apiRequests().map((r) => r.path)).toEqual(["/nodes"]);
    fake.route("GET", "/nodes", () => ({ data: [] }));
  });

  test.each(["GET", "POST"])("a 502 is not retried (%s)", async (method) => {
    fake.route(method, "/cluster/status", () => ({ status: 502, message: "Bad Gateway" }));
    const h = await open();
    const result = await h.call("proxmox_request", { method, path: "/cluster/status" });
    expect(structuredError(result).status).toBe(502);
    expect(fake.apiRequests().length).toBe(1);
  });

  test.each(["GET", "POST"])("a dropped connection is not retried (%s)", async (method) => {
    fake.route(method, "/cluster/log", () => ({ destroy: true }));
    const h = await open();
    // a first successful call leaves a kept-alive socket, the case where clients like to retry
    await h.call("proxmox_get", { path: "/version" });
    const result = await h.call("proxmox_request", { method, path: "/cluster/log" });
    expect(structuredError(result).failure).toBe("dropped");
    expect(fake.apiRequests().filter((r) => r.path === "/cluster/log").length).toBe(1);
  });

  test("connections are kept alive between calls", async () => {
    const h = await open();
    const before = fake.connections;
    for (let i = 0; i < 10; i++) expect((await h.call("proxmox_get", { path: "/version" })).isError).toBeFalsy();
    // undici's pool may open a second socket while the first is being released, never one per call
    expect(fake.connections - before).toBeLessThanOrEqual(2);
  });
});

describe("timeout and cancellation", () => {
  test("PROXMOX_TIMEOUT_MS bounds a server that never answers", async () => {
    fake.route("GET", "/cluster/tasks", () => ({ hang: true }));
    const h = await open({ PROXMOX_TIMEOUT_MS: "150" });
    const result = await h.call("proxmox_get", { path: "/cluster/tasks" });
    const error = structuredError(result);
    expect(error.failure).toBe("timeout");
    expect(textOf(result)).toContain("150 ms");
    expect(fake.apiRequests().length).toBe(1);
  });

  test("cancelling the MCP request aborts the HTTP request", async () => {
    fake.route("POST", "/nodes/{node}/vzdump", () => ({ hang: true }));
    const h = await open();
    const abort = new AbortController();
    const arrived = fake.nextRequest();
    const pending = h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/vzdump", parameters: { vmid: 100 } }, { signal: abort.signal });
    const seen = await arrived;
    abort.abort();
    await expect(pending).rejects.toThrow();
    for (let i = 0; i < 100 && !seen.abandoned; i++) await Bun.sleep(10);
    expect(seen.abandoned).toBe(true);
    expect(fake.apiRequests().length).toBe(1);
  });
});

describe("response cap", () => {
  test("an answer over 512 KiB is not returned and points to proxmox_download", async () => {
    fake.route("GET", "/cluster/backup-info/not-backed-up", () => ({ data: "x".repeat(600 * 1024) }));
    const h = await open();
    const result = await h.call("proxmox_get", { path: "/cluster/backup-info/not-backed-up" });
    expect(structuredError(result).failure).toBe("too_large");
    expect(textOf(result)).toContain("proxmox_download");
  });

  test("an answer just under 512 KiB is returned", async () => {
    fake.route("GET", "/cluster/backup-info/not-backed-up", () => ({ data: "x".repeat(500 * 1024) }));
    const h = await open();
    expect((await h.call("proxmox_get", { path: "/cluster/backup-info/not-backed-up" })).isError).toBeFalsy();
  });

  test("a binary answer is not returned inline", async () => {
    fake.route("GET", "/nodes/{node}/rrd", () => ({ body: Buffer.from([0x89, 0x50, 0x4e, 0x47]), contentType: "image/png" }));
    const h = await open();
    const result = await h.call("proxmox_get", { path: "/nodes/pve1/rrd", parameters: { ds: "cpu", timeframe: "hour" } });
    expect(textOf(result)).toContain("proxmox_download");
  });
});

describe("redaction", () => {
  test("a connection error names the host but not the token", async () => {
    const closed = await FakeProxmox.start();
    const env = closed.env();
    await closed.stop();
    harness = await connectHarness(closed, { env });
    const result = await harness.call("proxmox_get", { path: "/version" });
    expect(structuredError(result).failure).toBe("connect");
    expect(textOf(result)).toContain("8006");
    expectNoToken(result);
  });

  test("base64 forms of the secret and the header leave neither an error nor a successful answer", async () => {
    const header = `PVEAPIToken=${FAKE_TOKEN_ID}=${FAKE_TOKEN_SECRET}`;
    fake.route("GET", "/access/echo", () => ({
      status: 401,
      message: `bad token ${base64Of(header)} ${base64Of(`x${FAKE_TOKEN_ID}=${FAKE_TOKEN_SECRET}`)}`,
    }));
    fake.route("GET", "/nodes/{node}/qemu/{vmid}/config", () => ({
      data: { description: `cloud-init: ${base64Of(`user: root\ntoken: ${FAKE_TOKEN_SECRET}\n`)}` },
    }));
    const h = await open();
    const failed = await h.call("proxmox_get", { path: "/access/echo" });
    expect(failed.isError).toBe(true);
    const ok = await h.call("proxmox_get", { path: "/nodes/pve1/qemu/100/config" });
    expect(ok.isError).toBeFalsy();
    for (const result of [failed, ok]) {
      const everything = `${textOf(result)}\n${JSON.stringify(result.structuredContent)}`;
      expect(everything).toContain("[redacted");
      expect(decodesToPartOf(everything, FAKE_TOKEN_SECRET)).toBe(false);
    }
    expect(decodesToPartOf(textOf(failed), FAKE_TOKEN_ID, 6)).toBe(false);
    // the fake did send them
    expect(fake.apiRequests().map((r) => r.path)).toEqual(["/access/echo", "/nodes/pve1/qemu/100/config"]);
  });

  test("an internal error that quotes the Authorization header is redacted", async () => {
    const leaky = {
      dispatch(opts: Dispatcher.DispatchOptions) {
        throw new Error(`exploded while sending ${JSON.stringify(opts.headers)}`);
      },
      close: async () => undefined,
      destroy: async () => undefined,
    } as unknown as Dispatcher;
    const h = await open({}, { client: { dispatcher: leaky } });
    const result = await h.call("proxmox_get", { path: "/version" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("exploded");
    expectNoToken(result);
  });
});

describe("the undici adapter", () => {
  test("the real undici Agent dispatches", async () => {
    await assertRealUndici();
    expect(RealAgent).not.toBe(BunStandInAgent);
  });

  test("Bun's built-in stand-in would not: the assertion catches it", async () => {
    await expect(assertRealUndici(BunStandInAgent as unknown as typeof RealAgent, bunStandInRequest as never)).rejects.toThrow(
      /stand-in/,
    );
  });
});
