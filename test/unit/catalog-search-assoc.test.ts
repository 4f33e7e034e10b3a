// Issue 11, third round: word associations learnt from Proxmox's own text, for words the schema lacks.
import { describe, expect, test } from "bun:test";
import { ASSOC, learnAssociations } from "../../src/catalog/search-assoc.ts";
import { Catalog } from "../../src/catalog/catalog.ts";
import { readFileSync } from "node:fs";
import { DOCS_DIR, haveSharedData, SCHEMA_FILES } from "../support/shared.ts";
import { parseDocsPage } from "../../src/catalog/docs-html.ts";
import { join } from "node:path";

/**
 * Texts in which "vgpu" keeps company with "mediated" and "mdev"; "backup", in more than 5% of
 * the texts, says nothing in particular.
 */
const texts = [
  ...Array.from({ length: 4 }, (_, i) => `Mediated devices (vGPU) split one card, mdev type ${i}`),
  "a vGPU backup",
  ...Array.from({ length: 120 }, (_, i) => `backup job ${i} writes an archive of the guest`),
  "the guest agent answers",
];

describe("learnAssociations", () => {
  const assoc = learnAssociations(texts, new Map());
  test("words that share enough texts go together, strongest first", () => {
    const vgpu = assoc.get("vgpu")?.map(([w]) => w) ?? [];
    expect(vgpu).toContain("mediat");
    expect(vgpu.length).toBeLessThanOrEqual(ASSOC.perWord);
    expect(vgpu).not.toContain("backup");
  });

  test("strengths are shares in (0, 1]", () => {
    for (const list of assoc.values()) for (const [, s] of list) expect(s > 0 && s <= 1).toBe(true);
  });

  test(`words in fewer than ${ASSOC.minShared} texts together, words in many texts, and stopwords, are no associates`, () => {
    expect(assoc.get("agent")).toBeUndefined();
    expect(assoc.get("backup")).toBeUndefined();
    expect([...assoc.keys()]).not.toContain("the");
  });

  test("the same text twice counts once", () => {
    const twice = learnAssociations([...texts, ...texts], new Map());
    expect(twice.get("vgpu")).toEqual(assoc.get("vgpu"));
  });
});

const present =
  haveSharedData("associations from the real docs", DOCS_DIR) &&
  haveSharedData("associations", SCHEMA_FILES["9.1"].file);
describe.skipIf(!present)("a word the schema lacks, on PVE 9.1 with its docs", () => {
  test("vGPU finds the mediated device types of a PCI device through the docs' words", async () => {
    const catalog = Catalog.fromText(readFileSync(SCHEMA_FILES["9.1"].file, "utf8"), {
      kind: "inline",
      location: "9.1",
    });
    const page = await parseDocsPage("qm.1.html", readFileSync(join(DOCS_DIR, "qm.1.html"), "utf8"));
    const query = "which vGPU profiles can this card provide";
    const top = (n: number) => catalog.search(query, { limit: n }).hits.map((h) => `${h.method} ${h.path}`);
    expect(top(10)).not.toContain("GET /nodes/{node}/hardware/pci/{pci-id-or-mapping}/mdev");
    catalog.attachDocs({ kind: "inline", location: "qm" }, [page]);
    expect(top(5)).toContain("GET /nodes/{node}/hardware/pci/{pci-id-or-mapping}/mdev");
  });
});
