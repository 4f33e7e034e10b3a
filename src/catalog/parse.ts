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

const DECLARATION = /(?:^|[\s;])(?:const|var|let)\s+(?:apiSchema|pveapi)\s*=\s*\[/;

/** Index of the `[` that opens the schema array. */
export function findArrayStart(text: string): number {
  const declared = DECLARATION.exec(text);
  if (declared) return declared.index + declared[0].length - 1;
  let i = 0;
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  if (text[i] === "[") return i;
  throw new SchemaParseError(
    "no API schema found: expected `const apiSchema = [`, `var pveapi = [` or a JSON array (is this the API viewer's apidoc.js?)",
  );
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = [0x5b, 0x7b]; // [ {
const CLOSE = [0x5d, 0x7d]; // ] }

/** Index just past the bracket that closes the one at `start`; strings (with escapes) are skipped. */
export function matchBracket(text: string, start: number): number {
  const stack: number[] = [];
  let i = start;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) throw new SchemaParseError("the schema array ends inside a string (truncated file?)");
        let backslashes = 0;
        for (let b = q - 1; b >= i && text.charCodeAt(b) === BACKSLASH; b--) backslashes++;
        i = q + 1;
        if (backslashes % 2 === 0) break;
      }
      continue;
    }
    const open = OPEN.indexOf(c);
    if (open >= 0) {
      stack.push(CLOSE[open]!);
    } else if (c === CLOSE[0] || c === CLOSE[1]) {
      if (stack.pop() !== c) throw new SchemaParseError(`unbalanced brackets in the schema array at offset ${i}`);
      if (stack.length === 0) return i + 1;
    }
    i++;
  }
  throw new SchemaParseError("the schema array is never closed (truncated file?)");
}

/** The schema array's JSON text, sliced out of the whole file. */
export function extractSchemaJson(text: string): string {
  const start = findArrayStart(text);
  return text.slice(start, matchBracket(text, start));
}

/** Parses the data only; the value is still unvalidated. */
export function parseSchemaText(text: string): unknown {
  const json = extractSchemaJson(text);
  try {
    return JSON.parse(json) as unknown;
  } catch (error) {
    throw new SchemaParseError(`the schema array is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
