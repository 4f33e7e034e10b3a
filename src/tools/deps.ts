import type { CatalogProvider } from "../catalog/loader.ts";
import type { FileAccess } from "../files/resolver.ts";
import type { Logger } from "../log.ts";
import type { CallerIdentity, ProxmoxClient } from "../proxmox/client.ts";
import type { PollingOptions } from "../tasks/wait.ts";

/** Everything a server needs, built from configuration by the caller. */
export interface ServerDeps {
  client: ProxmoxClient;
  /** Read-only mode: tools that could write are not registered at all. */
  readOnly: boolean;
  log: Logger;
  /** File transfer confined to PROXMOX_FILE_ROOTS; undefined when that is unset (the tools then say how to enable it). */
  files?: FileAccess | undefined;
  /** The API catalog (issue 3), loaded on first use; without it the catalog tools say so. */
  catalog?: CatalogProvider | undefined;
  /** How often a waited-for task is polled; tests shorten it. */
  taskPolling?: PollingOptions;
  /** HTTP mode: the client this session serves (its token's label), put on every write for the audit trail. */
  caller?: CallerIdentity | undefined;
  /** "http": the client runs elsewhere, so the file tools say their paths are on this server's machine. */
  transport?: "stdio" | "http";
}
