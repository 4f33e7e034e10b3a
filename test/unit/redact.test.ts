import { expect, test } from "bun:test";
import { createRedactor, createSecretRedactor, redactDeep } from "../../src/proxmox/redact.ts";

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
