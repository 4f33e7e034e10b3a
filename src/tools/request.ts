import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { HTTP_METHODS } from "../proxmox/client.ts";
import type { ServerDeps } from "./deps.ts";
import { runApiCall } from "./api-call.ts";
import { confirmFor } from "./confirm.ts";
import { dryRunRequest } from "./dry-run.ts";
import { hostArg, withHost } from "./host.ts";
import { progressFor } from "./progress.ts";
import { dryRunArg, parametersArg, pathArg, waitArgs } from "./schemas.ts";

export function registerRequestTool(server: McpServer, deps: ServerDeps): void {
  server.registerTool(
    "proxmox_request",
    {
      title: "Call the Proxmox API (may change the cluster)",
      description:
        "Send GET, POST, PUT or DELETE to any Proxmox VE API path (under /api2/json); POST/PUT parameters are form-encoded, GET/DELETE ones go in the query string. Writes usually return a task id (UPID): submitted, not finished; wait=true returns the outcome. Check parameters with proxmox_describe_endpoint first.",
      inputSchema: {
        ...hostArg(deps.hosts, true),
        method: z.enum(HTTP_METHODS).describe("HTTP method"),
        path: pathArg,
        parameters: parametersArg,
        response_format: z
          .enum(["json", "text"])
          .optional()
          .describe("'text' returns the body as text (a task log with download=1); default 'json', the envelope"),
        ...waitArgs,
        dry_run: dryRunArg,
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    withHost(deps, async (host, { method, path, parameters, response_format, wait, wait_timeout_s, dry_run }, extra) =>
      dry_run
        ? dryRunRequest(host, { tool: "proxmox_request", method, path, parameters })
        : runApiCall(
            deps,
            host,
            {
              tool: "proxmox_request",
              method,
              path,
              parameters,
              responseFormat: response_format ?? "json",
              signal: extra.signal,
              confirm: confirmFor(server, deps, host, extra),
            },
            { wait, wait_timeout_s, progress: progressFor(extra) },
          ),
    ),
  );
}
