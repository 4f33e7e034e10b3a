// The loopback fake serving the PVE 9.1 schema at the viewer path and the pve-docs 9.1.3 pages
// under /pve-docs/, as a node does, in its own process. Prints one JSON line {url, env,
// authorization} and serves until its stdin closes.
import { readFileSync } from "node:fs";
import { VIEWER_PATH } from "../src/catalog/loader.ts";
import { FakeProxmox } from "../test/fake/pve-fake.ts";
import { DOCS_DIR, SCHEMA_FILES } from "../test/support/shared.ts";
import { serveUntilStdinCloses } from "./fake-process.ts";

const fake = await FakeProxmox.start({ docs: DOCS_DIR });
const schema = readFileSync(SCHEMA_FILES["9.1"].file, "utf8");
fake.file(VIEWER_PATH, () => ({ body: schema, contentType: "application/javascript" }));
serveUntilStdinCloses(fake);
