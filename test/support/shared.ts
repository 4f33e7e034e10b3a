import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

/** ../shared beside the checkout: real PVE schemas and search queries, for tests only. */
export const SHARED_DIR = resolve(import.meta.dir, "../../../shared");
export const SCHEMA_DIR = join(SHARED_DIR, "pve/schemas");
export const DEV_QUERIES = join(SHARED_DIR, "search-eval/dev-queries.json");
export const DEV_QUERIES_2 = join(SHARED_DIR, "search-eval/dev-queries-2.json");
/** The pve-docs pages of PVE 9.1.3 (man pages and chapters), as a node serves them under /pve-docs/. */
export const DOCS_DIR = join(SHARED_DIR, "pve/docs/9.1.3");

export const SCHEMA_FILES = {
  "6.4": { file: join(SCHEMA_DIR, "pve6.4-apidata.js"), endpoints: 504 },
  "7.4": { file: join(SCHEMA_DIR, "pve7.4-apidata.js"), endpoints: 540 },
  "8.4": { file: join(SCHEMA_DIR, "pve8.4-apidata.js"), endpoints: 605 },
  "9.1": { file: join(SCHEMA_DIR, "pve9.1-apidata.js"), endpoints: 649 },
} as const;

/**
 * True when the shared test data is present. When it is absent: under CI=true this throws
 * (the data must be there), otherwise it warns loudly and the caller skips.
 */
export function haveSharedData(what: string, path: string = SCHEMA_DIR): boolean {
  if (existsSync(path)) return true;
  const message = `${what}: ${path} is missing, so these tests cannot run`;
  if (process.env.CI === "true") throw new Error(`${message} (CI=true requires it)`);
  process.stderr.write(`\n!!! SKIPPED ${message}. Place the shared data beside the checkout to run them.\n\n`);
  return false;
}
