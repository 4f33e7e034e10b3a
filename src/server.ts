import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SERVER_INSTRUCTIONS } from "./instructions.ts";
import type { Logger } from "./log.ts";
import type { ProxmoxClient } from "./proxmox/client.ts";
import type { PollingOptions } from "./tasks/wait.ts";
import { registerGetTool } from "./tools/get.ts";
import { registerRequestTool } from "./tools/request.ts";

export const SERVER_NAME = "proxmox-ve-mcp";
export const SERVER_VERSION = "0.1.0";

/** Everything a server needs, built from configuration by the caller. */
export interface ServerDeps {
  client: ProxmoxClient;
  /** Read-only mode: tools that could write are not registered at all. */
  readOnly: boolean;
  log: Logger;
  /** How often a waited-for task is polled; tests shorten it. */
  taskPolling?: PollingOptions;
}

export function createServer(deps: ServerDeps): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { instructions: SERVER_INSTRUCTIONS, capabilities: { tools: {} } },
  );
  registerGetTool(server, deps);
  if (!deps.readOnly) registerRequestTool(server, deps);
  return server;
}
