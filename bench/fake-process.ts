// Shared by the bench fakes that run in their own process: announce the fake on stdout as one
// JSON line, and stop it when the benchmark closes our stdin.
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
