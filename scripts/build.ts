// `bun run build`: dist/index.js, the command MCP hosts run, for every Bun the package supports.
//
// dist/proxmox-ve-mcp.js is the whole server, minified, as CommonJS with its bytecode beside it
// (proxmox-ve-mcp.js.jsc): the Bun that built it starts from the bytecode without parsing the
// bundle; any other Bun finds the bytecode does not match and parses the source as usual.
// Bytecode needs the CommonJS format, and Bun 1.3.0 silently runs nothing when such a bundle
// starts with a shebang line, so the bundle has none and dist/index.js is a two-line ES module
// launcher with the shebang. bench/startup.ts measured the choice (docs/performance.md).
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const DIST = join(ROOT, "dist");
const ENTRY = join(ROOT, "src/index.ts");
const BUNDLE = "proxmox-ve-mcp.js";

const dropEntryShebang: Bun.BunPlugin = {
  name: "drop-entry-shebang",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]index\.ts$/ }, async (args) => ({
      contents: (await Bun.file(args.path).text()).replace(/^#!.*\n/, ""),
      loader: "ts",
    }));
  },
};

mkdirSync(DIST, { recursive: true });
const result = await Bun.build({
  entrypoints: [ENTRY],
  outdir: DIST,
  naming: BUNDLE,
  target: "bun",
  format: "cjs",
  bytecode: true,
  minify: true,
  plugins: [dropEntryShebang],
});
if (!result.success) {
  for (const message of result.logs) console.error(message);
  process.exit(1);
}
// Written last: test/support/stdio.ts rebuilds when dist/index.js is older than the sources.
const launcher = join(DIST, "index.js");
writeFileSync(launcher, `#!/usr/bin/env bun\nimport "./${BUNDLE}";\n`);
chmodSync(launcher, 0o755);
for (const output of result.outputs) {
  console.log(`${output.path.slice(ROOT.length + 1)}  ${(output.size / 1e6).toFixed(2)} MB (${output.kind})`);
}
console.log("dist/index.js  launcher");
