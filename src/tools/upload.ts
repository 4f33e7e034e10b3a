import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { fileTransferDisabled } from "../files/config.ts";
import { uploadFile, uploadHints } from "../files/upload.ts";
import type { ServerDeps } from "./deps.ts";
import { addTaskOutcome, failureWithAdvice, taskAwareResult } from "./api-call.ts";
import { failureResult } from "./result.ts";
import { parametersArg, waitArgs } from "./schemas.ts";

export function registerUploadTool(server: McpServer, deps: ServerDeps): void {
  server.registerTool(
    "proxmox_upload",
    {
      title: "Upload a local file to a Proxmox storage",
      description:
        "Send a local file (inside the directories the operator allowed with PROXMOX_FILE_ROOTS) to POST /nodes/{node}/storage/{storage}/upload, e.g. an ISO image or a container template. Use the node that owns the storage. parameters: content (iso, vztmpl or import; required by Proxmox), optional filename (default: the file's name), checksum-algorithm and checksum. The answer is a task id (UPID) for the copy into the storage: submitted, not finished; pass wait=true to get the copy's outcome.",
      inputSchema: {
        path: z.string().describe("Upload endpoint relative to /api2/json, e.g. /nodes/pve1/storage/local/upload"),
        file_path: z.string().describe("Absolute path of a regular file inside PROXMOX_FILE_ROOTS"),
        parameters: parametersArg,
        ...waitArgs,
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    async ({ path, file_path, parameters, wait, wait_timeout_s }, extra) => {
      const { client, files } = deps;
      if (!files) return failureResult(fileTransferDisabled(), client.redact);
      try {
        const payload = await uploadFile(client, files, {
          path,
          filePath: file_path,
          parameters,
          signal: extra.signal,
        });
        return taskAwareResult(
          await addTaskOutcome(deps, client, payload, { wait, wait_timeout_s }, "proxmox_upload", extra.signal),
        );
      } catch (error) {
        return failureWithAdvice(deps, error, { method: "POST", path, signal: extra.signal }, uploadHints(error));
      }
    },
  );
}
