// A loopback fake Proxmox in its own process, with its own throwaway CA (each process makes one)
// and the token given on the command line; GET /cluster/resources never answers, to play a
// slow host. Prints one JSON line {url, env, authorization} and serves until its stdin closes.
//   bun bench/hosts-fake.ts <token id> <token secret>
import { FakeProxmox } from "../test/fake/pve-fake.ts";
import { serveUntilStdinCloses } from "./fake-process.ts";

const [tokenId, tokenSecret] = process.argv.slice(2);
const fake = await FakeProxmox.start({ tokenId, tokenSecret });
fake.route("GET", "/cluster/resources", () => ({ hang: true }));
serveUntilStdinCloses(fake);
