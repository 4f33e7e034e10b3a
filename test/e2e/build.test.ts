// The build (scripts/build.ts) for any Bun the package supports: dist/index.js is a launcher
// for dist/proxmox-ve-mcp.js, whose bytecode only fits the Bun that built it. Another Bun must
// find the bytecode unusable and parse the bundle instead (checked by hand with Bun 1.3.0, see
// docs/performance.md); here a copy of dist/ gets bytecode that is not the bundle's, which takes
// the same way. Bun logs which way it took with BUN_JSC_verboseDiskCache=1.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv, ensureBuilt, ROOT } from "../support/stdio.ts";

const BUNDLE = "proxmox-ve-mcp.js";
let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "pve-mcp-build-"));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `bun <launcher>`, lists the tools, and returns their names and what Bun said on stderr. */
async function listTools(launcher: string): Promise<{ tools: string[]; stderr: string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [launcher],
    env: cleanEnv({
      PROXMOX_URL: "https://127.0.0.1:9",
      PROXMOX_TOKEN_ID: "build@pve!test",
      PROXMOX_TOKEN_SECRET: "00000000-0000-0000-0000-000000000000",
      BUN_JSC_verboseDiskCache: "1",
    }),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = new Client({ name: "build-test", version: "0.0.0" });
  await client.connect(transport);
  try {
    return { tools: (await client.listTools()).tools.map((t) => t.name), stderr };
  } finally {
    await client.close();
  }
}

describe("dist/index.js", () => {
  test("is a launcher with the shebang; the bundle starts with Bun's CommonJS pragma (Bun 1.3.0 runs nothing after a shebang)", () => {
    const launcher = readFileSync(join(ROOT, "dist/index.js"), "utf8");
    expect(launcher).toStartWith("#!/usr/bin/env bun\n");
    expect(launcher).toContain(`from "./${BUNDLE}"`);
    expect(readFileSync(join(ROOT, "dist", BUNDLE), "utf8").split("\n", 1)[0]).toBe("// @bun @bytecode @bun-cjs");
  });

  test("bundled again (as bun build --compile dist/index.js does) it fails at build time, never into a server that does nothing", async () => {
    // Bun 1.4 does not run a CommonJS bundle that is bundled again; the launcher's named import
    // turns that into a build error. Should a later Bun bundle it, the result must work.
    const outdir = join(dir, "rebundled");
    const failure = await Bun.build({ entrypoints: [join(ROOT, "dist/index.js")], target: "bun", outdir }).then(
      () => undefined,
      (error: unknown) => error as AggregateError,
    );
    if (failure) {
      expect(failure.errors.map(String).join("\n")).toContain('No matching export in "dist/proxmox-ve-mcp.js"');
    } else {
      expect((await listTools(join(outdir, "index.js"))).tools).toContain("proxmox_get");
    }
  });

  test("starts from its bytecode on the Bun that built it", async () => {
    const { tools, stderr } = await listTools(join(ROOT, "dist/index.js"));
    expect(tools).toContain("proxmox_get");
    expect(stderr).toContain("[Disk Cache] Cache hit");
  });

  test("starts from the source when the bytecode does not fit", async () => {
    const copy = join(dir, "dist");
    cpSync(join(ROOT, "dist"), copy, { recursive: true });
    // Valid bytecode, but of another program: what a different Bun's build looks like to this one.
    const other = join(dir, "other");
    writeFileSync(join(dir, "other.ts"), 'console.error("other");\n');
    const built = await Bun.build({
      entrypoints: [join(dir, "other.ts")],
      outdir: other,
      target: "bun",
      bytecode: true,
    });
    expect(built.success).toBe(true);
    cpSync(join(other, "other.js.jsc"), join(copy, `${BUNDLE}.jsc`));

    const { tools, stderr } = await listTools(join(copy, "index.js"));
    expect(tools).toEqual((await listTools(join(ROOT, "dist/index.js"))).tools);
    expect(tools).toContain("proxmox_describe_endpoint");
    expect(stderr).not.toContain("Cache hit");
    expect(stderr).toContain("[Disk Cache] Cache miss");
  });
});
