import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Catalog } from "../catalog/catalog.ts";
import { attemptsText } from "../catalog/model.ts";
import { namesDocsTool, type DocsStatus } from "../catalog/docs-loader.ts";
import { HTTP_METHODS } from "../proxmox/client.ts";
import type { ServerDeps } from "./deps.ts";
import { catalogFailure, catalogFor, sourceLabel } from "./catalog-common.ts";
import { LocalRefusal } from "../proxmox/errors.ts";
import { hostArg, withHost } from "./host.ts";
import { failureResult, okResult } from "./result.ts";

export const MAX_SEARCH_LIMIT = 100;

const NOTHING_FOUND =
  "Nothing matched. Use broader, plainer words for the object and the action (vm, container, storage, node, user, backup, snapshot, firewall; create, list, delete, start), leave out names and IDs, drop the method filter, or list a subtree with path_prefix alone (e.g. /cluster/ha, /nodes/{node}/storage).";
const NOTHING_UNDER =
  "No endpoint lives under that path. Try a shorter prefix (/cluster, /nodes/{node}, /access, /storage, /pools) or proxmox_describe_endpoint for the closest paths.";

/** What the answer says about the second source, the cluster's docs (absent when there is none). */
export function docsLabel(status: DocsStatus | undefined, catalog: Catalog): string | undefined {
  const attached = catalog.docs;
  if (attached) {
    return `${sourceLabel(attached.source)} (${attached.pages} pages; ${attached.mapped.commands} CLI commands mapped to endpoints)`;
  }
  if (!status || status.state === "off") return undefined;
  const attempts = status.state === "loading" ? status.attempts : status.state === "unavailable" ? status.attempts : [];
  const tried = attemptsText(attempts ?? []);
  if (tried) return `unavailable (${tried}); this answer is from the schema alone; the docs are tried again later`;
  return "still loading; this answer is from the schema alone";
}

export function registerSearchEndpointsTool(server: McpServer, deps: ServerDeps): void {
  server.registerTool(
    "proxmox_search_endpoints",
    {
      title: "Find Proxmox API endpoints",
      description:
        'Find Proxmox VE API endpoints (the cluster\'s own version) by plain words ("snapshot a VM", "who has access to what"), a CLI command ("qm set 100 --memory 4096", "pvesh get /cluster/resources") or an API path; path_prefix alone lists the endpoints under a path. Returns ranked METHOD + path templates with one-line descriptions; refuses_api_tokens marks endpoints tokens cannot call. Then proxmox_describe_endpoint.',
      inputSchema: {
        ...hostArg(deps.hosts),
        query: z.string().trim().min(1).max(500).optional().describe("Plain words, a CLI command or an API path"),
        path_prefix: z
          .string()
          .trim()
          .min(1)
          .max(2000)
          .optional()
          .describe("Only endpoints under this path, e.g. /nodes/{node}/storage"),
        method: z.enum(HTTP_METHODS).optional().describe("Only endpoints with this HTTP method"),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_SEARCH_LIMIT)
          .optional()
          .describe("Results to return (default 10, at most 100)"),
        offset: z
          .number()
          .int()
          .min(0)
          .max(100_000)
          .optional()
          .describe("Results to skip, for the next page (default 0)"),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    withHost(deps, async (host, { query, path_prefix: prefix, method, limit, offset }, extra) => {
      const redact = host.client.redact;
      if (query === undefined && prefix === undefined) {
        return failureResult(new LocalRefusal("invalid_arguments", "Give a query, a path_prefix, or both."), redact);
      }
      try {
        // The search that loads the catalog does not wait for the docs (issue 11: the first answer is
        // not held up) unless it names a CLI tool, which the docs answer; later ones do. The grace
        // is spent once for all of them.
        const first = host.catalog?.peek() === undefined;
        const catalog = await catalogFor(host.catalog, extra.signal);
        if (query !== undefined && (!first || namesDocsTool(query))) await host.catalog?.docsAwaited?.(extra.signal);
        const start = offset ?? 0;
        const options = { method, limit: limit ?? 10, offset: start, pathPrefix: prefix };
        const page = query === undefined ? catalog.browse(prefix!, options) : catalog.search(query, options);
        const results = page.hits.map((hit) => ({
          method: hit.method,
          path: hit.path,
          description: hit.description,
          ...(hit.refusesTokens ? { refuses_api_tokens: true } : {}),
        }));
        const next = start + results.length;
        const docs = query === undefined ? undefined : docsLabel(host.catalog?.docs?.(), catalog);
        return okResult({
          source: sourceLabel(catalog.source),
          ...(docs ? { docs } : {}),
          ...(query !== undefined ? { query } : {}),
          ...(prefix !== undefined ? { path_prefix: prefix } : {}),
          ...(page.notes?.length ? { recognized: page.notes } : {}),
          total: page.total,
          results,
          ...(next < page.total ? { next_offset: next } : {}),
          ...(page.total === 0 ? { hint: query === undefined ? NOTHING_UNDER : NOTHING_FOUND } : {}),
        });
      } catch (error) {
        return catalogFailure(error, redact);
      }
    }),
  );
}
