// The cluster's own documentation (the pve-docs package: man pages and admin guide chapters)
// as a second, optional catalog source. Loaded in the background with the schema's rules: the
// same source order and trust, no credentials, no redirects, a size cap per page, a deadline,
// one load in flight, and a failure that is forgotten (tried again later) rather than kept.
// Search never waits for it beyond a short grace and never fails because of it.
import type { Logger } from "../log.ts";
import { parseDocsPage } from "./docs-html.ts";
import { attemptsText, type Attempt, type CatalogSource, type DocsPage } from "./model.ts";
import { fetchCapped, readCappedFile, SourceFailure, type FetchOptions } from "./source.ts";
import { withDeadline } from "../http/deadline.ts";
import type { Dispatcher } from "../http/undici.ts";

/**
 * The pages read: every man page whose SYNOPSIS lists subcommands the API answers, and the
 * admin guide chapters that have no man page (host administration, SDN, notifications).
 * A man page holds its chapter's text too, so the other chapters would only repeat it.
 */
export const DOCS_PAGES = [
  "qm.1.html",
  "pct.1.html",
  "pvesm.1.html",
  "pveam.1.html",
  "pvesr.1.html",
  "ha-manager.1.html",
  "pveum.1.html",
  "pvecm.1.html",
  "pvenode.1.html",
  "pveceph.1.html",
  "vzdump.1.html",
  "qmrestore.1.html",
  "pvesh.1.html",
  "pve-firewall.8.html",
  "pvesubscription.1.html",
  "chapter-sysadmin.html",
  "chapter-pvesdn.html",
  "chapter-notifications.html",
  // The cluster file system's chapter, for its tables of what each file of /etc/pve holds
  // ("datacenter.cfg", "storage.cfg"); its man page has the same tables, and a SYNOPSIS of no
  // command the API answers.
  "chapter-pmxcfs.html",
] as const;

/** The CLI tools whose man pages are read ("qm.1.html" documents qm). */
export const DOCS_TOOLS: ReadonlySet<string> = new Set(
  DOCS_PAGES.filter((p) => /^[a-z-]+\.\d\.html$/.test(p)).map((p) => p.replace(/\.\d\.html$/, "")),
);

/** Whether a query names one of those tools, so the docs are what answers it. */
export function namesDocsTool(query: string): boolean {
  return query
    .toLowerCase()
    .split(/\s+/)
    .some((word) => DOCS_TOOLS.has(word) && word !== "pvesh");
}

export const DOCS_PATH = "/pve-docs/";
export const PUBLIC_DOCS_URL = `https://pve.proxmox.com${DOCS_PATH}`;
/** The largest page is about 0.7 MiB (qm.1.html); a page over this is not a docs page. */
export const MAX_DOCS_PAGE_BYTES = 4 * 1024 * 1024;
/** Pages fetched at once from one host. */
const CONCURRENCY = 6;
/** After a failed load, the next one waits this long (the cache is not poisoned, just not hammered). */
const RETRY_AFTER_MS = 60_000;

/** Where the pages can come from, tried in order. */
export interface DocsPlan {
  source: CatalogSource;
  /** The text of one page; throws SourceFailure. */
  read(page: string, signal: AbortSignal): Promise<string>;
  /** Whether a source that has none of the pages (missing or unreachable) moves on to the next. */
  fallsBack: boolean;
}

export interface PageOutcome {
  page: string;
  outcome: string;
}

/** The docs as loaded: the parsed pages and what happened to the others. */
export interface DocsBundle {
  source: CatalogSource;
  pages: DocsPage[];
  skipped: PageOutcome[];
}

export type DocsStatus =
  | { state: "off" }
  /** Loading; after a failed load, what that one met. */
  | { state: "loading"; attempts?: Attempt[] }
  | { state: "loaded"; bundle: DocsBundle }
  | { state: "unavailable"; attempts: Attempt[] };

