// PROXMOX_CONFIRM through MCP elicitation: the person at the client, not the model, says yes.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  ElicitResultSchema,
  type ElicitRequestFormParams,
  ErrorCode,
  McpError,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { redactParams } from "../policy/audit.ts";
import { guestsTouched } from "../policy/guests.ts";
import type { ConfirmationAnswer, ConfirmationRequest, Confirm } from "../proxmox/confirm.ts";
import type { ProxmoxClient } from "../proxmox/client.ts";
import { scalarTexts, type ParamValue } from "../proxmox/params.ts";
import type { Host } from "../hosts/registry.ts";
import type { ServerDeps } from "./deps.ts";

/** How long the guest details for the summary may take before it is shown without them. */
const GUEST_LOOKUP_MS = 3000;

export interface GuestResource {
  vmid: number;
  name?: string;
  type?: string;
  node?: string;
  status?: string;
}

/** The part of a tool handler's `extra` a confirmation needs. */
export type ConfirmContext = Pick<RequestHandlerExtra<ServerRequest, ServerNotification>, "sendRequest">;

/** Control, invisible-format (bidi overrides) and line-separator characters. */
const UNSAFE_CHARACTERS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * Text from the request or the cluster as shown to the person: those characters escaped, so a
 * value can neither add lines to the question (a fake "Affects nothing" or "Send this request?")
 * nor reorder what is shown.
 */
function shown(text: string): string {
  return text.replace(UNSAFE_CHARACTERS, (c) =>
    c === "\n" ? "\\n" : `\\u{${c.codePointAt(0)!.toString(16).padStart(4, "0")}}`,
  );
}

/** The plain-language text a person is asked to confirm. Pure. */
export function confirmationMessage(
  request: ConfirmationRequest,
  guests: readonly GuestResource[],
  hostLabel?: string,
): string {
  const params = Object.entries(redactParams(request.params as Record<string, ParamValue>, request.path)).map(
    ([name, value]) => shown(`${name}=${scalarTexts(value).join(",")}`),
  );
  const lines = [
    `An AI assistant asks to change Proxmox VE. The operator's rule '${request.rule}' (PROXMOX_CONFIRM) requires your confirmation.`,
    `${request.method} ${request.path}${hostLabel ? ` on host ${hostLabel}` : ""}`,
  ];
  if (request.upload) lines.push(`Upload: ${shown(request.upload.fileName)} (${request.upload.bytes} bytes)`);
  lines.push(params.length ? `Parameters: ${params.join(" ")}` : "Parameters: none");
  for (const guest of guests) {
    const kind = guest.type === "lxc" ? "container" : guest.type === "qemu" ? "VM" : "guest";
    lines.push(
      shown(
        `Affects ${kind} ${guest.vmid}${guest.name ? ` (${guest.name})` : ""}${guest.node ? ` on node ${guest.node}` : ""}${guest.status ? `, now ${guest.status}` : ""}.`,
      ),
    );
  }
  lines.push("Send this request?");
  return lines.join("\n");
}

/** The guests a write names, with their name, type, node and status from /cluster/resources. */
async function guestDetails(client: ProxmoxClient, request: ConfirmationRequest, signal?: AbortSignal) {
  const ids = [
    ...new Set(guestsTouched(request.path, request.params as Record<string, ParamValue>).guests.map((g) => g.vmid)),
  ];
  if (ids.length === 0) return [];
  try {
    const budget = AbortSignal.timeout(GUEST_LOOKUP_MS);
    const data = await client.getData(
      "/cluster/resources",
      { type: "vm" },
      signal ? AbortSignal.any([signal, budget]) : budget,
      "confirmation",
    );
    const known = new Map(
      (Array.isArray(data) ? (data as GuestResource[]) : []).map((resource) => [Number(resource.vmid), resource]),
    );
    return ids.map((vmid) => known.get(vmid) ?? { vmid });
  } catch {
    return ids.map((vmid) => ({ vmid }));
  }
}

export const CONFIRM_SCHEMA: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: {
    confirm: { type: "boolean", title: "Send this request", description: "Yes sends it to Proxmox; no refuses it" },
  },
  required: ["confirm"],
};

/**
 * The Confirm for one tool call: asks through elicitation/create, tied to the call, within
 * PROXMOX_CONFIRM_TIMEOUT_S. A client without the elicitation capability cannot be asked.
 */
export function confirmFor(server: McpServer, deps: ServerDeps, host: Host, extra: ConfirmContext): Confirm {
  return async (request, signal): Promise<ConfirmationAnswer> => {
    if (!server.server.getClientCapabilities()?.elicitation) return "unavailable";
    const guests = await guestDetails(host.client, request, signal);
    const message = host.client.redact(confirmationMessage(request, guests, host.label));
    try {
      const result = await extra.sendRequest(
        { method: "elicitation/create", params: { message, requestedSchema: CONFIRM_SCHEMA } },
        ElicitResultSchema,
        { timeout: deps.confirmation?.timeoutMs ?? 120_000, ...(signal ? { signal } : {}) },
      );
      if (result.action === "accept") return result.content?.confirm === true ? "accept" : "decline";
      return result.action;
    } catch (error) {
      if (signal?.aborted) throw error;
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return "timeout";
      // the client claimed the capability but could not ask: fail closed
      return "unavailable";
    }
  };
}
