export type Redactor = (text: string) => string;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Matches `value` written literally or with any of its characters percent-encoded. Meant for a
 * case-insensitive pattern; with `hexEitherCase` the escapes' hex digits match in either case
 * without one (base64 is case-sensitive, and a case-sensitive pattern is also scanned faster).
 */
function anyEncoding(value: string, hexEitherCase = false): string {
  const hex = (byte: number) => {
    const digits = byte.toString(16).padStart(2, "0");
    return hexEitherCase ? digits.replace(/[a-f]/g, (d) => `[${d}${d.toUpperCase()}]`) : digits;
  };
  return [...value]
    .map((char) => {
      const escapes = [...Buffer.from(char, "utf8")].map((byte) => `%${hex(byte)}`).join("");
      return `(?:${escapeRegExp(char)}|${escapes})`;
    })
    .join("");
}

/** Shorter base64 fragments could turn up by chance in unrelated text; a real secret's are far longer. */
const MIN_BASE64_FORM = 8;

/**
 * The base64 text of `value` wherever it sits inside a longer encoded string (a Basic
 * credential, a JSON blob, a config file encoded in an API answer): for each of the three byte
 * alignments, the characters that depend on `value`'s bytes alone, in the standard and the URL
 * alphabet. The characters at the edges also depend on the neighbouring bytes and are left out.
 */
export function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, "utf8");
  const forms = new Set<string>();
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const start = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    const form = encoded.slice(start, end);
    if (form.length < MIN_BASE64_FORM) continue;
    forms.add(form);
    forms.add(form.replaceAll("+", "-").replaceAll("/", "_"));
  }
  return [...forms];
}

function redactorFor(plainForms: readonly [value: string, label: string][]): Redactor {
  const forms = plainForms
    .filter(([value]) => value.length > 0)
    .flatMap(([value, label]) => [
      { value, label, base64: false },
      ...base64Forms(value).map((form) => ({ value: form, label, base64: true })),
    ])
    .sort((a, b) => b.value.length - a.value.length);
  // One pattern per form, longest first (so a longer form is never cut up by a shorter one):
  // a pattern with a single first character is scanned for far faster than one alternation.
  const patterns = forms.map(
    (form) => [new RegExp(anyEncoding(form.value, form.base64), form.base64 ? "g" : "gi"), form.label] as const,
  );
  return (text) => patterns.reduce((out, [pattern, label]) => out.replace(pattern, label), text);
}

/**
 * Replaces every form of the token (the header value, the secret and the token id, raw,
 * percent-encoded in either case, or base64-encoded at any alignment) with a placeholder; the
 * longest form wins.
 */
export function createRedactor(tokenId: string, tokenSecret: string): Redactor {
  return createTokensRedactor([{ tokenId, tokenSecret }]);
}

export interface TokenCredentials {
  tokenId: string;
  tokenSecret: string;
}

/** createRedactor for several tokens at once (one per host): every form of each is removed. */
export function createTokensRedactor(tokens: readonly TokenCredentials[]): Redactor {
  return redactorFor(
    tokens.flatMap(({ tokenId, tokenSecret }): [string, string][] => [
      [`PVEAPIToken=${tokenId}=${tokenSecret}`, "PVEAPIToken=[redacted]"],
      [`${tokenId}=${tokenSecret}`, "[redacted token]"],
      [tokenSecret, "[redacted secret]"],
      [tokenId, "[redacted token id]"],
    ]),
  );
}

/** Redacts only the secret: for successful API data, where the token id legitimately appears (UPIDs, ACLs). */
export function createSecretRedactor(...tokenSecrets: string[]): Redactor {
  return redactorFor(tokenSecrets.map((secret) => [secret, "[redacted secret]"]));
}

/** Replaces each of `values` (raw, percent-encoded or base64) with `label`; for secrets found in a URL. */
export function createListRedactor(values: readonly string[], label = "[redacted]"): Redactor {
  return redactorFor(values.map((value) => [value, label]));
}

/** Redacts every string inside a JSON-like value (after, not before, serialisation would miss escaped forms). */
export function redactDeep<T>(value: T, redact: Redactor): T {
  if (typeof value === "string") return redact(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactDeep(v, redact)])) as T;
  }
  return value;
}