export interface DocsLoaderOptions {
  plans: DocsPlan[];
  log: Logger;
  pages?: readonly string[];
  retryAfterMs?: number;
  /** Called with each new set of docs (first load, or pages that came in on a retry). */
  onLoaded?: (bundle: DocsBundle) => void;
  /** Called when a load settles, whatever its outcome. */
  onIdle?: () => void;
}

interface PageResult {
  page: string;
  parsed?: DocsPage;
  failure?: SourceFailure;
}

/** A failure worth trying again later: no answer, a timeout, a server error. */
const transient = (f: SourceFailure) => f.kind === "unreachable" || f.kind === "http" || f.kind === "cancelled";

/** Loads the docs pages in the background; one load at a time, never on the caller's time. */
export class DocsLoader {
  private state: DocsStatus;
  private flight: Promise<void> | undefined;
  private readonly controller = new AbortController();
  private failedAt = -Infinity;
  /** Pages that failed for a passing reason, fetched again (from the same source) on a later kick. */
  private retry: { plan: DocsPlan; pages: string[] } | undefined;
  private readonly pages: readonly string[];
  private readonly retryAfterMs: number;

  constructor(private readonly options: DocsLoaderOptions) {
    this.pages = options.pages ?? DOCS_PAGES;
    this.retryAfterMs = options.retryAfterMs ?? RETRY_AFTER_MS;
    this.state = options.plans.length === 0 ? { state: "off" } : { state: "loading" };
  }

  status(): DocsStatus {
    return this.state;
  }

  /** Starts a load when there is something to load and nothing in flight; never waits. */
  kick(): void {
    if (this.flight || this.controller.signal.aborted || this.options.plans.length === 0) return;
    if (Date.now() - this.failedAt < this.retryAfterMs) return;
    if (this.state.state === "loaded") {
      if (!this.retry) return;
      this.flight = this.track(this.loadAgain(this.retry));
    } else {
      if (this.state.state === "unavailable") this.state = { state: "loading", attempts: this.state.attempts };
      this.flight = this.track(this.loadAll());
    }
  }

  /**
   * Resolves when the load in flight (if any) settles; given `ms`, also once they pass or
   * `signal` aborts, whichever is first.
   */
  async settled(ms = Infinity, signal?: AbortSignal): Promise<void> {
    const flight = this.flight;
    if (!flight) return;
    if (ms === Infinity) return flight;
    const deadline = withDeadline(signal, ms);
    try {
      if (deadline.signal.aborted) return;
      const over = new Promise<void>((resolve) => deadline.signal.addEventListener("abort", () => resolve()));
      await Promise.race([flight, over]);
    } finally {
      deadline.done();
    }
  }

  /** Whether a load is in flight. */
  get busy(): boolean {
    return this.flight !== undefined;
  }

  close(): void {
    this.controller.abort();
  }

