// What one call's cancellation plumbing leaves behind, alone in a process: the MCP request's
// signal combined with a timeout, either as AbortSignal.any([caller, AbortSignal.timeout(ms)])
// (what the client did before) or with withDeadline (src/http/deadline.ts), which clears its
// timer when the call ends. Each pattern runs in its own process; RSS after a full collection is
// printed at checkpoints, then again once the timers would have fired.
//
//   bun bench/abort-signals.ts [--calls 400000] [--timeout-ms 5000]
//
// The server's default timeout is 120 s; a shorter one here only shortens the wait at the end.
import { heapStats } from "bun:jsc";
import { parseArgs } from "node:util";
import { withDeadline } from "../src/http/deadline.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    calls: { type: "string", default: "400000" },
    "timeout-ms": { type: "string", default: "5000" },
  },
});
const CALLS = Number(values.calls);
const TIMEOUT_MS = Number(values["timeout-ms"]);
const PATTERNS = ["any-timeout", "withDeadline"] as const;
type Pattern = (typeof PATTERNS)[number];

const listener = () => undefined;

/** One call's worth: the SDK's per-request controller, the combined signal, undici's listener. */
function oneCall(pattern: Pattern): void {
  const caller = new AbortController();
  if (pattern === "any-timeout") {
    const signal = AbortSignal.any([caller.signal, AbortSignal.timeout(TIMEOUT_MS)]);
    signal.addEventListener("abort", listener);
    signal.removeEventListener("abort", listener);
  } else {
    const deadline = withDeadline(caller.signal, TIMEOUT_MS);
    deadline.signal.addEventListener("abort", listener);
    deadline.signal.removeEventListener("abort", listener);
    deadline.done();
  }
}

function measure(): string {
  Bun.gc(true);
  const mib = (process.memoryUsage().rss / 1024 / 1024).toFixed(1);
  return `${mib.padStart(7)} MiB RSS, ${String(heapStats().objectTypeCounts.AbortSignal ?? 0).padStart(6)} AbortSignal objects`;
}

async function child(pattern: Pattern): Promise<void> {
  const lines = [`${pattern.padEnd(14)} start          ${measure()}`];
  let done = 0;
  for (const target of [CALLS / 4, CALLS / 2, CALLS]) {
    while (done < target) {
      oneCall(pattern);
      if (++done % 1000 === 0) await Bun.sleep(0); // let timers and microtasks run, as a server would
    }
    lines.push(`${pattern.padEnd(14)} ${String(done).padEnd(15)}${measure()}`);
  }
  await Bun.sleep(TIMEOUT_MS + 1000);
  lines.push(`${pattern.padEnd(14)} timers fired   ${measure()}`);
  process.stdout.write(`${lines.join("\n")}\n`);
}

if (positionals[0]) {
  await child(positionals[0] as Pattern);
} else {
  process.stdout.write(`${CALLS} calls, timeout ${TIMEOUT_MS} ms; bun ${Bun.version}\n`);
  for (const pattern of PATTERNS) {
    const proc = Bun.spawn(
      [process.execPath, import.meta.path, pattern, "--calls", String(CALLS), "--timeout-ms", String(TIMEOUT_MS)],
      { stdout: "inherit", stderr: "inherit" },
    );
    if ((await proc.exited) !== 0) throw new Error(`${pattern} run failed`);
  }
}
