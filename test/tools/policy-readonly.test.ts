// PROXMOX_READ_ONLY=true: no writing tool is listed, and the client refuses non-GET as a second wall.
import { describe, expect, test } from "bun:test";
import { Readable } from "node:stream";
import { LocalRefusal } from "../../src/proxmox/errors.ts";
import { textOf, type Harness } from "../support/mcp.ts";
import { expectRefusal, policySuite, routeGuestActions } from "../support/policy.ts";

const suite = policySuite((fake) => routeGuestActions(fake));

function readOnly(): Promise<Harness> {
  return suite.open({ PROXMOX_READ_ONLY: "true" });
}

async function caught(promise: Promise<unknown>): Promise<LocalRefusal> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LocalRefusal) return error;
    throw error;
  }
  throw new Error("the call was not refused");
}

describe("tools/list in read-only mode", () => {
  test("lists no writing tool and keeps the readers", async () => {
    const h = await readOnly();
    const names = (await h.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("proxmox_get");
    expect(names).not.toContain("proxmox_request");
    expect(names).not.toContain("proxmox_upload");
  });

  test("calling a hidden writing tool fails without a request", async () => {
    const h = await readOnly();
    const result = await h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/100/status/stop" });
    expect(result.isError).toBe(true);
    expect(suite.fake.apiRequests().length).toBe(0);
  });
});

describe("the client refuses non-GET as a second wall", () => {
  test.each(["POST", "PUT", "DELETE"] as const)("call() with %s", async (method) => {
    const h = await readOnly();
    const error = await caught(h.proxmox.call({ tool: "test", method, path: "/nodes/pve1/qemu/100/status/stop" }));
    expect(error.code).toBe("refused_read_only");
    expect(error.message).toContain("PROXMOX_READ_ONLY=true");
    expect(suite.fake.apiRequests().length).toBe(0);
  });

  test("client.upload() is refused too", async () => {
    const h = await readOnly();
    const body = { stream: Readable.from([Buffer.from("x")]), length: 1, contentType: "multipart/form-data; boundary=b" };
    const error = await caught(
      h.proxmox.upload({ tool: "proxmox_upload", path: "/nodes/pve1/storage/local/upload", body, upload: { fileName: "a.iso", bytes: 1, params: { content: "iso" } } }),
    );
    expect(error.code).toBe("refused_read_only");
    expect(suite.fake.apiRequests().length).toBe(0);
  });

  test("a writing tool registered by mistake still cannot write", async () => {
    const harness = await suite.open({ PROXMOX_READ_ONLY: "true" }, { readOnly: false });
    expect((await harness.client.listTools()).tools.map((t) => t.name)).toContain("proxmox_request");
    const result = await harness.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/100/status/stop" });
    expect(expectRefusal(result, "refused_read_only")).toContain("only GET requests reach Proxmox");
    expect(suite.fake.apiRequests().length).toBe(0);
  });
});

describe("reading still works", () => {
  test("proxmox_get returns JSON and a task log as text", async () => {
    const h = await readOnly();
    const upid = suite.fake.startTask("pve1", "qmstart", "100", { log: ["starting VM 100", "TASK OK"] });
    const json = await h.call("proxmox_get", { path: `/nodes/pve1/tasks/${upid}/log` });
    expect(json.isError).toBeFalsy();
    expect(json.structuredContent).toMatchObject({ data: [{ n: 1, t: "starting VM 100" }, { n: 2, t: "TASK OK" }] });
    const text = await h.call("proxmox_get", { path: `/nodes/pve1/tasks/${upid}/log`, parameters: { download: 1 } });
    expect(text.isError).toBeFalsy();
    expect(text.structuredContent).toMatchObject({ content_type: "text/plain", text: "starting VM 100\nTASK OK\n" });
    expect(textOf(text)).toContain("TASK OK");
    expect(suite.fake.apiRequests().map((r) => r.method)).toEqual(["GET", "GET"]);
  });
});
