// "A host" as the tools see it, and the registry of all of them. Single-host mode is the same
// registry holding one unlabelled host, so every tool goes through one code path.
import type { CatalogProvider } from "../catalog/loader.ts";
import type { Logger } from "../log.ts";
import type { ProxmoxClient } from "../proxmox/client.ts";
import { LocalRefusal } from "../proxmox/errors.ts";
import type { Redactor } from "../proxmox/redact.ts";

export interface Host {
  /** The PROXMOX_HOSTS label; undefined for the one host of single-host mode. */
  readonly label: string | undefined;
  /** Its connection, token and TLS settings, with the host's policy gate inside. */
  readonly client: ProxmoxClient;
  /** Its own API catalog, loaded from the host on first use; undefined: the catalog tools say so. */
  readonly catalog: CatalogProvider | undefined;
  /** No write reaches this host (its client refuses them; the writing tools do not offer it). */
  readonly readOnly: boolean;
  /** Single-host setting names as this host spells them (PROXMOX_CA_FILE -> its own), for messages. */
  readonly settingNames: ReadonlyMap<string, string>;
  /** Releases its connections. */
  close(): Promise<void>;
}

/** What the instructions say about a host. */
export interface HostSummary {
  label: string;
  readOnly: boolean;
  /** Proxmox VE version, once known. */
  version?: string | undefined;
}

export class HostRegistry {
  /** Several labelled hosts (PROXMOX_HOSTS): every tool takes `host`. */
  readonly multi: boolean;
  private readonly byLabel = new Map<string, Host>();
  private readonly versions = new Map<string, string>();

  constructor(
    readonly hosts: readonly Host[],
    /** Removes every host's token, in every form, from any output. */
    readonly redact: Redactor,
  ) {
    if (hosts.length === 0) throw new Error("a host registry needs at least one host");
    this.multi = hosts[0]!.label !== undefined;
    for (const host of hosts) {
      if ((host.label !== undefined) !== this.multi || (!this.multi && hosts.length > 1))
        throw new Error("a host registry holds one unlabelled host or only labelled ones");
      if (host.label !== undefined) {
        if (this.byLabel.has(host.label)) throw new Error(`host label ${host.label} is used twice`);
        this.byLabel.set(host.label, host);
      }
    }
  }

  /** Single-host mode around a client built elsewhere (tests, embedding). */
  static single(parts: {
    client: ProxmoxClient;
    catalog?: CatalogProvider | undefined;
    readOnly?: boolean;
  }): HostRegistry {
    const { client } = parts;
    const host: Host = {
      label: undefined,
      client,
      catalog: parts.catalog,
      readOnly: parts.readOnly ?? client.readOnly,
      settingNames: new Map(),
      close: () => client.close(),
    };
    return new HostRegistry([host], client.redact);
  }

  /** The labels in configuration order (empty in single-host mode). */
  get labels(): string[] {
    return [...this.byLabel.keys()];
  }

  /** Labels of the hosts that accept writes. */
  get writableLabels(): string[] {
    return this.hosts.filter((host) => !host.readOnly && host.label !== undefined).map((host) => host.label!);
  }

  /** Whether any host accepts writes: otherwise the writing tools are not registered. */
  get anyWritable(): boolean {
    return this.hosts.some((host) => !host.readOnly);
  }

  /**
   * The host a tool call names. Single-host mode ignores the label (the parameter does not
   * exist there); with several hosts a missing or unknown label is refused, listing the labels.
   */
  resolve(label: string | undefined): Host {
    if (!this.multi) return this.hosts[0]!;
    const host = label === undefined ? undefined : this.byLabel.get(label);
    if (host) return host;
    throw new LocalRefusal(
      "unknown_host",
      `${label === undefined ? "No host was given" : `'${label}' is not a host of this server`}: host must be one of ${this.labels.join(", ")}.`,
    );
  }

  /** "https://a:8006", or "https://a:8006 (site-a), https://b:8006 (site-b)", for the startup log. */
  describe(): string {
    return this.hosts
      .map((host) => (host.label === undefined ? host.client.origin : `${host.client.origin} (${host.label})`))
      .join(", ");
  }

  summaries(): HostSummary[] {
    return this.hosts
      .filter((host) => host.label !== undefined)
      .map((host) => ({ label: host.label!, readOnly: host.readOnly, version: this.versions.get(host.label!) }));
  }

  /**
   * Asks every labelled host for its version (GET /version), each on its own: a slow or dead
   * host delays nobody. What is learnt goes into the instructions of later sessions; a failure
   * is logged, so a wrong token or CA shows at startup rather than at the first call.
   */
  async learnVersions(log: Logger): Promise<void> {
    await Promise.all(
      this.hosts.map(async (host) => {
        if (host.label === undefined) return;
        try {
          const data = (await host.client.getData("/version", {}, undefined, "startup")) as { version?: unknown };
          if (typeof data?.version !== "string") return;
          this.versions.set(host.label, data.version);
          log.info(`host ${host.label}: Proxmox VE ${data.version} at ${host.client.origin}`);
        } catch (error) {
          log.warn(
            `host ${host.label}: GET /version failed: ${this.redact(error instanceof Error ? error.message : String(error))}`,
          );
        }
      }),
    );
  }

  async close(): Promise<void> {
    await Promise.all(this.hosts.map((host) => host.close()));
  }
}
