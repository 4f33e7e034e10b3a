// What `bun run release` builds for each platform: the executable's name, Bun's compile target,
// and the MCP Bundle manifest (packaging/manifest.template.json plus the platform's parts).
// Pure, so tests check the manifests without building anything.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "..");
export const RELEASE_DIR = join(ROOT, "release");
export const NAME = "proxmox-ve-mcp";

export interface Target {
  /** `bun build --compile --target=` value. */
  bun: string;
  /** Node's process.platform, as the mcpb manifest's compatibility.platforms names it. */
  platform: "linux" | "darwin" | "win32";
  label: string;
}

export const TARGETS = {
  "linux-x64": { bun: "bun-linux-x64", platform: "linux", label: "Linux x64" },
  "linux-arm64": { bun: "bun-linux-arm64", platform: "linux", label: "Linux arm64" },
  "darwin-x64": { bun: "bun-darwin-x64", platform: "darwin", label: "macOS Intel" },
  "darwin-arm64": { bun: "bun-darwin-arm64", platform: "darwin", label: "macOS Apple silicon" },
  "windows-x64": { bun: "bun-windows-x64", platform: "win32", label: "Windows x64" },
} as const satisfies Record<string, Target>;

export type TargetName = keyof typeof TARGETS;
export const TARGET_NAMES = Object.keys(TARGETS) as TargetName[];

export function isTargetName(name: string): name is TargetName {
  return Object.hasOwn(TARGETS, name);
}

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/** The executable inside a bundle: server/proxmox-ve-mcp, with .exe on Windows. */
export function bundledExecutable(target: TargetName): string {
  return `server/${NAME}${TARGETS[target].platform === "win32" ? ".exe" : ""}`;
}

/** The file names in release/. */
export function executableFile(target: TargetName): string {
  return `${NAME}-${target}${TARGETS[target].platform === "win32" ? ".exe" : ""}`;
}
export function bundleFile(target: TargetName): string {
  return `${NAME}-${target}.mcpb`;
}

export type Manifest = Record<string, unknown> & {
  version: string;
  server: {
    type: string;
    entry_point: string;
    mcp_config: { command: string; args: string[]; env: Record<string, string> };
  };
  tools: Array<{ name: string; description: string }>;
  user_config: Record<
    string,
    { type: string; title: string; required?: boolean; sensitive?: boolean; multiple?: boolean; default?: unknown }
  >;
  compatibility?: { platforms: string[] };
};

export function manifestTemplate(): Manifest {
  return JSON.parse(readFileSync(join(ROOT, "packaging/manifest.template.json"), "utf8")) as Manifest;
}

/** The manifest.json of one platform's bundle. The version is package.json's. */
export function bundleManifest(target: TargetName, version: string = packageVersion()): Manifest {
  const template = manifestTemplate();
  const executable = bundledExecutable(target);
  const { label, platform } = TARGETS[target];
  return {
    ...template,
    version,
    display_name: `${template.display_name as string} (${label})`,
    server: {
      ...template.server,
      entry_point: executable,
      mcp_config: { ...template.server.mcp_config, command: `\${__dirname}/${executable}` },
    },
    compatibility: { platforms: [platform] },
  };
}
