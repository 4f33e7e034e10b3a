import type { FileHandle } from "node:fs/promises";
import { Readable } from "node:stream";
import type { Confirm } from "../proxmox/confirm.ts";
import { resultPayload, type CallerIdentity, type CallPreview, type ProxmoxClient } from "../proxmox/client.ts";
import { LocalRefusal, ProxmoxHttpError, ProxmoxTransportError } from "../proxmox/errors.ts";
import { normalizeParameters, scalarText, type Params } from "../proxmox/params.ts";
import { decodeOrKeep, validateApiPath } from "../proxmox/path.ts";
import { defaultChecksumNote, hashFile, planChecksum, type ChecksumPlan, type ChecksumSupport } from "./checksum.ts";
import { collectAfterTransfer } from "./memory.ts";
import { TransferMeter, watchProgress, watchStall, type ProgressReport } from "./meter.ts";
import { frameUpload, isUploadPath, newBoundary, TEXT_PARTS, type UploadFraming } from "./multipart.ts";
import type { FileAccess, UploadSource } from "./resolver.ts";
import { stalledTransfer } from "./stall.ts";
import { storedFileName, uploadVolumeId } from "./stored-name.ts";

/** Bytes read from the file per step; memory stays at a few of these whatever the file size. */
export const UPLOAD_CHUNK_BYTES = 256 * 1024;

export interface UploadRequest {
  path: string;
  filePath: unknown;
  parameters: unknown;
  signal?: AbortSignal | undefined;
  /** Asks a person when PROXMOX_CONFIRM holds the upload. */
  confirm?: Confirm | undefined;
  /** Told the bytes sent so far while the file goes out. */
  onProgress?: ProgressReport | undefined;
  caller?: CallerIdentity | undefined;
}

export interface UploadOptions {
  /** Whether the cluster's upload endpoint takes a checksum; asked only for the default one. */
  checksumSupport?: (signal?: AbortSignal) => Promise<ChecksumSupport>;
}

/** The checksum as the result reports it. */
interface ChecksumOutcome {
  sent?: { algorithm: string; value: string; source: "computed" | "given" };
  note?: string;
}

interface SendState {
  meter: TransferMeter;
  /** Set when the body fails on our side (read error, shrunk file, stall): the cause to report. */
  error?: Error;
  /** Called once the last byte of the file has been handed to the connection. */
  fileSent(): void;
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
  const { meter } = state;
  yield framing.head;
  while (meter.bytes < size) {
    const want = Math.min(UPLOAD_CHUNK_BYTES, size - meter.bytes);
    const buffer = Buffer.allocUnsafe(want);
    let bytesRead: number;
    try {
      ({ bytesRead } = await handle.read(buffer, 0, want, meter.bytes));
    } catch (error) {
      state.error = new LocalRefusal(
        "local_read_failed",
        `reading the file failed after ${meter.bytes} of ${size} bytes: ${(error as Error).message}; the upload was aborted`,
      );
      throw state.error;
    }
    if (bytesRead === 0) {
      state.error = new LocalRefusal(
        "local_read_failed",
        `the file shrank while it was being sent (${meter.bytes} of ${size} bytes); the upload was aborted`,
      );
      throw state.error;
    }
    meter.add(bytesRead);
    yield bytesRead === want ? buffer : buffer.subarray(0, bytesRead);
  }
  state.fileSent();
  yield framing.tail;
}

/**
 * Works out the checksum to send. The default one is computed while the catalog is asked
 * whether the endpoint takes it, and dropped when it does not.
 */
async function prepareChecksum(
  plan: ChecksumPlan,
  params: Params,
  source: UploadSource,
  options: UploadOptions,
  signal: AbortSignal | undefined,
): Promise<ChecksumOutcome> {
  if (plan.kind === "caller") {
    return {
      sent: { algorithm: String(params["checksum-algorithm"]), value: String(params.checksum), source: "given" },
    };
  }
  if (plan.kind === "none") return { note: plan.note };
  const giveUp = new AbortController();
  const hashSignal = signal ? AbortSignal.any([signal, giveUp.signal]) : giveUp.signal;
  const hashing = hashFile(source.handle, source.size, plan.algorithm, hashSignal);
  // Handled below; this keeps a failure that comes while the catalog is asked from counting as unhandled.
  hashing.catch(() => undefined);
  try {
    const support: ChecksumSupport = plan.byDefault
      ? await (options.checksumSupport?.(signal) ?? Promise.resolve("unknown" as const))
      : "accepted";
    const note = defaultChecksumNote(support);
    if (note) {
      giveUp.abort();
      await hashing.catch(() => undefined);
      return { note };
    }
    return { sent: { algorithm: plan.algorithm, value: await hashing, source: "computed" } };
  } catch (error) {
    await hashing.catch(() => undefined);
    if (signal?.aborted) {
      throw new ProxmoxTransportError(
        "cancelled",
        "the upload was cancelled by the client while the file's checksum was computed",
        "Nothing was sent.",
      );
    }
    throw error;
  }
}

function notAnUploadPath(path: string): LocalRefusal {
  return new LocalRefusal(
    "invalid_path",
    `${path} is not an upload endpoint; files go to POST /nodes/{node}/storage/{storage}/upload (the node that owns the storage)`,
  );
}

/** The storage named in a validated upload path /nodes/{node}/storage/{storage}/upload. */
function storageOf(path: string): string {
  return decodeOrKeep(path.split("/")[4] ?? "");
}

