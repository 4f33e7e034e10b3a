// The loopback fake Proxmox in its own process, so a benchmark does not pay for the fake's work.
// Prints one JSON line {url, env, authorization} and serves until its stdin closes.
import { FakeProxmox } from "../test/fake/pve-fake.ts";

const fake = await FakeProxmox.start();
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
