import { createHash } from "node:crypto";
import { writeSync } from "node:fs";
import type { ProxmoxClient } from "../proxmox/client.ts";
import { LocalRefusal, ProxmoxHttpError, ProxmoxTransportError } from "../proxmox/errors.ts";
import { normalizeParameters } from "../proxmox/params.ts";
import { validateApiPath } from "../proxmox/path.ts";
import { classifyTransportError } from "../proxmox/transport-errors.ts";
import { TransferMeter, watchStall } from "./meter.ts";
import type { FileAccess, FileAccessHooks } from "./resolver.ts";
import { stalledTransfer } from "./stall.ts";

/**
 * Largest single write. Writes are synchronous: on the loopback benchmark, handing each chunk to
 * the thread pool cost about a third of the throughput, while a 64 KiB write into the page cache
 * takes microseconds (docs/performance.md, "File transfer").
 */
export const DOWNLOAD_WRITE_BYTES = 64 * 1024;

export interface DownloadRequest {
  path: string;
  parameters: unknown;
  destination: unknown;
  signal?: AbortSignal | undefined;
}

/** Marks a failure of the local disk, as opposed to the network. */
class WriteFailure extends Error {}

/**
 * Writes the body to `fd` chunk by chunk as it arrives; the next chunk is not read before the
 * last one is on disk, so memory stays flat and a slow disk slows the socket.
 */
async function saveBody(
  body: AsyncIterable<Uint8Array>,
  fd: number,
  hooks: FileAccessHooks,
  meter: TransferMeter,
): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let written = 0;
  for await (const chunk of body) {
    meter.add(chunk.byteLength);
    hash.update(chunk);
    try {
      if (hooks.beforeWrite) await hooks.beforeWrite(written);
      for (let offset = 0; offset < chunk.byteLength;) {
        const n = writeSync(fd, chunk, offset, Math.min(DOWNLOAD_WRITE_BYTES, chunk.byteLength - offset));
        if (n <= 0) throw Object.assign(new Error("the disk accepted no bytes"), { code: "EIO" });
        offset += n;
      }
    } catch (error) {
      throw new WriteFailure((error as Error).message, { cause: error });
    }
    written += chunk.byteLength;
  }
  return { bytes: written, sha256: hash.digest("hex") };
}

function declaredLength(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

function downloadFailure(error: unknown, client: ProxmoxClient, path: string, signal: AbortSignal | undefined): Error {
  if (error instanceof WriteFailure) {
    const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
    return new LocalRefusal(
      "local_write_failed",
      `writing ${path} failed${code ? ` (${code})` : ""}: ${error.message}; the partial file was removed${code === "ENOSPC" ? ". The disk is full: free space or choose a destination on another filesystem" : ""}`,
    );
  }
  if (error instanceof ProxmoxHttpError || error instanceof LocalRefusal || error instanceof ProxmoxTransportError)
    return error;
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
export async function downloadToFile(
  client: ProxmoxClient,
  files: FileAccess,
  request: DownloadRequest,
): Promise<Record<string, unknown>> {
  const path = validateApiPath(request.path);
  const params = normalizeParameters(request.parameters);
  const target = await files.createForDownload(request.destination);
  try {
    const response = await client.stream({ tool: "proxmox_download", path, query: params, signal: request.signal });
    const declared = declaredLength(response.headers["content-length"]);
    const meter = new TransferMeter(declared);
    const rule = files.stall;
    const stopWatch = watchStall(meter, rule, (verdict) =>
      response.body.destroy(stalledTransfer("download", verdict, rule!, meter)),
    );
    let saved;
    try {
      saved = await saveBody(response.body, target.handle.fd, files.hooks, meter);
    } finally {
      stopWatch();
    }
    const { bytes, sha256 } = saved;
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
  }
}
