// The one place that imports undici. Under Bun, a bare `import "undici"` resolves to
// Bun's built-in stand-in, which silently ignores `dispatcher`, `ca` and
// `rejectUnauthorized`; the explicit file path loads the real package.
import { Agent, request } from "undici/index.js";
import type { Dispatcher } from "undici/index.js";

export { Agent, request };
export type { Dispatcher };

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
 * Proves at startup that the imported Agent is the real undici one: a request with a
 * dispatcher must go through that dispatcher's `dispatch`. Bun's stand-in would skip it
 * and with it every TLS setting.
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
    throw new Error(
      "the undici Agent did not dispatch: Bun's built-in undici stand-in was loaded, so TLS settings would be ignored",
    );
  }
}
