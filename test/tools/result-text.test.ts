// Many MCP clients show the model only a result's text content. This sweep goes through every
// class of error and refusal and checks that each value the structured error carries is also
// in the text: status, reason, Proxmox's message, per-parameter errors, codes, hints.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { ElicitRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog } from "../../src/catalog/catalog.ts";
import { staticCatalogProvider } from "../../src/catalog/loader.ts";
import { FileAccess } from "../../src/files/resolver.ts";
import { errorText, fieldText } from "../../src/tools/result.ts";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { MINI_APIDOC_JS } from "../fixtures/mini-schema.ts";
import { connectHarness, textOf, type Harness } from "../support/mcp.ts";
import { policyGate, policyHarness, protectedFile } from "../support/policy.ts";

let fake: FakeProxmox;
let h: Harness | undefined;
let tmp: string;
const catalog = Catalog.fromText(MINI_APIDOC_JS, { kind: "inline", location: "mini-schema" });

beforeAll(async () => {
  fake = await FakeProxmox.start();
  tmp = mkdtempSync(join(tmpdir(), "pve-mcp-text-"));
  mkdirSync(join(tmp, "files"), { mode: 0o755 });
});
afterAll(async () => {
  await fake.stop();
  rmSync(tmp, { recursive: true, force: true });
});
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Every string and number inside a structured value. */
function leaves(value: unknown): string[] {
  if (typeof value === "string" || typeof value === "number") return [String(value)];
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(leaves);
  return [];
}

function expectTextCarriesEverything(result: CallToolResult, code?: string): void {
  expect(result.isError).toBe(true);
  const error = (result.structuredContent as { error: Record<string, unknown> }).error;
  if (code) expect(error.code ?? error.failure).toBe(code);
  const text = textOf(result);
  for (const value of leaves(error)) expect(text).toContain(value);
}

type Case = [string, string | undefined, () => Promise<CallToolResult>];

const proxmoxErrors: Case[] = [
  [
    "400 with per-parameter errors (no catalog)",
    undefined,
    async () => {
      fake.route("POST", "/nodes/{node}/qemu/{vmid}/config", () => ({
        status: 400,
        message: "Parameter verification failed.",
        errors: { cores: "value must have a minimum value of 1", timeot: "property is not defined in schema" },
      }));
      h = await connectHarness(fake);
      return h.call("proxmox_request", {
        method: "POST",
        path: "/nodes/pve1/qemu/100/config",
        parameters: { cores: 0, timeot: 1 },
      });
    },
  ],
  [
    "403 with the catalog's privilege advice",
    undefined,
    async () => {
      fake.route("POST", "/nodes/{node}/qemu/{vmid}/status/start", () => ({
        status: 403,
        message: "Permission check failed (/vms/101, VM.PowerMgmt)",
      }));
      h = await connectHarness(fake, { deps: { catalog: staticCatalogProvider(catalog) } });
      return h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/101/status/start" });
    },
  ],
  [
    "401",
    undefined,
    async () => {
      h = await connectHarness(fake, { env: { PROXMOX_TOKEN_SECRET: "not-the-secret" } });
      return h.call("proxmox_get", { path: "/version" });
    },
  ],
  [
    "500 does not exist",
    undefined,
    async () => {
      fake.route("GET", "/nodes/{node}/qemu/{vmid}/config", () => ({
        status: 500,
        message: "Configuration file 'nodes/pve1/qemu-server/999.conf' does not exist",
      }));
      h = await connectHarness(fake, { deps: { catalog: staticCatalogProvider(catalog) } });
      return h.call("proxmox_get", { path: "/nodes/pve1/qemu/999/config" });
    },
  ],
  [
    "501 unknown path",
    undefined,
    async () => {
      h = await connectHarness(fake, { deps: { catalog: staticCatalogProvider(catalog) } });
      return h.call("proxmox_get", { path: "/nodes/pve1/bogus" });
    },
  ],
  [
    "595 node unreachable",
    undefined,
    async () => {
      fake.route("GET", "/nodes/{node}/status", () => ({ status: 595, message: "Connection timed out" }));
      h = await connectHarness(fake);
      return h.call("proxmox_get", { path: "/nodes/pve3/status" });
    },
  ],
];

