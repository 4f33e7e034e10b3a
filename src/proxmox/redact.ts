export type Redactor = (text: string) => string;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Matches `value` written literally or with any of its characters percent-encoded, in any case. */
function anyEncoding(value: string): string {
  return [...value]
    .map((char) => {
      const escapes = [...Buffer.from(char, "utf8")].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
      return `(?:${escapeRegExp(char)}|${escapes})`;
    })
    .join("");
}

function redactorFor(forms: readonly [value: string, label: string][]): Redactor {
  const usable = forms.filter(([value]) => value.length > 0).sort((a, b) => b[0].length - a[0].length);
  if (usable.length === 0) return (text) => text;
  const pattern = new RegExp(usable.map(([value]) => `(${anyEncoding(value)})`).join("|"), "gi");
  return (text) =>
    text.replace(pattern, (...groups: unknown[]) => {
      const index = groups.slice(1, usable.length + 1).findIndex((g) => g !== undefined);
      return usable[index]![1];
    });
}

/**
 * Replaces every form of the token (the header value, the secret and the token id, raw or
 * percent-encoded in either case) with a placeholder; the longest form wins.
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

/** Replaces each of `values` (raw or percent-encoded) with `label`; for secrets found in a URL. */
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
