import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { prepareForCatalog } from "../advice/parameters.ts";
import { checkParameters } from "../advice/schema-check.ts";
import type { Catalog } from "../catalog/catalog.ts";
import { describePermissions } from "../catalog/describe.ts";
import type { ApiCall, CallPreview } from "../proxmox/client.ts";
import { LocalRefusal } from "../proxmox/errors.ts";
import { normalizeParameters, type Params } from "../proxmox/params.ts";
import type { Host } from "../hosts/registry.ts";
import { failureResult, okResult } from "./result.ts";

export const DRY_RUN_NOTE = "Dry run: nothing was sent to Proxmox.";

/** The policy's verdict on a previewed call, as the model reads it. */
export function policyVerdict(
  preview: Pick<CallPreview, "refusal" | "deferred" | "confirmation">,
): Record<string, unknown> {
  if (preview.refusal) {
    return { verdict: "refused", code: preview.refusal.code, reason: preview.refusal.message };
  }
  return {
    verdict: preview.confirmation ? "needs_confirmation" : "allowed",
    ...(preview.confirmation
      ? { confirmation: `a person must confirm it in the client (rule '${preview.confirmation}' in PROXMOX_CONFIRM)` }
      : {}),
    ...(preview.deferred.length ? { checked_when_sent: preview.deferred } : {}),
  };
}

/** The endpoint's schema against the parameters, when the catalog is loaded. */
export function schemaFindings(
  catalog: Catalog | undefined,
  method: string,
  path: string,
  params: Params,
): Record<string, unknown> | string {
  if (!catalog) {
    return "not checked: the API catalog is not loaded yet (a proxmox_search_endpoints or proxmox_describe_endpoint call loads it)";
  }
  const match = catalog.match(path);
  const endpoint = match ? catalog.endpoint(method, match.template) : undefined;
  if (!match || !endpoint) return `not checked: the catalog has no ${method} ${path}`;
  const permissions = describePermissions(endpoint.permissions);
  return {
    endpoint: `${endpoint.method} ${endpoint.path}`,
    problems: [
      ...checkParameters(endpoint.parameters, params, match.params),
      ...(endpoint.allowtoken ? [] : ["this endpoint refuses API tokens (allowtoken 0): the call would fail with 403"]),
    ],
    ...(permissions?.check ? { privilege: permissions.check } : {}),
  };
}

/**
 * proxmox_request with dry_run: every local check, and exactly what would be sent, without
 * sending anything (no catalog load either: the catalog is used only when already loaded).
 */
export function dryRunRequest(host: Host, call: Omit<ApiCall, "params"> & { parameters: unknown }): CallToolResult {
  const catalog = host.catalog?.peek();
  let params: Params;
  let preview: CallPreview;
  try {
    params = prepareForCatalog(catalog, call.method, call.path, normalizeParameters(call.parameters)).params;
    preview = host.client.preview({ ...call, params });
  } catch (error) {
    if (!(error instanceof LocalRefusal)) return failureResult(error, host.client.redact);
    return okResult({
      dry_run: true,
      would_send: false,
      policy: { verdict: "refused", code: error.code, reason: error.message },
      note: DRY_RUN_NOTE,
    });
  }
  return okResult({
    dry_run: true,
    would_send: preview.refusal === undefined,
    request: {
      method: preview.method,
      url: host.client.redact(preview.url),
      ...(preview.body !== undefined ? { form: preview.body } : {}),
    },
    policy: policyVerdict(preview),
    schema: schemaFindings(catalog, preview.method, preview.path, params),
    note: DRY_RUN_NOTE,
  });
}
