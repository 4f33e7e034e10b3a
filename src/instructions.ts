import type { HostSummary } from "./hosts/registry.ts";

const HOW_TO_WORK = `How to work:
- Find the endpoint first: proxmox_search_endpoints with plain words, then proxmox_describe_endpoint for its parameters and required privilege. Never guess a path.
- Paths are relative to /api2/json and start with "/": /nodes/pve1/qemu/100/status/current. Node names are case-sensitive; GET /nodes lists them.
- proxmox_get reads; proxmox_request sends GET, POST, PUT or DELETE and may change the cluster.
- Parameters are flat: strings, numbers, booleans or arrays of those. Property strings stay single strings: {"net0": "virtio,bridge=vmbr0,firewall=1"}, {"scsi0": "local-lvm:32"}.
- A write that answers with a UPID ("UPID:node:...") was submitted, not finished. Pass wait=true (proxmox_request, proxmox_upload) to get the finished task's outcome, or check GET /nodes/<node in the UPID>/tasks/<UPID>/status.
- Answers over 512 KiB are not returned: narrow the request, or save it with proxmox_download.
- Errors carry the HTTP status, Proxmox's message and hints at the next step: read them before retrying, and do not repeat a write that may already have been applied.
- A refusal with a code such as refused_read_only, refused_protected_guest, refused_rule or refused_vlan is the operator's local policy: the write was not sent. Tell the user; do not try to get around it.
- Local files (proxmox_upload, proxmox_download) must be inside the operator's PROXMOX_FILE_ROOTS.`;

const LOCAL_FILES = "- Local files (proxmox_upload, proxmox_download) must be inside";
const SERVER_FILES =
  "- Files of proxmox_upload and proxmox_download are on the machine running this server, not the user's, and must be inside";

const SINGLE_HOST = "This server reaches the whole Proxmox VE HTTP API of one cluster with an API token.";

/** The line that says which writes wait for a person's yes (PROXMOX_CONFIRM). */
function confirmationLine(rules: readonly string[]): string {
  return `\n- Writes matching these rules (METHOD /path, * = one segment, ** = any) wait until the user confirms them in the client: ${rules.join("; ")}. refused_by_user means the user said no: do not send it again unless asked. dry_run=true shows whether a write needs confirmation.`;
}

export interface InstructionOptions {
  /** The hosts, in multi-host mode (PROXMOX_HOSTS). */
  hosts?: readonly HostSummary[] | undefined;
  /** PROXMOX_CONFIRM's rules, as the operator wrote them. */
  confirmRules?: readonly string[] | undefined;
  /** "http": the client runs elsewhere, so the file tools' paths are on this server's machine. */
  transport?: "stdio" | "http" | undefined;
}

/** The text the model gets at initialize. */
export function serverInstructions(options: InstructionOptions = {}): string {
  const intro = options.hosts ? multiHostIntro(options.hosts) : SINGLE_HOST;
  const rules = options.confirmRules ?? [];
  const howToWork = options.transport === "http" ? HOW_TO_WORK.replace(LOCAL_FILES, SERVER_FILES) : HOW_TO_WORK;
  return `${intro}\n\n${howToWork}${rules.length ? confirmationLine(rules) : ""}`;
}

export const SERVER_INSTRUCTIONS = serverInstructions();

/** Which hosts there are, and that every tool takes `host`. */
function multiHostIntro(hosts: readonly HostSummary[]): string {
  const list = hosts
    .map((host) => {
      const notes = [...(host.version ? [`Proxmox VE ${host.version}`] : []), ...(host.readOnly ? ["read-only"] : [])];
      return `${host.label}${notes.length ? ` (${notes.join(", ")})` : ""}`;
    })
    .join(", ");
  return `This server reaches the whole Proxmox VE HTTP API of several separate hosts or clusters, each with its own API token: ${list}.

Every tool takes host, the label of the one to act on, and each result names it. Hosts share nothing: nodes, guests, paths, UPIDs, API version and local policy belong to one host; never carry them to another. Search and describe each host's own API.`;
}
