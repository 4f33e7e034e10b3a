import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { fileTransferDisabled } from "../files/config.ts";
import { checksumSupport, type ChecksumSupport } from "../files/checksum.ts";
import { uploadFile, uploadHints } from "../files/upload.ts";
import type { Host } from "../hosts/registry.ts";
import { within } from "../http/deadline.ts";
import type { ServerDeps } from "./deps.ts";
import { addTaskOutcome, failureWithAdvice, taskAwareResult } from "./api-call.ts";
import { confirmFor } from "./confirm.ts";
import { hostArg, withHost } from "./host.ts";
import { progressFor } from "./progress.ts";
import { failureResult } from "./result.ts";
import { dryRunUpload } from "./dry-run.ts";
import { dryRunArg, parametersArg, waitArgs } from "./schemas.ts";

/** How long an upload waits for a first catalog load to learn whether the endpoint takes a checksum. */
export const CATALOG_WAIT_MS = 5000;

/**
 * The catalog's answer: already loaded, or loaded within CATALOG_WAIT_MS (the file is hashed
 * meanwhile, and the load serves later calls too); otherwise unknown, and no default checksum.
 */
async function catalogChecksumSupport(host: Host, signal?: AbortSignal): Promise<ChecksumSupport> {
  const provider = host.catalog;
  if (!provider) return "unknown";
  const loaded = provider.peek();
  if (loaded) return checksumSupport(loaded);
  return checksumSupport(
    await within(
      provider.get(signal).catch(() => undefined),
      CATALOG_WAIT_MS,
    ),
  );
}

export function registerUploadTool(server: McpServer, deps: ServerDeps): void {
  // Over HTTP the client is elsewhere: say whose disk the file comes from.
  const remote = deps.transport === "http";
  server.registerTool(
    "proxmox_upload",
    {
      title: remote
        ? "Upload a file from the server's machine to a Proxmox storage"
        : "Upload a local file to a Proxmox storage",
      description: `Send a ${remote ? "file on the machine running this server (not the client's)" : "local file"} to POST /nodes/{node}/storage/{storage}/upload (the node that owns the storage), e.g. an ISO or container template. parameters: content (iso, vztmpl or import; required), optional filename (default: the file's name; Proxmox turns characters outside A-Za-z0-9_.- into _), checksum-algorithm and checksum (default: sha256 computed here). Returns the volid and the copy task's UPID: submitted, not finished; wait=true waits for it.`,
      inputSchema: {
        ...hostArg(deps.hosts, true),
        path: z.string().describe("Upload endpoint relative to /api2/json, e.g. /nodes/pve1/storage/local/upload"),
        file_path: z.string().describe("Absolute path of a regular file inside PROXMOX_FILE_ROOTS"),
        parameters: parametersArg,
        ...waitArgs,
        dry_run: dryRunArg,
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    withHost(deps, async (host, { path, file_path, parameters, wait, wait_timeout_s, dry_run }, extra) => {
      const { files } = deps;
      const { client } = host;
      if (!files) return failureResult(fileTransferDisabled(), client.redact);
      if (dry_run) return dryRunUpload(host, files, { path, filePath: file_path, parameters, caller: deps.caller });
      const progress = progressFor(extra);
      try {
        const payload = await uploadFile(
          client,
          files,
          {
            path,
            filePath: file_path,
            parameters,
            signal: extra.signal,
            confirm: confirmFor(server, deps, host, extra),
            caller: deps.caller,
            onProgress: progress && ((bytes, total) => progress.update(bytes, total)),
          },
          { checksumSupport: (signal) => catalogChecksumSupport(host, signal) },
        );
        const sent = Number(payload.bytes_sent ?? 0);
        await progress?.finish(sent, sent, `${sent} bytes sent`);
        return taskAwareResult(
          await addTaskOutcome(
            deps,
            client,
            payload,
            // the copy into the storage counts on from the bytes sent, in seconds waited
            { wait, wait_timeout_s, progress: progress?.after(sent) },
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
