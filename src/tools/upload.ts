import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { fileTransferDisabled } from "../files/config.ts";
import { uploadFile, uploadHints } from "../files/upload.ts";
import type { ServerDeps } from "./deps.ts";
import { addTaskOutcome, failureWithAdvice, taskAwareResult } from "./api-call.ts";
import { confirmFor } from "./confirm.ts";
import { hostArg, withHost } from "./host.ts";
import { progressFor } from "./progress.ts";
import { failureResult } from "./result.ts";
import { parametersArg, waitArgs } from "./schemas.ts";

export function registerUploadTool(server: McpServer, deps: ServerDeps): void {
  // Over HTTP the client is elsewhere: say whose disk the file comes from.
  const remote = deps.transport === "http";
  server.registerTool(
    "proxmox_upload",
    {
      title: remote
        ? "Upload a file from the server's machine to a Proxmox storage"
        : "Upload a local file to a Proxmox storage",
      description: `Send a ${remote ? "file on the machine running this server (not the client's)" : "local file"} (inside the directories the operator allowed with PROXMOX_FILE_ROOTS) to POST /nodes/{node}/storage/{storage}/upload, e.g. an ISO image or a container template. Use the node that owns the storage. parameters: content (iso, vztmpl or import; required by Proxmox), optional filename (default: the file's name), checksum-algorithm and checksum. The answer is a task id (UPID) for the copy into the storage: submitted, not finished; pass wait=true to get the copy's outcome.`,
      inputSchema: {
        ...hostArg(deps.hosts, true),
        path: z.string().describe("Upload endpoint relative to /api2/json, e.g. /nodes/pve1/storage/local/upload"),
        file_path: z.string().describe("Absolute path of a regular file inside PROXMOX_FILE_ROOTS"),
        parameters: parametersArg,
        ...waitArgs,
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    withHost(deps, async (host, { path, file_path, parameters, wait, wait_timeout_s }, extra) => {
      const { files } = deps;
      const { client } = host;
      if (!files) return failureResult(fileTransferDisabled(), client.redact);
      try {
        const payload = await uploadFile(client, files, {
          path,
          filePath: file_path,
          parameters,
          signal: extra.signal,
          confirm: confirmFor(server, deps, host, extra),
          caller: deps.caller,
        });
        return taskAwareResult(
          await addTaskOutcome(
            deps,
            client,
            payload,
            { wait, wait_timeout_s, progress: progressFor(extra) },
            "proxmox_upload",
            extra.signal,
          ),
        );
      } catch (error) {
        return failureWithAdvice(host, error, { method: "POST", path, signal: extra.signal }, uploadHints(error));
      }
    }),
  );
}
