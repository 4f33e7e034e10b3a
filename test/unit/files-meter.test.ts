import { describe, expect, test } from "bun:test";
import {
  judgeRate,
  keptSamples,
  sampleEveryMs,
  TransferMeter,
  watchStall,
  type Sample,
  type StallRule,
} from "../../src/files/meter.ts";

const RULE: StallRule = { bytesPerSecond: 1024, windowMs: 60_000 };

/** Samples every `stepMs` from 0 up to (not including) `untilMs`, with `bytesAt(t)` cumulative bytes. */
function samples(stepMs: number, untilMs: number, bytesAt: (t: number) => number): Sample[] {
  const out: Sample[] = [];
  for (let t = 0; t < untilMs; t += stepMs) out.push({ at: t, bytes: bytesAt(t) });
  return out;
}

describe("judgeRate", () => {
  const cases: [string, Sample[], Sample, boolean, number][] = [
    ["younger than the window: never stalled", samples(1000, 59_000, () => 0), { at: 59_000, bytes: 0 }, false, 0],
    ["nothing for a whole window", samples(1000, 60_000, () => 0), { at: 60_000, bytes: 0 }, true, 0],
    [
      "1 byte/s (the attack's trickle) for a window",
      samples(1000, 60_000, (t) => t / 1000),
      { at: 60_000, bytes: 60 },
      true,
      60,
    ],
    [
      "just under the rate",
      samples(1000, 60_000, (t) => (t / 1000) * 1023),
      { at: 60_000, bytes: 60 * 1023 },
      true,
      60 * 1023,
    ],
    [
      "exactly the rate",
      samples(1000, 60_000, (t) => (t / 1000) * 1024),
      { at: 60_000, bytes: 60 * 1024 },
      false,
      60 * 1024,
    ],
    [
      "slow but moving (2 KiB/s) for an hour",
      samples(1000, 3_600_000, (t) => (t / 1000) * 2048),
      { at: 3_600_000, bytes: 3600 * 2048 },
      false,
      60 * 2048,
    ],
    [
      "fast, then silent for less than a window",
      samples(1000, 100_000, (t) => Math.min(t, 50_000) * 1000),
      { at: 100_000, bytes: 50_000_000 },
      false,
      10_000_000,
    ],
    [
      "fast, then silent for a whole window",
      samples(1000, 120_000, (t) => Math.min(t, 50_000) * 1000),
      { at: 120_000, bytes: 50_000_000 },
      true,
      0,
    ],
    [
      "one burst in the window is enough",
      samples(1000, 120_000, (t) => (t >= 90_000 ? 100_000 : 0)),
      { at: 120_000, bytes: 100_000 },
      false,
      100_000,
    ],
    // Coarse samples: the reference is older than a window and the average is over the longer span.
    [
      "coarse samples, slow but moving",
      [
        { at: 0, bytes: 0 },
        { at: 50_000, bytes: 100_000 },
      ],
      { at: 90_000, bytes: 100_000 },
      false,
      100_000,
    ],
    [
      "coarse samples, stalled",
      [
        { at: 0, bytes: 0 },
        { at: 50_000, bytes: 1000 },
      ],
      { at: 90_000, bytes: 1000 },
      true,
      1000,
    ],
  ];
  test.each(cases)("%s", (_what, history, now, stalled, moved) => {
    const verdict = judgeRate(history, now, RULE);
    expect(verdict.stalled).toBe(stalled);
    expect(verdict.moved).toBe(moved);
  });

  test("the reference is the newest sample at least one window old", () => {
    const verdict = judgeRate(
      samples(1000, 70_000, (t) => t),
      { at: 70_000, bytes: 70_000 },
      RULE,
    );
    expect(verdict.spanMs).toBe(60_000);
  });
});

describe("keptSamples", () => {
  test("keeps the newest sample a window old and everything after it", () => {
    const history = samples(10_000, 100_000, (t) => t);
    expect(keptSamples(history, 95_000, 60_000).map((s) => s.at)).toEqual([
      30_000, 40_000, 50_000, 60_000, 70_000, 80_000, 90_000,
    ]);
    expect(keptSamples(history, 30_000, 60_000).map((s) => s.at)).toEqual(history.map((s) => s.at));
  });

  test("a long transfer keeps a bounded history", () => {
    let history: Sample[] = [];
    for (let t = 0; t <= 3_600_000; t += sampleEveryMs(RULE.windowMs)) {
      history.push({ at: t, bytes: t });
      history = keptSamples(history, t, RULE.windowMs);
    }
    expect(history.length).toBeLessThanOrEqual(RULE.windowMs / sampleEveryMs(RULE.windowMs) + 2);
  });
});

describe("sampleEveryMs", () => {
  test.each([
    [60_000, 1000],
    [2000, 250],
    [80, 10],
    [1, 10],
  ])("a %d ms window is sampled every %d ms", (windowMs, every) => {
    expect(sampleEveryMs(windowMs)).toBe(every);
  });
});

describe("watchStall", () => {
  test("reports a meter that stops moving once, and not one that keeps moving", async () => {
    // The moving meter runs at a hundred times the rate, so a busy machine cannot make it look stalled.
    const rule = { bytesPerSecond: 1000, windowMs: 300 };
    const stuck = new TransferMeter(100);
    const moving = new TransferMeter();
    const stalls: string[] = [];
    const stopStuck = watchStall(stuck, rule, () => stalls.push("stuck"));
    const stopMoving = watchStall(moving, rule, () => stalls.push("moving"));
    const feeder = setInterval(() => moving.add(1000), 10);
    const started = performance.now();
    while (!stalls.includes("stuck")) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(performance.now() - started).toBeGreaterThanOrEqual(rule.windowMs - 5);
    await new Promise((resolve) => setTimeout(resolve, 3 * rule.windowMs));
    clearInterval(feeder);
    stopMoving();
    stopStuck();
    expect(stalls).toEqual(["stuck"]);
    expect(moving.bytes).toBeGreaterThan(10_000);
  });

  test("without a rule nothing is watched", () => {
    const stop = watchStall(new TransferMeter(), undefined, () => {
      throw new Error("must not run");
    });
    stop();
  });
});
