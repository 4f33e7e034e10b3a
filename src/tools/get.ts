import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ServerDeps } from "./deps.ts";
import { runApiCall } from "./api-call.ts";
import { hostArg, withHost } from "./host.ts";
import { parametersArg, pathArg } from "./schemas.ts";

export function registerGetTool(server: McpServer, deps: ServerDeps): void {
  server.registerTool(
    "proxmox_get",
    {
      title: "Read from the Proxmox API",
      description:
        "GET any Proxmox VE API path (under /api2/json) and return the JSON envelope {data, total?, changes?}; parameters go in the query string. proxmox_search_endpoints finds paths.",
      inputSchema: { ...hostArg(deps.hosts), path: pathArg, parameters: parametersArg },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    withHost(deps, async (host, { path, parameters }, extra) =>
      runApiCall(deps, host, { tool: "proxmox_get", method: "GET", path, parameters, signal: extra.signal }),
    ),
  );
}
