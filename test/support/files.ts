// Shared setup of the file transfer tool tests: a fake with the file routes, and per test a
// fresh temporary tree <base>/files (the one root) beside <base>/outside.
import { afterAll, afterEach, beforeAll, beforeEach } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CatalogProvider } from "../../src/catalog/loader.ts";
import { FileAccess, type FileAccessHooks } from "../../src/files/resolver.ts";
import type { WriteGate } from "../../src/proxmox/client.ts";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { installFileRoutes, type FileRoutes } from "../fake/upload.ts";
import { connectHarness, type Harness } from "./mcp.ts";

export function sha256(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

export interface ConnectOptions {
  hooks?: FileAccessHooks;
  /** false: PROXMOX_FILE_ROOTS unset; a FileAccess: use that one. */
  files?: false | FileAccess;
  env?: Record<string, string>;
  readOnly?: boolean;
  /** Another fake than the shared one. */
  fake?: FakeProxmox;
  /** The API catalog the server consults (e.g. whether uploads take a checksum). */
  catalog?: CatalogProvider;
  /** The local policy the client enforces. */
  gate?: WriteGate;
}

export interface FileFixture {
  fake: FakeProxmox;
  routes: FileRoutes;
  base: string;
  root: string;
  outside: string;
  /** A harness with file access confined to `root`; closed after the test. */
  connect(options?: ConnectOptions): Promise<Harness>;
}

/** Registers the hooks in the calling test file and returns the fixture they keep up to date. */
export function useFileFixture(prefix: string): FileFixture {
  let harness: Harness | undefined;
  const fixture = {
    connect: async (options: ConnectOptions = {}) => {
      const files =
        options.files === false
          ? undefined
          : (options.files ?? new FileAccess({ roots: [fixture.root] }, options.hooks));
      harness = await connectHarness(options.fake ?? fixture.fake, {
        ...(options.env ? { env: options.env } : {}),
        ...(options.gate ? { client: { gate: options.gate } } : {}),
        deps: {
          files,
          taskPolling: { initialMs: 1, maxMs: 5 },
          ...(options.readOnly ? { readOnly: true } : {}),
          ...(options.catalog ? { catalog: options.catalog } : {}),
        },
      });
      return harness;
    },
  } as FileFixture;

  beforeAll(async () => {
    fixture.fake = await FakeProxmox.start();
    fixture.routes = installFileRoutes(fixture.fake);
  });
  afterAll(async () => {
    await fixture.fake.stop();
  });
  beforeEach(() => {
    fixture.base = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
    fixture.root = join(fixture.base, "files");
    fixture.outside = join(fixture.base, "outside");
    mkdirSync(fixture.root, { mode: 0o755 });
    mkdirSync(fixture.outside, { mode: 0o755 });
    fixture.fake.requests.length = 0;
    fixture.routes.uploads.length = 0;
    fixture.routes.refused.length = 0;
  });
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
    rmSync(fixture.base, { recursive: true, force: true });
  });
  return fixture;
}
