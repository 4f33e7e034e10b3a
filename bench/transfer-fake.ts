// The loopback fake with the file transfer routes, in its own process so its memory and CPU
// are not counted as the server's. `bun bench/transfer-fake.ts [--plain] <seed> <bytes>...`
// serves GET .../file-restore/download?filepath=/bench-<bytes> for each size over HTTPS (plain
// HTTP with --plain), prints one JSON line {url, env, authorization}, then one JSON line per
// finished transfer, and stops when stdin closes.
import { FakeProxmox } from "../test/fake/pve-fake.ts";
import { serveUntilStdinCloses } from "./fake-process.ts";
import { installFileRoutes } from "../test/fake/upload.ts";

const args = process.argv.slice(2);
const plain = args[0] === "--plain";
const fake = await FakeProxmox.start({ tls: !plain });
const routes = installFileRoutes(fake, {
  onUpload: (u) =>
    process.stdout.write(
      `${JSON.stringify({ event: "upload", size: u.size, sha256: u.sha256, fileName: u.fileName, checksum: u.params.checksum ?? null, upid: u.upid })}\n`,
    ),
  onServed: (d) =>
    process.stdout.write(
      `${JSON.stringify({ event: "download", filepath: d.filepath, bytes: d.bytes, sha256: d.sha256 })}\n`,
    ),
});
const [seed, ...sizes] = args.slice(plain ? 1 : 0).map(Number);
// The benchmark knows the content's sha256; hashing here would only take CPU from the processes measured.
for (const size of sizes) routes.serve(`/bench-${size}`, { size, seed: seed!, hash: false });
serveUntilStdinCloses(fake);
