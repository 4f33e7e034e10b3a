// Annotations stay truthful in every mode, for every tool actually listed (so tools added later
// are covered without touching this file).
import { describe, expect, test } from "bun:test";
import { fakeForFile } from "../support/fake.ts";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { connectHarness } from "../support/mcp.ts";

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;
/** Tools that may change the cluster, named in issue 6. */
const DESTRUCTIVE = ["proxmox_request", "proxmox_upload"];
/**
 * Tools listed in read-only mode that still change the local machine (so readOnlyHint false is the
 * truth) while sending only GET to Proxmox: proxmox_download creates a new file, never replacing one.
 */
const LOCAL_WRITERS = new Set(["proxmox_download"]);

const fake = await fakeForFile();

async function listed(readOnlyMode: boolean): Promise<Tool[]> {
  const h = await connectHarness(fake, { client: { readOnly: readOnlyMode }, deps: { readOnly: readOnlyMode } });
  try {
    return (await h.client.listTools()).tools;
  } finally {
    await h.close();
  }
}

const normal = await listed(false);
const readOnly = await listed(true);

describe("every listed tool carries all four annotations", () => {
  test.each([["normal", () => normal], ["read-only", () => readOnly]] as const)("in %s mode", (_mode, tools) => {
    expect(tools().length).toBeGreaterThan(0);
    const missing = tools().flatMap((tool) => HINTS.filter((hint) => typeof tool.annotations?.[hint] !== "boolean").map((hint) => `${tool.name}.${hint}`));
    expect(missing).toEqual([]);
  });
});

describe("annotations are truthful", () => {
  test("every tool listed in read-only mode is read-only (or only creates local files) and not destructive", () => {
    const wrong = readOnly.filter(
      (tool) => tool.annotations?.readOnlyHint !== !LOCAL_WRITERS.has(tool.name) || tool.annotations?.destructiveHint !== false,
    );
    expect(wrong.map((tool) => tool.name)).toEqual([]);
  });

  test("a tool shown in both modes has the same annotations in both", () => {
    for (const tool of readOnly) {
      expect(normal.find((t) => t.name === tool.name)?.annotations).toEqual(tool.annotations);
    }
  });

  test("a tool hidden in read-only mode can write, and says so", () => {
    const readOnlyNames = new Set(readOnly.map((tool) => tool.name));
    const writers = normal.filter((tool) => !readOnlyNames.has(tool.name));
    expect(writers.map((tool) => tool.name)).toEqual(expect.arrayContaining(DESTRUCTIVE));
    const wrong = writers.filter((tool) => tool.annotations?.readOnlyHint !== false);
    expect(wrong.map((tool) => tool.name)).toEqual([]);
  });

  test("proxmox_request and proxmox_upload are destructive and not idempotent", () => {
    for (const name of DESTRUCTIVE) {
      const tool = normal.find((t) => t.name === name);
      expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    }
  });
});
