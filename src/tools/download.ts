import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { fileTransferDisabled } from "../files/config.ts";
import { downloadToFile } from "../files/download.ts";
import type { ServerDeps } from "./deps.ts";
import { failureWithAdvice } from "./api-call.ts";
import { hostArg, withHost } from "./host.ts";
import { progressFor } from "./progress.ts";
import { failureResult, okResult } from "./result.ts";
import { parametersArg, pathArg } from "./schemas.ts";

export function registerDownloadTool(server: McpServer, deps: ServerDeps): void {
  // Over HTTP the client is elsewhere: say whose disk the file lands on.
  const remote = deps.transport === "http";
  server.registerTool(
    "proxmox_download",
    {
      title: remote ? "Save a Proxmox API answer to a file on the server" : "Save a Proxmox API answer to a local file",
      description: `GET any Proxmox VE API path and write the answer, whatever its size or type, to a new ${remote ? "file on the machine running this server (not the client's)" : "local file"} inside PROXMOX_FILE_ROOTS: a task log (parameters {"download": 1}), a file-restore download, an RRD graph, the node journal, or a JSON answer too large to return. Never overwrites: the file must not exist, its directory must. Returns the path, bytes written, content type and sha256.`,
      inputSchema: {
        ...hostArg(deps.hosts),
        path: pathArg,
        parameters: parametersArg,
        destination: z
          .string()
          .describe("Absolute path of the new file, in an existing directory inside PROXMOX_FILE_ROOTS"),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    withHost(deps, async (host, { path, parameters, destination }, extra) => {
      const { files } = deps;
      const { client } = host;
      if (!files) return failureResult(fileTransferDisabled(), client.redact);
      try {
        const progress = progressFor(extra);
        const saved = await downloadToFile(client, files, {
          path,
          parameters,
          destination,
          signal: extra.signal,
          onProgress: progress && ((bytes, total) => progress.update(bytes, total)),
        });
        const bytes = Number(saved.bytes_written ?? 0);
        await progress?.finish(bytes, saved.length_verified ? bytes : undefined, `${bytes} bytes written`);
        return okResult(saved);
      } catch (error) {
        return failureWithAdvice(host, error, { method: "GET", path, signal: extra.signal });
      }
    }),
  );
}
