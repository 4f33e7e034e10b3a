import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./stdio.ts";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** Every PROXMOX_* variable named anywhere in src/, sorted: the settings the server reads. */
export function settingsTheServerReads(): string[] {
  const names = sourceFiles(join(ROOT, "src")).flatMap((f) =>
    [...readFileSync(f, "utf8").matchAll(/\bPROXMOX_[A-Z_]+[A-Z]\b/g)].map((m) => m[0]),
  );
  return [...new Set(names)].sort();
}
