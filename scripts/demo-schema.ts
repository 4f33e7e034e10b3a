// The bundled sample schema for `bun run demo` when ../shared/pve/schemas is not there: the few
// endpoints the demo calls, written by hand in the API viewer's shape (the real files stay out of the repo).
import { apidata, type FixtureMethod, type FixtureNode } from "../test/support/catalog.ts";

type Props = Record<string, Record<string, unknown>>;

const node = { type: "string", format: "pve-node", description: "The cluster node name." };
const vmid = {
  type: "integer",
  format: "pve-vmid",
  minimum: 100,
  maximum: 999999999,
  description: "The (unique) ID of the VM.",
};
const storage = { type: "string", format: "pve-storage-id", description: "The storage identifier." };
const upid = { type: "string", description: "The task's unique ID (UPID)." };

function op(
  method: string,
  name: string,
  description: string,
  properties: Props,
  check: unknown[],
  returns: unknown = { type: "string" },
): Record<string, FixtureMethod> {
  return {
    [method]: {
      method,
      name,
      description,
      allowtoken: 1,
      parameters: { additionalProperties: 0, properties },
      permissions: { check },
      returns,
    },
  };
}

const audit = ["perm", "/nodes/{node}", ["Sys.Audit"]];
const snapshot = ["perm", "/vms/{vmid}", ["VM.Snapshot"]];

export const DEMO_SAMPLE_API: FixtureNode[] = [
  {
    path: "/version",
    info: op("GET", "version", "API version details: release, version and repository id.", {}, ["perm", "/", []], {
      type: "object",
    }),
  },
  { path: "/nodes", info: op("GET", "index", "Cluster node index.", {}, ["perm", "/", []], { type: "array" }) },
  {
    path: "/nodes/{node}/qemu/{vmid}/snapshot",
    info: {
      ...op(
        "GET",
        "snapshot_list",
        "List all snapshots of a VM.",
        { node, vmid },
        ["perm", "/vms/{vmid}", ["VM.Audit"]],
        { type: "array" },
      ),
      ...op(
        "POST",
        "snapshot",
        "Snapshot a VM.",
        {
          node,
          vmid,
          snapname: { type: "string", format: "pve-configid", maxLength: 40, description: "The name of the snapshot." },
          description: { type: "string", optional: 1, description: "A textual description or comment." },
          vmstate: { type: "boolean", optional: 1, description: "Save the VM's RAM too." },
        },
        snapshot,
      ),
    },
    children: [
      {
        path: "/nodes/{node}/qemu/{vmid}/snapshot/{snapname}/rollback",
        info: op("POST", "rollback", "Roll the VM back to a snapshot.", { node, vmid, snapname: { type: "string" } }, [
          "perm",
          "/vms/{vmid}",
          ["VM.Snapshot.Rollback"],
        ]),
      },
    ],
  },
  {
    path: "/nodes/{node}/storage/{storage}/upload",
    info: op(
      "POST",
      "upload",
      "Upload templates, ISO images and OVAs to a storage.",
      {
        node,
        storage,
        content: { type: "string", enum: ["iso", "vztmpl", "import"], description: "Content type." },
        filename: { type: "string", maxLength: 255, description: "The name of the file to create." },
        checksum: { type: "string", optional: 1, description: "The expected checksum of the file." },
        "checksum-algorithm": {
          type: "string",
          optional: 1,
          enum: ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"],
          description: "The algorithm of the checksum.",
        },
      },
      ["perm", "/storage/{storage}", ["Datastore.AllocateTemplate"]],
    ),
  },
  {
    path: "/nodes/{node}/tasks/{upid}",
    children: [
      {
        path: "/nodes/{node}/tasks/{upid}/status",
        info: op("GET", "read_task_status", "Read a task's status.", { node, upid }, audit, { type: "object" }),
      },
      {
        path: "/nodes/{node}/tasks/{upid}/log",
        info: op(
          "GET",
          "read_task_log",
          "Read a task's log.",
          {
            node,
            upid,
            start: { type: "integer", optional: 1, minimum: 0, default: 0, description: "Start at this line." },
            limit: { type: "integer", optional: 1, minimum: 0, default: 50, description: "At most this many lines." },
            download: { type: "boolean", optional: 1, description: "Return the whole log as a file." },
          },
          audit,
          { type: "array" },
        ),
      },
    ],
  },
];

/** The sample as apidoc.js text. */
export const DEMO_SAMPLE_APIDOC = apidata(DEMO_SAMPLE_API);
