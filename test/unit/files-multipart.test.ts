import { describe, expect, test } from "bun:test";
import { createHash, randomBytes } from "node:crypto";
import { frameUpload, isUploadPath, newBoundary } from "../../src/files/multipart.ts";
import { LocalRefusal } from "../../src/proxmox/errors.ts";
import { MultipartUploadParser, parseUploadContentType } from "../fake/upload.ts";

const B = "proxmoxvemcpTEST";

function body(framing: ReturnType<typeof frameUpload>, file: Buffer): Buffer {
  return Buffer.concat([framing.head, file, framing.tail]);
}

/** Feeds a body to the fake's pve-http-server-style parser in chunks of `chunk` bytes. */
function parse(
  whole: Buffer,
  boundary: string,
  chunk = whole.length,
): { params: Record<string, string>; data: Buffer } {
  return parseReads(
    whole,
    boundary,
    Array.from({ length: Math.ceil(whole.length / chunk) }, (_, i) => (i + 1) * chunk),
  );
}

/** Feeds a body in reads that end at `ends` (offsets); with everyRead the parser runs on each read, as the real one does. */
function parseReads(
  whole: Buffer,
  boundary: string,
  ends: number[],
  everyRead = false,
): { params: Record<string, string>; data: Buffer } {
  const parts: Buffer[] = [];
  const parser = new MultipartUploadParser(boundary, whole.length, (data) => parts.push(Buffer.from(data)), {
    parseEveryRead: everyRead,
  });
  let from = 0;
  for (const end of [...ends, whole.length]) {
    if (end <= from) continue;
    parser.push(whole.subarray(from, Math.min(end, whole.length)));
    from = end;
  }
  if (parser.phase !== 100) throw new Error("upload failed");
  return { params: parser.params, data: Buffer.concat(parts) };
}

describe("frameUpload", () => {
  test("writes the parts in Proxmox's order, the file part last with its exact Content-Disposition", () => {
    const framing = frameUpload(
      { checksum: "abc", content: "iso", "checksum-algorithm": "sha256" },
      "debian.iso",
      3,
      B,
    );
    expect(framing.head.toString()).toBe(
      `--${B}\r\nContent-Disposition: form-data; name="content"\r\n\r\niso\r\n` +
        `--${B}\r\nContent-Disposition: form-data; name="checksum-algorithm"\r\n\r\nsha256\r\n` +
        `--${B}\r\nContent-Disposition: form-data; name="checksum"\r\n\r\nabc\r\n` +
        `--${B}\r\nContent-Disposition: form-data; name="filename"; filename="debian.iso"\r\n\r\n`,
    );
    expect(framing.head.toString()).not.toContain("Content-Type");
    expect(framing.tail.toString()).toBe(`\r\n--${B}--\r\n`);
  });

  test("only the text parts present are written", () => {
    const framing = frameUpload({ content: "vztmpl" }, "t.tar.zst", 0, B);
    expect(framing.head.toString()).not.toContain("checksum");
    expect(framing.head.toString().startsWith(`--${B}\r\nContent-Disposition: form-data; name="content"\r\n`)).toBe(
      true,
    );
  });

  test("Content-Length is computed in advance from the file size", () => {
    const framing = frameUpload({ content: "iso" }, "a.iso", 1_073_741_824, B);
    expect(framing.length).toBe(framing.head.length + 1_073_741_824 + framing.tail.length);
  });

  test("the boundary is unquoted in the Content-Type", () => {
    const framing = frameUpload({ content: "iso" }, "a.iso", 1, B);
    expect(framing.contentType).toBe(`multipart/form-data; boundary=${B}`);
    expect(parseUploadContentType(framing.contentType)).toEqual({ type: "multipart/form-data", boundary: B });
  });

  test("every other parameter goes to the query string; filename names the file", () => {
    const framing = frameUpload({ content: "iso", filename: "renamed.iso", foo: "bar", n: 3 }, "orig.iso", 1, B);
    expect(framing.query).toEqual({ foo: "bar", n: 3 });
    expect(framing.fileName).toBe("renamed.iso");
    expect(framing.head.toString()).toContain('filename="renamed.iso"');
    expect(framing.head.toString()).not.toContain("orig.iso");
  });

  const refused: [string, Record<string, string | number | boolean | string[]>, string, string][] = [
    ["a double quote in the file name", {}, 'a".iso', "double quote"],
    ["a double quote in parameters.filename", { filename: 'x"y' }, "a.iso", "double quote"],
    ["a line break in the file name", {}, "a\r\nX-Injected: 1", "control characters"],
    ["a line break in a text part", { content: "iso\r\n--x" }, "a.iso", "control characters"],
    ["an array for a text part", { content: ["iso", "vztmpl"] }, "a.iso", "single value"],
    ["tmpfilename", { tmpfilename: "/var/tmp/pveupload-1" }, "a.iso", "tmpfilename"],
    ["an empty file name", { filename: " " }, "a.iso", "empty"],
  ];
  for (const [what, params, name, message] of refused) {
    test(`refuses ${what}`, () => {
      expect(() => frameUpload(params, name, 1, B)).toThrow(message);
      expect(() => frameUpload(params, name, 1, B)).toThrow(LocalRefusal);
    });
  }

  test("new boundaries are unique and never need quoting", () => {
    const a = newBoundary();
    expect(a).not.toBe(newBoundary());
    expect(a).toMatch(/^[A-Za-z0-9]{20,70}$/);
    expect(() => frameUpload({}, "a", 1, "has;semicolon")).toThrow("boundary");
    expect(() => frameUpload({}, "a", 1, "has,comma")).toThrow("boundary");
    expect(() => frameUpload({}, "a", 1, "has space")).toThrow("boundary");
  });
});

