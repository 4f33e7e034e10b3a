import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { CatalogSource } from "../catalog/catalog.ts";
import { CatalogUnavailableError, type CatalogProvider } from "../catalog/loader.ts";
import type { Redactor } from "../proxmox/redact.ts";
import { errorResult, failureResult } from "./result.ts";

/** "cluster https://node:8006/pve-docs/api-viewer/apidoc.js", as results name their source. */
export function sourceLabel(source: CatalogSource): string {
  return `${source.kind} ${source.location}`;
}

const UNAVAILABLE_HINT =
  "proxmox_get and proxmox_request still work without the catalog. To fix it: make sure the node serves /pve-docs/api-viewer/apidoc.js (package pve-docs), allow outbound https to pve.proxmox.com, or set PROXMOX_SCHEMA_URL to an https URL or a local copy of apidoc.js.";

/** The result of a catalog tool whose catalog could not be had. */
export function catalogFailure(error: unknown, redact: Redactor): CallToolResult {
  if (error instanceof CatalogUnavailableError) {
    return errorResult(
      {
        code: error.cancelled ? "cancelled" : "catalog_unavailable",
        message: error.message,
        tried: error.attempts.map((a) => ({ source: a.source.kind, location: a.source.location, outcome: a.outcome })),
        ...(error.cancelled ? {} : { hints: [UNAVAILABLE_HINT] }),
      },
      redact,
    );
  }
  return failureResult(error, redact);
}

/** The provider, or a failure naming why there is none. */
export async function catalogFor(provider: CatalogProvider | undefined, signal: AbortSignal) {
  if (!provider) throw new CatalogUnavailableError([], false);
  return provider.get(signal);
}
