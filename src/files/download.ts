import { createHash } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import type { ProxmoxClient } from "../proxmox/client.ts";
import { LocalRefusal, ProxmoxHttpError, ProxmoxTransportError } from "../proxmox/errors.ts";
import { normalizeParameters } from "../proxmox/params.ts";
import { validateApiPath } from "../proxmox/path.ts";
import { classifyTransportError } from "../proxmox/transport-errors.ts";
import type { FileAccess, FileAccessHooks } from "./resolver.ts";

/** Network chunks are gathered up to this size before one write, to keep system calls few. */
export const DOWNLOAD_BATCH_BYTES = 1024 * 1024;

export interface DownloadRequest {
  path: string;
  parameters: unknown;
  destination: unknown;
  signal?: AbortSignal | undefined;
}

/** Marks a failure of the local disk, as opposed to the network. */
class WriteFailure extends Error {}

async function writeAll(handle: FileHandle, chunks: Buffer[]): Promise<void> {
  let pending = chunks;
  while (pending.length > 0) {
    const { bytesWritten } = await handle.writev(pending);
    if (bytesWritten <= 0) throw Object.assign(new Error("the disk accepted no bytes"), { code: "EIO" });
    let skip = bytesWritten;
    const rest: Buffer[] = [];
    for (const chunk of pending) {
      if (skip >= chunk.length) {
        skip -= chunk.length;
        continue;
      }
      rest.push(skip > 0 ? chunk.subarray(skip) : chunk);
      skip = 0;
    }
    pending = rest;
  }
}

/**
 * Writes the body to `handle` as it arrives: at most one batch is held, and the next chunk is
 * not read before the batch is on disk, so memory stays flat and a slow disk slows the socket.
 */
async function saveBody(
  body: AsyncIterable<Uint8Array>,
  handle: FileHandle,
  hooks: FileAccessHooks,
): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let batch: Buffer[] = [];
  let batchBytes = 0;
  let written = 0;
  const flush = async () => {
    if (batchBytes === 0) return;
    try {
      await hooks.beforeWrite?.(written);
      await writeAll(handle, batch);
    } catch (error) {
      throw new WriteFailure((error as Error).message, { cause: error });
    }
    written += batchBytes;
    batch = [];
    batchBytes = 0;
  };
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    hash.update(buffer);
    batch.push(buffer);
    batchBytes += buffer.length;
    if (batchBytes >= DOWNLOAD_BATCH_BYTES) await flush();
  }
  await flush();
  return { bytes: written, sha256: hash.digest("hex") };
}

function downloadFailure(error: unknown, client: ProxmoxClient, path: string, signal: AbortSignal | undefined): Error {
  if (error instanceof WriteFailure) {
    const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
    return new LocalRefusal(
      "local_write_failed",
      `writing ${path} failed${code ? ` (${code})` : ""}: ${error.message}; the partial file was removed${code === "ENOSPC" ? ". The disk is full: free space or choose a destination on another filesystem" : ""}`,
    );
  }
  if (error instanceof ProxmoxHttpError || error instanceof LocalRefusal || error instanceof ProxmoxTransportError) return error;
  // Failures while the body streams come straight from undici; raw() classified only the start.
  return classifyTransportError(error, {
    origin: client.origin,
    cancelled: signal?.aborted ?? false,
    timedOut: false,
    timeoutMs: client.timeoutMs,
    redact: client.redact,
  });
}

/** GETs an API path into a new file inside PROXMOX_FILE_ROOTS; on any failure no file is left behind. */
export async function downloadToFile(client: ProxmoxClient, files: FileAccess, request: DownloadRequest): Promise<Record<string, unknown>> {
  const path = validateApiPath(request.path);
  const params = normalizeParameters(request.parameters);
  const target = await files.createForDownload(request.destination);
  try {
    const response = await client.raw({ tool: "proxmox_download", method: "GET", path, query: params, signal: request.signal });
    const { bytes, sha256 } = await saveBody(response.body, target.handle, files.hooks);
    await target.handle.close();
    return { path: target.path, bytes_written: bytes, content_type: response.contentType, sha256 };
  } catch (error) {
    await target.discard();
    throw downloadFailure(error, client, target.path, request.signal);
  }
}
