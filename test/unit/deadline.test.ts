import { describe, expect, test } from "bun:test";
import { withDeadline } from "../../src/http/deadline.ts";

const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));

describe("withDeadline", () => {
  test("aborts with a TimeoutError when the time runs out, and says so", async () => {
    const deadline = withDeadline(undefined, 5);
    await aborted(deadline.signal);
    expect(deadline.timedOut()).toBe(true);
    expect((deadline.signal.reason as DOMException).name).toBe("TimeoutError");
    deadline.done();
  });

  test("follows the caller's cancellation with the caller's reason, not as a timeout", () => {
    const caller = new AbortController();
    const deadline = withDeadline(caller.signal, 60_000);
    caller.abort(new Error("client cancelled"));
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as Error).message).toBe("client cancelled");
    expect(deadline.timedOut()).toBe(false);
    deadline.done();
  });

  test("a caller that was already cancelled aborts it at once", () => {
    const deadline = withDeadline(AbortSignal.abort("gone"), 60_000);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe("gone");
    deadline.done();
  });

  test("done() clears the timer and unhooks from the caller", async () => {
    const caller = new AbortController();
    const deadline = withDeadline(caller.signal, 5);
    deadline.done();
    caller.abort();
    // a 5 ms timer that was not cleared would have fired during this 30 ms wait
    await Bun.sleep(30);
    expect(deadline.signal.aborted).toBe(false);
    expect(deadline.timedOut()).toBe(false);
  });
});
