import { createHash } from "node:crypto";
import { Catalog, type CatalogSource } from "./catalog.ts";

/**
 * Parsed catalogs keyed by the SHA-256 of their schema text, shared by every host's loader:
 * hosts on the same Proxmox VE version serve the same bytes and then share one parse (and its
 * memory), each under its own source. The key is a cryptographic hash, so a hostile host
 * cannot craft a schema that passes for another host's.
 */
export class CatalogCache {
  private readonly parsed = new Map<string, Catalog>();

  /** Parses `text`, or returns the catalog already parsed from the same bytes. Throws SchemaParseError. */
  parse(text: string, source: CatalogSource): Catalog {
    const key = createHash("sha256").update(text).digest("hex");
    const known = this.parsed.get(key);
    if (known) return known.withSource(source);
    const catalog = Catalog.fromText(text, source);
    this.parsed.set(key, catalog);
    return catalog;
  }

  /** How many distinct schemas were parsed. */
  get size(): number {
    return this.parsed.size;
  }
}
