// Builds the hosts from configuration, in one place: per host a client (its own agent, token
// and policy gate) and a catalog loader; the loaders share parses of identical schemas.
import { CatalogLoader } from "../catalog/loader.ts";
import { CatalogCache } from "../catalog/shared.ts";
import type { Config, HostConfig } from "../config.ts";
import { mapLogger, type Logger } from "../log.ts";
import { createPolicyGate } from "../policy/gate.ts";
import { policyForHost, protectionForHost } from "../policy/hosts.ts";
import { loadProtection } from "../policy/protected.ts";
import { ProxmoxClient } from "../proxmox/client.ts";
import { createTokensRedactor, type Redactor } from "../proxmox/redact.ts";
import { renameSettings } from "./labels.ts";
import { HostRegistry, type Host } from "./registry.ts";

/** Removes every configured host's token from text: for logs and fatal errors, built before anything else. */
export function configRedactor(config: Pick<Config, "hosts">): Redactor {
  return createTokensRedactor(config.hosts.map((host) => host.connection));
}

/** Log lines about one labelled host: prefixed with its label, naming its own settings. */
function hostLogger(log: Logger, host: HostConfig): Logger {
  return mapLogger(log, (message) => `host ${host.label}: ${renameSettings(message, host.settingNames)}`);
}

export interface BuildOptions {
  /** For tests: how files named in the policy are read. */
  readFile?: (path: string) => string;
}

/**
 * Every host of `config`, ready to use. Throws ConfigError when a policy gate cannot start
 * (an audit log that cannot be opened). Nothing is sent to any host here.
 */
export function buildHosts(config: Config, log: Logger, options: BuildOptions = {}): HostRegistry {
  const redact = configRedactor(config);
  const labels = config.hosts[0]?.label === undefined ? undefined : config.hosts.map((host) => host.label!);
  const protection = loadProtection(config.policy.protectedVmsFile, options.readFile);
  const cache = new CatalogCache();
  const hosts: Host[] = [];
  try {
    for (const host of config.hosts) hosts.push(buildHost(host));
  } catch (error) {
    void Promise.all(hosts.map((host) => host.close()));
    throw error;
  }
  return new HostRegistry(hosts, redact);

  function buildHost(host: HostConfig): Host {
    const hostLog = host.label === undefined ? log : hostLogger(log, host);
    const gate = createPolicyGate({
      policy: policyForHost(config.policy, host.label, host.readOnly),
      protection: protectionForHost(protection, host.label, labels),
      log: hostLog,
      redact,
      host: host.label,
      ...(options.readFile ? { readFile: options.readFile } : {}),
    });
    const others = config.hosts.filter((other) => other !== host).map((other) => other.connection);
    const client = new ProxmoxClient({
      connection: host.connection,
      readOnly: host.readOnly,
      gate,
      alsoRedact: others,
    });
    const catalog = new CatalogLoader({ config: host.catalog, connection: host.connection, log: hostLog, cache });
    return {
      label: host.label,
      client,
      catalog,
      readOnly: host.readOnly,
      settingNames: host.settingNames,
      close: async () => {
        await Promise.all([client.close(), catalog.close()]);
      },
    };
  }
}
