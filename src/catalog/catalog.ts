import { pathSegments } from "../proxmox/path.ts";
import { describeEndpoint, type DescribeOutcome } from "./describe.ts";
import {
  isUnder,
  normalizeInputPath,
  placeholders,
  type CatalogSource,
  type Endpoint,
  type PathEntry,
  type PathLookup,
  type PathMatch,
  type SkippedMethod,
} from "./model.ts";
import { parseSchemaText, SchemaParseError } from "./parse.ts";
import {
  describeIssues,
  validateMethod,
  type ParameterCache,
  toFlag,
  TreeSchema,
  type MethodInfo,
  type SchemaNode,
} from "./schema.ts";

import { buildDocsKnowledge, type DocsKnowledge } from "./docs-knowledge.ts";
import { placeholderCalls, recognizeForm, type PlaceholderCalls } from "./search-forms.ts";
import { summaryOf } from "./search-fields.ts";
import { buildSearchIndex, runSearch, type SearchIndex, type SearchOptions, type SearchPage } from "./search.ts";
import type { DocsPage } from "./model.ts";

export {
  fillTemplate,
  normalizeInputPath,
  placeholders,
  type CatalogSource,
  type Endpoint,
  type PathEntry,
  type PathMatch,
  type SkippedMethod,
} from "./model.ts";

const METHOD_ORDER = ["GET", "POST", "PUT", "DELETE"];

interface TrieNode {
  literal: Map<string, TrieNode>;
  params: { name: string; node: TrieNode }[];
  template?: string;
}

const PLACEHOLDER = /^\{([^{}]+)\}$/;

/** Walks the tree; each method is validated separately so one odd entry cannot sink the catalog. */
function collect(
  nodes: SchemaNode[],
  paths: Map<string, PathEntry>,
  skipped: SkippedMethod[],
  cache: ParameterCache,
): void {
  for (const node of nodes) {
    const entry: PathEntry = {
      path: node.path,
      segments: pathSegments(node.path),
      methods: [],
      children: (node.children ?? []).map((c) => c.path),
    };
    for (const [key, raw] of Object.entries(node.info ?? {})) {
      const parsed = validateMethod(raw, cache);
      if (!parsed.success) {
        skipped.push({ path: node.path, method: key, reason: describeIssues(parsed.error) });
        continue;
      }
      entry.methods.push(toEndpoint(node.path, key, parsed.data));
    }
    entry.methods.sort((a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));
    const existing = paths.get(node.path);
    if (existing) {
      existing.methods.push(...entry.methods);
      existing.children.push(...entry.children);
    } else {
      paths.set(node.path, entry);
    }
    collect(node.children ?? [], paths, skipped, cache);
  }
}

function toEndpoint(path: string, key: string, info: MethodInfo): Endpoint {
  return {
    method: (info.method ?? key).toUpperCase(),
    path,
    name: info.name ?? "",
    description: info.description ?? "",
    allowtoken: info.allowtoken === undefined || info.allowtoken === null ? true : toFlag(info.allowtoken),
    protected: toFlag(info.protected),
    downloadAllowed: toFlag(info.download_allowed),
    exposeCredentials: toFlag(info.expose_credentials),
    proxyto: info.proxyto ?? undefined,
    parameters: info.parameters?.properties ?? {},
    permissions: info.permissions ?? undefined,
    returns: info.returns,
    info,
  };
}

/** The parsed, indexed API: kept for the life of the process once loaded. */
export class Catalog implements PathLookup {
  readonly source: CatalogSource;
  readonly endpoints: readonly Endpoint[];
  readonly skipped: readonly SkippedMethod[];
  private readonly paths: Map<string, PathEntry>;
  private readonly byKey: Map<string, Endpoint>;
  private readonly idOf: Map<string, number>;
  private readonly trie: TrieNode;
  /** The index of the schema alone, shared with every view of this parse (withSource). */
  private readonly shared: {
    schemaIndex?: SearchIndex;
    placeholders?: ReadonlySet<string>;
    placeholderCalls?: PlaceholderCalls;
  } = {};
  /** This view's index with its own docs, once they are attached. */
  private built: SearchIndex | undefined;
  private knowledge: DocsKnowledge | undefined;

