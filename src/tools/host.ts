// The `host` parameter of every tool with several hosts, and the one place a call's host is
// resolved and its result labelled. In single-host mode neither the parameter nor the label exists.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { renameSettings } from "../hosts/labels.ts";
import type { Host, HostRegistry } from "../hosts/registry.ts";
import { redactDeep } from "../proxmox/redact.ts";
import type { ServerDeps } from "./deps.ts";
import { failureResult, okResult } from "./result.ts";

export type HostShape = { host?: z.ZodType<string> };

/**
 * `host`: a required enum of the labels (for a writing tool, of the labels that accept writes),
 * so the model sees the valid values in the tool list. Nothing in single-host mode.
 */
export function hostArg(hosts: HostRegistry, writing = false): HostShape {
  if (!hosts.multi) return {};
  const labels = writing ? hosts.writableLabels : hosts.labels;
  const expected = `host must be one of: ${labels.join(", ")}`;
  return { host: z.enum(labels as [string, ...string[]], { error: expected }).describe("Label of the host") };
}

/**
 * A tool handler that runs on the host the call names: resolves `host` (refusing an unknown one
 * with the list of labels), and with several hosts says in the result which host it came from.
 */
export function withHost<Args extends { host?: string | undefined }, Extra>(
  deps: ServerDeps,
  handler: (host: Host, args: Args, extra: Extra) => Promise<CallToolResult>,
): (args: Args, extra: Extra) => Promise<CallToolResult> {
  return async (args, extra) => {
    let host: Host;
    try {
      host = deps.hosts.resolve(args.host);
    } catch (error) {
      return failureResult(error, deps.hosts.redact);
    }
    const result = await handler(host, args, extra);
    return host.label === undefined ? result : labelResult(result, host);
  };
}

/**
 * Adds `host` to a result (already redacted of every host's token by the host's client) and,
 * in a failure, names the host's own settings (PROXMOX_<LABEL>_CA_FILE) for the single-host ones.
 */
function labelResult(result: CallToolResult, host: Host): CallToolResult {
  const label = host.label!;
  const structured = result.structuredContent;
  if (!result.isError && structured) return okResult({ host: label, ...structured });
  const rename = (text: string) => renameSettings(text, host.settingNames);
  const error = (structured as { error?: Record<string, unknown> } | undefined)?.error;
  return {
    ...result,
    content: result.content.map((item) =>
      item.type === "text" ? { ...item, text: `Host ${label}: ${rename(item.text)}` } : item,
    ),
    ...(error ? { structuredContent: { error: redactDeep({ host: label, ...error }, rename) } } : {}),
  };
}
