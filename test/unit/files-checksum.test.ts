import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog } from "../../src/catalog/catalog.ts";
import {
  checksumSupport,
  defaultChecksumNote,
  hashFile,
  HASH_READ_BYTES,
  planChecksum,
  type ChecksumPlan,
} from "../../src/files/checksum.ts";
import { LocalRefusal } from "../../src/proxmox/errors.ts";
import type { Params } from "../../src/proxmox/params.ts";
import { apidata } from "../support/catalog.ts";
import { haveSharedData, SCHEMA_DIR, SCHEMA_FILES } from "../support/shared.ts";

describe("planChecksum", () => {
  const cases: [string, Params, boolean, ChecksumPlan["kind"], string][] = [
    ["nothing given: sha256 by default", { content: "iso" }, true, "compute", "sha256"],
    ["the caller's pair is sent as given", { "checksum-algorithm": "md5", checksum: "abc" }, true, "caller", ""],
    [
      "the caller's pair wins when the default is off too",
      { "checksum-algorithm": "sha1", checksum: "abc" },
      false,
      "caller",
      "",
    ],
    ["an algorithm alone is computed", { "checksum-algorithm": "sha512" }, true, "compute", "sha512"],
    [
      "an algorithm alone is computed even with the default off",
      { "checksum-algorithm": " SHA384 " },
      false,
      "compute",
      "sha384",
    ],
    ["default off: nothing", { content: "iso" }, false, "none", ""],
  ];
  test.each(cases)("%s", (_what, params, defaultOn, kind, algorithm) => {
    const plan = planChecksum(params, defaultOn);
    expect(plan.kind).toBe(kind);
    if (plan.kind === "compute") {
      expect(plan.algorithm).toBe(algorithm);
      expect(plan.byDefault).toBe(params["checksum-algorithm"] === undefined);
    }
    if (plan.kind === "none") expect(plan.note).toContain("PROXMOX_UPLOAD_CHECKSUM=false");
  });

  const refused: [string, Params, string][] = [
    ["a checksum without its algorithm", { checksum: "abc" }, "needs 'checksum-algorithm'"],
    ["an algorithm Proxmox does not take", { "checksum-algorithm": "crc32" }, "not one Proxmox takes"],
  ];
  test.each(refused)("refuses %s before anything is read", (_what, params, message) => {
    expect(() => planChecksum(params, true)).toThrow(message);
    expect(() => planChecksum(params, true)).toThrow(LocalRefusal);
  });
});

describe("checksumSupport", () => {
  const upload = (properties: Record<string, unknown>) =>
    apidata([
      {
        path: "/nodes/{node}/storage/{storage}/upload",
        info: { POST: { method: "POST", name: "upload", parameters: { properties } } },
      },
    ]);
  const withChecksum = upload({
    content: { type: "string" },
    "checksum-algorithm": { type: "string" },
    checksum: { type: "string" },
  });
  const without = upload({ content: { type: "string" } });
  const other = apidata([{ path: "/version", info: { GET: { method: "GET", name: "version" } } }]);

  const cases: [string, string | undefined, "cluster" | "configured" | "public" | "inline", string][] = [
    ["a schema that lists checksum-algorithm", withChecksum, "cluster", "accepted"],
    ["a configured schema file counts as the cluster's", withChecksum, "configured", "accepted"],
    ["a schema without it", without, "cluster", "refused"],
    ["a schema without the upload endpoint", other, "cluster", "unknown"],
    ["pve.proxmox.com's schema describes the newest release, not this cluster", withChecksum, "public", "unknown"],
    ["no catalog", undefined, "cluster", "unknown"],
  ];
  test.each(cases)("%s -> %s", (_what, text, kind, expected) => {
    const catalog = text === undefined ? undefined : Catalog.fromText(text, { kind, location: "test" });
    expect(checksumSupport(catalog)).toBe(expected as ReturnType<typeof checksumSupport>);
  });

  const present = haveSharedData("checksum support from the real schemas", SCHEMA_DIR);
  const real: [keyof typeof SCHEMA_FILES, string][] = [
    ["6.4", "refused"],
    ["7.4", "accepted"],
    ["8.4", "accepted"],
    ["9.1", "accepted"],
  ];
  test.skipIf(!present).each(real)("PVE %s -> %s", (version, expected) => {
    const catalog = Catalog.fromText(readFileSync(SCHEMA_FILES[version].file, "utf8"), {
      kind: "cluster",
      location: version,
    });
    expect(checksumSupport(catalog)).toBe(expected as ReturnType<typeof checksumSupport>);
  });

  test("the note says why no default checksum was sent", () => {
    expect(defaultChecksumNote("accepted")).toBeUndefined();
    expect(defaultChecksumNote("refused")).toContain("takes none");
    expect(defaultChecksumNote("unknown")).toContain("could not be read");
  });
});

describe("hashFile", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "pve-hash-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const sizes = [0, 1, HASH_READ_BYTES - 1, HASH_READ_BYTES, 3 * HASH_READ_BYTES + 17];
  test.each(sizes)("a %d-byte file hashes like the whole buffer", async (size) => {
    const data = randomBytes(size);
    const path = join(dir, `f${size}`);
    writeFileSync(path, data);
    const handle = await open(path, "r");
    try {
      for (const algorithm of ["sha256", "md5", "sha512"]) {
        expect(await hashFile(handle, size, algorithm)).toBe(createHash(algorithm).update(data).digest("hex"));
      }
    } finally {
      await handle.close();
    }
  });

  test("a file shorter than its size is refused", async () => {
    const path = join(dir, "short");
    writeFileSync(path, randomBytes(1000));
    const handle = await open(path, "r");
    try {
      await expect(hashFile(handle, 5000, "sha256")).rejects.toThrow("shrank");
    } finally {
      await handle.close();
    }
  });

  test("stops when the signal aborts", async () => {
    const path = join(dir, "big");
    writeFileSync(path, randomBytes(4 * HASH_READ_BYTES));
    const handle = await open(path, "r");
    try {
      await expect(hashFile(handle, 4 * HASH_READ_BYTES, "sha256", AbortSignal.abort())).rejects.toThrow();
    } finally {
      await handle.close();
    }
  });
});
