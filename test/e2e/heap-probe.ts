// Preloaded into a server under test (`bun --preload`). Before each JSON-RPC response leaves on
// stdout, it takes a heap snapshot and appends one line to HEAP_PROBE_FILE: the response's id
// and which of the names in HEAP_PROBE_NAMES (a JSON array) label an edge of the heap, i.e. a
// property or variable that exists. A method name of a class exists once the module that
// defines the class has been evaluated; a module that was only bundled leaves no such trace.
import { appendFileSync } from "node:fs";

const file = process.env.HEAP_PROBE_FILE;
const names: string[] = JSON.parse(process.env.HEAP_PROBE_NAMES ?? "[]");
if (!file) throw new Error("heap-probe: HEAP_PROBE_FILE is not set");

const write = process.stdout.write.bind(process.stdout);
process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
  const text = typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const id = (JSON.parse(line) as { id?: unknown }).id;
    if (id === undefined) continue;
    const present = new Set(Bun.generateHeapSnapshot().edgeNames);
    appendFileSync(file, `${JSON.stringify({ id, present: names.filter((name) => present.has(name)) })}\n`);
  }
  return write(chunk, ...rest);
}) as typeof process.stdout.write;
