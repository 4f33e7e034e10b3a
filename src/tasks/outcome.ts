/** Whether a stopped task succeeded: OK, or WARNINGS: n (ok, with the warnings noted). */
export function judgeExitStatus(exitstatus: string | undefined): { ok: boolean; warnings?: number } {
  if (exitstatus === "OK") return { ok: true };
  const warnings = /^WARNINGS: (\d+)$/.exec(exitstatus ?? "");
  if (warnings) return { ok: true, warnings: Number(warnings[1]) };
  return { ok: false };
}

/** Delays between status polls: quick at first (most tasks end within seconds), then every few seconds. */
export function pollDelay(attempt: number, initialMs: number, maxMs: number): number {
  return Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 16));
}
