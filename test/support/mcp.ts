import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult, ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { loadConnectionConfig, type ConnectionConfig } from "../../src/config.ts";
import { silentLogger } from "../../src/log.ts";
import { ProxmoxClient, type ClientOptions } from "../../src/proxmox/client.ts";
import { createServer, type ServerDeps } from "../../src/server.ts";
import type { FakeProxmox } from "../fake/pve-fake.ts";

export interface Harness {
  client: Client;
  proxmox: ProxmoxClient;
  deps: ServerDeps;
  call(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<CallToolResult>;
  close(): Promise<void>;
}

export function connectionFor(fake: FakeProxmox, env: Record<string, string> = {}): ConnectionConfig {
  return loadConnectionConfig(fake.env(env));
}

/** A real SDK client talking to createServer over an in-memory transport. */
export async function connectHarness(
  fake: FakeProxmox,
  opts: {
    env?: Record<string, string>;
    client?: Partial<ClientOptions>;
    deps?: Partial<ServerDeps>;
    /** The MCP client's capabilities, e.g. { elicitation: {} }. */
    capabilities?: ClientCapabilities;
    /** Runs on the MCP client before it connects, e.g. to answer elicitation requests. */
    setup?: (client: Client) => void;
  } = {},
): Promise<Harness> {
  const proxmox = new ProxmoxClient({ connection: connectionFor(fake, opts.env), ...opts.client });
  const deps: ServerDeps = { client: proxmox, readOnly: proxmox.readOnly, log: silentLogger, ...opts.deps };
  const server = createServer(deps);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test", version: "0.0.0" }, { capabilities: opts.capabilities ?? {} });
  opts.setup?.(client);
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    proxmox,
    deps,
    call: async (name, args, options) =>
      (await client.callTool({ name, arguments: args }, undefined, options?.signal ? { signal: options.signal } : undefined)) as CallToolResult,
    close: async () => {
      await client.close();
      await server.close();
      await proxmox.close();
    },
  };
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}
