/**
 * Newline-delimited framing for the stdio transport, with a hard limit per message: a line
 * longer than the limit is skipped as it streams in, keeping only its first and last few
 * kilobytes (enough to find a request id), so skipping it never holds more than the limit.
 */

/** Bytes kept from the start and from the end of an oversize line, for its request id. */
export const EDGE_BYTES = 4096;

export type LineEvent =
  /** A complete line without its "\n" (and without a "\r" before it). */
  | { kind: "line"; line: Buffer }
  /** A line longer than the limit: its size (without the "\n") and its first and last bytes. */
  | { kind: "oversize"; bytes: number; head: Buffer; tail: Buffer };

const NEWLINE = 0x0a;
const CR = 0x0d;

function withoutCr(line: Buffer): Buffer {
  return line.length > 0 && line[line.length - 1] === CR ? line.subarray(0, -1) : line;
}

interface Skipped {
  bytes: number;
  head: Buffer;
  /** The last pieces seen, together at least EDGE_BYTES long once there are enough. */
  tail: Buffer[];
  tailBytes: number;
}

export class LineSplitter {
  /** Pieces of the current line while it is within the limit. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while the current line is over the limit and being skipped. */
  private skipping: Skipped | undefined;

  constructor(readonly maxLineBytes: number) {}

  /** Bytes held for the line in progress: at most the limit; while skipping, the head and the last piece or two. */
  get buffered(): number {
    return this.skipping ? this.skipping.head.length + this.skipping.tailBytes : this.pendingBytes;
  }

  /** Feeds the next chunk of the stream; returns the lines (and skipped lines) it completed. */
  push(chunk: Uint8Array): LineEvent[] {
    const data = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const events: LineEvent[] = [];
    let start = 0;
    while (start < data.length) {
      const newline = data.indexOf(NEWLINE, start);
      const end = newline === -1 ? data.length : newline;
      this.take(data.subarray(start, end));
      if (newline === -1) break;
      events.push(this.finishLine());
      start = newline + 1;
    }
    return events;
  }

  /** Adds a piece of the current line (no newline in it). */
  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipping) {
      this.skip(piece);
      return;
    }
    if (this.pendingBytes + piece.length <= this.maxLineBytes) {
      this.pending.push(piece);
      this.pendingBytes += piece.length;
      return;
    }
    // Over the limit: keep the edges, let go of the rest.
    const sofar = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = { bytes: 0, head: Buffer.alloc(0), tail: [], tailBytes: 0 };
    for (const held of sofar) this.skip(held);
    this.skip(piece);
  }

  private skip(piece: Buffer): void {
    const state = this.skipping!;
    state.bytes += piece.length;
    if (state.head.length < EDGE_BYTES) {
      state.head = Buffer.concat([state.head, piece.subarray(0, EDGE_BYTES - state.head.length)]);
    }
    // The last pieces that cover EDGE_BYTES: views, so at most a chunk or two stay referenced.
    state.tail.push(piece);
    state.tailBytes += piece.length;
    while (state.tailBytes - state.tail[0]!.length >= EDGE_BYTES) state.tailBytes -= state.tail.shift()!.length;
  }

  private finishLine(): LineEvent {
    const skipped = this.skipping;
    if (skipped) {
      this.skipping = undefined;
      const tail = Buffer.concat(skipped.tail, skipped.tailBytes);
      return {
        kind: "oversize",
        bytes: skipped.bytes,
        head: skipped.head,
        tail: withoutCr(tail.subarray(-EDGE_BYTES)),
      };
    }
    const line = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    return { kind: "line", line: withoutCr(line) };
  }
}
