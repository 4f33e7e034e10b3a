import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash, randomBytes } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { saveBody, WriteFailure } from "../../src/files/download.ts";
import { TransferMeter } from "../../src/files/meter.ts";
import type { FileAccessHooks } from "../../src/files/resolver.ts";

let dir: string;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pve-save-body-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function chunksOf(data: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += size) out.push(data.subarray(offset, offset + size));
  return out;
}

async function save(body: Readable, hooks: FileAccessHooks = {}, fdFor?: (path: string) => number) {
  const path = join(dir, `f${n++}`);
  const fd = fdFor ? fdFor(path) : openSync(path, "wx", 0o600);
  const meter = new TransferMeter();
  try {
    const written = await saveBody(body, fd, hooks, meter);
    return { written, meter, onDisk: readFileSync(path) };
  } finally {
    closeSync(fd);
  }
}

describe("saveBody", () => {
  test.each([
    [0, 1],
    [1, 1],
    [700_000, 65_536],
    [3 * 1024 * 1024 + 5, 524_288],
  ])("a %d-byte body in %d-byte chunks lands whole, hashed and counted", async (size, chunk) => {
    const data = randomBytes(size);
    const { written, meter, onDisk } = await save(Readable.from(chunksOf(data, chunk)));
    expect(onDisk.equals(data)).toBe(true);
    expect(written).toEqual({ bytes: size, sha256: createHash("sha256").update(data).digest("hex") });
    expect(meter.bytes).toBe(size);
  });

  test("a hook that waits holds the body: chunks still land in order", async () => {
    const data = randomBytes(10 * 65_536);
    const seen: number[] = [];
    const hooks: FileAccessHooks = {
      beforeWrite: async (bytes) => {
        seen.push(bytes);
        await new Promise((resolve) => setTimeout(resolve, 2));
      },
    };
    const { written, onDisk } = await save(Readable.from(chunksOf(data, 65_536)), hooks);
    expect(onDisk.equals(data)).toBe(true);
    expect(written.bytes).toBe(data.length);
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => i * 65_536));
  });

  test("a failing disk rejects with a WriteFailure carrying the code, and the body is destroyed", async () => {
    const body = Readable.from(chunksOf(randomBytes(8 * 65_536), 65_536));
    const hooks: FileAccessHooks = {
      beforeWrite: (bytes) => {
        if (bytes >= 2 * 65_536) throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
      },
    };
    const error = await save(body, hooks).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WriteFailure);
    expect(((error as WriteFailure).cause as { code: string }).code).toBe("ENOSPC");
    expect(body.destroyed).toBe(true);
  });

  test("a write the disk refuses comes back as a WriteFailure", async () => {
    const error = await save(Readable.from([randomBytes(1000)]), {}, (path) => {
      writeFileSync(path, "");
      return openSync(path, "r");
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WriteFailure);
    expect(((error as WriteFailure).cause as { code: string }).code).toBe("EBADF");
  });

  test("an error of the body (a dropped connection, a stall) rejects with that error", async () => {
    const body = new Readable({ read() {} });
    const failure = new Error("other side closed");
    const saving = save(body);
    body.push(randomBytes(100));
    setTimeout(() => body.destroy(failure), 5);
    expect(await saving.catch((e: unknown) => e)).toBe(failure);
  });
});
