import { afterEach, describe, expect, test } from "bun:test";
import { fakeForFile } from "../support/fake.ts";
import type { Progress as ProgressNotification } from "@modelcontextprotocol/sdk/types.js";
import { finalWaitS } from "../../src/tools/api-call.ts";
import { progressFor, ProgressThrottle } from "../../src/tools/progress.ts";
import { connectHarness, type Harness } from "../support/mcp.ts";

const fake = await fakeForFile();
let h: Harness | undefined;

fake.route("POST", "/nodes/{node}/vzdump", () => ({
  data: fake.startTask("pve1", "vzdump", "100", {
    pollsUntilDone: 8,
    log: ["INFO: starting new backup job", "INFO: 10% done", "INFO: 40% done", "INFO: 90% done", "TASK OK"],
  }),
}));
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function backupWithWait(onprogress?: (p: ProgressNotification) => void) {
  // polls every 60 ms, so the 250 ms throttle lets some notifications through and drops others
  h = await connectHarness(fake, { deps: { taskPolling: { initialMs: 60, maxMs: 60 } } });
  return h.client.callTool(
    {
      name: "proxmox_request",
      arguments: { method: "POST", path: "/nodes/pve1/vzdump", parameters: { vmid: 100 }, wait: true },
    },
    undefined,
    onprogress ? { onprogress } : {},
  );
}

describe("progress during wait", () => {
  test("elapsed seconds with the task's newest log line, increasing, then a final one with the outcome", async () => {
    const seen: ProgressNotification[] = [];
    const result = await backupWithWait((p) => seen.push(p));
    expect(result.isError).toBeFalsy();
    expect(seen.length).toBeGreaterThanOrEqual(2);
    // throttled: fewer notifications than polls
    expect(seen.length).toBeLessThan(9);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
    for (const p of seen) expect(p.total).toBeUndefined();
    expect(seen.slice(0, -1).some((p) => p.message?.startsWith("INFO:"))).toBe(true);
    expect(seen.at(-1)!.message).toBe("The task finished successfully.");
  });

  test("without a progressToken nothing is sent and the task log is not followed", async () => {
    const result = await backupWithWait();
    expect(result.isError).toBeFalsy();
    const logReads = fake.apiRequests().filter((r) => r.path.endsWith("/log"));
    expect(logReads).toEqual([]);
  });
});

describe("ProgressThrottle", () => {
  test.each<[string, [number, number, number | undefined][], boolean[]]>([
    [
      "one per interval",
      [
        [0, 1, undefined],
        [100, 2, undefined],
        [260, 3, undefined],
      ],
      [true, false, true],
    ],
    [
      "never backwards or equal",
      [
        [0, 5, undefined],
        [300, 5, undefined],
        [600, 4, undefined],
      ],
      [true, false, false],
    ],
    [
      "the total is left to the final notification",
      [
        [0, 1, 10],
        [300, 10, 10],
      ],
      [true, false],
    ],
  ])("%s", (_name, steps, admitted) => {
    const throttle = new ProgressThrottle(250);
    expect(steps.map(([now, progress, total]) => throttle.admit(now, progress, total))).toEqual(admitted);
  });

  test("the final notification goes out whatever the timing, if it moves forward", () => {
    const throttle = new ProgressThrottle(250);
    expect(throttle.admit(0, 1)).toBe(true);
    expect(throttle.admitFinal(2)).toBe(true);
    expect(throttle.admitFinal(2)).toBe(false);
  });
});

describe("finalWaitS: the wait's last progress always moves forward", () => {
  // a task that stopped on the first poll within the same millisecond once lost its outcome
  // notification: 0 s after an upload's bytes is the upload's own final progress
  test.each([
    { elapsedS: 0, lastPollS: 0, expected: 0.001, why: "stopped within the millisecond" },
    { elapsedS: 2.5, lastPollS: 2.5, expected: 2.501, why: "stopped within the millisecond of the last poll" },
    { elapsedS: 2.4, lastPollS: 2.5, expected: 2.501, why: "the poll's clock started later and ran ahead" },
    { elapsedS: 7.25, lastPollS: 2.5, expected: 7.25, why: "time passed: the elapsed time as it is" },
  ])("$why", ({ elapsedS, lastPollS, expected }) => {
    expect(finalWaitS(elapsedS, lastPollS)).toBeCloseTo(expected, 9);
  });

  test("after an upload's final byte count, a zero-second wait's outcome is still sent", async () => {
    const sent: { progress: number; message?: string }[] = [];
    const progress = progressFor({
      _meta: { progressToken: "t" },
      sendNotification: async (n) => void sent.push(n.params as (typeof sent)[number]),
    })!;
    await progress.finish(1024, 1024, "1024 bytes sent");
    await progress.after(1024).finish(finalWaitS(0, 0), undefined, "The task finished successfully.");
    expect(sent.map((n) => n.message)).toEqual(["1024 bytes sent", "The task finished successfully."]);
    expect(sent[1]!.progress).toBeGreaterThan(1024);
  });
});

describe("progressFor", () => {
  test("a next phase counts on from its base, without a total, on the same throttle", async () => {
    const sent: { progress: number; total?: number; message?: string }[] = [];
    let clock = 0;
    const progress = progressFor(
      {
        _meta: { progressToken: "t" },
        sendNotification: async (n) => void sent.push(n.params as (typeof sent)[number]),
      },
      () => clock,
    )!;
    progress.update(10, 100);
    clock = 300;
    await progress.finish(100, 100, "sent");
    const copy = progress.after(100);
    clock = 600;
    copy.update(1.5);
    clock = 700;
    copy.update(2); // too soon after the last one
    await copy.finish(2.5, undefined, "done");
    expect(sent).toEqual([
      { progressToken: "t", progress: 10, total: 100 },
      { progressToken: "t", progress: 100, total: 100, message: "sent" },
      { progressToken: "t", progress: 101.5 },
      { progressToken: "t", progress: 102.5, message: "done" },
    ] as never);
  });

  test("no progressToken: no Progress at all", () => {
    expect(progressFor({ sendNotification: async () => {} })).toBeUndefined();
  });
});
