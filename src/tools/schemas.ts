import { z } from "zod";

export const pathArg = z
  .string()
  .describe("API path relative to /api2/json, starting with '/', e.g. /nodes/pve/qemu/100/status/current");

export const parametersArg = z
  .union([z.record(z.string(), z.unknown()), z.string()])
  .optional()
  .describe(
    "API parameters as an object of strings, numbers, booleans or arrays of those. Property strings stay strings: {\"net0\": \"virtio,bridge=vmbr0\"}.",
  );
