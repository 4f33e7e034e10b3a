/** Stable codes for everything refused locally, before any byte leaves for Proxmox. */
export type RefusalCode =
  | "invalid_path"
  | "invalid_parameters"
  | "request_too_large"
  | "refused_read_only"
  | "refused_read_only_outbound"
  | "refused_read_only_guest_content"
  | "refused_protected_guest"
  | "refused_rule"
  | "refused_vlan"
  | "refused_audit"
  | "refused_by_user"
  | "refused_confirmation_timeout"
  | "refused_confirmation_unavailable"
  | "file_transfer_disabled"
  | "refused_file_path"
  | "local_write_failed"
  | "local_read_failed"
  | "unknown_host";

/** The request was stopped by a local rule; nothing was sent. */
export class LocalRefusal extends Error {
  constructor(
    readonly code: RefusalCode | (string & {}),
    message: string,
  ) {
    super(message);
    this.name = "LocalRefusal";
  }
}

/** Proxmox answered with a status outside 2xx (3xx included: redirects are never followed). */
export class ProxmoxHttpError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    /** The HTTP reason phrase: older servers put the error message only there. */
    readonly reason: string,
    /** The body's `message`, trimmed; empty when the server sent none. */
    readonly detail: string,
    /** Per-parameter errors of a 400. */
    readonly errors: Record<string, string> | undefined,
    readonly location?: string,
  ) {
    super(`${method} ${path} failed: HTTP ${status} ${reason}${detail && detail !== reason ? ` - ${detail}` : ""}`);
    this.name = "ProxmoxHttpError";
  }
}

export type TransportFailure =
  "tls" | "connect" | "dns" | "dropped" | "timeout" | "cancelled" | "too_large" | "not_text" | "protocol" | "stalled";

/** No usable HTTP answer: TLS, connection, timeout, cancellation, or an answer too large to return. */
export class ProxmoxTransportError extends Error {
  constructor(
    readonly kind: TransportFailure,
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = "ProxmoxTransportError";
  }
}