  private track(work: Promise<void>): Promise<void> {
    const flight = work
      .catch((error: unknown) => {
        this.options.log.warn(`docs: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        if (this.flight === flight) this.flight = undefined;
        this.options.onIdle?.();
      });
    return flight;
  }

  private async loadAll(): Promise<void> {
    const attempts: Attempt[] = [];
    for (const plan of this.options.plans) {
      const results = await this.fetchPages(plan, this.pages);
      if (this.controller.signal.aborted) return;
      const parsed = results.filter((r) => r.parsed).map((r) => r.parsed!);
      const failures = results.filter((r) => r.failure);
      if (parsed.length > 0) {
        this.land(plan, parsed, results);
        return;
      }
      const outcome = summarize(failures);
      attempts.push({ source: plan.source, outcome });
      const absent = failures.every((r) => r.failure!.kind === "missing" || r.failure!.kind === "unreachable");
      if (!plan.fallsBack || !absent) break;
      this.options.log.warn(
        `docs: the ${plan.source.kind} source ${plan.source.location} ${outcome}; trying the next one`,
      );
    }
    this.failedAt = Date.now();
    this.state = { state: "unavailable", attempts };
    this.options.log.warn(`docs: none loaded (${attemptsText(attempts)}); search uses the schema alone`);
  }

  private async loadAgain(retry: { plan: DocsPlan; pages: string[] }): Promise<void> {
    const results = await this.fetchPages(retry.plan, retry.pages);
    if (this.controller.signal.aborted || this.state.state !== "loaded") return;
    const parsed = results.filter((r) => r.parsed).map((r) => r.parsed!);
    const previous = this.state.bundle;
    const kept = previous.skipped.filter((s) => !retry.pages.includes(s.page));
    this.land(retry.plan, [...previous.pages, ...parsed], results, kept);
  }

  private land(plan: DocsPlan, pages: DocsPage[], results: PageResult[], keptSkips: PageOutcome[] = []): void {
    const failed = results.filter((r) => r.failure);
    const again = failed.filter((r) => transient(r.failure!)).map((r) => r.page);
    this.retry = again.length ? { plan, pages: again } : undefined;
    if (again.length) this.failedAt = Date.now();
    const bundle: DocsBundle = {
      source: plan.source,
      pages,
      skipped: [...keptSkips, ...failed.map((r) => ({ page: r.page, outcome: r.failure!.message }))],
    };
    this.state = { state: "loaded", bundle };
    const commands = pages.reduce((n, p) => n + p.commands.length, 0);
    this.options.log.info(
      `docs loaded from the ${plan.source.kind} source ${plan.source.location}: ${pages.length} pages, ${commands} CLI commands` +
        (bundle.skipped.length ? `; skipped ${bundle.skipped.map((s) => `${s.page} (${s.outcome})`).join(", ")}` : ""),
    );
    this.options.onLoaded?.(bundle);
  }

  /** Fetches and parses pages, a few at a time; each page's failure is its own. */
  private async fetchPages(plan: DocsPlan, pages: readonly string[]): Promise<PageResult[]> {
    const results: PageResult[] = [];
    let next = 0;
    const worker = async () => {
      while (next < pages.length && !this.controller.signal.aborted) {
        const page = pages[next++]!;
        try {
          const text = await plan.read(page, this.controller.signal);
          const parsed = await parseDocsPage(page, text);
          if (parsed.commands.length === 0 && parsed.examples.length === 0 && parsed.sections.length === 0)
            results.push({ page, failure: new SourceFailure("invalid", "is not a pve-docs page") });
          else results.push({ page, parsed });
        } catch (error) {
          const failure =
            error instanceof SourceFailure
              ? error
              : new SourceFailure("invalid", `could not be read: ${error instanceof Error ? error.message : error}`);
          results.push({ page, failure });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pages.length) }, worker));
    return results;
  }
}

/** "qm.1.html answered HTTP 404 ...; 17 more alike", for one line of log or answer. */
function summarize(failures: PageResult[]): string {
  if (failures.length === 0) return "had no pages";
  const first = failures[0]!;
  const alike = failures.filter((f) => f.failure!.message === first.failure!.message).length - 1;
  const other = failures.length - 1 - alike;
  return `${first.page} ${first.failure!.message}${alike ? ` (and ${alike} more pages alike)` : ""}${other ? `; ${other} other failures` : ""}`;
}

/** A plan reading pages from a base URL with one dispatcher (its trust) and the catalog's fetch rules. */
export function urlPlan(
  source: CatalogSource,
  base: URL,
  dispatcher: () => Dispatcher,
  fetchOptions: (dispatcher: Dispatcher, signal: AbortSignal) => FetchOptions,
  fallsBack: boolean,
): DocsPlan {
  return {
    source,
    fallsBack,
    read: async (page, signal) => {
      const url = new URL(page, base);
      return (await fetchCapped(url, { ...fetchOptions(dispatcher(), signal), accept: "text/html" })).text;
    },
  };
}

/** A plan reading pages from a local directory (air-gapped sites). */
export function dirPlan(source: CatalogSource, dir: string, maxBytes: number): DocsPlan {
  return {
    source,
    fallsBack: false,
    read: async (page, signal) => (await readCappedFile(`${dir.replace(/\/+$/, "")}/${page}`, maxBytes, signal)).text,
  };
}
