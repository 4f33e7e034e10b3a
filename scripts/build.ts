// `bun run build`: dist/index.js, the command MCP hosts run, for every Bun the package supports.
//
// dist/proxmox-ve-mcp.js is the whole server, minified, as CommonJS with its bytecode beside it
// (proxmox-ve-mcp.js.jsc): the Bun that built it starts from the bytecode without parsing the
// bundle; any other Bun finds that the bytecode does not fit and parses the source as usual.
// Bytecode needs the CommonJS format, and Bun 1.3.0 silently runs nothing when such a bundle
// starts with a shebang line, so the bundle has none and dist/index.js is a small ES module
// launcher with the shebang. Bun does not run such a bundle when it is bundled again (as
// `bun build --compile dist/index.js` would), so the launcher imports a name the bundle exports:
// bundling it again then fails at build time instead of making a program that does nothing.
// Executables are built from src/index.ts. bench/startup.ts measured the choice
// (docs/performance.md).
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const DIST = join(ROOT, "dist");
const BUNDLE = "proxmox-ve-mcp.js";

/** src/index.ts without its shebang line, exporting the name the launcher checks. */
const bundleEntry: Bun.BunPlugin = {
  name: "bundle-entry",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]index\.ts$/ }, async (args) => ({
      contents: `${(await Bun.file(args.path).text()).replace(/^#!.*\n/, "")}\nexport const bundleEvaluated = true;\n`,
      loader: "ts",
    }));
  },
};

mkdirSync(DIST, { recursive: true });
const result = await Bun.build({
  entrypoints: [join(ROOT, "src/index.ts")],
  outdir: DIST,
  naming: BUNDLE,
  target: "bun",
  format: "cjs",
  bytecode: true,
  minify: true,
  plugins: [bundleEntry],
});
// Written last: test/support/stdio.ts rebuilds when dist/index.js is older than the sources.
const launcher = join(DIST, "index.js");
writeFileSync(
  launcher,
  `#!/usr/bin/env bun
import { bundleEvaluated } from "./${BUNDLE}";
if (!bundleEvaluated) {
  process.stderr.write("proxmox-ve-mcp: fatal: ${BUNDLE} did not run; it cannot be bundled again, build executables from src/index.ts\\n");
  process.exit(1);
}
`,
);
chmodSync(launcher, 0o755);
for (const output of result.outputs) {
  console.log(`${output.path.slice(ROOT.length + 1)}  ${(output.size / 1e6).toFixed(2)} MB (${output.kind})`);
}
console.log("dist/index.js  launcher");
