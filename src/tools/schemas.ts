import { z } from "zod";
import { keepProtoKey } from "../proxmox/params.ts";
import { DEFAULT_WAIT_S, MAX_WAIT_S } from "../tasks/wait.ts";

export const pathArg = z.string().describe("Path under /api2/json, e.g. /nodes/pve1/qemu/100/status/current");

/**
 * Some MCP clients send an object argument as a JSON string; parse it before validation. An own
 * "__proto__" key is kept visible (keepProtoKey), so that it is refused rather than dropped.
 */
function parseJsonObjectString(value: unknown): unknown {
  if (typeof value !== "string") return keepProtoKey(value);
  if (value.trim() === "") return undefined;
  try {
    return keepProtoKey(JSON.parse(value));
  } catch {
    return value;
  }
}

// A plain object schema (no anyOf) keeps the tool list portable across MCP clients; the
// values are checked by normalizeParameters, which explains each refusal.
export const parametersArg = z
  .preprocess(
    parseJsonObjectString,
    z
      .looseObject({}, { error: 'parameters must be an object such as {"vmid": 100}, or a JSON string of one' })
      // a free-form object, spelled the portable way ({} for the values trips strict linters)
      .meta({ additionalProperties: true }),
  )
  .optional()
  .describe(
    'Flat object of strings, numbers, booleans or arrays of those; property strings stay strings: {"net0": "virtio,bridge=vmbr0"}',
  );

export const waitArgs = {
  wait: z
    .boolean()
    .optional()
    .describe(
      "If the answer is a task id (UPID), wait for the task and return its outcome (ok, exit status, log tail)",
    ),
  wait_timeout_s: z
    .number()
    .int()
    .min(1)
    .max(MAX_WAIT_S)
    .optional()
    .describe(
      `Seconds to wait (default ${DEFAULT_WAIT_S}, max ${MAX_WAIT_S}); a task still running then is reported as running, not failed`,
    ),
};

export const dryRunArg = z.boolean().optional().describe("Check locally and return what would be sent; sends nothing");
