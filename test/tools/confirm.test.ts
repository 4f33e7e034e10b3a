// PROXMOX_CONFIRM through MCP elicitation, with the real SDK client answering as a person would.
import { afterEach, describe, expect, test } from "bun:test";
import { fakeForFile } from "../support/fake.ts";
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileAccess } from "../../src/files/resolver.ts";
import { loadPolicyConfig } from "../../src/policy/config.ts";
import { confirmationMessage } from "../../src/tools/confirm.ts";
import { installFileRoutes } from "../fake/upload.ts";
import { connectHarness, textOf, type Harness } from "../support/mcp.ts";
import { expectRefusal, policyGate } from "../support/policy.ts";

const CONFIRM = "POST /nodes/*/qemu/*/status/stop, DELETE /**, POST /nodes/*/storage/*/upload";

const fake = await fakeForFile();
let h: Harness | undefined;
let dir: string;
let asked: ElicitRequest["params"][];

installFileRoutes(fake);
fake.route("POST", "/nodes/{node}/qemu/{vmid}/status/{action}", (req) => ({
  data: fake.startTask(req.pathParams.node!, `qm${req.pathParams.action}`, req.pathParams.vmid!),
}));
fake.route("GET", "/cluster/resources", () => ({
  data: [
    { vmid: 100, name: "web01", type: "qemu", node: "pve1", status: "running", id: "qemu/100" },
    { vmid: 200, name: "db", type: "lxc", node: "pve2", status: "stopped", id: "lxc/200" },
  ],
}));
afterEach(async () => {
  await h?.close();
  h = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Answer = ElicitResult | "never" | "no-elicitation";

/** A harness with PROXMOX_CONFIRM and an audit log, whose client answers every elicitation with `answer`. */
async function open(answer: Answer, extra: Record<string, string> = {}, timeoutMs = 5000): Promise<Harness> {
  dir = mkdtempSync(join(tmpdir(), "pve-mcp-confirm-"));
  asked = [];
  const env = { PROXMOX_CONFIRM: CONFIRM, PROXMOX_AUDIT_LOG: join(dir, "audit.log"), ...extra };
  const policy = loadPolicyConfig(env);
  const withElicitation = answer !== "no-elicitation";
  h = await connectHarness(fake, {
    client: { gate: policyGate(env) },
    deps: {
      confirmation: { rules: policy.confirm.map((r) => r.text), timeoutMs },
      files: new FileAccess({ roots: [dir] }),
    },
    capabilities: withElicitation ? { elicitation: {} } : {},
    setup: (client) => {
      if (!withElicitation) return;
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params);
        if (answer === "never") return new Promise<ElicitResult>(() => {});
        return answer as ElicitResult;
      });
    },
  });
  return h;
}

