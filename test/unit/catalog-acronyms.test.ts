// Issue 11: acronyms and abbreviations that the schema and the docs spell out become search vocabulary.
import { describe, expect, test } from "bun:test";
import {
  acronymGroups,
  apiNames,
  definedAcronyms,
  expansionBefore,
  schemaAcronyms,
  spellsByStarts,
} from "../../src/catalog/acronyms.ts";
import type { Endpoint } from "../../src/catalog/model.ts";

const endpoint = (path: string, description: string, parameters: Endpoint["parameters"] = {}, returns?: unknown) =>
  ({ method: "PUT", path, name: "update", description, parameters, returns }) as unknown as Endpoint;

describe("expansionBefore", () => {
  test.each<[string, string, string | undefined]>([
    ["osd", "Each disk runs an Object Storage Daemon ", "object storage daemon"],
    ["lvm", "built on the Logical Volume Manager ", "logical volume manager"],
    ["qos", "applies Quality of Service ", "quality of service"],
    ["tfa", "enable Two-Factor Authentication ", "two factor authentication"],
    ["osd", "the daemon of each storage object ", undefined],
    // The words must start with the letters, not be the acronym itself.
    ["zfs", "a pool on zfs ", undefined],
    // Failing initials, the starts of the words run together.
    ["qdevice", "The Corosync Quorum Device ", "quorum device"],
    ["vnet", "each zone holds a Virtual Network ", "virtual network"],
    ["ipam", "the built-in IP Address Management ", "ip address management"],
    ["vnet", "a network that is virtual ", undefined],
    ["qdevice", "a device for quorum ", undefined],
  ])("%s before %j", (acronym, text, expected) => {
    expect(expansionBefore(acronym, text)).toBe(expected);
  });
});

describe("spellsByStarts", () => {
  test.each<[string, string[], boolean]>([
    ["qdevice", ["quorum", "device"], true],
    ["vnet", ["virtual", "network"], true],
    ["snat", ["source", "nat"], true],
    ["lvm", ["logical", "volume", "manager"], true],
    // Every word gives a letter, in order, and the short form is used up.
    ["qdev", ["quorum", "device", "daemon"], false],
    ["qdevices", ["quorum", "device"], false],
    ["devq", ["quorum", "device"], false],
  ])("%s by %j: %p", (short, run, expected) => {
    expect(spellsByStarts(short, run)).toBe(expected);
  });
});

describe("definedAcronyms", () => {
  test("reads 'Words (ACR)' through the markup and keeps the first definition of each", () => {
    const html =
      "<p>Each disk runs an <em>Object Storage Daemon</em> (OSD). A <strong>Proxmox Backup Server</strong> (PBS) " +
      "stores backups. Later, the OSD (OSD) again. Nothing here (XYZ).</p>";
    expect(definedAcronyms(html)).toEqual([
      ["osd", "object storage daemon"],
      ["pbs", "proxmox backup server"],
    ]);
  });
});

describe("schemaAcronyms", () => {
  const endpoints = [
    endpoint("/nodes/{node}/lxc/{vmid}/config", "Set container options.", {
      "mp[n]": { type: "string", description: "Use volume as container mount point." },
      hostname: { type: "string", description: "Set a host name for the container." },
    }),
    endpoint("/nodes/{node}/oci-tags", "List all tags for an OCI repository reference.", {
      repo: { type: "string", description: "The repository to query." },
    }),
    endpoint(
      "/nodes/{node}/status",
      "Read node status.",
      {},
      {
        properties: { mem: { type: "integer", description: "Used memory in bytes." } },
      },
    ),
  ];

  test("a short name its own description spells out, by initials or as the start of a longer word", () => {
    const found = schemaAcronyms(endpoints);
    expect(found).toContainEqual(["mp", "mount point"]);
    expect(found).toContainEqual(["repo", "repository"]);
    expect(found).toContainEqual(["mem", "memory"]);
  });

  test("a word the descriptions use on their own is no abbreviation", () => {
    // "host" starts "hostname" but is a word of the descriptions ("a host name").
    expect(schemaAcronyms(endpoints).some(([short]) => short === "host")).toBe(false);
  });

  test("groups only for short names the API uses, the short name first", () => {
    const names = apiNames(endpoints);
    expect(names.has("mp")).toBe(true);
    expect(
      acronymGroups(
        [
          ["mp", "mount point"],
          ["mp", "mount point"],
          ["rhel", "red hat enterprise linux"],
        ],
        names,
      ),
    ).toEqual([["mp", "mount point"]]);
  });
});
