// Byte counting for uploads and downloads, and the stall rule that reads it: a transfer that
// moves fewer than `bytesPerSecond` for `windowMs` is given up (curl's --speed-limit and
// --speed-time). The rule is a pure function of samples; the watcher around it only samples.

/** Below `bytesPerSecond` for `windowMs`, a transfer counts as stalled. */
export interface StallRule {
  bytesPerSecond: number;
  windowMs: number;
}

/** Cumulative bytes moved by time `at` (milliseconds on any monotonic clock). */
export interface Sample {
  at: number;
  bytes: number;
}

export interface RateVerdict {
  stalled: boolean;
  /** Bytes moved since the reference sample (0 when the transfer is younger than the window). */
  moved: number;
  /** Milliseconds since the reference sample (0 when there is none yet). */
  spanMs: number;
}

/**
 * Judges the transfer at `now` from earlier samples, oldest first. The reference is the newest
 * sample at least one window old: the transfer is stalled when it averaged less than the rule's
 * rate since then. When the samples are coarse the reference is older than a window, which only
 * counts more bytes, so a transfer that keeps moving at the rate is never judged stalled.
 */
export function judgeRate(samples: readonly Sample[], now: Sample, rule: StallRule): RateVerdict {
  let reference: Sample | undefined;
  for (const sample of samples) {
    if (sample.at > now.at - rule.windowMs) break;
    reference = sample;
  }
  if (!reference) return { stalled: false, moved: 0, spanMs: 0 };
  const moved = now.bytes - reference.bytes;
  const spanMs = now.at - reference.at;
  return { stalled: moved * 1000 < rule.bytesPerSecond * spanMs, moved, spanMs };
}

/** The samples a later judgeRate at or after `now` can still use as its reference, oldest first. */
export function keptSamples(samples: readonly Sample[], now: number, windowMs: number): Sample[] {
  let first = 0;
  for (let i = 0; i < samples.length; i++) if (samples[i]!.at <= now - windowMs) first = i;
  return samples.slice(first);
}

/** The bytes a transfer has moved so far, and its size when known. */
export class TransferMeter {
  bytes = 0;
  constructor(readonly total?: number) {}

  add(bytes: number): void {
    this.bytes += bytes;
  }
}

/** How often the watcher samples: a small fraction of the window, at most once a second. */
export function sampleEveryMs(windowMs: number): number {
  return Math.min(1000, Math.max(10, Math.floor(windowMs / 8)));
}

/**
 * Samples `meter` until stopped and calls `onStall` once when the rule says the transfer
 * stalled. Returns the function that stops it.
 */
export function watchStall(
  meter: TransferMeter,
  rule: StallRule | undefined,
  onStall: (verdict: RateVerdict) => void,
): () => void {
  if (!rule) return () => {};
  const every = sampleEveryMs(rule.windowMs);
  let samples: Sample[] = [{ at: performance.now(), bytes: meter.bytes }];
  const timer = setInterval(() => {
    const now = { at: performance.now(), bytes: meter.bytes };
    // A late tick means this process did not run for a while, which says nothing about the peer.
    const late = now.at - samples[samples.length - 1]!.at > 3 * every;
    const verdict = judgeRate(samples, now, rule);
    if (verdict.stalled && !late) {
      clearInterval(timer);
      onStall(verdict);
      return;
    }
    samples.push(now);
    samples = keptSamples(samples, now.at, rule.windowMs);
  }, every);
  timer.unref?.();
  return () => clearInterval(timer);
}

/** Reports bytes moved so far (and the size, when known) every `everyMs` until stopped. */
export type ProgressReport = (bytes: number, total: number | undefined) => void;

export function watchProgress(meter: TransferMeter, report: ProgressReport | undefined, everyMs = 250): () => void {
  if (!report) return () => {};
  const timer = setInterval(() => report(meter.bytes, meter.total), everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
