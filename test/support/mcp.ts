import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult, ClientCapabilities, ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
import type { CatalogProvider } from "../../src/catalog/loader.ts";
import { loadConnectionConfig, type ConnectionConfig } from "../../src/config.ts";
import { HostRegistry } from "../../src/hosts/registry.ts";
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

/** What a single-host test may set: the server's deps, and the one host's catalog and read-only flag. */
export type HarnessDeps = Partial<Omit<ServerDeps, "hosts">> & {
  readOnly?: boolean;
  catalog?: CatalogProvider | undefined;
};

export function connectionFor(fake: FakeProxmox, env: Record<string, string> = {}): ConnectionConfig {
  return loadConnectionConfig(fake.env(env));
}

/** What the MCP client side of a harness declares and answers. */
export interface ClientSetup {
  /** The MCP client's capabilities, e.g. { elicitation: {} }. */
  capabilities?: ClientCapabilities;
  /** Runs on the MCP client before it connects, e.g. to answer elicitation requests. */
  setup?: (client: Client) => void;
}

/** A real SDK client talking to createServer (deps.hosts as given) over an in-memory transport. */
export async function connectServer(
  deps: ServerDeps,
  clientSetup: ClientSetup = {},
): Promise<Pick<Harness, "client" | "deps" | "call"> & { close(): Promise<void> }> {
  const server = createServer(deps);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test", version: "0.0.0" }, { capabilities: clientSetup.capabilities ?? {} });
  clientSetup.setup?.(client);
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    deps,
    call: toolCaller(client),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** A single-host server (no `host` parameter) in front of `fake`. */
export async function connectHarness(
  fake: FakeProxmox,
  opts: { env?: Record<string, string>; client?: Partial<ClientOptions>; deps?: HarnessDeps } & ClientSetup = {},
): Promise<Harness> {
  const proxmox = new ProxmoxClient({ connection: connectionFor(fake, opts.env), ...opts.client });
  const { readOnly, catalog, ...rest } = opts.deps ?? {};
  const hosts = HostRegistry.single({ client: proxmox, catalog, readOnly: readOnly ?? proxmox.readOnly });
  const connected = await connectServer({ hosts, log: silentLogger, ...rest }, opts);
  return {
    ...connected,
    proxmox,
    close: async () => {
      await connected.close();
      await proxmox.close();
    },
  };
}

/**
 * The tools/list result of a single-host server in front of `fake` (read-only or not, over the
 * transport `deps.transport` describes), and the JSON-RPC line a client reads it in.
 */
export async function listedTools(
  fake: FakeProxmox,
  deps: HarnessDeps & { readOnly: boolean },
): Promise<{ result: ListToolsResult; line: string }> {
  const h = await connectHarness(fake, { client: { readOnly: deps.readOnly }, deps });
  try {
    const result = await h.client.listTools();
    return { result, line: JSON.stringify({ jsonrpc: "2.0", id: 1, result }) };
  } finally {
    await h.close();
  }
}

/** Every tool of a read-write server, by name. */
export const ALL_TOOLS = [
  "proxmox_describe_endpoint",
  "proxmox_download",
  "proxmox_get",
  "proxmox_request",
  "proxmox_search_endpoints",
  "proxmox_upload",
];

/** Harness.call for an SDK client: a tool call whose result is a CallToolResult, cancellable. */
export function toolCaller(client: Client): Harness["call"] {
  return async (name, args, options) =>
    (await client.callTool(
      { name, arguments: args },
      undefined,
      options?.signal ? { signal: options.signal } : undefined,
    )) as CallToolResult;
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}
