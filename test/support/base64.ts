/**
 * Whether any run of base64 characters in `text`, decoded at each of its four character
 * alignments (either alphabet), still holds `length` consecutive bytes of `secret`: a check
 * for leaked credentials that does not depend on how the redactor finds them.
 */
export function decodesToPartOf(text: string, secret: string, length = 4): boolean {
  const pieces = Array.from({ length: secret.length - length + 1 }, (_, i) => secret.slice(i, i + length));
  for (const run of text.match(/[A-Za-z0-9+/_-]{4,}/g) ?? []) {
    for (let shift = 0; shift < 4; shift++) {
      const decoded = Buffer.from(run.slice(shift).replaceAll("-", "+").replaceAll("_", "/"), "base64").toString(
        "latin1",
      );
      if (pieces.some((piece) => decoded.includes(piece))) return true;
    }
  }
  return false;
}

export const base64Of = (text: string) => Buffer.from(text, "utf8").toString("base64");
