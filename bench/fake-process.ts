// Shared by the bench fakes that run in their own process: announce the fake on stdout as one
// JSON line, and stop it when the benchmark closes our stdin. startFakeProcess() is the
// benchmark's side.
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

/** Starts bench/fake-server.ts in its own process and waits for its address. */
export async function startFakeProcess(): Promise<{ info: FakeInfo; stop(): Promise<void> }> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "fake-server.ts")], {
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
