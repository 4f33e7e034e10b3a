#!/usr/bin/env bash
# Lists the server's tools with the MCP Inspector CLI (a client we did not write) in strict
# mode, in read-write and read-only mode, with one host and with several (PROXMOX_HOSTS), and
# fails on any schema portability finding. Each listing is then checked once more by
# scripts/check-tools.ts. Needs dist/index.js.
set -euo pipefail
cd "$(dirname "$0")/.."
one=(-e PROXMOX_URL=https://127.0.0.1:9 -e 'PROXMOX_TOKEN_ID=inspector@pve!check' -e PROXMOX_TOKEN_SECRET=not-a-secret)
several=(-e PROXMOX_HOSTS=site-a,site-b
  -e PROXMOX_SITE_A_URL=https://127.0.0.1:9 -e 'PROXMOX_SITE_A_TOKEN=inspector@pve!a=not-a-secret'
  -e PROXMOX_SITE_B_URL=https://127.0.0.2:9 -e 'PROXMOX_SITE_B_TOKEN=inspector@pve!b=not-a-secret-either')
out="$(mktemp)"
err="$(mktemp)"
trap 'rm -f "$out" "$err"' EXIT
for hosts in one several; do
  declare -n env="$hosts"
  for mode in false true; do
    echo "inspector --strict tools/list ($hosts hosts, PROXMOX_READ_ONLY=$mode)"
    node node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js --cli "${env[@]}" -e "PROXMOX_READ_ONLY=$mode" \
      bun dist/index.js --method tools/list --strict >"$out" 2>"$err"
    # the server's own stderr lines start with its name; everything else is the inspector's
    if grep -v '^proxmox-ve-mcp ' "$err" | grep -q .; then
      grep -v '^proxmox-ve-mcp ' "$err" >&2
      echo "inspector reported portability findings" >&2
      exit 1
    fi
    bun scripts/check-tools.ts "$out"
    # several hosts: the listing checked must be the one whose tools take host
    if [ "$hosts" = several ] && ! grep -q '"site-b"' "$out"; then
      echo "the multi-host tool list has no host labels" >&2
      exit 1
    fi
  done
done
