// Shared by the bench fakes that run in their own process: announce the fake on stdout as one
// JSON line, and stop it when the benchmark closes our stdin.
import { join } from "node:path";
import type { FakeProxmox } from "../test/fake/pve-fake.ts";

export function serveUntilStdinCloses(fake: FakeProxmox): void {
  process.stdout.write(`${JSON.stringify({ url: fake.url, env: fake.env(), authorization: fake.authorization })}\n`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await fake.stop();
    process.exit(0); // runs the exit hook that removes the throwaway certificates
  };
  process.stdin.on("end", stop);
  process.stdin.on("close", stop);
  process.stdin.resume();
}

export interface FakeInfo {
  url: string;
  env: Record<string, string>;
  authorization: string;
}

/**
 * Starts a bench script (a path under the repository) in its own process and reads the JSON
 * line it prints first (its address); closing its stdin stops it.
 */
export async function spawnAnnounced<T>(
  script: string,
  options: { args?: string[]; env?: Record<string, string> } = {},
): Promise<{ info: T; pid: number; stop(): Promise<void> }> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "..", script), ...(options.args ?? [])], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
    ...(options.env ? { env: options.env } : {}),
  });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${script} exited before printing its address`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return {
    info: JSON.parse(text.slice(0, text.indexOf("\n"))) as T,
    pid: proc.pid,
    stop: async () => {
      await proc.stdin.end();
      await proc.exited;
    },
  };
}

/** Spawns a bench fake (`script` under bench/, with `args`) and waits for its announcement. */
export function spawnFake(script: string, args: string[] = []) {
  return spawnAnnounced<FakeInfo>(`bench/${script}`, { args });
}
