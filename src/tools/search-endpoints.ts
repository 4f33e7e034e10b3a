import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { HTTP_METHODS } from "../proxmox/client.ts";
import type { ServerDeps } from "./deps.ts";
import { catalogFailure, catalogFor, sourceLabel } from "./catalog-common.ts";
import { hostArg, withHost } from "./host.ts";
import { okResult } from "./result.ts";

export const MAX_SEARCH_LIMIT = 100;

const NOTHING_FOUND =
  "Nothing matched. Use broader, plainer words for the object and the action (vm, container, storage, node, user, backup, snapshot, firewall; create, list, delete, start), leave out names and IDs, or drop the method filter.";

export function registerSearchEndpointsTool(server: McpServer, deps: ServerDeps): void {
  server.registerTool(
    "proxmox_search_endpoints",
    {
      title: "Find Proxmox API endpoints",
      description:
        'Search the Proxmox VE API (the cluster\'s own version) in plain words, e.g. "take a snapshot of a VM", "free space on a storage", "who has access to what". Returns ranked METHOD + path templates with a one-line description; refuses_api_tokens marks endpoints no API token can call. Then use proxmox_describe_endpoint for parameters and permissions.',
      inputSchema: {
        ...hostArg(deps.hosts),
        query: z.string().trim().min(1).max(500).describe("What you want to do or read, in plain words"),
        method: z.enum(HTTP_METHODS).optional().describe("Only endpoints with this HTTP method"),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_SEARCH_LIMIT)
          .optional()
          .describe("Results to return (default 10, at most 100)"),
        offset: z.number().int().min(0).optional().describe("Results to skip, for the next page (default 0)"),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    withHost(deps, async (host, { query, method, limit, offset }, extra) => {
      const redact = host.client.redact;
      try {
        const catalog = await catalogFor(host.catalog, extra.signal);
        const start = offset ?? 0;
        const page = catalog.search(query, { method, limit: limit ?? 10, offset: start });
        const results = page.hits.map((hit) => ({
          method: hit.method,
          path: hit.path,
          description: hit.description,
          ...(hit.refusesTokens ? { refuses_api_tokens: true } : {}),
        }));
        const next = start + results.length;
        return okResult({
          source: sourceLabel(catalog.source),
          query,
          total: page.total,
          results,
          ...(next < page.total ? { next_offset: next } : {}),
          ...(page.total === 0 ? { hint: NOTHING_FOUND } : {}),
        });
      } catch (error) {
        return catalogFailure(error, redact);
      }
    }),
  );
}
