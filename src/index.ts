#!/usr/bin/env bun
import { CatalogLoader } from "./catalog/loader.ts";
import { ConfigError, loadConfig, type Config } from "./config.ts";
import { FileAccess } from "./files/resolver.ts";
import { assertRealUndici } from "./http/undici.ts";
import { stderrLogger } from "./log.ts";
import { createPolicyGate } from "./policy/gate.ts";
import { ProxmoxClient } from "./proxmox/client.ts";
import { createRedactor } from "./proxmox/redact.ts";
import { createServer } from "./server.ts";
import { StdioTransport } from "./transport/stdio.ts";

function exitOnConfigError<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`proxmox-ve-mcp: configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

function fatal(error: unknown, redact: (text: string) => string = (text) => text): never {
  process.stderr.write(`proxmox-ve-mcp: fatal: ${redact(error instanceof Error ? error.message : String(error))}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const config = exitOnConfigError(() => loadConfig(process.env));
  // The client's own redactor, built before the client because the gate it receives needs it.
  const redact = createRedactor(config.connection.tokenId, config.connection.tokenSecret);
  await start(config, redact).catch((error: unknown) => fatal(error, redact));
}

async function start(config: Config, redact: (text: string) => string): Promise<void> {
  await assertRealUndici();
  const log = stderrLogger(redact);
  const readOnly = config.policy.readOnly;
  const gate = exitOnConfigError(() => createPolicyGate({ policy: config.policy, log, redact }));
  const client = new ProxmoxClient({ connection: config.connection, readOnly, gate });
  const files = config.files ? new FileAccess(config.files) : undefined;
  const catalog = new CatalogLoader({ config: config.catalog, connection: config.connection, log });
  const server = createServer({ client, readOnly, log, files, catalog });
  const transport = new StdioTransport({ log });

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await server.close().catch(() => undefined);
    files?.removeUnfinished();
    await client.close();
    await catalog.close();
    process.exit(0);
  };
  process.stdin.on("end", shutdown);
  process.stdin.on("close", shutdown);
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);

  await server.connect(transport);
  log.info(`connected over stdio; Proxmox at ${config.connection.origin}`);
}

main().catch((error: unknown) => fatal(error));
