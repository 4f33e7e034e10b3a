// Small schema fixtures for the catalog tests (issue 3); the real files stay in ../shared.
import { Catalog } from "../../src/catalog/catalog.ts";

/** What the published apidoc.js adds after the data: viewer code full of `]` and `];`. */
export const VIEWER_CODE = `

Ext.onReady(function() {
    var tree = Ext.create('Ext.data.TreeStore', { root: { expanded: true, children: apiSchema } });
    var list = [1, [2, 3]]; var s = "]"; var t = '];';
    if (list[1][0] === 2 && s === ']') { list.push(']'); }
    /* ]; */ // ];
    var render = function(p) { return p.replace(/\\]/g, ''); };
});
`;

export interface FixtureMethod {
  method?: string;
  name?: string;
  description?: string;
  allowtoken?: unknown;
  parameters?: { properties?: Record<string, unknown> | null; additionalProperties?: unknown } | null;
  returns?: unknown;
  permissions?: unknown;
  [key: string]: unknown;
}

export interface FixtureNode {
  path: string;
  info?: Record<string, FixtureMethod>;
  children?: FixtureNode[];
}

/** Turns a compact tree into the viewer's node form ({path, text, leaf, info, children}). */
export function schemaTree(nodes: FixtureNode[]): unknown[] {
  return nodes.map((n) => ({
    path: n.path,
    text: n.path.split("/").pop(),
    leaf: n.children?.length ? 0 : 1,
    ...(n.info ? { info: n.info } : {}),
    ...(n.children?.length ? { children: schemaTree(n.children) } : {}),
  }));
}

/** The data part as PVE 7+ writes it: `const apiSchema = [ ... ]` then `;` on its own line. */
export function apidata(nodes: FixtureNode[], declaration = "const apiSchema"): string {
  return `${declaration} = ${JSON.stringify(schemaTree(nodes), null, 3)}\n;\n`;
}

const nodeParam = { description: "The cluster node name.", format: "pve-node", type: "string", typetext: "<string>" };
const vmidParam = {
  description: "The (unique) ID of the VM.",
  format: "pve-vmid",
  type: "integer",
  minimum: 100,
  maximum: 999999999,
};

