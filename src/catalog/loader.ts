import { basename, dirname } from "node:path";
import type { ConnectionConfig } from "../config.ts";
import { createAgent, type Dispatcher } from "../http/undici.ts";
import type { Logger } from "../log.ts";
import { Catalog, type CatalogSource } from "./catalog.ts";
import { attemptsText, type Attempt } from "./model.ts";
import { createListRedactor } from "../proxmox/redact.ts";
import type { CatalogCache } from "./shared.ts";
import type { CatalogConfig, SchemaLocation } from "./config.ts";
import {
  dirPlan,
  DOCS_PATH,
  DocsLoader,
  MAX_DOCS_PAGE_BYTES,
  PUBLIC_DOCS_URL,
  urlPlan,
  type DocsBundle,
  type DocsPlan,
  type DocsStatus,
} from "./docs-loader.ts";
import { SchemaParseError } from "./parse.ts";
import {
  fetchCapped,
  findApidocScript,
  looksLikeHtml,
  MAX_SCHEMA_BYTES,
  readCappedFile,
  resolveScriptFile,
  resolveScriptUrl,
  SourceFailure,
  type Fetched,
} from "./source.ts";

/** The catalog as other features use it: loaded on first use, then kept until restart. */
export interface CatalogProvider {
  /** The catalog, loading it first if needed. Throws CatalogUnavailableError. */
  get(signal?: AbortSignal): Promise<Catalog>;
  /** The catalog if it is already loaded; never does I/O. */
  peek(): Catalog | undefined;
  /** Where the second source, the cluster's docs, stands; absent when there is none. */
  docs?(): DocsStatus;
  /** Waits for the docs' first load, the grace at most in all for every search, not past the caller's cancellation. */
  docsAwaited?(signal?: AbortSignal): Promise<void>;
}

export const VIEWER_PATH = "/pve-docs/api-viewer/apidoc.js";
export const PUBLIC_SCHEMA_URL = `https://pve.proxmox.com${VIEWER_PATH}`;

/** No catalog could be loaded; the message names every source tried and what happened. */
export class CatalogUnavailableError extends Error {
  constructor(
    readonly attempts: Attempt[],
    readonly cancelled: boolean,
  ) {
    super(
      cancelled
        ? "loading the API catalog was cancelled"
        : `no API catalog could be loaded: ${attempts.length ? attemptsText(attempts) : "this server has no catalog source"}`,
    );
    this.name = "CatalogUnavailableError";
  }
}

export interface CatalogLoaderOptions {
  config: CatalogConfig;
  connection: ConnectionConfig;
  log: Logger;
  /** For tests: where the public fallback lives. */
  publicUrl?: string;
  /** For tests: a dispatcher instead of the agent of default trust built for the public source. */
  publicDispatcher?: Dispatcher;
  timeoutMs?: number;
  /** Shared by the loaders of several hosts: identical schema bytes are parsed once. */
  cache?: CatalogCache;
  /** For tests: where the public docs live. */
  publicDocsUrl?: string;
  /** The size cap of one docs page (default 4 MiB). */
  docsMaxBytes?: number;
  /** How long searches wait in all for the docs' first load (default 1500 ms). */
  docsGraceMs?: number;
  /** After a failed docs load, how long before the next try (default 60 s). */
  docsRetryAfterMs?: number;
  /** For tests: the docs pages to read (default DOCS_PAGES). */
  docsPages?: readonly string[];
}

interface Plan {
  source: CatalogSource;
  load(signal: AbortSignal): Promise<string>;
  /** Whether a failure of this kind moves on to the next source. */
  fallsBack(failure: SourceFailure): boolean;
}

interface Flight {
  promise: Promise<Catalog>;
  controller: AbortController;
  waiters: number;
}

const LOAD_TIMEOUT_CAP_MS = 60_000;
/**
 * The docs are fetched once the schema is in and never hold up the search that loads the catalog,
 * unless it names one of the CLI tools they describe. Searches wait at most this long in all for
 * the docs' first load (as long as the advice waits for a catalog); after that they answer from
 * the schema alone and say so.
 */
const DOCS_GRACE_MS = 1500;

/**
 * Loads the API viewer schema lazily: PROXMOX_SCHEMA_URL when set, else the cluster's own
 * viewer (its TLS settings, no Authorization), else the public one (public trust only).
 * Concurrent first callers share one load; a failed or cancelled load is forgotten.
 */
