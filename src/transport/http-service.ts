// HTTP mode as a process: settings read and checked before anything starts, the startup line,
// and SIGTERM/SIGINT draining. The entry point builds the shared deps and hands them over.
import type { Logger } from "../log.ts";
import type { Env } from "../settings.ts";
import type { ServerDeps } from "../tools/deps.ts";
import { readTokensFile, type ClientToken } from "./auth.ts";
import { startHttpServer } from "./http.ts";
import { isLoopbackAddress, loadHttpConfig, tlsKeyWarning, type HttpConfig } from "./http-config.ts";

export interface HttpSettings {
  config: HttpConfig;
  tokens: ClientToken[];
}

/** Everything HTTP mode needs from the environment; throws ConfigError, so call it before starting anything. */
export function loadHttpSettings(env: Env): HttpSettings {
  const config = loadHttpConfig(env);
  return { config, tokens: readTokensFile(config.tokensFile) };
}

export interface HttpServiceOptions {
  settings: HttpSettings;
  /** Shared by every session. */
  deps: ServerDeps;
  log: Logger;
  /** What the sessions reach, for the startup line, e.g. "Proxmox at https://pve1:8006". */
  upstream: string;
  /** Releases what the sessions shared (unfinished downloads, connections, the catalog). */
  closeShared(): Promise<void>;
}

function transportNote(config: HttpConfig): string {
  if (config.tls) return "TLS";
  if (isLoopbackAddress(config.listen.host)) return "plain HTTP, loopback only";
  return "WITHOUT TLS (PROXMOX_MCP_ALLOW_PLAIN_HTTP=true): tokens and answers cross the network in clear text unless a TLS-terminating proxy is in front";
}

export function serveHttp(options: HttpServiceOptions): void {
  const { settings, deps, log } = options;
  const { config, tokens } = settings;
  const keyWarning = tlsKeyWarning(config.tls);
  if (keyWarning) log.warn(keyWarning);
  const http = startHttpServer({ config, tokens, deps, log });
  const readOnly = tokens.filter((t) => t.readOnly).length;
  log.info(
    `listening on ${http.url.href} (${transportNote(config)}); ${tokens.length} client token${tokens.length === 1 ? "" : "s"}${readOnly ? ` (${readOnly} read-only)` : ""}; ${options.upstream}`,
  );
  log.info(
    `accepted Host and Origin names: ${config.allowedHosts.map((h) => h.name + (h.port ? `:${h.port}` : "")).join(", ")}`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log.warn(`${signal} again: stopping now`);
      await http.close();
      await options.closeShared();
      process.exit(1);
    }
    stopping = true;
    const inFlight = http.sessions.inFlightCount();
    log.info(
      `${signal}: draining: no new requests; ${inFlight} call${inFlight === 1 ? "" : "s"} in flight get up to ${config.limits.drainMs / 1000} s`,
    );
    try {
      if (!(await http.drain())) log.warn("calls still running after the drain time were cancelled");
    } finally {
      await options.closeShared();
      log.info("stopped");
      process.exit(0);
    }
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}