  constructor(tree: SchemaNode[], source: CatalogSource) {
    this.source = source;
    this.paths = new Map();
    const skipped: SkippedMethod[] = [];
    collect(tree, this.paths, skipped, new Map());
    this.skipped = skipped;
    const endpoints: Endpoint[] = [];
    this.byKey = new Map();
    this.idOf = new Map();
    this.trie = { literal: new Map(), params: [] };
    for (const entry of this.paths.values()) {
      this.insert(entry);
      for (const endpoint of entry.methods) {
        this.idOf.set(`${endpoint.method} ${endpoint.path}`, endpoints.length);
        endpoints.push(endpoint);
        this.byKey.set(`${endpoint.method} ${endpoint.path}`, endpoint);
      }
    }
    if (endpoints.length === 0) throw new SchemaParseError("the schema holds no usable endpoints");
    this.endpoints = endpoints;
  }

  /** Parse (without executing), validate and index an API viewer file. */
  static fromText(text: string, source: CatalogSource): Catalog {
    const data = parseSchemaText(text);
    const tree = TreeSchema.safeParse(data);
    if (!tree.success)
      throw new SchemaParseError(`the schema does not have the API viewer's shape: ${describeIssues(tree.error)}`);
    return new Catalog(tree.data, source);
  }

  /**
   * The same parsed catalog under another source (hosts serving identical schema bytes share
   * one parse): a view whose every other member is this catalog's.
   */
  withSource(source: CatalogSource): Catalog {
    if (source.kind === this.source.kind && source.location === this.source.location) return this;
    const view = Object.create(this) as Catalog;
    // docs are each host's own: a view starts without them, sharing only the schema's index
    Object.defineProperties(view, {
      source: { value: source, enumerable: true },
      knowledge: { value: undefined, writable: true },
      built: { value: undefined, writable: true },
    });
    return view;
  }

  get size(): number {
    return this.endpoints.length;
  }

  /** Every path of the tree, templates only. */
  allPaths(): string[] {
    return [...this.paths.keys()];
  }

  pathEntry(template: string): PathEntry | undefined {
    return this.paths.get(template);
  }

  endpoint(method: string, template: string): Endpoint | undefined {
    return this.byKey.get(`${method.toUpperCase()} ${template}`);
  }

  /** The endpoint of this method on the template a concrete path (or a template) belongs to, with that match. */
  lookup(method: string, path: string): { endpoint: Endpoint; match: PathMatch } | undefined {
    const match = this.match(path);
    const endpoint = match ? this.endpoint(method, match.template) : undefined;
    return match && endpoint ? { endpoint, match } : undefined;
  }

  /**
   * The template a concrete path (or a template) belongs to, segment by segment; literal
   * segments win over placeholders.
   */
  match(path: string): PathMatch | undefined {
    const segments = pathSegments(normalizeInputPath(path));
    const params: Record<string, string> = {};
    const walk = (node: TrieNode, i: number): string | undefined => {
      if (i === segments.length) return node.template;
      const segment = segments[i]!;
      const placeholder = PLACEHOLDER.exec(segment);
      if (!placeholder) {
        const next = node.literal.get(segment);
        if (next) {
          const found = walk(next, i + 1);
          if (found) return found;
        }
      }
      for (const param of node.params) {
        const found = walk(param.node, i + 1);
        if (found) {
          if (!placeholder) params[param.name] = segment;
          return found;
        }
      }
      return undefined;
    };
    const template = walk(this.trie, 0);
    return template === undefined ? undefined : { template, params };
  }

  /**
   * Adds what the cluster's docs say: the CLI commands mapped to endpoints, and the docs' words
   * as one more field of the index (which is rebuilt). Until then, search uses the schema alone.
   */
  attachDocs(source: CatalogSource, pages: readonly DocsPage[]): void {
    const knowledge = buildDocsKnowledge(source, pages, this.endpoints, {
      match: (path) => this.match(path),
      indexOf: (method, template) => this.idOf.get(`${method} ${template}`),
    });
    this.knowledge = knowledge;
    this.built = undefined;
  }

  /** The search index, built on first use (describe and advice never need it), with the docs once attached. */
  private get index(): SearchIndex {
    if (!this.knowledge) return (this.shared.schemaIndex ??= buildSearchIndex(this.endpoints));
    if (!this.built) {
      this.built = buildSearchIndex(this.endpoints, this.knowledge);
      // The texts live on in the index's postings; the strings are not needed again.
      this.knowledge.texts = [];
      this.knowledge.values = [];
      this.knowledge.standIns = [];
    }
    return this.built;
  }

  /** What a placeholder's listed values and the segments after them spell, worked out once. */
  private get placeholderCalls(): PlaceholderCalls {
    return (this.shared.placeholderCalls ??= placeholderCalls(this.endpoints));
  }

  /** Every placeholder name the paths use ("vmid", "storage"), worked out once. */
  private get placeholderNames(): ReadonlySet<string> {
    return (this.shared.placeholders ??= new Set(this.endpoints.flatMap((e) => placeholders(e.path))));
  }

