import { describe, expect, test } from "bun:test";
import { base64Forms, createRedactor, createSecretRedactor, redactDeep } from "../../src/proxmox/redact.ts";
import { base64Of, decodesToPartOf } from "../support/base64.ts";

const id = "mcp@pve!agent";
const secret = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
const redact = createRedactor(id, secret);

test.each([
  `Authorization: PVEAPIToken=${id}=${secret}`,
  `token ${id}=${secret} rejected`,
  `secret ${secret}`,
  `encoded ${encodeURIComponent(id)} and ${encodeURIComponent(secret)}`,
  `user ${id} failed`,
  `https://x/?t=${encodeURIComponent(`PVEAPIToken=${id}=${secret}`)}`,
])("removes every form of the token from %s", (text) => {
  const out = redact(text);
  expect(out).not.toContain(secret);
  expect(out).not.toContain(id);
  expect(out).not.toContain(encodeURIComponent(id));
  expect(out).toContain("[redacted");
});

test.each([
  ["fully percent-encoded id", "mcp%40pve%21agent"],
  ["lower-case escapes", `PVEAPIToken%3d${encodeURIComponent(id).toLowerCase()}%3d${secret}`],
  ["the secret in upper case", secret.toUpperCase()],
  ["one character escaped", secret.replace("0", "%30")],
])("also catches the %s", (_label, form) => {
  const out = redact(`x ${form} y`);
  expect(out).not.toContain(form);
  expect(out).toContain("[redacted");
});

test("redactDeep reaches strings that JSON would escape", () => {
  const quoted = createRedactor("a@pve!t", 'se"cr\\et');
  const value = { error: { message: 'failed with se"cr\\et', list: ['se"cr\\et'] } };
  expect(JSON.stringify(redactDeep(value, quoted))).not.toContain("cr\\\\et");
  expect(redactDeep(value, quoted).error.list[0]).toBe("[redacted secret]");
});

test("text without the token is unchanged", () => {
  expect(redact("GET /nodes failed: HTTP 500")).toBe("GET /nodes failed: HTTP 500");
});

test("the secret-only redactor keeps the token id (it is part of UPIDs) but not the secret", () => {
  const upid = `UPID:pve:00001:00002:6124E1B9:qmstart:100:${id}:`;
  const r = createSecretRedactor(secret);
  expect(r(upid)).toBe(upid);
  expect(r(`x ${secret} y`)).toBe("x [redacted secret] y");
});

const b64 = base64Of;
const b64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");

describe("base64 forms", () => {
  const values = {
    secret,
    "id=secret": `${id}=${secret}`,
    "the header value": `PVEAPIToken=${id}=${secret}`,
  };
  const prefixes = ["", "a", "ab", "abc", "Basic: user:", '{"note":"'];
  const wraps: [string, (text: string) => string][] = [
    ["standard alphabet", b64],
    ["URL alphabet", b64url],
    ["standard alphabet, percent-encoded", (text) => encodeURIComponent(b64(text))],
    ["standard alphabet inside JSON", (text) => JSON.stringify({ blob: b64(text) })],
  ];
  const cases = Object.entries(values).flatMap(([name, value]) =>
    prefixes.flatMap((prefix) =>
      wraps.map(([how, wrap]) => [name, JSON.stringify(prefix), how, wrap(`${prefix}${value}!tail`)] as const),
    ),
  );

  test("the independent check sees the secret in each case before redaction", () => {
    for (const [, , , text] of cases) {
      expect(decodesToPartOf(decodeURIComponent(text), secret)).toBe(true);
    }
  });

  test.each(cases)("%s after %s in the %s", (_name, _prefix, _how, text) => {
    for (const r of [redact, createSecretRedactor(secret)]) {
      const out = r(`answer: ${text}`);
      expect(out).toContain("[redacted");
      expect(decodesToPartOf(decodeURIComponent(out), secret)).toBe(false);
    }
  });

  test("the whole header's base64 goes, token id and all, under the header's label", () => {
    const out = redact(`x ${b64(`PVEAPIToken=${id}=${secret}`)} y`);
    expect(out).toContain("PVEAPIToken=[redacted]");
    expect(decodesToPartOf(out, `PVEAPIToken=${id}`)).toBe(false);
  });

  test.each([
    ["a short value has no base64 form that could match by chance", "abcd", []],
    ["three bytes at offset 0 are four characters, below the minimum", "abc", []],
  ])("%s", (_label, value, expected) => {
    expect(base64Forms(value)).toEqual(expected);
  });

  test("each form is the middle of the value's encoding at one alignment, in both alphabets", () => {
    const forms = base64Forms("\xff\xfe\xfd secret value");
    expect(forms.length).toBe(6);
    for (const form of forms) expect(form).toMatch(/^[A-Za-z0-9+/_-]+$/);
    expect(forms).toContain(b64("\xff\xfe\xfd secret value").replace(/=+$/, "").slice(0, -1));
  });
});
