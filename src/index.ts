#!/usr/bin/env bun
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ConfigError, loadConfig } from "./config.ts";
import { assertRealUndici } from "./http/undici.ts";
import { stderrLogger } from "./log.ts";
import { ProxmoxClient } from "./proxmox/client.ts";
import { createServer } from "./server.ts";

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`proxmox-ve-mcp: configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  await assertRealUndici();

  const client = new ProxmoxClient({ connection: config.connection });
  const log = stderrLogger(client.redact);
  const server = createServer({ client, readOnly: false, log });
  const transport = new StdioServerTransport();

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await server.close().catch(() => undefined);
    await client.close();
    process.exit(0);
  };
  process.stdin.on("end", shutdown);
  process.stdin.on("close", shutdown);
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);

  await server.connect(transport);
  log.info(`connected over stdio; Proxmox at ${config.connection.origin}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`proxmox-ve-mcp: fatal: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
