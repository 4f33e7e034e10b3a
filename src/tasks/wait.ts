import { withDeadline } from "../http/deadline.ts";
import type { ProxmoxClient } from "../proxmox/client.ts";
import { judgeExitStatus, pollDelay } from "./outcome.ts";
import { taskPath, type Upid } from "./upid.ts";

export const LOG_TAIL_LINES = 50;
export const DEFAULT_WAIT_S = 120;
export const MAX_WAIT_S = 3600;

export interface PollingOptions {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_POLLING: PollingOptions = { initialMs: 250, maxMs: 5000 };

export interface TaskOutcome {
  upid: string;
  node: string;
  type: string;
  id: string;
  status: "running" | "stopped";
  exitstatus?: string;
  /** true: stopped with OK or warnings; false: stopped with an error; null: still running. */
  ok: boolean | null;
  warnings?: number;
  duration_s: number;
  log_tail?: string[];
  note: string;
}

interface TaskStatus {
  status?: string;
  exitstatus?: string;
  starttime?: number;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

async function readLogTail(
  client: ProxmoxClient,
  upid: Upid,
  signal: AbortSignal | undefined,
  tool: string,
): Promise<string[]> {
  const path = taskPath(upid, "log");
  const probe = await client.call({
    tool,
    method: "GET",
    path,
    params: { start: 0, limit: 1 },
    ...(signal ? { signal } : {}),
  });
  const total = Number(probe.envelope?.total ?? 0);
  const start = Math.max(0, total - LOG_TAIL_LINES);
  return logLines(await client.getData(path, { start, limit: LOG_TAIL_LINES }, signal, tool));
}

/** The text of each line of a task log answer ([{n, t}, ...]). */
function logLines(data: unknown): string[] {
  return Array.isArray(data) ? data.map((line) => String((line as { t?: unknown }).t ?? "")) : [];
}

export interface PollState {
  elapsedS: number;
  /** The newest line of the task log so far, if any. */
  latestLine?: string | undefined;
}

interface LogPosition {
  lines: number;
  latest?: string | undefined;
}

/** Reads the task log lines added since `seen`; a failed read keeps what was known. */
async function followLog(
  client: ProxmoxClient,
  upid: Upid,
  seen: LogPosition,
  signal: AbortSignal,
  tool: string,
): Promise<LogPosition> {
  try {
    const lines = logLines(
      await client.getData(taskPath(upid, "log"), { start: seen.lines, limit: 500 }, signal, tool),
    );
    const latest = lines.filter((line) => line.trim() !== "").at(-1);
    return { lines: seen.lines + lines.length, latest: latest ?? seen.latest };
  } catch {
    return seen;
  }
}

/**
 * Polls a task's status on the node inside its UPID until it stops or `timeoutMs` passes.
 * Never repeats the original request; cancelling `signal` stops the polling.
 */
export async function waitForTask(
  client: ProxmoxClient,
  upid: Upid,
  options: {
    timeoutMs: number;
    signal?: AbortSignal | undefined;
    polling?: PollingOptions;
    tool: string;
    now?: () => number;
    /** Called after each poll of a running task, with the task log's newest line; the log is read only then. */
    onPoll?: (state: PollState) => void;
  },
): Promise<TaskOutcome> {
  const now = options.now ?? Date.now;
  const polling = options.polling ?? DEFAULT_POLLING;
  const started = now();
  const base = { upid: upid.upid, node: upid.node, type: upid.type, id: upid.id };
  let status: TaskStatus = {};
  let logSeen: LogPosition = { lines: 0 };
  for (let attempt = 0; ; attempt++) {
    // one poll may not outlast the wait: a hanging status read ends with the wait's time
    const left = Math.max(1, options.timeoutMs - (now() - started));
    const poll = withDeadline(options.signal, left);
    try {
      status = ((await client.getData(taskPath(upid, "status"), {}, poll.signal, options.tool)) ?? {}) as TaskStatus;
    } catch (error) {
      if (options.signal?.aborted || !poll.timedOut()) throw error;
      status = { status: "running" };
    } finally {
      poll.done();
    }
    if (status.status === "stopped") break;
    if (options.onPoll) {
      const read = withDeadline(options.signal, Math.max(1, options.timeoutMs - (now() - started)));
      try {
        logSeen = await followLog(client, upid, logSeen, read.signal, options.tool);
      } finally {
        read.done();
      }
      options.onPoll({ elapsedS: (now() - started) / 1000, latestLine: logSeen.latest });
    }
    const remaining = options.timeoutMs - (now() - started);
    if (remaining <= 0) {
      return {
        ...base,
        status: "running",
        ok: null,
        duration_s: Math.max(0, Math.round(now() / 1000 - (status.starttime ?? upid.starttime))),
        note: `The task is still running after ${Math.round(options.timeoutMs / 1000)} s; that is not a failure. Check it later with GET ${taskPath(upid, "status")}.`,
      };
    }
    await sleep(Math.min(remaining, pollDelay(attempt, polling.initialMs, polling.maxMs)), options.signal);
  }

  const judged = judgeExitStatus(status.exitstatus);
  const outcome: TaskOutcome = {
    ...base,
    status: "stopped",
    ...(status.exitstatus !== undefined ? { exitstatus: status.exitstatus } : {}),
    ok: judged.ok,
    ...(judged.warnings !== undefined ? { warnings: judged.warnings } : {}),
    duration_s: Math.max(0, Math.round(now() / 1000 - (status.starttime ?? upid.starttime))),
    note: judged.ok
      ? judged.warnings
        ? `The task finished with ${judged.warnings} warning(s); the log tail shows them.`
        : "The task finished successfully."
      : `The task failed: ${status.exitstatus ?? "no exit status"}. The log tail shows why.`,
  };
  if (!judged.ok || judged.warnings) {
    outcome.log_tail = await readLogTail(client, upid, options.signal, options.tool).catch((error: unknown) => [
      `(the task log could not be read: ${client.redact(error instanceof Error ? error.message : String(error))})`,
    ]);
  }
  return outcome;
}
