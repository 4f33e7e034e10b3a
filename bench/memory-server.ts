// The built server with a heap probe, for `bench/memory.ts --heap`: on SIGUSR2 it runs a full
// garbage collection and writes one `memory-probe {...}` line to stderr (live and reserved JS
// heap, object count by type, RSS after the collection). Separates what is still referenced
// (a leak grows here) from collector slack (RSS that a full collection gives back).
import { heapStats } from "bun:jsc";
import { join } from "node:path";

process.on("SIGUSR2", () => {
  Bun.gc(true);
  const heap = heapStats();
  const probe = {
    heapSize: heap.heapSize,
    heapCapacity: heap.heapCapacity,
    objectCount: heap.objectCount,
    protectedObjectCount: heap.protectedObjectCount,
    rss: process.memoryUsage().rss,
    types: heap.objectTypeCounts,
  };
  process.stderr.write(`memory-probe ${JSON.stringify(probe)}\n`);
});

// the build to run: the first argument (taken off argv, where the server would read it as a
// directory for file transfer), or dist/index.js
const [server] = process.argv.splice(2, 1);
await import(server ?? join(import.meta.dir, "../dist/index.js"));
