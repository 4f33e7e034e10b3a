import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ApiCall, ApiResult } from "../proxmox/client.ts";
import { normalizeParameters } from "../proxmox/params.ts";
import type { ServerDeps } from "../server.ts";
import { failureResult, okResult } from "./result.ts";

/** The JSON envelope as Proxmox sent it, or the text body. */
export function resultPayload(result: ApiResult, redactSecret: (s: string) => string): Record<string, unknown> {
  if (result.envelope) return result.envelope;
  return { content_type: result.contentType, text: redactSecret(result.text ?? "") };
}

/** Shared body of proxmox_get and proxmox_request: validate, call, shape the result. */
export async function runApiCall(
  deps: ServerDeps,
  call: Omit<ApiCall, "params"> & { parameters: unknown },
): Promise<CallToolResult> {
  const { client } = deps;
  try {
    const params = normalizeParameters(call.parameters);
    const result = await client.call({ ...call, params });
    return okResult(resultPayload(result, client.redact));
  } catch (error) {
    return failureResult(error, client.redact);
  }
}
