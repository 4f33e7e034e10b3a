// Builds the issue-6 policy gate the way src/index.ts does, for tool tests against the fake.
import { afterAll, afterEach, beforeAll, expect } from "bun:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger, type Logger } from "../../src/log.ts";
import { loadPolicyConfig } from "../../src/policy/config.ts";
import { createPolicyGate, type PolicyGate } from "../../src/policy/gate.ts";
import { createRedactor } from "../../src/proxmox/redact.ts";
import { FakeProxmox, FAKE_TOKEN_ID, FAKE_TOKEN_SECRET } from "../fake/pve-fake.ts";
import { connectHarness, textOf, type Harness, type HarnessDeps } from "./mcp.ts";

export const PROTECTED_REASON = "the VM this server runs in: stopping it cuts the operator off";

/** A temp directory holding protected.json with guests 100 (mcp-host) and 105 (dns). */
export function protectedFile(content?: string): string {
  const dir = mkdtempSync(join(tmpdir(), "pve-mcp-policy-"));
  const file = join(dir, "protected.json");
  writeFileSync(
    file,
    content ??
      JSON.stringify({
        protected_vms: [
          { vmid: 100, name: "mcp-host", reason: PROTECTED_REASON, host: "pve1" },
          { vmid: 105, name: "dns", reason: "office DNS" },
        ],
      }),
  );
  return file;
}

export function policyGate(env: Record<string, string>, log: Logger = silentLogger): PolicyGate {
  return createPolicyGate({ policy: loadPolicyConfig(env), log, redact: createRedactor(FAKE_TOKEN_ID, FAKE_TOKEN_SECRET) });
}

/** A harness whose client and server carry the policy that `env` configures, as in production. */
export async function policyHarness(fake: FakeProxmox, env: Record<string, string>, deps: HarnessDeps = {}): Promise<Harness> {
  const policy = loadPolicyConfig(env);
  const gate = policyGate(env);
  return connectHarness(fake, { client: { gate, readOnly: policy.readOnly }, deps: { readOnly: policy.readOnly, ...deps } });
}

/** Asserts a local refusal: isError, the stable code, and the text a person reads; returns that text. */
export function expectRefusal(result: CallToolResult, code: string): string {
  expect(result.isError).toBe(true);
  expect((result.structuredContent as { error: { code?: string } }).error.code).toBe(code);
  return textOf(result);
}

export interface PolicySuite {
  /** The file's loopback fake (started in beforeAll). */
  readonly fake: FakeProxmox;
  /** The current test's harness, if one was opened. */
  readonly harness: Harness | undefined;
  /** Opens the current test's harness with the policy `env` configures; closed after the test. */
  open(env: Record<string, string>, deps?: HarnessDeps): Promise<Harness>;
  /** API requests the fake received in the current test, as "METHOD /path". */
  seen(): string[];
}

/** One fake per test file; after each test its harness is closed and the fake's record cleared. */
export function policySuite(setup: (fake: FakeProxmox) => void = () => {}): PolicySuite {
  let fake: FakeProxmox | undefined;
  let harness: Harness | undefined;
  beforeAll(async () => {
    fake = await FakeProxmox.start();
    setup(fake);
  });
  afterAll(async () => {
    await fake?.stop();
  });
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
    if (fake) fake.requests.length = 0;
  });
  return {
    get fake() {
      if (!fake) throw new Error("the fake starts in beforeAll");
      return fake;
    },
    get harness() {
      return harness;
    },
    async open(env, deps = {}) {
      await harness?.close();
      harness = await policyHarness(this.fake, env, deps);
      return harness;
    },
    seen() {
      return this.fake.apiRequests().map((r) => `${r.method} ${r.path}`);
    },
  };
}

/** Guest power actions answer with a UPID, as Proxmox does. */
export function routeGuestActions(fake: FakeProxmox, method = "POST"): void {
  fake.route(method, "/nodes/{node}/qemu/{vmid}/status/{action}", (req) => ({
    data: fake.startTask(req.pathParams.node!, `qm${req.pathParams.action}`, req.pathParams.vmid!),
  }));
}
