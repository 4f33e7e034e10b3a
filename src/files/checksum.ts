// The checksum an upload carries. Proxmox's worker verifies `checksum-algorithm` + `checksum`
// against the spooled file before the copy and fails the task on a mismatch, so corruption on
// the way cannot pass. Both are form fields that pve-http-server's parser reads only before the
// file part (file_upload_multipart, ../shared/pve/FACTS.md "Upload"), or query parameters
// sent before the body: the value must be known before the first byte of the file is sent,
// so the file is hashed once before sending and read again to send it.
import { createHash } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { LocalRefusal } from "../proxmox/errors.ts";
import type { Params } from "../proxmox/params.ts";
import { UPLOAD_CHECKSUM_VARIABLE } from "./config.ts";

/** The algorithms the upload endpoint's schema lists (pve-storage PVE/API2/Storage/Status.pm, upload). */
export const CHECKSUM_ALGORITHMS = ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"] as const;
export const DEFAULT_CHECKSUM_ALGORITHM = "sha256";
const UPLOAD_TEMPLATE = "/nodes/{node}/storage/{storage}/upload";

/** What an upload does about the checksum, decided from the caller's parameters alone. */
export type ChecksumPlan =
  /** The caller gave both fields: they are sent as given. */
  | { kind: "caller" }
  /** Compute with `algorithm`; `byDefault` means only if the endpoint takes a checksum. */
  | { kind: "compute"; algorithm: string; byDefault: boolean }
  /** Nothing is computed or sent. */
  | { kind: "none"; note: string };

function given(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(",") : String(value);
}

/**
 * The caller's checksum wins: both fields are sent as given. An algorithm alone is computed
 * here; a checksum alone is refused before anything is sent, since Proxmox requires both and
 * would only say so after the whole file arrived. Otherwise sha256 is computed by default,
 * unless the operator turned that off.
 */
export function planChecksum(params: Params, defaultOn: boolean): ChecksumPlan {
  const algorithm = given(params, "checksum-algorithm");
  const checksum = given(params, "checksum");
  if (checksum !== undefined && algorithm !== undefined) return { kind: "caller" };
  if (checksum !== undefined) {
    throw new LocalRefusal(
      "invalid_parameters",
      `parameter 'checksum' needs 'checksum-algorithm' (one of ${CHECKSUM_ALGORITHMS.join(", ")}); Proxmox requires both. Leave both out to let this server compute a sha256 checksum.`,
    );
  }
  if (algorithm !== undefined) {
    const wanted = algorithm.trim().toLowerCase();
    if (!(CHECKSUM_ALGORITHMS as readonly string[]).includes(wanted)) {
      throw new LocalRefusal(
        "invalid_parameters",
        `checksum-algorithm '${algorithm}' is not one Proxmox takes (${CHECKSUM_ALGORITHMS.join(", ")})`,
      );
    }
    return { kind: "compute", algorithm: wanted, byDefault: false };
  }
  if (!defaultOn) {
    return {
      kind: "none",
      note: `No checksum was sent (${UPLOAD_CHECKSUM_VARIABLE}=false): a transfer error would not fail the task. Pass checksum-algorithm to have one computed.`,
    };
  }
  return { kind: "compute", algorithm: DEFAULT_CHECKSUM_ALGORITHM, byDefault: true };
}

/** Whether the cluster's upload endpoint takes a checksum, as far as the catalog can tell. */
export type ChecksumSupport = "accepted" | "refused" | "unknown";

/** What checksumSupport needs of a catalog (the catalog's Catalog has it). */
export interface EndpointLookup {
  readonly source: { kind: string };
  endpoint(method: string, template: string): { parameters: Record<string, unknown> } | undefined;
}

/**
 * From the schema: PVE 7.4 and later list checksum-algorithm on the upload endpoint, 6.4 does
 * not (and refuses unknown parameters). A catalog from pve.proxmox.com describes the newest
 * release, not this cluster, so it decides nothing.
 */
export function checksumSupport(catalog: EndpointLookup | undefined): ChecksumSupport {
  if (!catalog || catalog.source.kind === "public") return "unknown";
  const endpoint = catalog.endpoint("POST", UPLOAD_TEMPLATE);
  if (!endpoint) return "unknown";
  return "checksum-algorithm" in endpoint.parameters ? "accepted" : "refused";
}

/** Why the default checksum is not sent, or undefined when it is. */
export function defaultChecksumNote(support: ChecksumSupport): string | undefined {
  if (support === "accepted") return undefined;
  if (support === "refused") {
    return "No checksum was sent: this Proxmox's upload endpoint takes none (its schema lists no checksum-algorithm; added after PVE 6.4).";
  }
  return "No checksum was sent: the cluster's API schema could not be read in time to learn whether its upload endpoint takes one. Pass checksum-algorithm (e.g. sha256) to have one computed and verified by the task.";
}

/** Bytes read per step while hashing; two are in memory at a time. 256 KiB measured fastest (64 KiB to 4 MiB tried). */
export const HASH_READ_BYTES = 256 * 1024;

/**
 * The digest (lower-case hex) of the first `size` bytes of an open file, read by position so
 * the descriptor checked at open is the one hashed. The next read runs while the current
 * block is hashed, into the other of two buffers used for the whole file (fresh memory for
 * every block made the process grow and is slow to touch on some VMs). Stops with the
 * caller's signal.
 */
export async function hashFile(
  handle: FileHandle,
  size: number,
  algorithm: string,
  signal?: AbortSignal,
): Promise<string> {
  const hash = createHash(algorithm);
  const buffers = [Buffer.allocUnsafe(HASH_READ_BYTES), Buffer.allocUnsafe(HASH_READ_BYTES)];
  let turn = 0;
  const read = async (position: number) => {
    const want = Math.min(HASH_READ_BYTES, size - position);
    const buffer = buffers[turn++ % 2]!;
    const { bytesRead } = await handle.read(buffer, 0, want, position);
    if (bytesRead === 0) {
      throw new LocalRefusal(
        "local_read_failed",
        `the file shrank while its checksum was computed (${position} of ${size} bytes); nothing was sent`,
      );
    }
    return buffer.subarray(0, bytesRead);
  };
  let position = 0;
  let next = size > 0 ? read(0) : undefined;
  while (next) {
    const block = await next;
    signal?.throwIfAborted();
    position += block.length;
    next = position < size ? read(position) : undefined;
    hash.update(block);
  }
  return hash.digest("hex");
}
