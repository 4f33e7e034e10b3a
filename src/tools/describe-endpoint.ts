import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { HTTP_METHODS } from "../proxmox/client.ts";
import type { ServerDeps } from "./deps.ts";
import { catalogFailure, catalogFor, sourceLabel } from "./catalog-common.ts";
import { hostArg, withHost } from "./host.ts";
import { errorResult, okResult } from "./result.ts";

export function registerDescribeEndpointTool(server: McpServer, deps: ServerDeps): void {
  server.registerTool(
    "proxmox_describe_endpoint",
    {
      title: "Describe a Proxmox API endpoint",
      description:
        "What a Proxmox VE API path accepts and returns, per method (or the one asked): description, parameters (type, required, default, allowed values, format), return value, required privileges, whether API tokens may call it, child paths. Takes a template (/nodes/{node}/qemu/{vmid}/snapshot) or a concrete path; unknown paths get the closest ones.",
      inputSchema: {
        ...hostArg(deps.hosts),
        path: z.string().trim().min(1).max(2000).describe("Path template or concrete path, relative to /api2/json"),
        method: z.enum(HTTP_METHODS).optional().describe("Only this method (default: all methods of the path)"),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    withHost(deps, async (host, { path, method }, extra) => {
      const redact = host.client.redact;
      try {
        const catalog = await catalogFor(host.catalog, extra.signal);
        const outcome = catalog.describe(path, method);
        const source = sourceLabel(catalog.source);
        if (outcome.found) return okResult({ source, ...outcome.description });
        const next =
          outcome.reason === "unknown_path"
            ? `Closest existing paths: ${outcome.closest.join(", ")}. proxmox_search_endpoints finds paths by what they do.`
            : `Ask for one of: ${outcome.methods.join(", ") || "(none)"}, or leave method out.`;
        return errorResult(
          {
            code: outcome.reason,
            message: outcome.message,
            source,
            ...(outcome.reason === "unknown_path" ? { closest: outcome.closest } : { methods: outcome.methods }),
            hints: [next],
          },
          redact,
        );
      } catch (error) {
        return catalogFailure(error, redact);
      }
    }),
  );
}
