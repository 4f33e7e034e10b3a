import { ProxmoxTransportError } from "./errors.ts";
import type { Redactor } from "./redact.ts";

const TLS_CODES = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_UNTRUSTED",
  "CERT_SIGNATURE_FAILURE",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "ERR_SSL_WRONG_VERSION_NUMBER",
]);

export interface FailureContext {
  origin: string;
  cancelled: boolean;
  timedOut: boolean;
  timeoutMs: number;
  redact: Redactor;
}

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    const { code, name } = current as { code?: unknown; name?: unknown };
    if (typeof code === "string") codes.push(code);
    if (typeof name === "string") codes.push(name);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

/** The messages of an error and its causes, with error codes the messages do not already name. */
export function describeErrorChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      parts.push(
        typeof code === "string" && !current.message.includes(code) ? `${current.message} (${code})` : current.message,
      );
      current = (current as { cause?: unknown }).cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return [...new Set(parts.filter(Boolean))].join(": ");
}

/** Maps whatever undici or the socket threw to one failure kind with a hint at the likely cause. */
export function classifyTransportError(error: unknown, ctx: FailureContext): ProxmoxTransportError {
  const codes = codesOf(error);
  const detail = ctx.redact(describeErrorChain(error));
  const has = (...wanted: string[]) => wanted.some((w) => codes.includes(w));

  if (ctx.cancelled) {
    return new ProxmoxTransportError(
      "cancelled",
      "the request was cancelled by the client",
      "Nothing more will be sent; a write that already reached Proxmox may still run, check the node's task list.",
    );
  }
  if (
    ctx.timedOut ||
    has("UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT", "TimeoutError", "ETIMEDOUT")
  ) {
    return new ProxmoxTransportError(
      "timeout",
      `no complete answer from ${ctx.origin} within ${ctx.timeoutMs} ms`,
      "The node may be overloaded or unreachable; a write may still have been applied, so check before repeating it. PROXMOX_TIMEOUT_MS sets the limit.",
    );
  }
  if (codes.some((c) => TLS_CODES.has(c)) || /certificate|self[- ]signed|ssl|tls/i.test(detail)) {
    return new ProxmoxTransportError(
      "tls",
      `TLS handshake with ${ctx.origin} failed: ${detail}`,
      "The server's certificate is not trusted. Set PROXMOX_CA_FILE to a copy of the cluster CA (/etc/pve/pve-root-ca.pem on any node), or PROXMOX_VERIFY_TLS=false on a trusted network only. If the message mentions the version number, the port may not speak HTTPS.",
    );
  }
  if (has("ECONNREFUSED")) {
    return new ProxmoxTransportError(
      "connect",
      `connection to ${ctx.origin} refused`,
      "Nothing listens there: check the host and port in PROXMOX_URL (the Proxmox API listens on 8006) and that pveproxy runs.",
    );
  }
  if (has("ENOTFOUND", "EAI_AGAIN", "EAI_NONAME")) {
    return new ProxmoxTransportError(
      "dns",
      `the host of ${ctx.origin} could not be resolved`,
      "Check the host name in PROXMOX_URL.",
    );
  }
  if (has("EHOSTUNREACH", "ENETUNREACH")) {
    return new ProxmoxTransportError(
      "connect",
      `${ctx.origin} is unreachable: ${detail}`,
      "Check the network path and the host in PROXMOX_URL.",
    );
  }
  if (has("ECONNRESET", "UND_ERR_SOCKET", "EPIPE", "UND_ERR_CLOSED")) {
    return new ProxmoxTransportError(
      "dropped",
      `the connection to ${ctx.origin} closed before a complete answer: ${detail}`,
      "It was not retried. A write may or may not have been applied: check its state (the node's task list) before repeating it.",
    );
  }
  return new ProxmoxTransportError(
    "protocol",
    `request to ${ctx.origin} failed: ${detail}`,
    "Check PROXMOX_URL and the network; nothing was retried.",
  );
}
