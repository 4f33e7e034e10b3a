import { afterEach, describe, expect, test } from "bun:test";
import { fakeForFile } from "../support/fake.ts";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { connectHarness, textOf, type Harness } from "../support/mcp.ts";

const fake = await fakeForFile({ nodes: ["pve1", "pve2"] });
let h: Harness;

afterEach(async () => {
  await h?.close();
});

async function open(): Promise<Harness> {
  h = await connectHarness(fake, { deps: { taskPolling: { initialMs: 1, maxMs: 5 } } });
  return h;
}

function task(result: CallToolResult): Record<string, unknown> {
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as { task: Record<string, unknown> }).task;
}

/** A write that starts a task on `taskNode` (which may differ from the path's node). */
function startsTask(taskNode: string, opts: Parameters<FakeProxmox["startTask"]>[3]): void {
  fake.route("POST", "/nodes/{node}/qemu/{vmid}/status/start", (req) => ({
    data: fake.startTask(taskNode, "qmstart", req.pathParams.vmid!, opts),
  }));
}

describe("proxmox_request with wait", () => {
  test("a task that runs, then stops OK: one call returns the outcome", async () => {
    startsTask("pve1", { pollsUntilDone: 3 });
    await open();
    const result = await h.call("proxmox_request", {
      method: "POST",
      path: "/nodes/pve1/qemu/100/status/start",
      wait: true,
    });
    const outcome = task(result);
    expect(outcome).toMatchObject({
      node: "pve1",
      type: "qmstart",
      id: "100",
      status: "stopped",
      exitstatus: "OK",
      ok: true,
    });
    expect(outcome.log_tail).toBeUndefined();
    expect((result.structuredContent as { data: string }).data).toStartWith("UPID:pve1:");
    const statusPolls = fake.apiRequests().filter((r) => r.path.endsWith("/status"));
    expect(statusPolls.length).toBe(4);
    // the original request is sent once, never repeated
    expect(fake.apiRequests().filter((r) => r.method === "POST").length).toBe(1);
  });

  test("a task that fails makes the result an error, with ok false, the outcome and the log tail in the text", async () => {
    const log = Array.from({ length: 80 }, (_, i) => `line ${i + 1}`);
    log.push("TASK ERROR: start failed: QEMU exited with code 1");
    startsTask("pve1", { pollsUntilDone: 1, exitstatus: "start failed: QEMU exited with code 1", log });
    await open();
    const result = await h.call("proxmox_request", {
      method: "POST",
      path: "/nodes/pve1/qemu/100/status/start",
      wait: true,
    });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text.split("\n")[0]).toBe(
      `The task ${(result.structuredContent as { data: string }).data} failed: start failed: QEMU exited with code 1.`,
    );
    expect(text).toContain("TASK ERROR: start failed: QEMU exited with code 1");
    expect(text).toContain('"ok":false');
    const structured = result.structuredContent as { task: Record<string, unknown>; error: Record<string, unknown> };
    expect(structured.error).toMatchObject({ failure: "task_failed" });
    const outcome = structured.task;
    expect(outcome.ok).toBe(false);
    expect(outcome.exitstatus).toBe("start failed: QEMU exited with code 1");
    const tail = outcome.log_tail as string[];
    expect(tail.length).toBe(50);
    expect(tail.at(-1)).toBe("TASK ERROR: start failed: QEMU exited with code 1");
    expect(tail[0]).toBe("line 32");
  });

  test("without wait, a task that will fail is not an error: the request was accepted", async () => {
    startsTask("pve1", { pollsUntilDone: 1, exitstatus: "start failed" });
    await open();
    const result = await h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/100/status/start" });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { data: string }).data).toStartWith("UPID:pve1:");
  });

  test("warnings count as ok, with the warnings noted", async () => {
    startsTask("pve1", { exitstatus: "WARNINGS: 2", log: ["WARN: a", "WARN: b", "TASK WARNINGS: 2"] });
    await open();
    const outcome = task(
      await h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/100/status/start", wait: true }),
    );
    expect(outcome).toMatchObject({ ok: true, warnings: 2 });
    expect(outcome.log_tail).toEqual(["WARN: a", "WARN: b", "TASK WARNINGS: 2"]);
  });

  test("a task still running at the timeout is reported as running, not failed", async () => {
    startsTask("pve1", { pollsUntilDone: 1_000_000 });
    await open();
    const result = await h.call("proxmox_request", {
      method: "POST",
      path: "/nodes/pve1/qemu/100/status/start",
      wait: true,
      wait_timeout_s: 1,
    });
    const outcome = task(result);
    expect(outcome.status).toBe("running");
    expect(outcome.ok).toBeNull();
    expect(String(outcome.note)).toContain("still running");
    expect(String(outcome.note)).toContain(String(outcome.upid));
  });

  test("polls the node named in the UPID, not the node of the request path", async () => {
    startsTask("pve2", { pollsUntilDone: 1 });
    await open();
    const outcome = task(
      await h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/100/status/start", wait: true }),
    );
    expect(outcome).toMatchObject({ node: "pve2", ok: true });
    const polls = fake.apiRequests().filter((r) => r.path.includes("/tasks/"));
    expect(polls.every((r) => r.path.startsWith("/nodes/pve2/"))).toBe(true);
  });

  test("the fake answers 'no such task' on the wrong node (the rule the client relies on)", async () => {
    const upid = fake.startTask("pve2", "qmstart", "100");
    await open();
    const result = await h.call("proxmox_get", { path: `/nodes/pve1/tasks/${encodeURIComponent(upid)}/status` });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.structuredContent)).toContain("no such task");
  });

  test("cancelling the MCP request stops the polling", async () => {
    startsTask("pve1", { pollsUntilDone: 1_000_000 });
    await open();
    const abort = new AbortController();
    const pending = h.call(
      "proxmox_request",
      { method: "POST", path: "/nodes/pve1/qemu/100/status/start", wait: true },
      { signal: abort.signal },
    );
    while (fake.apiRequests().filter((r) => r.path.endsWith("/status")).length < 3) await fake.nextRequest();
    abort.abort();
    await expect(pending).rejects.toThrow();
    const pollsAtCancel = fake.apiRequests().length;
    await Bun.sleep(50); // with a 5 ms poll interval, polling on would add about ten requests here
    expect(fake.apiRequests().length).toBeLessThanOrEqual(pollsAtCancel + 1);
  });

  test("without wait, the UPID comes back at once", async () => {
    startsTask("pve1", {});
    await open();
    const result = await h.call("proxmox_request", { method: "POST", path: "/nodes/pve1/qemu/100/status/start" });
    expect((result.structuredContent as Record<string, unknown>).task).toBeUndefined();
    expect(fake.apiRequests().length).toBe(1);
  });

  test("wait on an answer that is not a UPID says there was nothing to wait for", async () => {
    fake.route("PUT", "/nodes/{node}/qemu/{vmid}/resize", () => ({ data: null }));
    await open();
    const result = await h.call("proxmox_request", {
      method: "PUT",
      path: "/nodes/pve1/qemu/100/resize",
      parameters: { disk: "scsi0", size: "+1G" },
      wait: true,
    });
    expect(result.structuredContent).toMatchObject({ data: null, task: null });
  });

  test("wait_timeout_s above 3600 is refused by the schema", async () => {
    await open();
    const result = await h.call("proxmox_request", {
      method: "POST",
      path: "/nodes/pve1/qemu/100/status/start",
      wait: true,
      wait_timeout_s: 3601,
    });
    expect(result.isError).toBe(true);
    expect(fake.apiRequests().length).toBe(0);
  });
});
