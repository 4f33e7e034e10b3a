/**
 * Extracts the schema array from an API viewer file without executing anything: the
 * `const apiSchema = [...]` (PVE 7+), `var pveapi = [...]` (PVE 6) or a bare JSON array.
 * The end of the array is found by bracket matching that skips JSON strings, so the
 * viewer code that follows the `;` in a published apidoc.js is ignored.
 */

export class SchemaParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SchemaParseError";
  }
}

// At the start of a line, so the same words inside a string or after a comment marker do not count.
const DECLARATION = /^[\s\uFEFF]*(?:const|var|let)\s+(?:apiSchema|pveapi)\s*=\s*\[/m;

/** Index of the `[` that opens the schema array. */
export function findArrayStart(text: string): number {
  let i = 0;
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  if (text[i] === "[") return i;
  const declared = DECLARATION.exec(text);
  if (declared) return declared.index + declared[0].length - 1;
  throw new SchemaParseError(
    "no API schema found: expected `const apiSchema = [`, `var pveapi = [` or a JSON array (is this the API viewer's apidoc.js?)",
  );
}

const BACKSLASH = 0x5c;
const CLOSER: Record<string, string> = { "[": "]", "{": "}" };

/**
 * Index just past the bracket that closes the one at `start`; strings (with escapes) are
 * skipped. Linear in the input whatever it holds: a regex jumps to the next quote or
 * bracket (the file is mostly indentation) and indexOf to the end of each string.
 */
export function matchBracket(text: string, start: number): number {
  const stack: string[] = [];
  const structural = /["[\]{}]/g;
  structural.lastIndex = start;
  let m: RegExpExecArray | null;
  while ((m = structural.exec(text))) {
    const c = m[0];
    const i = m.index;
    if (c === '"') {
      let from = i + 1;
      for (;;) {
        const q = text.indexOf('"', from);
        if (q < 0) throw new SchemaParseError("the schema array ends inside a string (truncated file?)");
        let backslashes = 0;
        for (let b = q - 1; b >= from && text.charCodeAt(b) === BACKSLASH; b--) backslashes++;
        from = q + 1;
        if (backslashes % 2 === 0) break;
      }
      structural.lastIndex = from;
    } else if (c === "[" || c === "{") {
      stack.push(CLOSER[c]!);
    } else {
      if (stack.pop() !== c) throw new SchemaParseError(`unbalanced brackets in the schema array at offset ${i}`);
      if (stack.length === 0) return i + 1;
    }
  }
  throw new SchemaParseError("the schema array is never closed (truncated file?)");
}

/** The schema array's JSON text, sliced out of the whole file. */
export function extractSchemaJson(text: string): string {
  const start = findArrayStart(text);
  return text.slice(start, matchBracket(text, start));
}

/**
 * Parses the data only; the value is still unvalidated. The published files are
 * pretty-printed, so the array usually closes with the first "]" that starts a line; when
 * JSON.parse accepts exactly that slice, that is the matching bracket (a JSON value ends
 * where it closes, and a raw newline cannot be inside a string), which saves scanning 4 MB.
 * Anything else takes the bracket matching.
 */
export function parseSchemaText(text: string): unknown {
  const start = findArrayStart(text);
  const lineClose = text.indexOf("\n]", start);
  if (lineClose >= 0) {
    try {
      return JSON.parse(text.slice(start, lineClose + 2)) as unknown;
    } catch {
      // Not the end after all: fall back to bracket matching.
    }
  }
  const json = text.slice(start, matchBracket(text, start));
  try {
    return JSON.parse(json) as unknown;
  } catch (error) {
    throw new SchemaParseError(
      `the schema array is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
