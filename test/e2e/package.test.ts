// The npm package as a user gets it: `npm pack`, installed from the tarball into an empty
// directory, started by Bun through its bin link and through `bun x`, with no other package.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { ALL_TOOLS } from "../support/mcp.ts";
import { connectCommand, expectGetVersion, type CommandSession } from "../support/release.ts";
import { cleanEnv, ensureBuilt, ROOT } from "../support/stdio.ts";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  files: string[];
  dependencies?: Record<string, string>;
  private?: boolean;
};


let fake: FakeProxmox;
let work: string;
let tarball: string;
let packed: string[];
let app: string;

beforeAll(async () => {
  ensureBuilt();
  fake = await FakeProxmox.start();
  work = mkdtempSync(join(tmpdir(), "pve-mcp-package-"));
  // --ignore-scripts: prepack would run the build again; ensureBuilt has just made it current
  const out = execFileSync("npm", ["pack", "--ignore-scripts", "--offline", "--json", "--pack-destination", work], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [info] = JSON.parse(out) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, info!.filename);
  packed = info!.files.map((f) => f.path).sort();
  app = join(work, "app");
  execFileSync("mkdir", [app]);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true }));
  execFileSync(process.execPath, ["add", tarball], { cwd: app, stdio: ["ignore", "pipe", "pipe"] });
}, 60_000);

afterAll(async () => {
  await fake?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("package.json", () => {
  test("is publishable: not private, a name, a version, bin at the built entry", () => {
    expect(pkg.private).toBeUndefined();
    expect(pkg.name).toBe("proxmox-ve-mcp");
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
    expect(pkg.bin).toEqual({ "proxmox-ve-mcp": "dist/index.js" });
  });

  test("declares no runtime dependency: the bundle carries everything", () => {
    expect(pkg.dependencies ?? {}).toEqual({});
    // the launcher imports the bundle, a CommonJS file (scripts/build.ts)
    const launcher = readFileSync(join(ROOT, "dist/index.js"), "utf8");
    const bundle = readFileSync(join(ROOT, "dist/proxmox-ve-mcp.js"), "utf8");
    const imported = [...launcher.matchAll(/^import\s[^;]*?from\s*"([^"]+)"/gm)].map((m) => m[1]!);
    // every require the bundler left in place; not the ones inside strings (Ajv's code generator)
    const required = [...bundle.matchAll(/(?<![\w$'"`.])require\("([^"]+)"\)/g)].map((m) => m[1]!);
    expect(required.length).toBeGreaterThan(0);
    const external = [...imported, ...required].filter((s) => !s.startsWith("node:") && !s.startsWith("."));
    // only Node's built-in modules, which Bun provides
    const builtins = new Set(builtinModules);
    expect(external.filter((s) => !builtins.has(s) && !s.startsWith("bun"))).toEqual([]);
  });
});

describe("npm pack", () => {
  test("packs only what runs and what a user reads", () => {
    expect(packed).toEqual(
      [
        ".env.example",
        "LICENSE",
        "README.md",
        "SECURITY.md",
        "dist/index.js",
        "dist/proxmox-ve-mcp.js",
        "dist/proxmox-ve-mcp.js.jsc",
        "package.json",
        ...readdirSync(join(ROOT, "skills"), { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => join(e.parentPath, e.name).slice(ROOT.length + 1)),
      ].sort(),
    );
  });

  test("the bin entry starts with a Bun shebang", () => {
    expect(readFileSync(join(ROOT, "dist/index.js"), "utf8").split("\n", 1)[0]).toBe("#!/usr/bin/env bun");
  });

  test("installed from the tarball into an empty directory, it brings no other package", () => {
    expect(readdirSync(join(app, "node_modules")).sort()).toEqual([".bin", "proxmox-ve-mcp"]);
    const link = join(app, "node_modules/.bin/proxmox-ve-mcp");
    expect(realpathSync(link)).toBe(realpathSync(join(app, "node_modules/proxmox-ve-mcp/dist/index.js")));
  });
});

async function checkRuns(session: CommandSession): Promise<void> {
  try {
    const tools = (await session.client.listTools()).tools.map((t) => t.name).sort();
    expect(tools).toEqual(ALL_TOOLS);
    await expectGetVersion(session, fake);
  } finally {
    await session.close();
  }
}

describe("the installed package runs", () => {
  test("through its bin link (the shebang finds Bun on PATH)", async () => {
    await checkRuns(await connectCommand(join(app, "node_modules/.bin/proxmox-ve-mcp"), [], cleanEnv(fake.env()), app));
  }, 20_000);

  test("through `bun x proxmox-ve-mcp`", async () => {
    await checkRuns(await connectCommand(process.execPath, ["x", "proxmox-ve-mcp"], cleanEnv(fake.env()), app));
  }, 20_000);

  test("--version prints package.json's version", () => {
    const out = execFileSync(process.execPath, ["x", "proxmox-ve-mcp", "--version"], { cwd: app, encoding: "utf8" });
    expect(out).toBe(`${pkg.version}\n`);
  }, 20_000);
});