const transportErrors: Case[] = [
  [
    "timeout",
    "timeout",
    async () => {
      fake.route("GET", "/cluster/tasks", () => ({ hang: true }));
      h = await connectHarness(fake, { env: { PROXMOX_TIMEOUT_MS: "100" } });
      return h.call("proxmox_get", { path: "/cluster/tasks" });
    },
  ],
  [
    "answer too large",
    "too_large",
    async () => {
      fake.route("GET", "/cluster/log", () => ({ data: "x".repeat(600 * 1024) }));
      h = await connectHarness(fake);
      return h.call("proxmox_get", { path: "/cluster/log" });
    },
  ],
  [
    "not text",
    "not_text",
    async () => {
      fake.route("GET", "/nodes/{node}/rrd", () => ({ body: Buffer.from([0x89, 0x50]), contentType: "image/png" }));
      h = await connectHarness(fake);
      return h.call("proxmox_get", { path: "/nodes/pve1/rrd" });
    },
  ],
  [
    "TLS: a certificate nobody vouched for",
    "tls",
    async () => {
      h = await connectHarness(fake, { env: { PROXMOX_CA_FILE: "" } });
      return h.call("proxmox_get", { path: "/version" });
    },
  ],
  [
    "connection refused",
    "connect",
    async () => {
      h = await connectHarness(fake, { env: { PROXMOX_URL: "https://127.0.0.1:1" } });
      return h.call("proxmox_get", { path: "/version" });
    },
  ],
];

const refusals: Case[] = [
  [
    "invalid path",
    "invalid_path",
    async () => {
      h = await connectHarness(fake);
      return h.call("proxmox_get", { path: "/nodes/../access" });
    },
  ],
  [
    "invalid parameters",
    "invalid_parameters",
    async () => {
      h = await connectHarness(fake);
      return h.call("proxmox_get", { path: "/version", parameters: { a: { nested: 1 } } });
    },
  ],
  [
    "request too large",
    "request_too_large",
    async () => {
      h = await connectHarness(fake);
      return h.call("proxmox_request", {
        method: "POST",
        path: "/nodes/pve1/qemu/100/config",
        parameters: { description: "x".repeat(600 * 1024) },
      });
    },
  ],
  [
    "read-only (second wall)",
    "refused_read_only",
    async () => {
      h = await connectHarness(fake, { client: { readOnly: true }, deps: { readOnly: false } });
      return h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/100/status/stop" });
    },
  ],
  [
    "deny rule",
    "refused_rule",
    async () => {
      h = await policyHarness(fake, { PROXMOX_DENY: "DELETE /**" });
      return h.call("proxmox_request", { method: "DELETE", path: "/nodes/pve1/qemu/101" });
    },
  ],
  [
    "protected guest",
    "refused_protected_guest",
    async () => {
      h = await policyHarness(fake, { PROXMOX_PROTECTED_VMS_FILE: protectedFile() });
      return h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/100/status/stop" });
    },
  ],
  [
    "VLAN guard",
    "refused_vlan",
    async () => {
      fake.route("GET", "/nodes/{node}/network", () => ({
        data: [{ iface: "vmbr0", type: "bridge", active: 1 }],
      }));
      h = await policyHarness(fake, {});
      return h.call("proxmox_request", {
        method: "POST",
        path: "/nodes/pve1/qemu/101/config",
        parameters: { net0: "virtio,bridge=vmbr0,tag=10" },
      });
    },
  ],
  [
    "audit log unwritable",
    "refused_audit",
    async () => {
      const log = join(tmp, "audit.log");
      h = await policyHarness(fake, { PROXMOX_AUDIT_LOG: log });
      rmSync(log);
      mkdirSync(log);
      try {
        return await h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/101/status/start" });
      } finally {
        rmSync(log, { recursive: true });
      }
    },
  ],
  [
    "read-only: a read that makes the node contact another host",
    "refused_read_only_outbound",
    async () => {
      h = await policyHarness(fake, { PROXMOX_READ_ONLY: "true" });
      return h.call("proxmox_get", { path: "/nodes/pve1/scan/nfs", parameters: { server: "10.0.0.5" } });
    },
  ],
  [
    "read-only: a read inside a guest",
    "refused_read_only_guest_content",
    async () => {
      h = await policyHarness(fake, { PROXMOX_READ_ONLY: "true" });
      return h.call("proxmox_get", {
        path: "/nodes/pve1/qemu/101/agent/file-read",
        parameters: { file: "/etc/shadow" },
      });
    },
  ],
  [
    "confirmation: a client that cannot ask",
    "refused_confirmation_unavailable",
    async () => {
      h = await policyHarness(fake, { PROXMOX_CONFIRM: "POST /**" });
      return h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/101/status/start" });
    },
  ],
  [
    "confirmation: the person says no",
    "refused_by_user",
    async () => {
      h = await connectHarness(fake, {
        client: { gate: policyGate({ PROXMOX_CONFIRM: "POST /**" }) },
        capabilities: { elicitation: {} },
        setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" })),
      });
      return h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/101/status/start" });
    },
  ],
  [
    "confirmation: no answer in time",
    "refused_confirmation_timeout",
    async () => {
      h = await connectHarness(fake, {
        client: { gate: policyGate({ PROXMOX_CONFIRM: "POST /**" }) },
        deps: { confirmation: { rules: ["POST /**"], timeoutMs: 100 } },
        capabilities: { elicitation: {} },
        setup: (client) => client.setRequestHandler(ElicitRequestSchema, () => new Promise(() => {})),
      });
      return h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/101/status/start" });
    },
  ],
  [
    "file transfer disabled",
    "file_transfer_disabled",
    async () => {
      h = await connectHarness(fake);
      return h.call("proxmox_download", { path: "/version", destination: join(tmp, "files", "v.json") });
    },
  ],
  [
    "file outside the roots",
    "refused_file_path",
    async () => {
      h = await connectHarness(fake, { deps: { files: new FileAccess({ roots: [join(tmp, "files")] }) } });
      return h.call("proxmox_download", { path: "/version", destination: join(tmp, "outside.json") });
    },
  ],
];

