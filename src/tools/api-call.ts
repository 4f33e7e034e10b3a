import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { resultPayload, type ApiCall, type ProxmoxClient } from "../proxmox/client.ts";
import { adviseFailure, type AdviceSources, type FailedCall } from "../advice/advise.ts";
import { prepareForCatalog } from "../advice/parameters.ts";
import { normalizeParameters } from "../proxmox/params.ts";
import type { Host } from "../hosts/registry.ts";
import type { ServerDeps } from "./deps.ts";
import { ProxmoxTransportError } from "../proxmox/errors.ts";
import { parseUpid, taskPath } from "../tasks/upid.ts";
import { DEFAULT_WAIT_S, waitForTask, type PollState, type TaskOutcome } from "../tasks/wait.ts";
import type { Progress } from "./progress.ts";
import { failureResult, okResult } from "./result.ts";

export interface WaitRequest {
  wait?: boolean | undefined;
  wait_timeout_s?: number | undefined;
  /** Progress notifications for the wait, when the client asked for them. */
  progress?: Progress | undefined;
}

/**
 * The wait's last progress, in seconds: past every poll reported and above zero, so the
 * notification carrying the task's outcome is never dropped as "not moving forward" when the
 * task stopped within the millisecond the wait began or the last poll was reported.
 */
export function finalWaitS(elapsedS: number, lastPollS: number): number {
  return Math.max(elapsedS, lastPollS + 0.001, 0.001);
}

/**
 * With wait=true and a UPID in `data`, adds `task` with the finished task's outcome, polled on
 * the same host (`client`) at the node the UPID names. The write
 * itself already succeeded, so a failure to read the task status is reported inside `task`.
 */
export async function addTaskOutcome(
  deps: ServerDeps,
  client: ProxmoxClient,
  payload: Record<string, unknown>,
  wait: WaitRequest,
  tool: string,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown>> {
  if (!wait.wait) return payload;
  const upid = parseUpid(payload.data);
  if (!upid)
    return {
      ...payload,
      task: null,
      task_note: "The answer is not a task id (UPID), so there was nothing to wait for.",
    };
  try {
    const { progress } = wait;
    const started = Date.now();
    let lastPollS = 0;
    const task = await waitForTask(client, upid, {
      timeoutMs: (wait.wait_timeout_s ?? DEFAULT_WAIT_S) * 1000,
      signal,
      tool,
      ...(deps.taskPolling ? { polling: deps.taskPolling } : {}),
      ...(progress
        ? {
            onPoll: (state: PollState) => {
              lastPollS = state.elapsedS;
              progress.update(state.elapsedS, undefined, client.redact(state.latestLine ?? ""));
            },
          }
        : {}),
    });
    await progress?.finish(finalWaitS((Date.now() - started) / 1000, lastPollS), undefined, task.note);
    return { ...payload, task };
  } catch (error) {
    if (signal?.aborted) {
      throw new ProxmoxTransportError(
        "cancelled",
        "waiting for the task was cancelled by the client",
        `The task ${upid.upid} keeps running; check it with GET ${taskPath(upid, "status")}.`,
      );
    }
    const why = client.redact(error instanceof Error ? error.message : String(error));
    return {
      ...payload,
      task: {
        upid: upid.upid,
        node: upid.node,
        type: upid.type,
        status: "unknown",
        ok: null,
        note: `The task was submitted, but its status could not be read: ${why}`,
      },
    };
  }
}

/**
 * The result of a call whose payload may hold a waited-for task: an error result (isError, the
 * whole payload with the log tail in the text) when the task finished with a failure, since the
 * change did not happen; an ordinary result otherwise (no task, still running, status unknown).
 */
export function taskAwareResult(payload: Record<string, unknown>): CallToolResult {
  const task = payload.task as Partial<TaskOutcome> | null | undefined;
  if (task?.ok !== false) return okResult(payload);
  const message = `The task ${task.upid} failed: ${task.exitstatus ?? "no exit status"}.`;
  const hint =
    "Proxmox accepted the request and ran it as a task, and the task failed; task.log_tail shows why. Fix the cause before sending the request again.";
  return {
    isError: true,
    content: [{ type: "text", text: `${message}\nHint: ${hint}\n${JSON.stringify(payload)}` }],
    structuredContent: { ...payload, error: { failure: "task_failed", message, hints: [hint] } },
  };
}

/**
 * The catalog for error advice: already loaded, or loaded before `signal` (the advice budget)
 * ends. The load itself is not tied to that budget: it has its own timeout and, once done,
 * serves the next call.
 */
export function adviceSources(host: Host): AdviceSources {
  return {
    client: host.client,
    catalog: async (signal) => {
      const provider = host.catalog;
      if (!provider) return undefined;
      const loaded = provider.peek();
      if (loaded || signal?.aborted) return loaded;
      const budget = new Promise<undefined>((resolve) =>
        signal?.addEventListener("abort", () => resolve(undefined), { once: true }),
      );
      return Promise.race([provider.get().catch(() => undefined), budget]);
    },
  };
}

/** A failed call as a tool result, with the advice of the host's own catalog and cluster on what to do next. */
export async function failureWithAdvice(
  host: Host,
  error: unknown,
  call: FailedCall,
  extraHints: readonly string[] = [],
): Promise<CallToolResult> {
  return failureResult(error, host.client.redact, [
    ...extraHints,
    ...(await adviseFailure(error, call, adviceSources(host))),
  ]);
}

/**
 * Shared body of proxmox_get and proxmox_request: validate, apply the catalog's parameter
 * help when it is loaded, call, optionally wait, and shape the result.
 */
export async function runApiCall(
  deps: ServerDeps,
  host: Host,
  call: Omit<ApiCall, "params"> & { parameters: unknown },
  wait: WaitRequest = {},
): Promise<CallToolResult> {
  const { client } = host;
  try {
    const prepared = prepareForCatalog(
      host.catalog?.peek(),
      call.method,
      call.path,
      normalizeParameters(call.parameters),
    );
    const result = await client.call({ ...call, caller: deps.caller, params: prepared.params });
    const payload = resultPayload(result);
    if (prepared.warnings.length) payload.warnings = prepared.warnings;
    return taskAwareResult(await addTaskOutcome(deps, client, payload, wait, call.tool, call.signal));
  } catch (error) {
    return failureWithAdvice(host, error, call);
  }
}
