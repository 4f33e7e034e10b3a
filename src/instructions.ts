export const SERVER_INSTRUCTIONS = `This server reaches the whole Proxmox VE HTTP API of one cluster with an API token.

How to work:
- Find the endpoint first: proxmox_search_endpoints with plain words, then proxmox_describe_endpoint for its parameters and required privilege. Never guess a path.
- Paths are relative to /api2/json and start with "/": /nodes/pve1/qemu/100/status/current. Node names are case-sensitive; GET /nodes lists them.
- proxmox_get reads; proxmox_request sends GET, POST, PUT or DELETE and may change the cluster.
- Parameters are flat: strings, numbers, booleans or arrays of those. Property strings stay single strings: {"net0": "virtio,bridge=vmbr0,firewall=1"}, {"scsi0": "local-lvm:32"}.
- A write that answers with a UPID ("UPID:node:...") was submitted, not finished. Check it with GET /nodes/<node in the UPID>/tasks/<UPID>/status, or pass wait=true where offered.
- Answers over 512 KiB are not returned: narrow the request, or save it with proxmox_download.
- Errors carry the HTTP status, Proxmox's message and a hint at the next step: read them before retrying, and do not repeat a write that may already have been applied.`;
