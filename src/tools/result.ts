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

/** The structured error of a failed tool call: a message, hints, and any detail a model acts on. */
export interface ErrorDetails {
  message: string;
  hints?: string[];
  [field: string]: unknown;
}

const FIELD_LABELS: Record<string, string> = {
  code: "Code",
  failure: "Failure",
  status: "HTTP status",
  reason: "Reason",
  detail: "Proxmox said",
  errors: "Rejected parameters",
  tried: "Tried",
  closest: "Closest paths",
  methods: "Methods",
  source: "Source",
};

/** One field's value as a line of text: lists joined, records as `name: value` pairs. */
export function fieldText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value))
    return value
      .map(fieldText)
      .filter((v) => v !== "")
      .join(value.some(isRecord) ? "; " : ", ");
  if (isRecord(value)) {
    return Object.entries(value)
      .map(([name, v]) => `${name}: ${fieldText(v)}`)
      .join("; ");
  }
  return String(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The text a model reads for a failure. Many clients show the model only `content`, so every
 * structured field is rendered here too, except where the message already says it.
 */
export function errorText(error: ErrorDetails): string {
  const lines = [error.message];
  for (const [field, value] of Object.entries(error)) {
    if (field === "message" || field === "hints") continue;
    const text = fieldText(value);
    if (text === "" || error.message.includes(text)) continue;
    lines.push(`${FIELD_LABELS[field] ?? field}: ${text}`);
  }
  for (const hint of error.hints ?? []) lines.push(`Hint: ${hint}`);
  return lines.join("\n");
}

/** An isError result whose text and structuredContent carry the same details, both redacted. */
export function errorResult(error: ErrorDetails, redact: Redactor): CallToolResult {
  const safe = redactDeep(error, redact) as ErrorDetails;
  return {
    isError: true,
    content: [{ type: "text", text: redact(errorText(safe)) }],
    structuredContent: { error: safe },
  };
}

/** A failed tool call: isError, a readable message with the next step, and structured details. */
export function failureResult(error: unknown, redact: Redactor, extraHints: readonly string[] = []): CallToolResult {
  const summary = summarizeFailure(error);
  const hints = [summary.hint, ...extraHints].filter((h) => h.length > 0);
  return errorResult({ ...summary.details, message: summary.message, ...(hints.length ? { hints } : {}) }, redact);
}
