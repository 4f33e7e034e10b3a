// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned) against the HTTP
// transport, for the scenarios that apply to any server. The suite sends no credentials, so a
// loopback proxy in front adds the bearer header and passes everything else, Host and Origin
// included, through unchanged: the DNS-rebinding scenario still reaches the server's own check.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { startHttpHarness, type HttpHarness } from "../support/http.ts";
import { ROOT } from "../support/stdio.ts";

const CLI = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const SCENARIOS = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"];

let fake: FakeProxmox;
let harness: HttpHarness;
let proxy: ReturnType<typeof Bun.serve>;
const forwarded: Array<{ host: string | null; authorization: boolean }> = [];

beforeAll(async () => {
  fake = await FakeProxmox.start();
  harness = await startHttpHarness(fake);
  const target = harness.url;
  const bearer = `Bearer ${harness.tokens.alice}`;
  proxy = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const headers = new Headers(req.headers);
      headers.set("authorization", bearer);
      forwarded.push({ host: req.headers.get("host"), authorization: req.headers.has("authorization") });
      const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer();
      return fetch(new URL(url.pathname + url.search, target), {
        method: req.method,
        headers,
        body,
        redirect: "manual",
      });
    },
  });
});
afterAll(async () => {
  proxy?.stop(true);
  await harness?.close();
  await fake?.stop();
});

async function runScenario(scenario: string): Promise<{ code: number; output: string }> {
  const proc = Bun.spawn(
    [process.execPath, CLI, "server", "--url", `http://127.0.0.1:${proxy.port}/mcp`, "--scenario", scenario],
    {
      cwd: ROOT,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", NO_COLOR: "1" },
    },
  );
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, output: `${stdout}\n${stderr}` };
}

test("server-initialize, ping, tools-list and dns-rebinding-protection pass", async () => {
  const results = await Promise.all(SCENARIOS.map(runScenario));
  results.forEach(({ code, output }, i) => {
    const scenario = SCENARIOS[i]!;
    if (code !== 0 || !/Passed: (\d+)\/\1, 0 failed/.test(output)) throw new Error(`${scenario} failed:\n${output}`);
  });
  const dns = results[SCENARIOS.indexOf("dns-rebinding-protection")]!.output;
  expect(dns).toContain("localhost-host-rebinding-rejected");
  expect(dns).toContain("localhost-host-valid-accepted");
  // the suite sent no credentials; Host reached the server as the suite wrote it
  expect(forwarded.every((r) => !r.authorization)).toBe(true);
  expect(forwarded.map((r) => r.host)).toContain("evil.example.com");
  expect(harness.log.lines).toContain(
    'warn: refused a request with Host "evil.example.com" and Origin "http://evil.example.com": not in PROXMOX_MCP_ALLOWED_HOSTS',
  );
}, 60_000);
