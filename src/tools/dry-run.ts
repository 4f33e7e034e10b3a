import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { prepareForCatalog } from "../advice/parameters.ts";
import { checkParameters } from "../advice/schema-check.ts";
import type { Catalog } from "../catalog/catalog.ts";
import { describePermissions } from "../catalog/describe.ts";
import type { ApiCall, CallPreview } from "../proxmox/client.ts";
import { LocalRefusal } from "../proxmox/errors.ts";
import { normalizeParameters, type Params } from "../proxmox/params.ts";
import type { FileAccess } from "../files/resolver.ts";
import { previewUpload, type UploadPreview, type UploadRequest } from "../files/upload.ts";
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
  const found = catalog.lookup(method, path);
  if (!found) return `not checked: the catalog has no ${method} ${path}`;
  const { endpoint, match } = found;
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

/** A dry run that stopped at a local refusal before anything could be previewed. */
function refusedReport(error: LocalRefusal): CallToolResult {
  return okResult({
    dry_run: true,
    would_send: false,
    policy: { verdict: "refused", code: error.code, reason: error.message },
    note: DRY_RUN_NOTE,
  });
}

/** The report of a previewed call: what would go out, the policy's verdict, the schema's findings. */
function report(
  preview: CallPreview,
  request: Record<string, unknown>,
  schema: ReturnType<typeof schemaFindings>,
  extra: Record<string, unknown> = {},
): CallToolResult {
  return okResult({
    dry_run: true,
    would_send: preview.refusal === undefined,
    request,
    ...extra,
    policy: policyVerdict(preview),
    schema,
    note: DRY_RUN_NOTE,
  });
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
    if (error instanceof LocalRefusal) return refusedReport(error);
    return failureResult(error, host.client.redact);
  }
  const request = {
    method: preview.method,
    url: host.client.redact(preview.url),
    ...(preview.body !== undefined ? { form: preview.body } : {}),
  };
  return report(preview, request, schemaFindings(catalog, preview.method, preview.path, params));
}

/**
 * proxmox_upload with dry_run: the path, parameter and file checks of a real upload (the file
 * is opened, never read), the multipart fields and size that would go out, and the verdicts.
 */
export async function dryRunUpload(host: Host, files: FileAccess, request: UploadRequest): Promise<CallToolResult> {
  let found: UploadPreview;
  try {
    found = await previewUpload(host.client, files, request);
  } catch (error) {
    if (error instanceof LocalRefusal) return refusedReport(error);
    return failureResult(error, host.client.redact);
  }
  const { preview, multipart, query, file } = found;
  const sent = {
    method: "POST",
    url: host.client.redact(preview.url),
    multipart,
    ...(Object.keys(query).length ? { query } : {}),
    file,
  };
  return report(preview, sent, schemaFindings(host.catalog?.peek(), "POST", preview.path, { ...multipart, ...query }), {
    stored_name: found.stored_name,
    ...(found.volid ? { volid: found.volid } : {}),
  });
}
