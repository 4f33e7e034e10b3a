import { z } from "zod";
import { DEFAULT_WAIT_S, MAX_WAIT_S } from "../tasks/wait.ts";

export const pathArg = z
  .string()
  .describe("API path relative to /api2/json, starting with '/', e.g. /nodes/pve/qemu/100/status/current");

export const parametersArg = z
  .union([z.record(z.string(), z.unknown()), z.string()])
  .optional()
  .describe(
    "API parameters as an object of strings, numbers, booleans or arrays of those. Property strings stay strings: {\"net0\": \"virtio,bridge=vmbr0\"}.",
  );

export const waitArgs = {
  wait: z
    .boolean()
    .optional()
    .describe("When the answer is a task id (UPID), wait for the task to finish and return its outcome (ok, exit status, log tail on failure)"),
  wait_timeout_s: z
    .number()
    .int()
    .min(1)
    .max(MAX_WAIT_S)
    .optional()
    .describe(`How long to wait in seconds (default ${DEFAULT_WAIT_S}, at most ${MAX_WAIT_S}); a task still running then is reported as running, not failed`),
};
