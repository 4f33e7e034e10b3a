// Spawned-process helpers: run the built dist/index.js the way an MCP host does.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "../..");
export const DIST = join(ROOT, "dist/index.js");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Runs `bun run build` when dist/index.js is missing or older than src/, the build script or the dependency pins. */
export function ensureBuilt(): void {
  let built = 0;
  try {
    built = statSync(DIST).mtimeMs;
  } catch {
    // missing: build it
  }
  const inputs = Math.max(
    newestMtime(join(ROOT, "src")),
    ...["package.json", "bun.lock", "scripts/build.ts"].map((f) => statSync(join(ROOT, f)).mtimeMs),
  );
  if (built >= inputs) return;
  const result = Bun.spawnSync([process.execPath, "run", "build"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) {
    throw new Error(`bun run build failed (${result.exitCode}): ${result.stderr.toString()}`);
  }
}

/**
 * A clean environment: only what is given, plus PATH so a host-like launch still works.
 * Nothing from the test runner's own environment (PROXMOX_*, CI tokens) leaks in.
 */
export function cleanEnv(vars: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
  for (const [key, value] of Object.entries(vars)) if (value !== undefined) env[key] = value;
  return env;
}

export interface ExitedProcess {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Starts `bun dist/index.js` with stdin closed right away and waits for it to exit. */
export async function runToExit(env: Record<string, string>, timeoutMs = 10_000): Promise<ExitedProcess> {
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, DIST], {
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: timeoutMs,
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr, ms: performance.now() - started };
}

export interface StdioSession {
  client: Client;
  transport: StdioClientTransport;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Errors the client transport saw (a non-JSON line on stdout lands here). */
  errors: Error[];
  close(): Promise<void>;
}

/** A real SDK client connected over stdio to a spawned `bun dist/index.js`. */
export async function connectStdio(env: Record<string, string>, bunArgs: string[] = []): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...bunArgs, DIST],
    env,
    stderr: "pipe",
    cwd: ROOT,
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const errors: Error[] = [];
  const client = new Client({ name: "e2e", version: "0.0.0" });
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, errors, close: () => client.close() };
}

export interface RawSession {
  /** Writes one JSON-RPC message as a line on the server's stdin. */
  send(message: Record<string, unknown>): void;
  /** Writes `text` and a newline to the server's stdin as it is (oversize or broken messages). */
  sendLine(text: string): void;
  /** Waits for the response with this id. */
  response(id: number): Promise<Record<string, unknown>>;
  /** Ends stdin and resolves when the process exits, with how long that took. */
  closeStdin(): Promise<{ code: number; ms: number }>;
  /** Every line written to stdout so far, verbatim. */
  stdoutLines(): string[];
  stderr(): string;
  /** Resolves with stderr once `done(stderr)` holds (stderr arrives on its own pipe, after stdout or before). */
  stderrWhen(done: (stderr: string) => boolean): Promise<string>;
  kill(): void;
}

/** Speaks newline-delimited JSON-RPC to a spawned server by hand, keeping stdout verbatim. */
export function spawnRaw(env: Record<string, string>): RawSession {
  const proc = Bun.spawn([process.execPath, DIST], { env, stdin: "pipe", stdout: "pipe", stderr: "pipe", cwd: ROOT });
  const lines: string[] = [];
  const waiters = new Map<number, (message: Record<string, unknown>) => void>();
  const received = new Map<number, Record<string, unknown>>();
  let stderr = "";
  const writeLine = (text: string) => {
    void proc.stdin.write(`${text}\n`);
    void proc.stdin.flush();
  };
  const decoder = new TextDecoder();
  void (async () => {
    let buffer = "";
    for await (const chunk of proc.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        lines.push(line);
        let message: Record<string, unknown> | undefined;
        try {
          message = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        if (typeof message.id === "number") {
          received.set(message.id, message);
          waiters.get(message.id)?.(message);
        }
      }
    }
    if (buffer !== "") lines.push(buffer);
  })();
  const stderrWaiters = new Set<() => void>();
  void (async () => {
    const errDecoder = new TextDecoder();
    for await (const chunk of proc.stderr) {
      stderr += errDecoder.decode(chunk, { stream: true });
      for (const wake of stderrWaiters) wake();
    }
  })();
  return {
    send: (message) => writeLine(JSON.stringify(message)),
    sendLine: writeLine,
    response: (id) =>
      new Promise((resolvePromise) => {
        const done = received.get(id);
        if (done) resolvePromise(done);
        else waiters.set(id, resolvePromise);
      }),
    closeStdin: async () => {
      const started = performance.now();
      await proc.stdin.end();
      const code = await proc.exited;
      return { code, ms: performance.now() - started };
    },
    stdoutLines: () => lines,
    stderr: () => stderr,
    stderrWhen: (done) =>
      new Promise((resolvePromise) => {
        const check = () => {
          if (!done(stderr)) return;
          stderrWaiters.delete(check);
          resolvePromise(stderr);
        };
        stderrWaiters.add(check);
        check();
      }),
    kill: () => proc.kill(),
  };
}
