import type { FileHandle } from "node:fs/promises";
import { Readable } from "node:stream";
import type { Confirm } from "../proxmox/confirm.ts";
import { resultPayload, type CallerIdentity, type ProxmoxClient } from "../proxmox/client.ts";
import { LocalRefusal, ProxmoxHttpError } from "../proxmox/errors.ts";
import { normalizeParameters } from "../proxmox/params.ts";
import { validateApiPath } from "../proxmox/path.ts";
import { frameUpload, isUploadPath, newBoundary, type UploadFraming } from "./multipart.ts";
import type { FileAccess } from "./resolver.ts";

/** Bytes read from the file per step; memory stays at a few of these whatever the file size. */
export const UPLOAD_CHUNK_BYTES = 256 * 1024;

export interface UploadRequest {
  path: string;
  filePath: unknown;
  parameters: unknown;
  signal?: AbortSignal | undefined;
  /** Asks a person when PROXMOX_CONFIRM holds the upload. */
  confirm?: Confirm | undefined;
  caller?: CallerIdentity | undefined;
}

interface SendState {
  bytes: number;
  error?: Error;
}

/**
 * The body: head, the file read from the already open descriptor by position (so nothing done
 * to the path since the check matters), then the tail. Exactly `size` file bytes or an error.
 */
async function* bodyChunks(
  framing: UploadFraming,
  handle: FileHandle,
  size: number,
  state: SendState,
): AsyncGenerator<Buffer> {
  yield framing.head;
  while (state.bytes < size) {
    const want = Math.min(UPLOAD_CHUNK_BYTES, size - state.bytes);
    const buffer = Buffer.allocUnsafe(want);
    let bytesRead: number;
    try {
      ({ bytesRead } = await handle.read(buffer, 0, want, state.bytes));
    } catch (error) {
      state.error = new LocalRefusal(
        "local_read_failed",
        `reading the file failed after ${state.bytes} of ${size} bytes: ${(error as Error).message}; the upload was aborted`,
      );
      throw state.error;
    }
    if (bytesRead === 0) {
      state.error = new LocalRefusal(
        "local_read_failed",
        `the file shrank while it was being sent (${state.bytes} of ${size} bytes); the upload was aborted`,
      );
      throw state.error;
    }
    state.bytes += bytesRead;
    yield bytesRead === want ? buffer : buffer.subarray(0, bytesRead);
  }
  yield framing.tail;
}

/** Sends a local file inside PROXMOX_FILE_ROOTS to a Proxmox upload endpoint; returns the envelope plus what was sent. */
export async function uploadFile(
  client: ProxmoxClient,
  files: FileAccess,
  request: UploadRequest,
): Promise<Record<string, unknown>> {
  const path = validateApiPath(request.path);
  if (!isUploadPath(path)) {
    throw new LocalRefusal(
      "invalid_path",
      `${path} is not an upload endpoint; files go to POST /nodes/{node}/storage/{storage}/upload (the node that owns the storage)`,
    );
  }
  const params = normalizeParameters(request.parameters);
  const source = await files.openForUpload(request.filePath);
  try {
    const framing = frameUpload(params, source.name, source.size, newBoundary());
    const state: SendState = { bytes: 0 };
    const stream = Readable.from(bodyChunks(framing, source.handle, source.size, state), {
      objectMode: false,
      highWaterMark: UPLOAD_CHUNK_BYTES,
    });
    let result;
    try {
      result = await client.upload({
        tool: "proxmox_upload",
        caller: request.caller,
        path,
        query: framing.query,
        body: { stream, length: framing.length, contentType: framing.contentType },
        upload: { fileName: framing.fileName, bytes: source.size, params },
        signal: request.signal,
        confirm: request.confirm,
      });
    } catch (error) {
      throw state.error ?? error;
    } finally {
      stream.destroy();
    }
    const envelope = resultPayload(result);
    return { ...envelope, bytes_sent: state.bytes, file_name: framing.fileName, file_path: source.realPath };
  } finally {
    await source.handle.close().catch(() => undefined);
  }
}

/** Upload-specific next steps for a failure that Proxmox reported. */
export function uploadHints(error: unknown): string[] {
  if (!(error instanceof ProxmoxHttpError)) return [];
  const text = `${error.reason}\n${error.detail}`;
  const hints: string[] = [];
  if (/no space left on device/i.test(text)) {
    hints.push(
      "Proxmox spools an upload in /var/tmp on the node before copying it into the storage; that filesystem is too small for this file.",
    );
  }
  if (error.status >= 500 && /proxy|upload/i.test(text)) {
    hints.push(
      "Uploads cannot be proxied between nodes: send the file to the node that owns the storage (GET /nodes/{node}/storage lists a node's storages).",
    );
  }
  return hints;
}