/** A little API: nodes, a VM with status and snapshots, a container, ACLs and tickets. */
export const MINI_API: FixtureNode[] = [
  {
    path: "/nodes",
    info: {
      GET: {
        method: "GET",
        name: "index",
        description: "Cluster node index.",
        allowtoken: 1,
        parameters: { properties: {} },
        returns: { type: "array" },
      },
    },
    children: [
      {
        path: "/nodes/{node}",
        info: {
          GET: {
            method: "GET",
            name: "index",
            description: "Node index.",
            allowtoken: 1,
            parameters: { properties: { node: nodeParam } },
            returns: { type: "array" },
          },
        },
        children: [
          {
            path: "/nodes/{node}/qemu",
            info: {
              GET: {
                method: "GET",
                name: "vmlist",
                description: "Virtual machine index (per node).",
                allowtoken: 1,
                parameters: { properties: { node: nodeParam } },
                returns: { type: "array" },
              },
              POST: {
                method: "POST",
                name: "create_vm",
                description: "Create or restore a virtual machine.",
                allowtoken: 1,
                protected: 1,
                proxyto: "node",
                parameters: {
                  properties: {
                    node: nodeParam,
                    vmid: vmidParam,
                    memory: {
                      description: "Memory properties.",
                      format: {
                        current: {
                          default_key: 1,
                          description: "Current amount of online RAM for the VM in MiB.",
                          type: "integer",
                          minimum: "16",
                        },
                      },
                      optional: 1,
                      type: "string",
                    },
                    "net[n]": {
                      description: "Specify network devices.",
                      optional: "1",
                      type: "string",
                      format: {
                        model: {
                          default_key: 1,
                          description: "Network Card Model.",
                          enum: ["e1000", "virtio"],
                          type: "string",
                        },
                        virtio: { alias: "macaddr", keyAlias: "model" },
                        macaddr: {
                          description: "MAC address.",
                          optional: 1,
                          type: "string",
                          format_description: "XX:XX:XX:XX:XX:XX",
                        },
                        bridge: { description: "Bridge to attach the network device to.", optional: 1, type: "string" },
                      },
                    },
                  },
                },
                permissions: {
                  check: [
                    "or",
                    ["perm", "/vms/{vmid}", ["VM.Allocate"]],
                    ["perm", "/pool/{pool}", ["VM.Allocate"], "require_param", "pool"],
                  ],
                  description: "You need 'VM.Allocate' permissions on `/vms/{vmid}`.",
                },
                returns: { type: "string" },
              },
            },
            children: [
              {
                path: "/nodes/{node}/qemu/{vmid}",
                info: {
                  GET: {
                    method: "GET",
                    name: "vmdiridx",
                    description: "Directory index",
                    allowtoken: 1,
                    parameters: { properties: { node: nodeParam, vmid: vmidParam } },
                    returns: {
                      type: "array",
                      links: [{ href: "{subdir}", rel: "child" }],
                      items: { properties: { subdir: { type: "string" } }, type: "object" },
                    },
                  },
                  DELETE: {
                    method: "DELETE",
                    name: "destroy_vm",
                    description: "Destroy the VM and  all used/owned volumes.",
                    allowtoken: 1,
                    protected: 1,
                    parameters: {
                      properties: {
                        node: nodeParam,
                        vmid: vmidParam,
                        purge: { type: "boolean", optional: 1, description: "Remove VMID from configurations." },
                      },
                    },
                    returns: { type: "string" },
                  },
                },
                children: [
                  {
                    path: "/nodes/{node}/qemu/{vmid}/status",
                    info: {
                      GET: {
                        method: "GET",
                        name: "vmcmdidx",
                        description: "Directory index",
                        allowtoken: 1,
                        parameters: { properties: {} },
                        returns: { type: "array" },
                      },
                    },
                    children: [
                      {
                        path: "/nodes/{node}/qemu/{vmid}/status/current",
                        info: {
                          GET: {
                            method: "GET",
                            name: "vm_status",
                            description: "Get virtual machine status.",
                            allowtoken: 1,
                            parameters: { properties: { node: nodeParam, vmid: vmidParam } },
                            returns: {
                              type: "object",
                              properties: {
                                status: {
                                  type: "string",
                                  enum: ["stopped", "running"],
                                  description: "QEMU process status.",
                                },
                              },
                            },
                          },
                        },
                      },
                      {
                        path: "/nodes/{node}/qemu/{vmid}/status/shutdown",
                        info: {
                          POST: {
                            method: "POST",
                            name: "vm_shutdown",
                            description:
                              "Shutdown virtual machine. This is similar to pressing the power button on a physical machine.",
                            allowtoken: 1,
                            parameters: { properties: { node: nodeParam, vmid: vmidParam } },
                            returns: { type: "string" },
                          },
                        },
                      },
                      {
                        path: "/nodes/{node}/qemu/{vmid}/status/stop",
                        info: {
                          POST: {
                            method: "POST",
                            name: "vm_stop",
                            description:
                              "Stop virtual machine. The qemu process will exit immediately. This is akin to pulling the power plug of a running computer.",
                            allowtoken: 1,
                            parameters: { properties: { node: nodeParam, vmid: vmidParam } },
                            returns: { type: "string" },
                          },
                        },
                      },
                    ],
                  },
                  {
                    path: "/nodes/{node}/qemu/{vmid}/snapshot",
                    info: {
                      GET: {
                        method: "GET",
                        name: "snapshot_list",
                        description: "List all snapshots.",
                        allowtoken: 1,
                        parameters: { properties: { node: nodeParam, vmid: vmidParam } },
                        returns: { type: "array" },
                      },
                      POST: {
                        method: "POST",
                        name: "snapshot",
                        description: "Snapshot a VM.",
                        allowtoken: 1,
                        parameters: {
                          properties: {
                            node: nodeParam,
                            vmid: vmidParam,
                            snapname: { type: "string", description: "The name of the snapshot." },
                          },
                        },
                        returns: { type: "string" },
                      },
                    },
                    children: [
                      {
                        path: "/nodes/{node}/qemu/{vmid}/snapshot/{snapname}",
                        info: {
                          DELETE: {
                            method: "DELETE",
                            name: "delsnapshot",
                            description: "Delete a VM snapshot.",
                            allowtoken: 1,
                            parameters: {
                              properties: { node: nodeParam, vmid: vmidParam, snapname: { type: "string" } },
                            },
                            returns: { type: "string" },
                          },
                        },
                        children: [
                          {
                            path: "/nodes/{node}/qemu/{vmid}/snapshot/{snapname}/rollback",
                            info: {
                              POST: {
                                method: "POST",
                                name: "rollback",
                                description: "Rollback VM state to specified snapshot.",
                                allowtoken: 1,
                                parameters: {
                                  properties: { node: nodeParam, vmid: vmidParam, snapname: { type: "string" } },
                                },
                                returns: { type: "string" },
                              },
                            },
                          },
                        ],
                      },
                    ],
                  },
                ],
              },
            ],
          },
          {
            path: "/nodes/{node}/lxc",
            info: {
              GET: {
                method: "GET",
                name: "vmlist",
                description: "LXC container index (per node).",
                allowtoken: 1,
                parameters: { properties: { node: nodeParam } },
                returns: { type: "array" },
              },
            },
            children: [
              {
                path: "/nodes/{node}/lxc/{vmid}",
                children: [
                  {
                    path: "/nodes/{node}/lxc/{vmid}/status",
                    children: [
                      {
                        path: "/nodes/{node}/lxc/{vmid}/status/shutdown",
                        info: {
                          POST: {
                            method: "POST",
                            name: "vm_shutdown",
                            description: "Shutdown the container. This will trigger a clean shutdown of the container.",
                            allowtoken: 1,
                            parameters: { properties: { node: nodeParam, vmid: vmidParam } },
                            returns: { type: "string" },
                          },
                        },
                      },
                      {
                        path: "/nodes/{node}/lxc/{vmid}/status/start",
                        info: {
                          POST: {
                            method: "POST",
                            name: "vm_start",
                            description: "Start the container.",
                            allowtoken: 1,
                            parameters: { properties: { node: nodeParam, vmid: vmidParam } },
                            returns: { type: "string" },
                          },
                        },
                      },
                    ],
                  },
                ],
              },
            ],
          },
          {
            path: "/nodes/{node}/storage",
            children: [
              {
                path: "/nodes/{node}/storage/{storage}",
                children: [
                  {
                    path: "/nodes/{node}/storage/{storage}/status",
                    info: {
                      GET: {
                        method: "GET",
                        name: "read_status",
                        description: "Read storage status.",
                        allowtoken: 1,
                        parameters: { properties: { node: nodeParam, storage: { type: "string" } } },
                        returns: {
                          type: "object",
                          properties: {
                            avail: { description: "Available storage space in bytes.", type: "integer" },
                            total: { type: "integer" },
                          },
                        },
                      },
                    },
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
  {
    path: "/access",
    children: [
      {
        path: "/access/acl",
        info: {
          GET: {
            method: "GET",
            name: "read_acl",
            description: "Get Access Control List (ACLs).",
            allowtoken: 1,
            parameters: { properties: {} },
            permissions: {
              description: "The returned list is restricted to objects where you have rights to modify permissions.",
              user: "all",
            },
            returns: { type: "array" },
          },
          PUT: {
            method: "PUT",
            name: "update_acl",
            description: "Update Access Control List (add or remove permissions).",
            allowtoken: 1,
            protected: 1,
            parameters: {
              properties: {
                path: { type: "string", description: "Access control path" },
                roles: { type: "string", format: "pve-roleid-list" },
              },
            },
            permissions: { check: ["perm-modify", "{path}"] },
            returns: { type: "null" },
          },
        },
      },
      {
        path: "/access/ticket",
        info: {
          POST: {
            method: "POST",
            name: "create_ticket",
            description: "Create or verify authentication ticket.",
            allowtoken: 0,
            parameters: { properties: { username: { type: "string" }, password: { type: "string" } } },
            permissions: { description: "You need to pass valid credentials.", user: "world" },
            returns: { type: "object" },
          },
        },
      },
    ],
  },
];

export function miniCatalog(): Catalog {
  return Catalog.fromText(apidata(MINI_API), { kind: "inline", location: "mini" });
}

/** A logger that keeps its lines, to check what would reach stderr. */
export function memoryLogger(): {
  lines: string[];
  info(m: string): void;
  warn(m: string): void;
  error(m: string): void;
} {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info: ${m}`),
    warn: (m) => lines.push(`warn: ${m}`),
    error: (m) => lines.push(`error: ${m}`),
  };
}

/**
 * The storage upload endpoint alone, as PVE 7.4 and later list it (with checksum-algorithm and
 * checksum) or as 6.4 does (without): what decides whether uploads send a checksum by default.
 */
export function uploadEndpointSchema(withChecksum = true): string {
  const properties: Record<string, unknown> = {
    node: { type: "string" },
    storage: { type: "string" },
    content: { type: "string" },
    filename: { type: "string" },
    ...(withChecksum ? { "checksum-algorithm": { type: "string" }, checksum: { type: "string" } } : {}),
  };
  return apidata([
    {
      path: "/nodes/{node}/storage/{storage}/upload",
      info: { POST: { method: "POST", name: "upload", parameters: { properties } } },
    },
  ]);
}
