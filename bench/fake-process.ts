// Shared by the benchmarks whose fake runs in its own process: the fake's side announces itself
// on stdout as one JSON line and stops when the benchmark closes its stdin; the benchmark's side
// spawns it and reads that line.
import { join } from "node:path";
import type { FakeProxmox } from "../test/fake/pve-fake.ts";
import { ROOT } from "../test/support/stdio.ts";

export interface FakeInfo {
  url: string;
  env: Record<string, string>;
  authorization: string;
}

export function serveUntilStdinCloses(fake: FakeProxmox): void {
  const info: FakeInfo = { url: fake.url, env: fake.env(), authorization: fake.authorization };
  process.stdout.write(`${JSON.stringify(info)}\n`);
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

/** Spawns `bench/fake-server.ts` and waits for its address line. */
export async function startFakeProcess(): Promise<{ info: FakeInfo; stop(): Promise<void> }> {
  const proc = Bun.spawn([process.execPath, join(ROOT, "bench/fake-server.ts")], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("bench/fake-server.ts exited before printing its address");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return {
    info: JSON.parse(text.slice(0, text.indexOf("\n"))) as FakeInfo,
    stop: async () => {
      await proc.stdin.end();
      await proc.exited;
    },
  };
}
