// Issue 12: the built server starts without evaluating what only some calls need. What a
// process has evaluated is read from its own heap (test/e2e/heap-probe.ts): method and property
// names that exist only once a module has run. A started server has evaluated neither the HTML
// parser nor undici; a catalog load from a viewer page brings the parser, the first Proxmox
// request brings undici's Agent and request, and the rest of undici never loads, nor does the
// SDK build its Ajv validator.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { apidata, MINI_API, VIEWER_CODE } from "../support/catalog.ts";
import { cleanEnv, connectStdio, ensureBuilt, ROOT, type StdioSession } from "../support/stdio.ts";

// Names that survive minification: methods and object keys, not local variables.
const HTML_PARSER = [
  "stateBeforeTagName", // htmlparser2's Tokenizer
  "onprocessinginstruction", // domhandler's DomHandler
];
const UNDICI_AGENT = [
  "kHTTP2Session", // undici/lib/core/symbols.js, which every dispatcher needs
];
const NEVER = [
  "setGlobalDispatcher", // undici/index.js itself
  "enableNetConnect", // its MockAgent
  "_compilations", // an Ajv instance: the SDK server's validator, only for elicitation answers
];
const ALL = [...HTML_PARSER, ...UNDICI_AGENT, ...NEVER];

let fake: FakeProxmox;
let dir: string;
let session: StdioSession | undefined;
const probeFile = () => join(dir, "heap-probe.jsonl");

/** The names the probe found in the heap just before the latest response left the server. */
function presentNow(): string[] {
  const lines = readFileSync(probeFile(), "utf8").trim().split("\n");
  return (JSON.parse(lines.at(-1)!) as { present: string[] }).present;
}

beforeAll(async () => {
  ensureBuilt();
  fake = await FakeProxmox.start();
  dir = mkdtempSync(join(tmpdir(), "pve-mcp-lazy-"));
  // An air-gapped copy of the API viewer: the page, and the schema script beside it.
  writeFileSync(join(dir, "index.html"), '<!doctype html><html><head><script src="apidoc.js"></script></head></html>');
  writeFileSync(join(dir, "apidoc.js"), apidata(MINI_API) + VIEWER_CODE);
});

afterAll(async () => {
  await session?.close();
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("dist/index.js loads the HTML parser and undici on first use", () => {
  test("not at startup; the parser with a viewer page, undici's Agent with the first request, the rest of undici and Ajv never", async () => {
    const env = cleanEnv({
      ...fake.env({ PROXMOX_SCHEMA_URL: join(dir, "index.html") }),
      HEAP_PROBE_FILE: probeFile(),
      HEAP_PROBE_NAMES: JSON.stringify(ALL),
    });
    session = await connectStdio(env, ["--preload", join(import.meta.dir, "heap-probe.ts")]);
    const { client } = session;

    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(presentNow()).toEqual([]);

    const search = await client.callTool({ name: "proxmox_search_endpoints", arguments: { query: "list nodes" } });
    expect(search.isError).toBeFalsy();
    expect(session.stderr()).toContain(`API catalog loaded from the configured source ${join(dir, "index.html")}`);
    expect(presentNow()).toEqual(HTML_PARSER);

    const get = await client.callTool({ name: "proxmox_get", arguments: { path: "/version" } });
    expect(get.isError).toBeFalsy();
    expect(fake.apiRequests().map((r) => r.url)).toEqual(["/api2/json/version"]);
    expect(presentNow()).toEqual([...HTML_PARSER, ...UNDICI_AGENT]);
  }, 30_000); // a heap snapshot per response: seconds on a busy machine
});

test("each marker name appears once its module has run, and not before (in a fresh process)", () => {
  const script = `
    const names = () => new Set(Bun.generateHeapSnapshot().edgeNames);
    const markers = ${JSON.stringify(ALL)};
    const before = names();
    const kept = [require("cheerio/slim").load("<p>x</p>"), require("undici/index.js"), new (require("ajv").default)()];
    const after = names();
    console.log(JSON.stringify({ before: markers.filter((n) => before.has(n)), after: markers.filter((n) => after.has(n)), kept: kept.length }));
  `;
  const run = Bun.spawnSync([process.execPath, "-e", script], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  expect(run.stderr.toString()).toBe("");
  expect(JSON.parse(run.stdout.toString())).toEqual({ before: [], after: ALL, kept: 3 });
}, 30_000);

describe("undici's internal entry points (src/http/undici.ts)", () => {
  test("are the Agent and request that undici's index.js exports in the installed version, not Bun's stand-in", () => {
    const index = require("undici/index.js");
    const agent = require("undici/lib/dispatcher/agent.js");
    const apiRequest = require("undici/lib/api/api-request.js");
    expect(agent).toBe(index.Agent);
    // index.js puts the request API on every dispatcher; request(url, options) wraps the same function.
    expect(index.Dispatcher.prototype.request).toBe(apiRequest);
    expect(require("undici/lib/core/util.js").parseURL("https://pve.example:8006/x?y=1").href).toBe(
      "https://pve.example:8006/x?y=1",
    );
    expect(agent).not.toBe(require("undici").Agent);
  });
});