/** What an upload and its dry run check first, up to the opened file: the path, the parameters, the checksum plan. */
async function openUpload(files: FileAccess, request: UploadRequest) {
  const path = validateApiPath(request.path);
  if (!isUploadPath(path)) throw notAnUploadPath(path);
  const params = normalizeParameters(request.parameters);
  const plan = planChecksum(params, files.uploadChecksum);
  const source = await files.openForUpload(request.filePath);
  return { path, params, plan, source };
}

/** The name Proxmox stores the file under, and its volume id when the content type gives one. */
function storedAs(path: string, params: Params, fileName: string): { stored_name: string; volid?: string } {
  const stored = storedFileName(fileName);
  const content =
    params.content === undefined || Array.isArray(params.content) ? undefined : scalarText(params.content);
  const volid = uploadVolumeId(storageOf(path), content, stored);
  return { stored_name: stored, ...(volid ? { volid } : {}) };
}

/** Sends a local file inside PROXMOX_FILE_ROOTS to a Proxmox upload endpoint; returns the envelope plus what was sent. */
export async function uploadFile(
  client: ProxmoxClient,
  files: FileAccess,
  request: UploadRequest,
  options: UploadOptions = {},
): Promise<Record<string, unknown>> {
  const { path, params, plan, source } = await openUpload(files, request);
  let sent = 0;
  try {
    const boundary = newBoundary();
    // Checks the name and the parameters before the file is hashed.
    frameUpload(params, source.name, source.size, boundary);
    const checksum = await prepareChecksum(plan, params, source, options, request.signal);
    const sentParams: Params =
      checksum.sent?.source === "computed"
        ? { ...params, "checksum-algorithm": checksum.sent.algorithm, checksum: checksum.sent.value }
        : params;
    const framing = frameUpload(sentParams, source.name, source.size, boundary);

    const meter = new TransferMeter(source.size);
    let stopWatch = () => {};
    const state: SendState = { meter, fileSent: () => stopWatch() };
    const stream = Readable.from(bodyChunks(framing, source.handle, source.size, state), {
      objectMode: false,
      highWaterMark: UPLOAD_CHUNK_BYTES,
    });
    const rule = files.stall;
    stopWatch = watchStall(meter, rule, (verdict) => {
      state.error = stalledTransfer("upload", verdict, rule!, meter);
      stream.destroy(state.error);
    });
    const stopProgress = watchProgress(meter, request.onProgress);
    let result;
    try {
      result = await client.upload({
        tool: "proxmox_upload",
        caller: request.caller,
        path,
        query: framing.query,
        body: { stream, length: framing.length, contentType: framing.contentType },
        upload: { fileName: framing.fileName, bytes: source.size, params: sentParams },
        signal: request.signal,
        confirm: request.confirm,
      });
    } catch (error) {
      throw state.error ?? error;
    } finally {
      stopWatch();
      stopProgress();
      stream.destroy();
      sent = meter.bytes;
    }
    return {
      ...resultPayload(result),
      bytes_sent: meter.bytes,
      file_name: framing.fileName,
      ...storedAs(path, params, framing.fileName),
      file_path: source.realPath,
      checksum: checksum.sent ?? null,
      ...(checksum.note ? { checksum_note: checksum.note } : {}),
    };
  } finally {
    await source.handle.close().catch(() => undefined);
    collectAfterTransfer(sent);
  }
}

/** What an upload would send, found without sending, hashing or reading the file's content. */
export interface UploadPreview {
  /** The local rules' view of the write, as for any call (client.preview). */
  preview: CallPreview;
  /** The multipart text fields, the file's name in its part, and the query string parameters. */
  multipart: Record<string, string>;
  query: Params;
  file: { path: string; bytes: number };
  stored_name: string;
  volid?: string;
}

/** proxmox_upload's dry run: every local check of uploadFile, up to the bytes, which stay unread. */
export async function previewUpload(
  client: ProxmoxClient,
  files: FileAccess,
  request: UploadRequest,
): Promise<UploadPreview> {
  const { path, params, plan, source } = await openUpload(files, request);
  try {
    const framing = frameUpload(params, source.name, source.size, newBoundary());
    const multipart: Record<string, string> = {};
    for (const field of TEXT_PARTS) if (params[field] !== undefined) multipart[field] = String(params[field]);
    if (plan.kind === "compute") {
      multipart["checksum-algorithm"] = plan.algorithm;
      multipart.checksum = `(the file's ${plan.algorithm}, computed when sent${plan.byDefault ? ", where the cluster's upload endpoint takes one" : ""})`;
    }
    multipart.filename = framing.fileName;
    const sentParams: Params = plan.kind === "compute" ? { ...params, "checksum-algorithm": plan.algorithm } : params;
    return {
      preview: client.preview({
        tool: "proxmox_upload",
        method: "POST",
        path,
        params: sentParams,
        caller: request.caller,
      }),
      multipart,
      query: framing.query,
      file: { path: source.realPath, bytes: source.size },
      ...storedAs(path, params, framing.fileName),
    };
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
  if (error.errors?.["checksum-algorithm"] || error.errors?.checksum) {
    hints.push(
      "This Proxmox takes no checksum with an upload (PVE 6.4 and older): leave checksum-algorithm and checksum out.",
    );
  }
  if (error.status >= 500 && /proxy|upload/i.test(text)) {
    hints.push(
      "Uploads cannot be proxied between nodes: send the file to the node that owns the storage (GET /nodes/{node}/storage lists a node's storages).",
    );
  }
  return hints;
}
