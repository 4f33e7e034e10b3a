// A transfer leaves its chunks (fresh 256-512 KiB buffers from the socket and the file) to the
// garbage collector, which takes them back lazily: over a few GiB moved one after another, the
// resident size crept up by tens of MiB. A full collection once a large transfer is over
// (tens of milliseconds, against seconds of transfer) returns to the idle size, so the peak of
// the next transfer does not build on the last one's leftovers (docs/performance.md).

/** Transfers smaller than this leave too little behind to be worth a collection. */
export const COLLECT_AFTER_BYTES = 64 * 1024 * 1024;

export function collectAfterTransfer(bytes: number): void {
  if (bytes >= COLLECT_AFTER_BYTES) Bun.gc(true);
}