const catalogErrors: Case[] = [
  [
    "catalog unavailable",
    "catalog_unavailable",
    async () => {
      h = await connectHarness(fake);
      return h.call("proxmox_search_endpoints", { query: "list vms" });
    },
  ],
  [
    "describe: unknown path",
    "unknown_path",
    async () => {
      h = await connectHarness(fake, { deps: { catalog: staticCatalogProvider(catalog) } });
      return h.call("proxmox_describe_endpoint", { path: "/nodes/pve1/bogus/thing" });
    },
  ],
  [
    "describe: a method the path does not take",
    "unknown_method",
    async () => {
      h = await connectHarness(fake, { deps: { catalog: staticCatalogProvider(catalog) } });
      return h.call("proxmox_describe_endpoint", { path: "/version", method: "DELETE" });
    },
  ],
];

describe("every structured detail of a failure is in its text", () => {
  test.each(proxmoxErrors)("Proxmox error: %s", async (_name, code, run) => {
    expectTextCarriesEverything(await run(), code);
  });
  test.each(transportErrors)("transport: %s", async (_name, code, run) => {
    expectTextCarriesEverything(await run(), code);
  });
  test.each(refusals)("refusal: %s", async (_name, code, run) => {
    const before = fake.apiRequests().length;
    const result = await run();
    expectTextCarriesEverything(result, code);
    // a refusal shows its code in words a model can quote back
    expect(textOf(result)).toContain(code!);
    // nothing was sent, except the reads the VLAN guard and a confirmation's summary make first
    const sent = fake.apiRequests().slice(before);
    const readsFirst =
      code === "refused_vlan" || code === "refused_by_user" || code!.startsWith("refused_confirmation");
    expect(readsFirst ? sent.filter((r) => r.method !== "GET") : sent).toEqual([]);
  });
  test.each(catalogErrors)("catalog: %s", async (_name, code, run) => {
    expectTextCarriesEverything(await run(), code);
  });
});

describe("errorText", () => {
  test.each([
    [{ message: "m", code: "refused_rule" }, "m\nCode: refused_rule"],
    [{ message: "GET /x failed: HTTP 400 Bad", status: 400, reason: "Bad" }, "GET /x failed: HTTP 400 Bad"],
    [{ message: "m", errors: { a: "too small", b: "unknown" } }, "m\nRejected parameters: a: too small; b: unknown"],
    [{ message: "m", hints: ["do x", "do y"] }, "m\nHint: do x\nHint: do y"],
    [{ message: "m", closest: ["/a", "/b"] }, "m\nClosest paths: /a, /b"],
    [{ message: "m", tried: [{ source: "cluster", outcome: "404" }] }, "m\nTried: source: cluster; outcome: 404"],
  ])("%j", (error, text) => {
    expect(errorText(error)).toBe(text);
  });

  test("fieldText of nested values", () => {
    expect(fieldText([1, 2])).toBe("1, 2");
    expect(fieldText(undefined)).toBe("");
    expect(fieldText({ a: [1, 2] })).toBe("a: 1, 2");
  });
});
