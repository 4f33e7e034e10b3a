import { createHash } from "node:crypto";
import { writeSync } from "node:fs";
import type { Readable } from "node:stream";
import { firstHeader } from "../http/undici.ts";
import type { ProxmoxClient } from "../proxmox/client.ts";
import { LocalRefusal, ProxmoxTransportError } from "../proxmox/errors.ts";
import { normalizeParameters } from "../proxmox/params.ts";
import { validateApiPath } from "../proxmox/path.ts";
import { collectAfterTransfer } from "./memory.ts";
import { TransferMeter, watchProgress, watchStall, type ProgressReport } from "./meter.ts";
import type { FileAccess, FileAccessHooks } from "./resolver.ts";
import { stalledTransfer } from "./stall.ts";

export interface DownloadRequest {
  path: string;
  parameters: unknown;
  destination: unknown;
  signal?: AbortSignal | undefined;
  /** Told the bytes written so far (and the announced length) while the answer comes in. */
  onProgress?: ProgressReport | undefined;
}

/** Marks a failure of the local disk, as opposed to the network. */
export class WriteFailure extends Error {}

export interface WrittenFile {
  bytes: number;
  sha256: string;
}

function writeAll(fd: number, chunk: Uint8Array): void {
  for (let offset = 0; offset < chunk.byteLength;) {
    const written = writeSync(fd, chunk, offset, chunk.byteLength - offset);
    if (written <= 0) throw Object.assign(new Error("the disk accepted no bytes"), { code: "EIO" });
    offset += written;
  }
}

/**
 * Hashed and written in slices of this size: each slice is written right after it is hashed,
 * while it is still in the CPU cache (socket chunks are ~512 KiB, larger than the cache).
 */
export const DOWNLOAD_SLICE_BYTES = 256 * 1024;

/**
 * Writes the body to `fd` as it arrives, hashing it on the way, synchronously in the 'data'
 * handler: the socket is not read again before the chunk is on disk, so memory stays flat and
 * a slow disk slows the socket. Measured on the benchmark, this took the least CPU per byte:
 * less than the async iterator, 64 KiB writes of an already hashed chunk, 1 MiB batches, a
 * FileSink, or a worker thread that writes and hashes (docs/performance.md, "File transfer").
 */
export function saveBody(
  body: Readable,
  fd: number,
  hooks: FileAccessHooks,
  meter: TransferMeter,
): Promise<WrittenFile> {
  const hash = createHash("sha256");
  let written = 0;
  return new Promise<WrittenFile>((resolve, reject) => {
    let settled = false;
    /** The chunk a waiting hook holds back; 'end' can come before it is written. */
    let held: Promise<void> = Promise.resolve();
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      body.off("data", onData);
      if (error === undefined) return resolve({ bytes: written, sha256: hash.digest("hex") });
      body.destroy();
      reject(error);
    };
    const store = (chunk: Buffer): boolean => {
      try {
        for (let offset = 0; offset < chunk.byteLength; offset += DOWNLOAD_SLICE_BYTES) {
          const slice = chunk.subarray(offset, offset + DOWNLOAD_SLICE_BYTES);
          hash.update(slice);
          writeAll(fd, slice);
        }
      } catch (error) {
        settle(new WriteFailure((error as Error).message, { cause: error }));
        return false;
      }
      written += chunk.byteLength;
      return true;
    };
    const onData = (chunk: Buffer) => {
      meter.add(chunk.byteLength);
      let pending: void | Promise<void>;
      try {
        pending = hooks.beforeWrite?.(written);
      } catch (error) {
        return settle(new WriteFailure((error as Error).message, { cause: error }));
      }
      if (!pending) return void store(chunk);
      // A hook that waits (tests only): hold the body until it is done.
      body.pause();
      held = pending.then(
        () => void (store(chunk) && body.resume()),
        (error: unknown) => settle(new WriteFailure((error as Error).message, { cause: error })),
      );
    };
    body.on("data", onData);
    body.once("end", () => void held.then(() => settle()));
    body.on("error", (error) => settle(error));
  });
}

function declaredLength(header: string | string[] | undefined): number | undefined {
  const value = firstHeader(header);
  return /^\d+$/.test(value) ? Number(value) : undefined;
}

function downloadFailure(error: unknown, client: ProxmoxClient, path: string, signal: AbortSignal | undefined): Error {
  if (error instanceof WriteFailure) {
    const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
    return new LocalRefusal(
      "local_write_failed",
      `writing ${path} failed${code ? ` (${code})` : ""}: ${error.message}; the partial file was removed${code === "ENOSPC" ? ". The disk is full: free space or choose a destination on another filesystem" : ""}`,
    );
  }
  // Failures while the body streams come straight from undici; stream() classified only the start.
  return client.failureOf(error, signal);
}

/** GETs an API path into a new file inside PROXMOX_FILE_ROOTS; on any failure no file is left behind. */
export async function downloadToFile(
  client: ProxmoxClient,
  files: FileAccess,
  request: DownloadRequest,
): Promise<Record<string, unknown>> {
  const path = validateApiPath(request.path);
  const params = normalizeParameters(request.parameters);
  const target = await files.createForDownload(request.destination);
  let meter: TransferMeter | undefined;
  try {
    const response = await client.stream({ tool: "proxmox_download", path, query: params, signal: request.signal });
    const declared = declaredLength(response.headers["content-length"]);
    meter = new TransferMeter(declared);
    const rule = files.stall;
    const counted = meter;
    const stopWatch = watchStall(counted, rule, (verdict) =>
      response.body.destroy(stalledTransfer("download", verdict, rule!, counted)),
    );
    const stopProgress = watchProgress(counted, request.onProgress);
    const { bytes, sha256 } = await saveBody(response.body, target.handle.fd, files.hooks, meter).finally(() => {
      stopWatch();
      stopProgress();
    });
    if (declared !== undefined && declared !== bytes) {
      throw new ProxmoxTransportError(
        "dropped",
        `the download ended after ${bytes} of the ${declared} bytes Proxmox announced`,
        "Nothing was kept; try again. It was not retried automatically.",
      );
    }
    await target.finish();
    return {
      path: target.path,
      bytes_written: bytes,
      content_type: response.contentType,
      sha256,
      length_verified: declared !== undefined,
      ...(declared === undefined
        ? {
            note: "Proxmox sent no length for this stream, so an interrupted transfer cannot be told from a complete one; compare the sha256 or size with the source if it matters.",
          }
        : {}),
    };
  } catch (error) {
    await target.discard();
    throw downloadFailure(error, client, target.path, request.signal);
  } finally {
    collectAfterTransfer(meter?.bytes ?? 0);
  }
}
