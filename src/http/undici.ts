// The one place that imports undici. Under Bun, a bare `import "undici"` resolves to
// Bun's built-in stand-in, which silently ignores `dispatcher`, `ca` and
// `rejectUnauthorized`; explicit file paths load the real package.
//
// Only what this server uses is loaded, and only when the first request is made: undici's
// index.js also evaluates fetch, WebSocket, caches, mocks, proxy agents and more, a large share
// of every start (docs/performance.md, Startup). The files below are the ones index.js itself
// exports as Agent and request in the pinned version (test/e2e/lazy-startup.test.ts checks that).
import { EventEmitter } from "node:events";
import type { Agent as UndiciAgent, Dispatcher } from "undici/index.js";

export type { Dispatcher };
export type Agent = UndiciAgent;

type RequestOptions = { dispatcher: Dispatcher } & Omit<Dispatcher.RequestOptions, "origin" | "path" | "method"> &
  Partial<Pick<Dispatcher.RequestOptions, "method">>;

interface Undici {
  Agent: typeof UndiciAgent;
  /** undici's request as a method of the dispatcher it runs on (what index.js wraps). */
  dispatcherRequest: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  parseURL: (url: string | URL) => URL;
}

let loaded: Undici | undefined;

function undici(): Undici {
  loaded ??= {
    Agent: require("undici/lib/dispatcher/agent.js"),
    dispatcherRequest: require("undici/lib/api/api-request.js"),
    parseURL: require("undici/lib/core/util.js").parseURL,
  };
  return loaded;
}

/** undici's request(url, options) on the given dispatcher, without the first-use check. */
function dispatchRequest(url: string | URL, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { dispatcherRequest, parseURL } = undici();
  const { dispatcher, ...rest } = options;
  if (!dispatcher) throw new TypeError("every request names its dispatcher; the global one is never used");
  const target = parseURL(url);
  return dispatcherRequest.call(dispatcher, {
    ...rest,
    origin: target.origin,
    path: target.search ? `${target.pathname}${target.search}` : target.pathname,
    method: options.method || (options.body ? "PUT" : "GET"),
  });
}

let realUndiciChecked: Promise<void> | undefined;

/**
 * undici's request: loads undici on first use and proves there, before anything is sent, that
 * it is the real package (assertRealUndici). If it is not, this and every later request fail.
 */
export async function request(url: string | URL, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  realUndiciChecked ??= assertRealUndici(undici().Agent, dispatchRequest);
  await realUndiciChecked;
  return dispatchRequest(url, options);
}

const FORWARDED_EVENTS = ["connect", "disconnect", "connectionError", "drain"] as const;

/**
 * undici's Agent, built on its first dispatch, so that creating a client at startup does not
 * load undici. It forwards the agent's events. Use it with request() from this module; like
 * every dispatcher loaded without undici's index.js, it has no request()/stream() methods.
 */
class LazyAgent extends EventEmitter {
  #agent: UndiciAgent | undefined;
  #closed = false;

  constructor(private readonly options?: UndiciAgent.Options) {
    super();
  }

  #real(): UndiciAgent {
    if (!this.#agent) {
      const agent = new (undici().Agent)(this.options);
      for (const event of FORWARDED_EVENTS) {
        (agent as EventEmitter).on(event, (...args: unknown[]) => this.emit(event, ...args));
      }
      // Closed before its first use: undici then refuses the request as for any closed agent.
      if (this.#closed) agent.destroy().catch(() => undefined);
      this.#agent = agent;
    }
    return this.#agent;
  }

  dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return this.#real().dispatch(options, handler);
  }

  close(): Promise<void> {
    if (this.#agent) return this.#agent.close();
    this.#closed = true;
    return Promise.resolve();
  }

  destroy(error?: Error | null): Promise<void> {
    if (this.#agent) return this.#agent.destroy(error ?? null);
    this.#closed = true;
    return Promise.resolve();
  }
}

// Typed as undici's Agent: it is one once dispatched, and every dispatcher passes through request().
export const Agent = LazyAgent as unknown as typeof UndiciAgent;

/** The first value of a response header, or "" when it is absent. */
export function firstHeader(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? "";
}

export interface AgentOptions {
  /** PEM bundle trusted for this agent only; undefined means the default public trust. */
  ca?: string | undefined;
  /** false disables certificate verification for this agent only. */
  verifyTls: boolean;
  /** Bounds the wait for response headers and each pause in the body. */
  timeoutMs: number;
}

export function createAgent(options: AgentOptions): Agent {
  return new Agent({
    connect: {
      rejectUnauthorized: options.verifyTls,
      ...(options.ca === undefined ? {} : { ca: options.ca }),
    },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connectTimeout: Math.min(options.timeoutMs, 30_000),
    keepAliveTimeout: 30_000,
  });
}

/**
 * Proves that the Agent and request in use are the real undici ones: a request with a
 * dispatcher must go through that dispatcher's `dispatch`. Bun's stand-in would skip it and
 * with it every trust setting. request() runs this before its first request.
 */
export async function assertRealUndici(
  AgentClass: typeof Agent = Agent,
  requestFn: typeof request = request,
): Promise<void> {
  const sentinel = new Error("probe dispatched");
  const probe = new AgentClass();
  probe.dispatch = () => {
    throw sentinel;
  };
  let outcome: unknown = "request resolved without dispatching";
  try {
    await requestFn("http://127.0.0.1:9/", { dispatcher: probe });
  } catch (error) {
    outcome = error;
  } finally {
    // Bun's stand-in has no close(); the real Agent does.
    await (probe as Partial<Agent>).close?.().catch(() => undefined);
  }
  if (outcome !== sentinel) {
    // No "TLS" or "certificate" here: the client would take this for a handshake failure.
    throw new Error(
      "the undici Agent did not dispatch: Bun's built-in undici stand-in was loaded, which ignores the dispatcher and the trust settings on it; nothing was sent. Rebuild or reinstall proxmox-ve-mcp",
    );
  }
}
