import { ProxmoxTransportError } from "../proxmox/errors.ts";
import { MIN_RATE_VARIABLE, STALL_VARIABLE } from "./config.ts";
import type { RateVerdict, StallRule, TransferMeter } from "./meter.ts";

function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

/** The failure of a transfer the stall rule gave up; `what` is "upload" or "download". */
export function stalledTransfer(
  what: "upload" | "download",
  verdict: RateVerdict,
  rule: StallRule,
  meter: TransferMeter,
): ProxmoxTransportError {
  const progress =
    meter.total === undefined
      ? `${sizeText(meter.bytes)} so far`
      : `${sizeText(meter.bytes)} of ${sizeText(meter.total)}`;
  return new ProxmoxTransportError(
    "stalled",
    `the ${what} stalled and was given up: it moved ${sizeText(verdict.moved)} in the last ${(verdict.spanMs / 1000).toFixed(verdict.spanMs < 10_000 ? 1 : 0)} s, below the minimum of ${sizeText(rule.bytesPerSecond)}/s for ${rule.windowMs / 1000} s (${progress})${what === "download" ? "; the partial file was removed" : ""}`,
    `The node or the network is stuck or too slow; nothing was retried. ${MIN_RATE_VARIABLE} (bytes per second, 0 = no limit) and ${STALL_VARIABLE} set the limit.`,
  );
}
