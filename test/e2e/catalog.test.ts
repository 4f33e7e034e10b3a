// Issue 3 through the built server: index.ts wires the catalog loader from PROXMOX_URL and
// PROXMOX_SCHEMA_URL. The fake cluster always serves the schema, so nothing reaches the internet.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { existsSync, readFileSync } from "node:fs";
import { DOCS_PAGES } from "../../src/catalog/docs-loader.ts";
import { VIEWER_PATH } from "../../src/catalog/loader.ts";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { apidata, MINI_API, VIEWER_CODE } from "../support/catalog.ts";
import { DOCS_DIR, SCHEMA_FILES } from "../support/shared.ts";
import { cleanEnv, connectStdio, ensureBuilt, runToExit, type StdioSession } from "../support/stdio.ts";

let fake: FakeProxmox;
let session: StdioSession | undefined;

beforeAll(async () => {
  ensureBuilt();
  fake = await FakeProxmox.start();
  // The real PVE 9.1 schema when the shared data is there; the small fixture otherwise (wiring is what counts here).
  const real = SCHEMA_FILES["9.1"].file;
  const schema = (existsSync(real) ? readFileSync(real, "utf8") : apidata(MINI_API)) + VIEWER_CODE;
  fake.file(VIEWER_PATH, () => ({ body: schema, contentType: "application/javascript" }));
  // Its docs too, as a node serves them; without them the server is told not to look elsewhere.
  if (withDocs) fake.serveDocs(DOCS_DIR);
});

const withDocs = existsSync(SCHEMA_FILES["9.1"].file) && existsSync(DOCS_DIR);
const docsEnv: Record<string, string> = withDocs ? {} : { PROXMOX_DOCS: "off" };

/** Resolves once the server has written `text` to stderr (event-driven; the bound is only a safety net). */
function stderrSays(s: StdioSession, text: string, ms = 60_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!s.stderr().includes(text)) return;
      done();
      resolve();
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`stderr never said ${JSON.stringify(text)}:\n${s.stderr()}`));
    }, ms);
    const done = () => {
      clearTimeout(timer);
      s.transport.stderr?.off("data", check);
    };
    s.transport.stderr?.on("data", check);
    check();
  });
}

afterAll(async () => {
  await session?.close();
  await fake.stop();
});

describe("the built server", () => {
  test("loads the cluster's own schema on the first search, without the token, and names the source", async () => {
    session = await connectStdio(cleanEnv(fake.env(docsEnv)));
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["proxmox_search_endpoints", "proxmox_describe_endpoint"]),
    );
    const result = (await session.client.callTool({
      name: "proxmox_search_endpoints",
      arguments: { query: "roll back a VM to its snapshot" },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      source: `cluster ${fake.url}${VIEWER_PATH}`,
      results: expect.arrayContaining([
        expect.objectContaining({ method: "POST", path: "/nodes/{node}/qemu/{vmid}/snapshot/{snapname}/rollback" }),
      ]),
    });
    const fetched = fake.requests.filter((r) => r.path === VIEWER_PATH);
    expect(fetched).toHaveLength(1);
    expect(fetched[0]!.headers.authorization).toBeUndefined();
    expect(session.stderr()).toContain(`API catalog loaded from the cluster source ${fake.url}${VIEWER_PATH}`);
  }, 30_000);

  test.skipIf(!withDocs)(
    "loads the cluster's docs beside the schema: CLI commands then name their endpoint",
    async () => {
      await stderrSays(session!, `docs loaded from the cluster source ${fake.url}/pve-docs/`);
      const result = (await session!.client.callTool({
        name: "proxmox_search_endpoints",
        arguments: { query: "pct start 120" },
      })) as CallToolResult;
      const answer = result.structuredContent as { docs: string; recognized: string[]; results: object[] };
      expect(answer.docs).toStartWith(`cluster ${fake.url}/pve-docs/`);
      expect(answer.recognized).toEqual([
        "pct start calls POST /nodes/{node}/lxc/{vmid}/status/start (from the pct man page)",
      ]);
      expect(answer.results[0]).toMatchObject({ method: "POST", path: "/nodes/{node}/lxc/{vmid}/status/start" });
      const pages = fake.requests.filter((r) => r.path.startsWith("/pve-docs/") && r.path.endsWith(".html"));
      expect(pages.length).toBe(DOCS_PAGES.length);
      expect(pages.every((r) => r.headers.authorization === undefined)).toBe(true);
    },
    90_000,
  );

  test("a PROXMOX_SCHEMA_URL that is not https stops startup without echoing it", async () => {
    const exited = await runToExit(
      cleanEnv(fake.env({ PROXMOX_SCHEMA_URL: "http://admin:s3cr3t-pw@docs.example.com/apidoc.js" })),
    );
    expect(exited.code).toBe(1);
    expect(exited.stdout).toBe("");
    expect(exited.stderr).toContain("PROXMOX_SCHEMA_URL: uses http, not https");
    expect(exited.stderr).not.toContain("s3cr3t-pw");
  });
});
