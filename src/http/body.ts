import type { Readable } from "node:stream";

/** Stops reading a body; undici reports the abort as an error event that nobody needs. */
export function discard(body: Readable): void {
  body.on("error", () => undefined);
  body.destroy();
}

/** Reads a body up to `limit` bytes; undefined (and the body destroyed) when it is larger. */
export async function readCapped(
  body: Readable & AsyncIterable<Uint8Array>,
  limit: number,
): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > limit) {
      discard(body);
      return undefined;
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks, total);
}