export class CatalogLoader implements CatalogProvider {
  private catalog: Catalog | undefined;
  private flight: Flight | undefined;
  private readonly owned: Dispatcher[] = [];
  private clusterAgent: Dispatcher | undefined;
  private publicAgent: Dispatcher | undefined;
  private readonly timeoutMs: number;
  /** Removes what PROXMOX_SCHEMA_URL must not show (userinfo, query values) from failures. */
  private readonly redact: (text: string) => string;
  private readonly docsLoader: DocsLoader | undefined;
  private attached: DocsBundle | undefined;
  /** Until when searches wait for the docs' first load (docsAwaited), on performance.now()'s clock. */
  private docsWaitUntil: number | undefined;

  constructor(private readonly options: CatalogLoaderOptions) {
    this.timeoutMs = options.timeoutMs ?? Math.min(options.connection.timeoutMs, LOAD_TIMEOUT_CAP_MS);
    const { schema, docs } = options.config;
    this.redact = createListRedactor(schema?.kind === "url" ? schema.secrets : []);
    this.publicAgent = options.publicDispatcher;
    for (const [variable, location] of [
      ["PROXMOX_SCHEMA_URL", schema],
      ["PROXMOX_DOCS", docs],
    ] as const) {
      if (location?.kind === "url" && location.dropped.length) {
        options.log.warn(
          `${variable}: the ${location.dropped.join(" and the ")} are not sent; catalog hosts never get credentials`,
        );
      }
    }
    if (docs?.kind !== "off") {
      this.docsLoader = new DocsLoader({
        plans: this.docsPlans(),
        log: options.log,
        ...(options.docsRetryAfterMs !== undefined ? { retryAfterMs: options.docsRetryAfterMs } : {}),
        ...(options.docsPages ? { pages: options.docsPages } : {}),
        onLoaded: (bundle) => this.attach(bundle),
        onIdle: () => this.settle(),
      });
    }
  }

  docs(): DocsStatus {
    return this.docsLoader?.status() ?? { state: "off" };
  }

  /** For tests and tools: resolves once the docs load in flight (if any) has settled. */
  async docsSettled(): Promise<void> {
    await this.docsLoader?.settled();
  }

  /**
   * Waits for the docs' first load, the grace at most in all: the first search to ask waits up to
   * the grace, later ones only for what is left of it, and none waits past its caller's
   * cancellation. So slow docs cost the grace once, and docs that are nearly in (the usual case
   * right after the first answer) are used at once. A load after a failed one, and pages fetched
   * again after a load landed, are never waited for.
   */
  async docsAwaited(signal?: AbortSignal): Promise<void> {
    const docs = this.docsLoader;
    const status = docs?.status();
    if (!docs || status?.state !== "loading" || status.attempts?.length) return;
    this.docsWaitUntil ??= performance.now() + (this.options.docsGraceMs ?? DOCS_GRACE_MS);
    const left = this.docsWaitUntil - performance.now();
    if (left > 0) await docs.settled(left, signal);
  }

  /** Adds docs to the catalog once both are in; a later set of docs (pages retried) replaces the earlier. */
  private attach(bundle: DocsBundle): void {
    if (!this.catalog || this.attached === bundle) return;
    this.attached = bundle;
    this.catalog.attachDocs(bundle.source, bundle.pages);
  }

  /** Closes the agents once neither the schema nor the docs are loading. */
  private settle(): void {
    if (this.catalog && !this.flight && !this.docsLoader?.busy) void this.closeOwned();
  }

  peek(): Catalog | undefined {
    return this.catalog;
  }

  async get(signal?: AbortSignal): Promise<Catalog> {
    if (this.catalog) {
      // Docs that failed (or pages that did) are tried again on a later call, in the background.
      this.docsLoader?.kick();
      return this.catalog;
    }
    if (signal?.aborted) throw new CatalogUnavailableError([], true);
    let flight = this.flight;
    if (!flight) {
      const controller = new AbortController();
      const landed = () => {
        if (this.flight?.controller === controller) this.flight = undefined;
      };
      const promise = this.load(controller.signal).then(
        (catalog) => {
          landed();
          // A load its callers abandoned may still land after the next one: the first catalog in
          // stays, so that the docs started for it are attached to the one searched.
          if (!this.catalog) {
            this.catalog = catalog;
            // The docs are fetched once the schema is in: fetched alongside it, they shared its
            // link and this process, and the schema took about twice as long to come in.
            this.docsLoader?.kick();
          }
          this.settle();
          return this.catalog;
        },
        (error: unknown) => {
          landed();
          throw error;
        },
      );
      promise.catch(() => undefined);
      this.flight = flight = { controller, waiters: 0, promise };
    }
    return this.wait(flight, signal);
  }

