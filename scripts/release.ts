// `bun run release [TARGET...]`: builds dist/, then into release/ the npm tarball, one
// single-file executable per platform (`bun build --compile --minify --bytecode` of the same
// sources, src/index.ts, as scripts/build.ts builds them), one MCP
// Bundle per platform (`mcpb pack`), SHA256SUMS, and BUILD.json (what it was built from).
// Without targets it builds all five; CI builds only linux-x64. Bun fetches the runtimes of
// other platforms from the npm registry on first use.
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  bundledExecutable,
  bundleFile,
  bundleManifest,
  executableFile,
  isTargetName,
  packageVersion,
  RELEASE_DIR,
  ROOT,
  TARGET_NAMES,
  TARGETS,
  type TargetName,
} from "./release-targets.ts";

const MCPB_CLI = join(ROOT, "node_modules/@anthropic-ai/mcpb/dist/cli/cli.js");

function run(step: string, command: string[], cwd = ROOT): string {
  const started = performance.now();
  const result = Bun.spawnSync(command, { cwd, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) {
    process.stderr.write(result.stdout.toString() + result.stderr.toString());
    throw new Error(`${step} failed (exit ${result.exitCode}): ${command.join(" ")}`);
  }
  process.stderr.write(`${step} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  return result.stdout.toString();
}

export function sha256File(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

function parseTargets(args: string[]): TargetName[] {
  if (args.length === 0) return TARGET_NAMES;
  const unknown = args.filter((a) => !isTargetName(a));
  if (unknown.length > 0) {
    throw new Error(`unknown target ${unknown.join(", ")}; expected any of ${TARGET_NAMES.join(", ")}`);
  }
  return [...new Set(args)] as TargetName[];
}

function packBundle(target: TargetName, executable: string, out: string): void {
  const stage = mkdtempSync(join(tmpdir(), `pve-mcp-bundle-${target}-`));
  try {
    const inside = join(stage, bundledExecutable(target));
    mkdirSync(join(stage, "server"));
    copyFileSync(executable, inside);
    chmodSync(inside, 0o755);
    copyFileSync(join(ROOT, "LICENSE"), join(stage, "LICENSE"));
    writeFileSync(join(stage, "manifest.json"), `${JSON.stringify(bundleManifest(target), null, 2)}\n`);
    run(`mcpb pack ${target}`, [process.execPath, MCPB_CLI, "pack", stage, out]);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

function main(): void {
  const targets = parseTargets(process.argv.slice(2));
  const version = packageVersion();
  run("bun run build", [process.execPath, "run", "build"]);
  // the bundle the launcher dist/index.js runs: what BUILD.json ties the release to
  const dist = join(ROOT, "dist/proxmox-ve-mcp.js");

  rmSync(RELEASE_DIR, { recursive: true, force: true });
  mkdirSync(RELEASE_DIR);
  // prepack would build again; dist/index.js was just built
  run("npm pack", ["npm", "pack", "--ignore-scripts", "--pack-destination", RELEASE_DIR]);

  for (const target of targets) {
    const executable = join(RELEASE_DIR, executableFile(target));
    run(`compile ${target}`, [
      process.execPath,
      "build",
      "--compile",
      "--minify",
      "--bytecode",
      `--target=${TARGETS[target].bun}`,
      // from the sources, built the way dist/ is: the launcher dist/index.js cannot be bundled again
      join(ROOT, "src/index.ts"),
      "--outfile",
      executable,
    ]);
    packBundle(target, executable, join(RELEASE_DIR, bundleFile(target)));
  }

  const files = readdirSync(RELEASE_DIR).sort();
  const sums = files.map((f) => `${sha256File(join(RELEASE_DIR, f))}  ${f}\n`).join("");
  writeFileSync(join(RELEASE_DIR, "SHA256SUMS"), sums);
  const build = { version, bun: Bun.version, dist_sha256: sha256File(dist), targets };
  writeFileSync(join(RELEASE_DIR, "BUILD.json"), `${JSON.stringify(build, null, 2)}\n`);

  for (const f of files) {
    const mib = statSync(join(RELEASE_DIR, f)).size / 1024 / 1024;
    process.stderr.write(`${mib.toFixed(1).padStart(8)} MiB  release/${f}\n`);
  }
}

if (import.meta.main) main();
