export const SERVER_INSTRUCTIONS = `This server reaches the whole Proxmox VE HTTP API of one cluster with an API token.

How to work:
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

/** Over HTTP the client runs elsewhere: the files the file tools name are on this server's machine. */
export function serverInstructions(transport: "stdio" | "http" = "stdio"): string {
  return transport === "http" ? SERVER_INSTRUCTIONS.replace(LOCAL_FILES, SERVER_FILES) : SERVER_INSTRUCTIONS;
}
