import { LocalRefusal, ProxmoxHttpError, ProxmoxTransportError } from "./errors.ts";

const NOT_AVAILABLE_WITH_TOKEN = /not available with API token/i;

/** The one-line next step for an HTTP failure, from its status and message alone. */
export function httpHint(error: ProxmoxHttpError): string {
  const text = `${error.reason}\n${error.detail}`;
  if (error.status >= 300 && error.status < 400) {
    return `Redirects are never followed${error.location ? ` (the server pointed to ${error.location})` : ""}; PROXMOX_URL must be the node's API address itself, e.g. https://pve.example.com:8006.`;
  }
  switch (error.status) {
    case 401:
      return "The API token was rejected: check that PROXMOX_TOKEN_ID is user@realm!tokenid, that PROXMOX_TOKEN_SECRET is that token's secret, that the token exists and has not expired, and that its user is enabled.";
    case 403:
      if (NOT_AVAILABLE_WITH_TOKEN.test(text)) {
        return "This endpoint refuses API tokens (it needs a password login ticket); no token can call it, so do this in the web UI or with pveum on a node.";
      }
      return "The token lacks the privilege named in the message on that ACL path. With privilege separation a token has only the intersection of its own ACLs and its user's; grant a role with that privilege (pveum acl modify) or use a different path.";
    case 400:
      return "Proxmox rejected the parameters named above; proxmox_describe_endpoint shows the accepted ones with their types.";
    case 501:
      return "Proxmox has no such path or method here, or did not recognise a value in the path (node names are case-sensitive); proxmox_search_endpoints finds the right path.";
    case 595:
    case 596:
      return "The node named in the path cannot be reached from the node you are connected to (offline, or a wrong node name: names are case-sensitive). GET /nodes lists the cluster's nodes and their status.";
    default:
      if (/hostname lookup '[^']*' failed/i.test(text)) {
        return "The node name in the path is not a node of this cluster (names are case-sensitive); GET /nodes lists the real names.";
      }
      if (/does not exist/i.test(text)) {
        return "The object does not exist; list what exists first (e.g. GET /cluster/resources, or the parent path).";
      }
      return "";
  }
}

export interface FailureSummary {
  message: string;
  hint: string;
  details: Record<string, unknown>;
}

/** Text and structured details of any failure, before redaction. */
export function summarizeFailure(error: unknown): FailureSummary {
  if (error instanceof ProxmoxHttpError) {
    return {
      message: error.message,
      hint: httpHint(error),
      details: {
        status: error.status,
        reason: error.reason,
        ...(error.detail ? { detail: error.detail } : {}),
        ...(error.errors ? { errors: error.errors } : {}),
      },
    };
  }
  if (error instanceof ProxmoxTransportError) {
    return { message: error.message, hint: error.hint, details: { failure: error.kind } };
  }
  if (error instanceof LocalRefusal) {
    return { message: error.message, hint: "", details: { code: error.code } };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    message: `internal error: ${message}`,
    hint: "This is a bug in proxmox-ve-mcp or its environment; the request may not have been sent.",
    details: { failure: "internal" },
  };
}
