/**
 * A signal that aborts when the caller's does or when `ms` have passed, released at once by
 * `done()`.
 *
 * `AbortSignal.any([caller, AbortSignal.timeout(ms)])` would do the same, but its timer and the
 * links between the signals stay until the timer fires: with the 120 s default timeout and
 * hundreds of calls a second, that is tens of thousands of live timers and signals, and the
 * server's memory follows (docs/performance.md, "Memory under sustained load").
 */
export interface Deadline {
  readonly signal: AbortSignal;
  /** Whether the time ran out (not the caller's cancellation). */
  timedOut(): boolean;
  /** Clears the timer and the caller link; call it once the work is over, however it ended. */
  done(): void;
}

export function withDeadline(caller: AbortSignal | undefined, ms: number): Deadline {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DOMException(`The operation timed out after ${ms} ms.`, "TimeoutError"));
  }, ms);
  const follow = () => controller.abort(caller?.reason);
  if (caller?.aborted) follow();
  else caller?.addEventListener("abort", follow, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    done: () => {
      clearTimeout(timer);
      caller?.removeEventListener("abort", follow);
    },
  };
}

/**
 * What `work` resolves to, or undefined when `ms` pass first; the timer is cleared either way.
 * The work itself goes on (a load that serves later calls, a server that keeps stopping).
 */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
