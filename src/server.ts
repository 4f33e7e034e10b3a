import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
// The one place the version lives is package.json; the bundler inlines only this field.
import { version } from "../package.json" with { type: "json" };
import { serverInstructions } from "./instructions.ts";
import type { ServerDeps } from "./tools/deps.ts";
import { registerDescribeEndpointTool } from "./tools/describe-endpoint.ts";
import { registerDownloadTool } from "./tools/download.ts";
import { registerGetTool } from "./tools/get.ts";
import { registerRequestTool } from "./tools/request.ts";
import { registerSearchEndpointsTool } from "./tools/search-endpoints.ts";
import { registerUploadTool } from "./tools/upload.ts";

export const SERVER_NAME = "proxmox-ve-mcp";
export const SERVER_VERSION: string = version;

export type { ServerDeps };

/**
 * The SDK's default validator, built on first use: a server needs it only to check answers to
 * elicitInput(), which this one does not call (a confirmation goes through the tool call's own
 * sendRequest, checked against the SDK's result schema: tools/confirm.ts), and building Ajv with
 * its formats is a measurable part of every start (docs/performance.md, Startup).
 */
function lazyJsonSchemaValidator(): jsonSchemaValidator {
  let ajv: AjvJsonSchemaValidator | undefined;
  return { getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema) };
}

export function createServer(deps: ServerDeps): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      instructions: serverInstructions({
        hosts: deps.hosts.multi ? deps.hosts.summaries() : undefined,
        confirmRules: deps.confirmation?.rules,
        transport: deps.transport,
      }),
      capabilities: { tools: {} },
      jsonSchemaValidator: lazyJsonSchemaValidator(),
    },
  );
  registerGetTool(server, deps);
  // Every tool that can send anything but GET to Proxmox is registered inside this block and
  // nowhere else: in read-only mode a model cannot call what it cannot see (and the client
  // refuses non-GET as a second wall). Reading tools (get, download, catalog) stay outside.
  // With several hosts they are registered when any host accepts writes, offering only those;
  // an HTTP client whose token is marked read-only gets none.
  if (deps.hosts.anyWritable && !deps.caller?.readOnly) {
    registerRequestTool(server, deps);
    registerUploadTool(server, deps);
  }
  registerDownloadTool(server, deps);
  registerSearchEndpointsTool(server, deps);
  registerDescribeEndpointTool(server, deps);
  return server;
}
