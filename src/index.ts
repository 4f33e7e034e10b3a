#!/usr/bin/env bun
import { parseArguments, usage } from "./arguments.ts";
import { ConfigError, ConfigProblems, loadConfig, type Config } from "./config.ts";
import { FileAccess } from "./files/resolver.ts";
import { buildHosts, configRedactor } from "./hosts/build.ts";
import { stderrLogger } from "./log.ts";
import { createServer, SERVER_NAME, SERVER_VERSION } from "./server.ts";
import { transportMode } from "./transport/http-config.ts";
import { loadHttpSettings, serveHttp, type HttpSettings } from "./transport/http-service.ts";
import { StdioTransport } from "./transport/stdio.ts";

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
  const { env } = invocation;
  const config = exitOnConfigError(() => loadConfig(env));
  const http = exitOnConfigError(() => (transportMode(env) === "http" ? loadHttpSettings(env) : undefined));
  // Every host's token, removed from every log line and fatal error, before anything is built.
  const redact = configRedactor(config);
  await start(config, redact, http).catch((error: unknown) => fatal(error, redact));
}

async function start(config: Config, redact: (text: string) => string, http?: HttpSettings): Promise<void> {
  const log = stderrLogger(redact);
  const hosts = exitOnConfigError(() => buildHosts(config, log));
  const files = config.files ? new FileAccess(config.files) : undefined;
  const confirmation = {
    rules: config.policy.confirm.map((rule) => rule.text),
    timeoutMs: config.policy.confirmTimeoutS * 1000,
  };
  const deps = { hosts, log, files, confirmation };
  const closeShared = async () => {
    files?.removeUnfinished();
    await hosts.close();
  };
  if (hosts.multi) void hosts.learnVersions(log);
  if (http) {
    return serveHttp({ settings: http, deps, log, upstream: `Proxmox at ${hosts.describe()}`, closeShared });
  }
  const server = createServer(deps);
  const transport = new StdioTransport({ log });

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await server.close().catch(() => undefined);
    await closeShared();
    process.exit(0);
  };
  process.stdin.on("end", shutdown);
  process.stdin.on("close", shutdown);
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);

  await server.connect(transport);
  log.info(`connected over stdio; Proxmox at ${hosts.describe()}`);
}

main().catch((error: unknown) => fatal(error));
