// The loopback fake Proxmox in its own process, so a benchmark does not pay for the fake's work.
// Prints one JSON line {url, env, authorization} and serves until its stdin closes.
import { FakeProxmox } from "../test/fake/pve-fake.ts";
import { serveUntilStdinCloses } from "./fake-process.ts";

const fake = await FakeProxmox.start();
// The benchmarks never read the fake's request log: drop it, so a long run leaves the fake flat.
setInterval(() => (fake.requests.length = 0), 1000).unref();
serveUntilStdinCloses(fake);
