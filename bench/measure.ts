// Shared by the round-trip benchmarks: the loopback fake in its own process, and latency
// measurement of calls run by a number of workers, alternating between the things compared.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { readFileSync } from "node:fs";
import { createAgent, request } from "../src/http/undici.ts";
import { spawnFake, type FakeInfo } from "./fake-process.ts";

/** The loopback fake Proxmox in its own process (bench/fake-server.ts). */
export function startFake() {
  return spawnFake("fake-server.ts");
}

/** One call; `worker` tells which of the workers running in parallel makes it. */
export type Call = (worker: number) => Promise<void>;

/** Runs `count` calls with `inFlight` workers; returns each call's latency (ms) and the wall time. */
export async function measure(
  call: Call,
  count: number,
  inFlight: number,
): Promise<{ latencies: number[]; elapsedMs: number }> {
  const latencies: number[] = [];
  let next = 0;
  const worker = async (index: number) => {
    while (next < count) {
      next++;
      const started = performance.now();
      await call(index);
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, (_, i) => worker(i)));
  return { latencies, elapsedMs: performance.now() - started };
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export interface Summary {
  median: number;
  p99: number;
  perSecond: number;
}

/** Measures the calls in alternating blocks, so drift on a shared machine hits each alike; one summary per call. */
export async function run(calls: Call[], count: number, inFlight: number, blocks: number): Promise<Summary[]> {
  const latencies: number[][] = calls.map(() => []);
  const elapsed: number[] = calls.map(() => 0);
  for (let block = 0; block < blocks; block++) {
    for (const [i, call] of calls.entries()) {
      const result = await measure(call, Math.round(count / blocks), inFlight);
      latencies[i]!.push(...result.latencies);
      elapsed[i]! += result.elapsedMs;
    }
  }
  return latencies.map((list, i) => {
    const sorted = list.sort((a, b) => a - b);
    return {
      median: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      perSecond: (sorted.length / elapsed[i]!) * 1000,
    };
  });
}

export const ms = (n: number) => `${n.toFixed(3)} ms`;

/** The yardstick: a GET of the same fake URL with the real undici, the same CA and keep-alive. */
export function directGet(info: FakeInfo, path = "/version"): { call: Call; close(): Promise<void> } {
  const agent = createAgent({
    ca: readFileSync(info.env.PROXMOX_CA_FILE!, "utf8"),
    verifyTls: true,
    timeoutMs: 120_000,
  });
  const url = `${info.url}/api2/json${path}`;
  return {
    call: async () => {
      const response = await request(url, {
        headers: { authorization: info.authorization, accept: "application/json" },
        dispatcher: agent,
      });
      const text = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`direct GET answered ${response.statusCode}`);
      JSON.parse(text);
    },
    close: () => agent.close(),
  };
}

/** proxmox_get through an MCP client; `clients[worker]` when each worker has its own. */
export function mcpGet(clients: Client | Client[], path = "/version"): Call {
  return async (worker) => {
    const client = Array.isArray(clients) ? clients[worker % clients.length]! : clients;
    const result = await client.callTool({ name: "proxmox_get", arguments: { path } });
    if (result.isError) throw new Error(`proxmox_get failed: ${JSON.stringify(result.content)}`);
  };
}
