import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { SERVER_INSTRUCTIONS } from "./instructions.ts";
import type { ServerDeps } from "./tools/deps.ts";
import { registerDescribeEndpointTool } from "./tools/describe-endpoint.ts";
import { registerDownloadTool } from "./tools/download.ts";
import { registerGetTool } from "./tools/get.ts";
import { registerRequestTool } from "./tools/request.ts";
import { registerSearchEndpointsTool } from "./tools/search-endpoints.ts";
import { registerUploadTool } from "./tools/upload.ts";

export const SERVER_NAME = "proxmox-ve-mcp";
export const SERVER_VERSION = "0.1.0";

export type { ServerDeps };

/**
 * The SDK's default validator, built on first use: a server needs it only to check answers to
 * elicitation requests, which this one never sends, and building Ajv with its formats is a
 * measurable part of every start (docs/performance.md, Startup).
 */
function lazyJsonSchemaValidator(): jsonSchemaValidator {
  let ajv: AjvJsonSchemaValidator | undefined;
  return { getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema) };
}

export function createServer(deps: ServerDeps): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { instructions: SERVER_INSTRUCTIONS, capabilities: { tools: {} }, jsonSchemaValidator: lazyJsonSchemaValidator() },
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
