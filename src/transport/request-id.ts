/**
 * The id of a JSON-RPC message that could not be read whole (too large, or not valid JSON),
 * from its first and last few kilobytes, so the sender can still be answered with an error.
 * The start is read with a small scanner that follows JSON's nesting, so an "id" key inside
 * the params is never taken for the message's; the end is read only in the one shape that is
 * unambiguous there, `..., "id": <number or plain string>}`, which is where the MCP TypeScript
 * SDK writes the id (after the params).
 */

export type RequestId = string | number;

export interface MessageEdges {
  /** The top-level id, when one could be read. */
  id?: RequestId;
  /** The start shows a top-level "result" or "error": a response, which is never answered. */
  response: boolean;
}

const WS = /\s*/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;
const TAIL_ID = /[{,]\s*"id"\s*:\s*(-?(?:0|[1-9]\d*)|"[^"\\\u0000-\u001f]*")\s*\}\s*$/;

/** A valid MCP request id (a string or an integer). */
export function asRequestId(value: unknown): RequestId | undefined {
  return typeof value === "string" || (typeof value === "number" && Number.isSafeInteger(value)) ? value : undefined;
}

class Scanner {
  pos = 0;
  constructor(private readonly text: string) {}

  private match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.pos;
    const found = pattern.exec(this.text);
    if (!found) return undefined;
    this.pos = pattern.lastIndex;
    return found[0];
  }

  ws(): void {
    this.match(WS);
  }

  /** Consumes `char` when it is next (after whitespace). */
  eat(char: string): boolean {
    this.ws();
    if (this.text[this.pos] !== char) return false;
    this.pos++;
    return true;
  }

  string(): string | undefined {
    this.ws();
    const token = this.match(STRING);
    return token === undefined ? undefined : (JSON.parse(token) as string);
  }

  /** A scalar value's JSON text, or undefined at anything else. */
  scalar(): string | undefined {
    this.ws();
    return this.match(STRING) ?? this.match(NUMBER) ?? this.match(LITERAL);
  }

  /** Skips one value of any kind; false when the text ends (or breaks) inside it. */
  skipValue(): boolean {
    if (this.scalar() !== undefined) return true;
    const open = this.text[this.pos];
    if (open !== "{" && open !== "[") return false;
    const close = open === "{" ? "}" : "]";
    this.pos++;
    if (this.eat(close)) return true;
    for (;;) {
      if (open === "{" && (this.string() === undefined || !this.eat(":"))) return false;
      if (!this.skipValue()) return false;
      if (this.eat(close)) return true;
      if (!this.eat(",")) return false;
    }
  }
}

/** What the start of the message says: its top-level keys, as far as they are complete. */
function readHead(head: string): MessageEdges {
  const edges: MessageEdges = { response: false };
  const scan = new Scanner(head);
  if (!scan.eat("{")) return edges;
  for (;;) {
    const key = scan.string();
    if (key === undefined || !scan.eat(":")) return edges;
    if (key === "result" || key === "error") edges.response = true;
    if (key === "id") {
      const token = scan.scalar();
      // only a value followed by its delimiter is whole (the head may end inside a number)
      if (token === undefined || !(scan.eat(",") || scan.eat("}"))) return edges;
      const id = asRequestId(JSON.parse(token));
      if (id !== undefined) edges.id = id;
      continue;
    }
    if (!scan.skipValue() || !scan.eat(",")) return edges;
  }
}

export function readMessageEdges(head: string, tail: string): MessageEdges {
  const edges = readHead(head);
  if (edges.id !== undefined) return edges;
  const last = TAIL_ID.exec(tail);
  const id = last ? asRequestId(JSON.parse(last[1]!)) : undefined;
  return id === undefined ? edges : { ...edges, id };
}
