// Confirmation by a person (PROXMOX_CONFIRM): the answers, and what each means for the write.
import { LocalRefusal } from "./errors.ts";

export type ConfirmationAnswer = "accept" | "decline" | "cancel" | "timeout" | "unavailable";

/** The write as the person is asked about it. */
export interface ConfirmationRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  upload?: { fileName: string; bytes: number } | undefined;
  /** The PROXMOX_CONFIRM rule that matched, as the operator wrote it. */
  rule: string;
}

/** Asks a person whether a write may be sent; the tool layer supplies one per call. */
export type Confirm = (request: ConfirmationRequest, signal?: AbortSignal) => Promise<ConfirmationAnswer>;

/** The refusal an answer other than "accept" gives; undefined for "accept". */
export function confirmationRefusal(
  answer: ConfirmationAnswer,
  request: ConfirmationRequest,
): LocalRefusal | undefined {
  const head = `${request.method} ${request.path} was not sent`;
  const rule = `the operator's rule '${request.rule}' in PROXMOX_CONFIRM`;
  switch (answer) {
    case "accept":
      return undefined;
    case "decline":
    case "cancel":
      return new LocalRefusal(
        "refused_by_user",
        `${head}: the person asked to confirm it (${rule}) ${answer === "decline" ? "declined" : "cancelled"}. Do not send it again unless they ask for it.`,
      );
    case "timeout":
      return new LocalRefusal(
        "refused_confirmation_timeout",
        `${head}: ${rule} asks a person to confirm it, and no answer came in time. Ask the user whether to try again.`,
      );
    case "unavailable":
      return new LocalRefusal(
        "refused_confirmation_unavailable",
        `${head}: ${rule} asks a person to confirm it, but this MCP client cannot ask (it does not support elicitation). Make the change another way, or ask the operator to use a client that supports elicitation.`,
      );
  }
}
