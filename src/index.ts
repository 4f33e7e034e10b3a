#!/usr/bin/env bun
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { parseArguments, usage } from "./arguments.ts";
import { ConfigError, ConfigProblems, loadConfig, type Config } from "./config.ts";
import { FileAccess } from "./files/resolver.ts";
import { buildHosts, configRedactor } from "./hosts/build.ts";
import { assertRealUndici } from "./http/undici.ts";
import { stderrLogger } from "./log.ts";
import { createServer, SERVER_NAME, SERVER_VERSION } from "./server.ts";

function exitOnConfigError<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const problem of ConfigProblems.of(error))
        process.stderr.write(`proxmox-ve-mcp: configuration error: ${problem.message}\n`);
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
  const invocation = exitOnConfigError(() => parseArguments(process.argv.slice(2), process.env));
  if (invocation.kind !== "serve") {
    // Not serving MCP, so stdout is free for the answer.
    process.stdout.write(invocation.kind === "version" ? `${SERVER_VERSION}\n` : usage(SERVER_NAME, SERVER_VERSION));
    process.exit(0);
  }
  const config = exitOnConfigError(() => loadConfig(invocation.env));
  // Every host's token, removed from every log line and fatal error, before anything is built.
  const redact = configRedactor(config);
  await start(config, redact).catch((error: unknown) => fatal(error, redact));
}

async function start(config: Config, redact: (text: string) => string): Promise<void> {
  await assertRealUndici();
  const log = stderrLogger(redact);
  const hosts = exitOnConfigError(() => buildHosts(config, log));
  const files = config.files ? new FileAccess(config.files) : undefined;
  const confirmation = {
    rules: config.policy.confirm.map((rule) => rule.text),
    timeoutMs: config.policy.confirmTimeoutS * 1000,
  };
  const server = createServer({ hosts, log, files, confirmation });
  const transport = new StdioServerTransport();

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await server.close().catch(() => undefined);
    files?.removeUnfinished();
    await hosts.close();
    process.exit(0);
  };
  process.stdin.on("end", shutdown);
  process.stdin.on("close", shutdown);
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);

  await server.connect(transport);
  log.info(`connected over stdio; Proxmox at ${hosts.describe()}`);
  if (hosts.multi) void hosts.learnVersions(log);
}

main().catch((error: unknown) => fatal(error));