  /** Waits for the shared load; the load itself is abandoned only when every waiter has left. */
  private async wait(flight: Flight, signal: AbortSignal | undefined): Promise<Catalog> {
    flight.waiters++;
    let onAbort: (() => void) | undefined;
    try {
      if (!signal) return await flight.promise;
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(new CatalogUnavailableError([], true));
        signal.addEventListener("abort", onAbort, { once: true });
      });
      return await Promise.race([flight.promise, aborted]);
    } finally {
      if (onAbort) signal?.removeEventListener("abort", onAbort);
      flight.waiters--;
      if (flight.waiters === 0 && this.flight === flight && signal?.aborted) {
        this.flight = undefined;
        flight.controller.abort();
      }
    }
  }

  /** Closes the agents this loader built; the catalog stays. */
  async close(): Promise<void> {
    this.flight?.controller.abort();
    this.docsLoader?.close();
    await this.closeOwned();
  }

  private async closeOwned(): Promise<void> {
    const agents = this.owned.splice(0);
    if (this.clusterAgent && agents.includes(this.clusterAgent)) this.clusterAgent = undefined;
    if (this.publicAgent && agents.includes(this.publicAgent)) this.publicAgent = undefined;
    await Promise.all(agents.map((a) => a.close().catch(() => undefined)));
  }

  private cluster(): Dispatcher {
    if (!this.clusterAgent) {
      const { ca, verifyTls } = this.options.connection;
      this.clusterAgent = createAgent({ ca, verifyTls, timeoutMs: this.timeoutMs });
      this.owned.push(this.clusterAgent);
    }
    return this.clusterAgent;
  }

  /** Default public trust: the cluster's private CA and PROXMOX_VERIFY_TLS=false do not apply. */
  private public(): Dispatcher {
    if (!this.publicAgent) {
      this.publicAgent = createAgent({ verifyTls: true, timeoutMs: this.timeoutMs });
      this.owned.push(this.publicAgent);
    }
    return this.publicAgent;
  }

  private plans(): Plan[] {
    const schema = this.options.config.schema;
    const never = () => false;
    if (schema?.kind === "file") {
      return [
        {
          source: { kind: "configured", location: schema.path },
          load: (signal) => this.loadFile(schema.path, signal),
          fallsBack: never,
        },
      ];
    }
    if (schema?.kind === "url") {
      const sameOrigin = schema.url.origin === this.options.connection.origin;
      return [
        {
          source: { kind: "configured", location: schema.display },
          load: (signal) => this.loadUrl(schema.url, sameOrigin ? this.cluster() : this.public(), signal),
          fallsBack: never,
        },
      ];
    }
    const clusterUrl = new URL(VIEWER_PATH, this.options.connection.origin);
    const publicUrl = new URL(this.options.publicUrl ?? PUBLIC_SCHEMA_URL);
    return [
      {
        source: { kind: "cluster", location: clusterUrl.href },
        load: (signal) => this.loadUrl(clusterUrl, this.cluster(), signal),
        fallsBack: (failure) => failure.kind === "missing" || failure.kind === "unreachable",
      },
      {
        source: { kind: "public", location: publicUrl.href },
        load: (signal) => this.loadUrl(publicUrl, this.public(), signal),
        fallsBack: never,
      },
    ];
  }

  /**
   * Where the docs come from, in the schema's order and with its trust: PROXMOX_DOCS when it
   * names a place; else beside PROXMOX_SCHEMA_URL (its directory, or the pve-docs directory
   * above api-viewer/); else the cluster's /pve-docs/, then the public site.
   */
  private docsPlans(): DocsPlan[] {
    const { docs, schema } = this.options.config;
    const place: SchemaLocation | undefined =
      docs?.kind === "url" || docs?.kind === "file" ? docs : schema ? besideSchema(schema) : undefined;
    const maxBytes = this.options.docsMaxBytes ?? MAX_DOCS_PAGE_BYTES;
    const fetchOptions = (dispatcher: Dispatcher, signal: AbortSignal) =>
      this.fetchOptions(dispatcher, signal, maxBytes);
    const trust = (url: URL) =>
      url.origin === this.options.connection.origin ? () => this.cluster() : () => this.public();
    if (place?.kind === "file") {
      return [dirPlan({ kind: "configured", location: place.path }, place.path, maxBytes)];
    }
    if (place?.kind === "url") {
      return [
        urlPlan({ kind: "configured", location: place.display }, place.url, trust(place.url), fetchOptions, false),
      ];
    }
    const clusterUrl = new URL(DOCS_PATH, this.options.connection.origin);
    const publicUrl = new URL(this.options.publicDocsUrl ?? PUBLIC_DOCS_URL);
    return [
      urlPlan({ kind: "cluster", location: clusterUrl.href }, clusterUrl, () => this.cluster(), fetchOptions, true),
      urlPlan({ kind: "public", location: publicUrl.href }, publicUrl, () => this.public(), fetchOptions, false),
    ];
  }

  private async load(signal: AbortSignal): Promise<Catalog> {
    const attempts: Attempt[] = [];
    for (const plan of this.plans()) {
      try {
        const text = await plan.load(signal);
        const catalog = this.parse(text, plan.source);
        this.options.log.info(
          `API catalog loaded from the ${plan.source.kind} source ${plan.source.location}: ${catalog.size} endpoints`,
        );
        if (catalog.skipped.length) {
          this.options.log.warn(
            `API catalog: ${catalog.skipped.length} malformed methods skipped, e.g. ${catalog.skipped[0]!.method} ${catalog.skipped[0]!.path}`,
          );
        }
        return catalog;
      } catch (error) {
        const failure =
          error instanceof SourceFailure
            ? error
            : new SourceFailure("invalid", this.redact(error instanceof Error ? error.message : String(error)));
        if (failure.kind === "cancelled" || signal.aborted) throw new CatalogUnavailableError(attempts, true);
        attempts.push({ source: plan.source, outcome: failure.message });
        if (!plan.fallsBack(failure)) break;
        this.options.log.warn(
          `API catalog: the ${plan.source.kind} source ${plan.source.location} ${failure.message}; trying the next one`,
        );
      }
    }
    throw new CatalogUnavailableError(attempts, false);
  }

  private parse(text: string, source: CatalogSource): Catalog {
    try {
      return this.options.cache ? this.options.cache.parse(text, source) : Catalog.fromText(text, source);
    } catch (error) {
      if (error instanceof SchemaParseError)
        throw new SourceFailure("invalid", `is not a usable API schema: ${error.message}`);
      throw error;
    }
  }

  private fetchOptions(dispatcher: Dispatcher, signal: AbortSignal, maxBytes = MAX_SCHEMA_BYTES) {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    return {
      dispatcher,
      signal: AbortSignal.any([signal, deadline]),
      deadline,
      timeoutMs: this.timeoutMs,
      maxBytes,
      redact: this.redact,
    };
  }

  private async loadUrl(url: URL, dispatcher: Dispatcher, signal: AbortSignal): Promise<string> {
    const options = this.fetchOptions(dispatcher, signal);
    const page: Fetched = await fetchCapped(url, options);
    if (!looksLikeHtml(page)) return page.text;
    const src = findApidocScript(page.text);
    if (!src) throw new SourceFailure("invalid", "is an HTML page without an apidoc.js script");
    const script = resolveScriptUrl(src, url);
    try {
      return (await fetchCapped(script, options)).text;
    } catch (error) {
      if (error instanceof SourceFailure)
        throw new SourceFailure(
          error.kind,
          `loads ${this.redact(script.origin + script.pathname)}, which ${error.message}`,
        );
      throw error;
    }
  }

  private async loadFile(path: string, signal: AbortSignal): Promise<string> {
    const page = await readCappedFile(path, MAX_SCHEMA_BYTES, signal);
    if (!looksLikeHtml(page)) return page.text;
    const src = findApidocScript(page.text);
    if (!src) throw new SourceFailure("invalid", "is an HTML page without an apidoc.js script");
    const script = resolveScriptFile(src, path);
    try {
      return (await readCappedFile(script, MAX_SCHEMA_BYTES, signal)).text;
    } catch (error) {
      if (error instanceof SourceFailure)
        throw new SourceFailure(error.kind, `loads ${script}, which ${error.message}`);
      throw error;
    }
  }
}

/**
 * The pve-docs directory beside a schema location: the one above api-viewer/ when the schema
 * sits in the viewer's directory (as on a node), else the schema's own directory.
 */
export function besideSchema(schema: SchemaLocation): SchemaLocation {
  if (schema.kind === "url") {
    const path = schema.url.pathname;
    const viewer = path.lastIndexOf("/api-viewer/");
    const dir = viewer >= 0 ? path.slice(0, viewer + 1) : path.slice(0, path.lastIndexOf("/") + 1);
    const url = new URL(dir, schema.url);
    return { kind: "url", url, display: url.href, dropped: [], secrets: schema.secrets };
  }
  const dir = dirname(schema.path);
  return { kind: "file", path: basename(dir) === "api-viewer" ? dirname(dir) : dir };
}

/** A provider around a catalog already in hand (tests, embedding). */
export function staticCatalogProvider(catalog: Catalog): CatalogProvider {
  return { get: async () => catalog, peek: () => catalog };
}
