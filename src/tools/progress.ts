// MCP progress notifications for long work (task waits, transfers). Sent only when the client
// asked for them with a progressToken; throttled; the last one is always sent.
import type { ServerNotification } from "@modelcontextprotocol/sdk/types.js";

/** The part of a tool handler's `extra` that progress needs. */
export interface ProgressContext {
  _meta?: { progressToken?: string | number | undefined } | undefined;
  sendNotification(notification: ServerNotification): Promise<void>;
}

export interface Progress {
  /** A step of the work; dropped when it comes too soon after the last one sent. */
  update(progress: number, total?: number, message?: string): void;
  /** The last notification of the work; always sent. */
  finish(progress: number, total?: number, message?: string): Promise<void>;
  /** The same stream for a next phase, whose progress counts on from `base` (no total). */
  after(base: number): Progress;
}

export const PROGRESS_INTERVAL_MS = 250;

/**
 * Which updates go out: at most one per interval, progress strictly increasing (the spec's
 * rule), and an update that reaches the total is left to the final notification.
 */
export class ProgressThrottle {
  private lastSentAt = Number.NEGATIVE_INFINITY;
  private lastProgress = Number.NEGATIVE_INFINITY;

  constructor(private readonly intervalMs: number = PROGRESS_INTERVAL_MS) {}

  admit(now: number, progress: number, total?: number): boolean {
    if (progress <= this.lastProgress) return false;
    if (total !== undefined && progress >= total) return false;
    if (now - this.lastSentAt < this.intervalMs) return false;
    this.lastSentAt = now;
    this.lastProgress = progress;
    return true;
  }

  admitFinal(progress: number): boolean {
    if (progress <= this.lastProgress) return false;
    this.lastProgress = progress;
    return true;
  }
}

/** A Progress for this tool call, or undefined when the client gave no progressToken. */
export function progressFor(extra: ProgressContext, now: () => number = Date.now): Progress | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  const throttle = new ProgressThrottle();
  const send = (progress: number, total: number | undefined, message: string | undefined) =>
    extra
      .sendNotification({
        method: "notifications/progress",
        params: {
          progressToken: token,
          progress,
          ...(total !== undefined ? { total } : {}),
          ...(message ? { message } : {}),
        },
      })
      // a client that went away must not turn finished work into a failure
      .catch(() => undefined);
  const phase = (base: number): Progress => ({
    update(progress, total, message) {
      if (throttle.admit(now(), base + progress, total)) void send(base + progress, total, message);
    },
    async finish(progress, total, message) {
      if (throttle.admitFinal(base + progress)) await send(base + progress, total, message);
    },
    after: (next) => phase(base + next),
  });
  return phase(0);
}