  /** What the attached docs contributed, if any. */
  get docs(): Pick<DocsKnowledge, "source" | "pages" | "mapped"> | undefined {
    return this.knowledge;
  }

  /** The endpoints under a path (a template or a concrete path), in tree order, paged. */
  browse(prefix: string, options: SearchOptions = {}): SearchPage {
    const within = this.under(prefix);
    const method = options.method?.toUpperCase();
    const found = this.endpoints.filter((e, id) => within(id) && (!method || e.method === method));
    const offset = Math.max(0, options.offset ?? 0);
    const limit = Math.max(1, options.limit ?? 10);
    return {
      total: found.length,
      hits: found.slice(offset, offset + limit).map((e) => ({
        method: e.method,
        path: e.path,
        description: summaryOf(e),
        ...(e.allowtoken ? {} : { refusesTokens: true as const }),
        score: 0,
      })),
    };
  }

  /** Which endpoints lie under a path prefix. */
  private under(prefix: string): (id: number) => boolean {
    const wanted = pathSegments(normalizeInputPath(prefix));
    const inside = new Uint8Array(this.endpoints.length);
    this.endpoints.forEach((e, id) => {
      if (isUnder(this.paths.get(e.path)!.segments, wanted)) inside[id] = 1;
    });
    return (id) => inside[id] === 1;
  }

  search(query: string, options: SearchOptions = {}): SearchPage {
    if (options.pathPrefix !== undefined) options = { ...options, within: this.under(options.pathPrefix) };
    const form = recognizeForm(query, {
      endpoints: this.endpoints,
      match: (path) => this.match(path),
      methodsOf: (template) =>
        (this.paths.get(template)?.methods ?? []).map((e) => this.idOf.get(`${e.method} ${e.path}`)!),
      cli: this.knowledge?.cli,
      files: this.knowledge?.files,
      placeholders: this.placeholderNames,
      placeholderCalls: this.placeholderCalls,
    });
    if (!form) return runSearch(this.index, query, options);
    const page = runSearch(this.index, form.query, options, form);
    return form.notes.length ? { ...page, notes: form.notes } : page;
  }

  describe(pathOrTemplate: string, method?: string): DescribeOutcome {
    return describeEndpoint(this, pathOrTemplate, method);
  }

  /** The `n` templates nearest to a path that matches none, by segment-wise edit distance. */
  closest(path: string, n = 5): string[] {
    // a path longer than any template cannot get closer by being longer; capping bounds the work
    const wanted = pathSegments(normalizeInputPath(path)).slice(0, 16);
    const scored = [...this.paths.values()].map((entry) => ({
      path: entry.path,
      distance: segmentDistance(wanted, entry.segments),
    }));
    scored.sort((a, b) => a.distance - b.distance || a.path.length - b.path.length || a.path.localeCompare(b.path));
    return scored.slice(0, n).map((s) => s.path);
  }

  private insert(entry: PathEntry): void {
    let node = this.trie;
    for (const segment of entry.segments) {
      const placeholder = PLACEHOLDER.exec(segment);
      if (placeholder) {
        let param = node.params.find((p) => p.name === placeholder[1]);
        if (!param) {
          param = { name: placeholder[1]!, node: { literal: new Map(), params: [] } };
          node.params.push(param);
        }
        node = param.node;
      } else {
        let next = node.literal.get(segment);
        if (!next) {
          next = { literal: new Map(), params: [] };
          node.literal.set(segment, next);
        }
        node = next;
      }
    }
    node.template = entry.path;
  }
}

/** Edit distance over segments; a placeholder accepts any segment, near-miss literals cost less than 1. */
export function segmentDistance(input: string[], template: string[]): number {
  const rows = input.length + 1;
  const cols = template.length + 1;
  let prev = new Array<number>(cols);
  let cur = new Array<number>(cols);
  for (let j = 0; j < cols; j++) prev[j] = j;
  for (let i = 1; i < rows; i++) {
    cur[0] = i;
    for (let j = 1; j < cols; j++) {
      const sub = prev[j - 1]! + substitutionCost(input[i - 1]!, template[j - 1]!);
      cur[j] = Math.min(sub, prev[j]! + 1, cur[j - 1]! + 1);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[cols - 1]!;
}

function substitutionCost(a: string, b: string): number {
  if (a === b) return 0;
  if (PLACEHOLDER.test(b)) return PLACEHOLDER.test(a) ? 0 : 0.3;
  if (PLACEHOLDER.test(a)) return 0.9;
  return Math.min(1, 0.15 + levenshtein(a.toLowerCase(), b.toLowerCase()) / Math.max(a.length, b.length));
}

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}
