import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CatalogProvider } from "./catalog/loader.ts";
import { SERVER_INSTRUCTIONS } from "./instructions.ts";
import type { FileAccess } from "./files/resolver.ts";
import type { Logger } from "./log.ts";
import type { ProxmoxClient } from "./proxmox/client.ts";
import type { PollingOptions } from "./tasks/wait.ts";
import { registerDescribeEndpointTool } from "./tools/describe-endpoint.ts";
import { registerDownloadTool } from "./tools/download.ts";
import { registerGetTool } from "./tools/get.ts";
import { registerRequestTool } from "./tools/request.ts";
import { registerSearchEndpointsTool } from "./tools/search-endpoints.ts";
import { registerUploadTool } from "./tools/upload.ts";

export const SERVER_NAME = "proxmox-ve-mcp";
export const SERVER_VERSION = "0.1.0";

/** Everything a server needs, built from configuration by the caller. */
export interface ServerDeps {
  client: ProxmoxClient;
  /** Read-only mode: tools that could write are not registered at all. */
  readOnly: boolean;
  log: Logger;
  /** File transfer confined to PROXMOX_FILE_ROOTS; undefined when that is unset (the tools then say how to enable it). */
  files?: FileAccess | undefined;
  /** The API catalog (issue 3), loaded on first use; without it the catalog tools say so. */
  catalog?: CatalogProvider | undefined;
  /** How often a waited-for task is polled; tests shorten it. */
  taskPolling?: PollingOptions;
}

export function createServer(deps: ServerDeps): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { instructions: SERVER_INSTRUCTIONS, capabilities: { tools: {} } },
  );
  registerGetTool(server, deps);
  // Every tool that can send anything but GET to Proxmox is registered inside this block and
  // nowhere else: in read-only mode a model cannot call what it cannot see (and the client
  // refuses non-GET as a second wall). Reading tools (get, download, catalog) stay outside.
  if (!deps.readOnly) {
    registerRequestTool(server, deps);
    registerUploadTool(server, deps);
  }
  registerDownloadTool(server, deps);
  registerSearchEndpointsTool(server, deps);
  registerDescribeEndpointTool(server, deps);
  return server;
}
