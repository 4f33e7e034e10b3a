import type { FileAccess } from "../files/resolver.ts";
import type { HostRegistry } from "../hosts/registry.ts";
import type { Logger } from "../log.ts";
import type { CallerIdentity } from "../proxmox/client.ts";
import type { PollingOptions } from "../tasks/wait.ts";

/** Everything a server needs, built from configuration by the caller. */
export interface ServerDeps {
  /**
   * The Proxmox hosts: one unlabelled host, or several labelled ones (PROXMOX_HOSTS). Each has
   * its client (with its policy gate), its API catalog and its read-only flag; tools that could
   * write are registered only when some host accepts writes.
   */
  hosts: HostRegistry;
  log: Logger;
  /** File transfer confined to PROXMOX_FILE_ROOTS, shared by every host; undefined when unset (the tools then say how to enable it). */
  files?: FileAccess | undefined;
  /** PROXMOX_CONFIRM: the rules (for the instructions) and how long a person has to answer. */
  confirmation?: { rules: string[]; timeoutMs: number } | undefined;
  /** How often a waited-for task is polled; tests shorten it. */
  taskPolling?: PollingOptions;
  /** HTTP mode: the client this session serves (its token's label), put on every write for the audit trail. */
  caller?: CallerIdentity | undefined;
  /** "http": the client runs elsewhere, so the file tools say their paths are on this server's machine. */
  transport?: "stdio" | "http";
}
