import { describe, expect, test } from "bun:test";
import { EDGE_BYTES, LineSplitter, type LineEvent } from "../../src/transport/lines.ts";

/** Events as plain values: lines as text, oversize lines as their size and edges. */
function readable(events: LineEvent[]): unknown[] {
  return events.map((e) =>
    e.kind === "line"
      ? e.line.toString("utf8")
      : { oversize: e.bytes, head: e.head.toString("utf8"), tail: e.tail.toString("utf8") },
  );
}

/** Feeds `input` in pieces of `size` bytes (0: all at once) and collects every event. */
function split(input: string | Buffer, max: number, size = 0): unknown[] {
  const bytes = Buffer.isBuffer(input) ? input : Buffer.from(input, "utf8");
  const splitter = new LineSplitter(max);
  const events: LineEvent[] = [];
  const step = size || bytes.length || 1;
  for (let at = 0; at < bytes.length; at += step) events.push(...splitter.push(bytes.subarray(at, at + step)));
  return readable(events);
}

const CHUNKINGS = [0, 1, 2, 3, 7];

describe("LineSplitter, the same events however the input is cut", () => {
  const cases: [string, string, number, unknown[]][] = [
    ["one line", "abc\n", 10, ["abc"]],
    ["two lines", "abc\ndef\n", 10, ["abc", "def"]],
    ["no newline yet: nothing", "abc", 10, []],
    ["a CRLF ending loses its CR", "abc\r\n", 10, ["abc"]],
    ["a CR inside a line stays", "a\rb\n", 10, ["a\rb"]],
    ["empty lines are lines (the transport skips them)", "\n\nx\n", 10, ["", "", "x"]],
    ["exactly the limit is accepted", "0123456789\n", 10, ["0123456789"]],
    [
      "one byte over is not",
      "0123456789A\nok\n",
      10,
      [{ oversize: 11, head: "0123456789A", tail: "0123456789A" }, "ok"],
    ],
    [
      "an oversize line then a normal one",
      "xxxxxxxxxxxxxxx\nnext\n",
      10,
      [{ oversize: 15, head: "x".repeat(15), tail: "x".repeat(15) }, "next"],
    ],
    [
      "a CR at the end of an oversize line is dropped from its tail",
      "xxxxxxxxxxxx\r\nn\n",
      10,
      [{ oversize: 13, head: "xxxxxxxxxxxx\r", tail: "xxxxxxxxxxxx" }, "n"],
    ],
    ["a multibyte character counts by bytes", "ééééé\n", 10, ["ééééé"]],
    ["and tips a line over by bytes", "éééééé\n", 10, [{ oversize: 12, head: "éééééé", tail: "éééééé" }]],
  ];
  for (const size of CHUNKINGS) {
    test.each(cases)(`%s (pieces of ${size || "all"})`, (_name, input, max, expected) => {
      expect(split(input, max, size)).toEqual(expected);
    });
  }
});

describe("an oversize line streams through while only its edges are kept", () => {
  const head = '{"method":"tools/call","params":{"arguments":{"pad":"';
  const tail = '"}},"jsonrpc":"2.0","id":41}';
  const line = `${head}${"p".repeat(3 * 1024 * 1024)}${tail}`;
  const max = 1024 * 1024;

  test.each([
    ["64 KiB pieces", 64 * 1024],
    ["pieces of 4095 bytes (never aligned with the edges)", 4095],
    ["one piece", 0],
  ])("%s: size, first and last EDGE_BYTES bytes, then the next line", (_label, size) => {
    const [over, next] = split(`${line}\n{"id":42}\n`, max, size) as [
      { oversize: number; head: string; tail: string },
      string,
    ];
    expect(over.oversize).toBe(Buffer.byteLength(line));
    expect(over.head).toBe(line.slice(0, EDGE_BYTES));
    expect(over.tail).toBe(line.slice(-EDGE_BYTES));
    expect(next).toBe('{"id":42}');
  });

  test("what it holds never passes the limit, and drops to the edges (and the piece at hand) once over it", () => {
    const splitter = new LineSplitter(max);
    const bytes = Buffer.from(line);
    let most = 0;
    let over = false;
    for (let at = 0; at < bytes.length; at += 64 * 1024) {
      splitter.push(bytes.subarray(at, at + 64 * 1024));
      most = Math.max(most, splitter.buffered);
      if (at + 64 * 1024 > max) over = true;
      if (over) expect(splitter.buffered).toBeLessThanOrEqual(2 * EDGE_BYTES + 64 * 1024);
    }
    expect(most).toBeLessThanOrEqual(max);
    expect(readable(splitter.push(Buffer.from("\n")))).toHaveLength(1);
    expect(splitter.buffered).toBe(0);
  });
});
