import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { summarizeFailure } from "../proxmox/hints.ts";
import { redactDeep, type Redactor } from "../proxmox/redact.ts";

/** A successful result: the same object as text (for every client) and as structuredContent. */
export function okResult(payload: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(payload) }],
    structuredContent: payload,
  };
}

/** A failed tool call: isError, a readable message with the next step, and structured details. */
export function failureResult(error: unknown, redact: Redactor, extraHints: readonly string[] = []): CallToolResult {
  const summary = summarizeFailure(error);
  const hints = [summary.hint, ...extraHints].filter((h) => h.length > 0);
  const text = [summary.message, ...hints.map((h) => `Hint: ${h}`)].join("\n");
  const structured = { error: { ...summary.details, message: summary.message, ...(hints.length ? { hints } : {}) } };
  return {
    isError: true,
    content: [{ type: "text", text: redact(text) }],
    structuredContent: redactDeep(structured, redact),
  };
}
