// Issue 3 through the built server: index.ts wires the catalog loader from PROXMOX_URL and
// PROXMOX_SCHEMA_URL. The fake cluster always serves the schema, so nothing reaches the internet.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { existsSync, readFileSync } from "node:fs";
import { VIEWER_PATH } from "../../src/catalog/loader.ts";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { apidata, MINI_API, VIEWER_CODE } from "../support/catalog.ts";
import { SCHEMA_FILES } from "../support/shared.ts";
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
});

afterAll(async () => {
  await session?.close();
  await fake.stop();
});

describe("the built server", () => {
  test("loads the cluster's own schema on the first search, without the token, and names the source", async () => {
    session = await connectStdio(cleanEnv(fake.env()));
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
  });

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
