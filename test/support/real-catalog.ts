// The PVE 9.1 catalog from ../shared, for tests only: schema alone, and schema with the 9.1.3
// docs loaded from their directory as a node would serve them.
import { readFileSync } from "node:fs";
import { Catalog } from "../../src/catalog/catalog.ts";
import { dirPlan, DocsLoader } from "../../src/catalog/docs-loader.ts";
import { silentLogger } from "../../src/log.ts";
import { DOCS_DIR, SCHEMA_FILES } from "./shared.ts";

export async function realCatalogs(docs: boolean): Promise<{ plain: Catalog; withDocs?: Catalog }> {
  const schema = readFileSync(SCHEMA_FILES["9.1"].file, "utf8");
  const plain = Catalog.fromText(schema, { kind: "inline", location: "9.1" });
  if (!docs) return { plain };
  const withDocs = Catalog.fromText(schema, { kind: "inline", location: "9.1" });
  const loader = new DocsLoader({
    plans: [dirPlan({ kind: "configured", location: DOCS_DIR }, DOCS_DIR, 4 * 1024 * 1024)],
    log: silentLogger,
    onLoaded: (bundle) => withDocs.attachDocs(bundle.source, bundle.pages),
  });
  loader.kick();
  await loader.settled();
  return { plain, withDocs };
}