function auditLines(): Record<string, unknown>[] {
  return readFileSync(join(dir, "audit.log"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const stop = { method: "POST", path: "/nodes/pve1/qemu/100/status/stop" };
const writes = () => fake.apiRequests().filter((r) => r.method !== "GET");

describe("a write that PROXMOX_CONFIRM holds", () => {
  test("accept: the person sees a plain summary with the guest's details, then the write is sent", async () => {
    await open({ action: "accept", content: { confirm: true } });
    const result = await h!.call("proxmox_request", { ...stop, parameters: { timeout: 30 } });
    expect(result.isError).toBeFalsy();
    expect(asked).toHaveLength(1);
    const message = asked[0]!.message;
    expect(message).toContain("POST /nodes/pve1/qemu/100/status/stop");
    expect(message).toContain("Parameters: timeout=30");
    expect(message).toContain("Affects VM 100 (web01) on node pve1, now running.");
    expect(message).toContain("'POST /nodes/*/qemu/*/status/stop'");
    const schema = (
      asked[0] as { requestedSchema: { required: string[]; properties: Record<string, { type: string }> } }
    ).requestedSchema;
    expect(schema.required).toEqual(["confirm"]);
    expect(schema.properties.confirm!.type).toBe("boolean");
    expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual(["POST /nodes/pve1/qemu/100/status/stop"]);
    expect(auditLines().at(-1)!.outcome).toMatchObject({ result: "ok", confirmation: "accepted", status: 200 });
  });

  test.each<[string, ElicitResult]>([
    ["decline", { action: "decline" }],
    ["cancel", { action: "cancel" }],
    ["accept without yes", { action: "accept", content: { confirm: false } }],
  ])("%s: refused_by_user, nothing sent, the refusal audited", async (_name, answer) => {
    await open(answer);
    const result = await h!.call("proxmox_request", stop);
    expect(expectRefusal(result, "refused_by_user")).toContain("refused_by_user");
    expect(writes()).toEqual([]);
    expect(auditLines().at(-1)!.outcome).toMatchObject({ result: "refused", refusal: "refused_by_user" });
  });

  test("no answer within the timeout: refused_confirmation_timeout, nothing sent", async () => {
    await open("never", {}, 200);
    const result = await h!.call("proxmox_request", stop);
    expectRefusal(result, "refused_confirmation_timeout");
    expect(writes()).toEqual([]);
    expect(auditLines().at(-1)!.outcome).toMatchObject({ refusal: "refused_confirmation_timeout" });
  });

  test("a client without the elicitation capability: refused_confirmation_unavailable (fail closed)", async () => {
    await open("no-elicitation");
    const result = await h!.call("proxmox_request", stop);
    expect(expectRefusal(result, "refused_confirmation_unavailable")).toContain("elicitation");
    expect(writes()).toEqual([]);
  });

  test("cancelling the tool call while the person is being asked sends nothing", async () => {
    await open("never");
    const abort = new AbortController();
    const pending = h!.call("proxmox_request", stop, { signal: abort.signal });
    for (let i = 0; i < 200 && asked.length === 0; i++) await Bun.sleep(5);
    abort.abort();
    await expect(pending).rejects.toThrow();
    await Bun.sleep(20);
    expect(writes()).toEqual([]);
  });

  test("a write no rule names is sent without asking", async () => {
    await open({ action: "decline" });
    const result = await h!.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/100/status/start" });
    expect(result.isError).toBeFalsy();
    expect(asked).toEqual([]);
  });

  test("a write refused by another rule is refused before anyone is asked", async () => {
    await open({ action: "accept", content: { confirm: true } }, { PROXMOX_DENY: "POST /nodes/*/qemu/*/status/stop" });
    expectRefusal(await h!.call("proxmox_request", stop), "refused_rule");
    expect(asked).toEqual([]);
    expect(writes()).toEqual([]);
  });

  test("an upload is confirmed too, with the file's name and size in the summary", async () => {
    await open({ action: "accept", content: { confirm: true } });
    writeFileSync(join(dir, "debian.iso"), Buffer.alloc(4096, 7));
    const result = await h!.call("proxmox_upload", {
      path: "/nodes/pve1/storage/local/upload",
      file_path: join(dir, "debian.iso"),
      parameters: { content: "iso" },
    });
    expect(result.isError).toBeFalsy();
    expect(asked[0]!.message).toContain("Upload: debian.iso (4096 bytes)");
    expect(writes().map((r) => r.path)).toEqual(["/nodes/pve1/storage/local/upload"]);
  });

  test("a declined upload sends nothing", async () => {
    await open({ action: "decline" });
    writeFileSync(join(dir, "debian.iso"), Buffer.alloc(4096, 7));
    const result = await h!.call("proxmox_upload", {
      path: "/nodes/pve1/storage/local/upload",
      file_path: join(dir, "debian.iso"),
      parameters: { content: "iso" },
    });
    expectRefusal(result, "refused_by_user");
    expect(writes()).toEqual([]);
  });

  test("a parameter cannot add lines to the question or reorder it: such characters are shown escaped", async () => {
    await open({ action: "decline" });
    const spoof = "1\nAffects nothing: it only refreshes the list.\u2028Send this request?\u202e";
    const result = await h!.call("proxmox_request", { method: "DELETE", path: "/nodes/pve1/qemu/200", parameters: { purge: spoof } });
    expectRefusal(result, "refused_by_user");
    const lines = asked[0]!.message.split(/\n|\u2028/);
    expect(lines).toContain("Parameters: purge=1\\nAffects nothing: it only refreshes the list.\\u{2028}Send this request?\\u{202e}");
    expect(lines.filter((line) => line.startsWith("Affects") || line.startsWith("Send this request?"))).toEqual([
      "Affects container 200 (db) on node pve2, now stopped.",
      "Send this request?",
    ]);
    expect(writes()).toEqual([]);
  });

  test("dry run says the write needs confirmation, and asks nobody", async () => {
    await open({ action: "accept", content: { confirm: true } });
    const result = await h!.call("proxmox_request", { ...stop, dry_run: true });
    const report = result.structuredContent as { policy: { verdict: string; confirmation: string } };
    expect(report.policy.verdict).toBe("needs_confirmation");
    expect(textOf(result)).toContain("POST /nodes/*/qemu/*/status/stop");
    expect(asked).toEqual([]);
    expect(fake.apiRequests()).toEqual([]);
  });

  test("the instructions say which writes need confirmation", async () => {
    await open({ action: "accept", content: { confirm: true } });
    const instructions = h!.client.getInstructions() ?? "";
    expect(instructions).toContain("wait until the user confirms them");
    expect(instructions).toContain("DELETE /**");
  });
});

describe("confirmationMessage", () => {
  test("secret parameters are not shown; containers are named as such", () => {
    const text = confirmationMessage(
      {
        method: "PUT",
        path: "/nodes/pve2/lxc/200/config",
        params: { password: "hunter22", memory: 512 },
        rule: "PUT /nodes/*/lxc/**",
      },
      [{ vmid: 200, name: "db", type: "lxc", node: "pve2", status: "stopped" }],
    );
    expect(text).not.toContain("hunter22");
    expect(text).toContain("password=[redacted] memory=512");
    expect(text).toContain("Affects container 200 (db) on node pve2, now stopped.");
  });
});
