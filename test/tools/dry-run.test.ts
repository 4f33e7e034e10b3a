import { describe, expect, test } from "bun:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Catalog } from "../../src/catalog/catalog.ts";
import { staticCatalogProvider } from "../../src/catalog/loader.ts";
import { MINI_APIDOC_JS } from "../fixtures/mini-schema.ts";
import { textOf } from "../support/mcp.ts";
import { policySuite, protectedFile } from "../support/policy.ts";

const suite = policySuite();
const catalog = Catalog.fromText(MINI_APIDOC_JS, { kind: "inline", location: "mini-schema" });
const withCatalog = { catalog: staticCatalogProvider(catalog) };

interface DryRun {
  dry_run: true;
  would_send: boolean;
  request?: { method: string; url: string; form?: string };
  policy: { verdict: string; code?: string; reason?: string; checked_when_sent?: string[] };
  schema?: string | { endpoint: string; problems: string[]; privilege?: string };
}

function dryRunOf(result: CallToolResult): DryRun {
  expect(result.isError).toBeFalsy();
  const report = result.structuredContent as unknown as DryRun;
  expect(report.dry_run).toBe(true);
  // everything the model needs is in the text too
  expect(JSON.parse(textOf(result))).toEqual(report);
  return report;
}

describe("proxmox_request with dry_run", () => {
  test("an allowed write: the exact URL and form body, the schema's findings, nothing sent", async () => {
    const h = await suite.open({}, withCatalog);
    const report = dryRunOf(
      await h.call("proxmox_request", {
        method: "POST",
        path: "/nodes/pve1/qemu/100/status/start",
        parameters: { timeout: 30, skiplock: "true" },
        dry_run: true,
      }),
    );
    expect(report.would_send).toBe(true);
    expect(report.request).toEqual({
      method: "POST",
      url: `${suite.fake.url}/api2/json/nodes/pve1/qemu/100/status/start`,
      form: "timeout=30&skiplock=true",
    });
    expect(report.policy).toEqual({ verdict: "allowed" });
    expect(report.schema).toEqual({
      endpoint: "POST /nodes/{node}/qemu/{vmid}/status/start",
      problems: ["skiplock: not a parameter of this endpoint"],
      privilege: "VM.PowerMgmt on /vms/{vmid}",
    });
    expect(suite.seen()).toEqual([]);
  });

  test("wrong types, values out of range and missing required parameters are listed", async () => {
    const h = await suite.open({}, withCatalog);
    const report = dryRunOf(
      await h.call("proxmox_request", {
        method: "PUT",
        path: "/access/password",
        parameters: { userid: ["a@pve", "b@pve"] },
        dry_run: true,
      }),
    );
    const schema = report.schema as { problems: string[] };
    expect(schema.problems).toContain("userid: takes one value, not a list");
    expect(schema.problems).toContain("password: required, but not given");
    expect(schema.problems).toContain("this endpoint refuses API tokens (allowtoken 0): the call would fail with 403");
    expect(suite.seen()).toEqual([]);
  });

  test("GET parameters go in the URL's query string", async () => {
    const h = await suite.open({});
    const report = dryRunOf(
      await h.call("proxmox_request", {
        method: "GET",
        path: "/cluster/resources",
        parameters: { type: "vm" },
        dry_run: true,
      }),
    );
    expect(report.request?.url).toBe(`${suite.fake.url}/api2/json/cluster/resources?type=vm`);
    expect(report.schema).toContain("not checked: the API catalog is not loaded yet");
    expect(suite.seen()).toEqual([]);
  });

  test.each([
    ["a deny rule", { PROXMOX_DENY: "POST /nodes/*/qemu/*/status/*" }, "refused_rule"],
    ["a protected guest", { PROXMOX_PROTECTED_VMS_FILE: "<protected>" }, "refused_protected_guest"],
    ["read-only mode", { PROXMOX_READ_ONLY: "true" }, "refused_read_only"],
  ])("a write refused by %s: the verdict with its code and reason, nothing sent", async (_name, env, code) => {
    const settings = Object.fromEntries(
      Object.entries(env).map(([k, v]) => [k, v === "<protected>" ? protectedFile() : v]),
    );
    // read-only mode hides proxmox_request; the client's own wall is what a dry run reports
    const h = await suite.open(settings, { readOnly: false });
    const report = dryRunOf(
      await h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/100/status/stop", dry_run: true }),
    );
    expect(report.would_send).toBe(false);
    expect(report.policy.verdict).toBe("refused");
    expect(report.policy.code).toBe(code);
    expect(report.policy.reason).toContain("refused");
    expect(suite.seen()).toEqual([]);
  });

  test("a path that cannot be sent at all is reported, not sent", async () => {
    const h = await suite.open({});
    const report = dryRunOf(
      await h.call("proxmox_request", { method: "DELETE", path: "/nodes/pve1/../qemu/100", dry_run: true }),
    );
    expect(report.would_send).toBe(false);
    expect(report.policy.code).toBe("invalid_path");
    expect(suite.seen()).toEqual([]);
  });

  test("the VLAN guard, which reads the node's network, is named as a check made when sent", async () => {
    const h = await suite.open({});
    const report = dryRunOf(
      await h.call("proxmox_request", {
        method: "POST",
        path: "/nodes/pve1/qemu/101/config",
        parameters: { net0: "virtio,bridge=vmbr0,tag=10" },
        dry_run: true,
      }),
    );
    expect(report.would_send).toBe(true);
    expect(report.policy.checked_when_sent?.join("\n")).toContain("VLAN guard: net0");
    expect(suite.seen()).toEqual([]);
  });
});
