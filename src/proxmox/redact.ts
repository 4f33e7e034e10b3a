export type Redactor = (text: string) => string;

/**
 * Replaces every form of the token (the header value, the secret and the token id, raw or
 * percent-encoded) with a placeholder. Longest forms first, so a header is redacted whole.
 */
export function createRedactor(tokenId: string, tokenSecret: string): Redactor {
  const forms = new Map<string, string>();
  const add = (value: string, label: string) => {
    for (const form of [value, encodeURIComponent(value), encodeURI(value)]) {
      if (form.length >= 4) forms.set(form, label);
    }
  };
  add(`PVEAPIToken=${tokenId}=${tokenSecret}`, "PVEAPIToken=[redacted]");
  add(`${tokenId}=${tokenSecret}`, "[redacted token]");
  add(tokenSecret, "[redacted secret]");
  add(tokenId, "[redacted token id]");
  const ordered = [...forms.entries()].sort((a, b) => b[0].length - a[0].length);
  return (text) => {
    let out = text;
    for (const [form, label] of ordered) {
      if (out.includes(form)) out = out.split(form).join(label);
    }
    return out;
  };
}

/** Redacts only the secret: for successful API data, where the token id legitimately appears (UPIDs, ACLs). */
export function createSecretRedactor(tokenSecret: string): Redactor {
  const forms = [...new Set([tokenSecret, encodeURIComponent(tokenSecret)])];
  return (text) => forms.reduce((out, form) => (out.includes(form) ? out.split(form).join("[redacted secret]") : out), text);
}