describe("the body through the fake's pve-http-server parser", () => {
  const file = Buffer.concat([randomBytes(200_000), Buffer.from(`\r\n--${B}\r\n`), randomBytes(1000)]);

  for (const chunk of [file.length * 2, 65_536, 1000, 7]) {
    test(`round trip byte-exact with ${chunk}-byte reads`, () => {
      const framing = frameUpload(
        { content: "iso", "checksum-algorithm": "sha256", checksum: "c0ffee", node: "x" },
        "d.iso",
        file.length,
        B,
      );
      const { params, data } = parse(body(framing, file), B, chunk);
      expect(params).toEqual({ content: "iso", "checksum-algorithm": "sha256", checksum: "c0ffee", filename: "d.iso" });
      expect(createHash("sha256").update(data).digest("hex")).toBe(createHash("sha256").update(file).digest("hex"));
    });
  }

  test("curl's shape, with a Content-Type line in the file part, round-trips too", () => {
    const framing = frameUpload({ content: "iso" }, "d.iso", file.length, B);
    const withType = Buffer.from(
      framing.head.toString("latin1").replace(/"\r\n\r\n$/, '"\r\nContent-Type: application/octet-stream\r\n\r\n'),
      "latin1",
    );
    expect(parse(Buffer.concat([withType, file, framing.tail]), B, 1000).data.equals(file)).toBe(true);
  });

  test("a file starting with line breaks keeps them", () => {
    const leading = Buffer.concat([Buffer.from("\r\n\r\n\n"), file]);
    const framing = frameUpload({ content: "iso" }, "d.iso", leading.length, B);
    expect(parse(body(framing, leading), B, 4096).data.equals(leading)).toBe(true);
  });

  test("an empty file round-trips", () => {
    const framing = frameUpload({ content: "iso" }, "empty.iso", 0, B);
    expect(parse(body(framing, Buffer.alloc(0)), B).data.length).toBe(0);
  });

  test("a text part out of order swallows its neighbour and fails", () => {
    const wrong = Buffer.from(
      `--${B}\r\nContent-Disposition: form-data; name="checksum"\r\n\r\nabc\r\n` +
        `--${B}\r\nContent-Disposition: form-data; name="content"\r\n\r\niso\r\n` +
        `--${B}\r\nContent-Disposition: form-data; name="filename"; filename="a.iso"\r\nContent-Type: application/octet-stream\r\n\r\nDATA\r\n--${B}--\r\n`,
    );
    expect(() => parse(wrong, B)).toThrow("wrong Content-Disposition");
  });

  test("a file part with another field name fails with Proxmox's message", () => {
    const wrong = Buffer.from(
      `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.iso"\r\n\r\nDATA\r\n--${B}--\r\n`,
    );
    expect(() => parse(wrong, B)).toThrow("wrong field name 'file' for file upload, expected 'filename'");
  });

  test("a file part whose Content-Disposition is not the first header is never found", () => {
    const wrong = Buffer.from(
      `--${B}\r\nContent-Type: application/octet-stream\r\nContent-Disposition: form-data; name="filename"; filename="a.iso"\r\n\r\nDATA\r\n--${B}--\r\n`,
    );
    expect(() => parse(wrong, B)).toThrow("upload failed");
  });

  test("a differently spelled Content-Disposition is never found", () => {
    const wrong = Buffer.from(
      `--${B}\r\ncontent-disposition: form-data; name="filename"; filename="a.iso"\r\n\r\nDATA\r\n--${B}--\r\n`,
    );
    expect(() => parse(wrong, B)).toThrow("upload failed");
  });

  test("a quoted boundary is taken verbatim, quotes included", () => {
    expect(parseUploadContentType('multipart/form-data; boundary="abc"').boundary).toBe('"abc"');
    expect(parseUploadContentType("multipart/form-data; boundary=a;b").boundary).toBe("a");
  });
});

describe("a read that ends inside the file part's headers", () => {
  // The real parser runs on every socket read. Counts the places where one read ending there
  // (and the next bringing the rest) changes the stored file.
  function corruptingSplits(head: Buffer, file: Buffer, tail: Buffer): number[] {
    const whole = Buffer.concat([head, file, tail]);
    const bad: number[] = [];
    for (let end = 1; end < head.length + 16; end++) {
      let data: Buffer | undefined;
      try {
        data = parseReads(whole, B, [end], true).data;
      } catch {
        // refused
      }
      if (!data?.equals(file)) bad.push(end);
    }
    return bad;
  }
  const file = Buffer.from("ISO DATA without blank lines ".repeat(20));

  test("leaves a 4-byte window without the Content-Type line, where it was 44 bytes with it", () => {
    const framing = frameUpload(
      { content: "iso", "checksum-algorithm": "sha256", checksum: "ab" },
      "d.iso",
      file.length,
      B,
    );
    const quote = framing.head.lastIndexOf('"') + 1;
    expect(corruptingSplits(framing.head, file, framing.tail)).toEqual([quote, quote + 1, quote + 2, quote + 3]);

    const withType = Buffer.from(
      framing.head.toString("latin1").replace(/"\r\n\r\n$/, '"\r\nContent-Type: application/octet-stream\r\n\r\n'),
      "latin1",
    );
    const bad = corruptingSplits(withType, file, framing.tail);
    expect(bad).toHaveLength(44);
    expect(bad[0]).toBe(quote);
  });
});

describe("isUploadPath", () => {
  const cases: [string, boolean][] = [
    ["/nodes/pve1/storage/local/upload", true],
    ["/nodes/pve1/storage/local/upload/x", false],
    ["/nodes/pve1/storage/local/download-url", false],
    ["/nodes/pve1/qemu/100/config", false],
    ["/nodes/pve1/storage/upload", false],
  ];
  for (const [path, expected] of cases) {
    test(`${path} -> ${expected}`, () => expect(isUploadPath(path)).toBe(expected));
  }
});
