// Who may use the HTTP transport: the tokens file, the bearer header, a constant-time match, and
// a limiter on failed attempts per source address. Tokens are kept only as SHA-256 digests, so
// the secret itself is never at hand for a log line or an error.
import { createHash, timingSafeEqual } from "node:crypto";
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { isIPv6 } from "node:net";
import { ConfigError } from "../settings.ts";

const VARIABLE = "PROXMOX_MCP_TOKENS_FILE";
export const MIN_TOKEN_LENGTH = 32;
/** Fewer different characters than this in 32 or more is not a random token (aaaa…, abab…). */
const MIN_DISTINCT_CHARACTERS = 8;
const LABEL = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
/** RFC 6750 b64token: what a client can put after "Bearer " unquoted. */
const TOKEN = /^[A-Za-z0-9._~+/-]+=*$/;
const READ_ONLY_MARK = "read-only";

/** One client of the HTTP transport. */
export interface ClientToken {
  /** The client's identity in logs and the audit trail. */
  label: string;
  /** Writing tools are hidden from this client and its writes are refused. */
  readOnly: boolean;
  /** SHA-256 of the token; the token itself is not kept. */
  digest: Buffer;
}

export function tokenDigest(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

const expected = `expected lines 'label:token' or 'label:token:${READ_ONLY_MARK}', each token at least ${MIN_TOKEN_LENGTH} random characters (e.g. from 'openssl rand -hex 32')`;

/** Parses the tokens file's text; the error names the line, never its token. */
export function parseTokens(text: string): ClientToken[] {
  const tokens: ClientToken[] = [];
  const labels = new Set<string>();
  const digests = new Set<string>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const where = `line ${index + 1}`;
    const parts = line.split(":");
    if (parts.length < 2 || parts.length > 3)
      throw new ConfigError(VARIABLE, `${where} is not 'label:token'; ${expected}`);
    const [label, token, mark] = parts as [string, string, string | undefined];
    if (!LABEL.test(label)) {
      throw new ConfigError(
        VARIABLE,
        `${where}: the label must be 1 to 64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit; ${expected}`,
      );
    }
    if (mark !== undefined && mark !== READ_ONLY_MARK) {
      throw new ConfigError(VARIABLE, `${where} (${label}): the third field can only be '${READ_ONLY_MARK}'`);
    }
    if (token.length < MIN_TOKEN_LENGTH) {
      throw new ConfigError(
        VARIABLE,
        `${where} (${label}): the token is shorter than ${MIN_TOKEN_LENGTH} characters; ${expected}`,
      );
    }
    if (!TOKEN.test(token)) {
      throw new ConfigError(
        VARIABLE,
        `${where} (${label}): the token may hold only letters, digits and - . _ ~ + / (then '=' padding), as a bearer token must; ${expected}`,
      );
    }
    if (new Set(token).size < MIN_DISTINCT_CHARACTERS) {
      throw new ConfigError(
        VARIABLE,
        `${where} (${label}): the token repeats too few characters to be random; ${expected}`,
      );
    }
    if (labels.has(label))
      throw new ConfigError(VARIABLE, `${where}: the label ${label} is used twice; each client needs its own`);
    const digest = tokenDigest(token);
    const key = digest.toString("hex");
    if (digests.has(key)) {
      throw new ConfigError(
        VARIABLE,
        `${where} (${label}): the same token is given to two labels, so the client could not be told apart`,
      );
    }
    labels.add(label);
    digests.add(key);
    tokens.push({ label, readOnly: mark === READ_ONLY_MARK, digest });
  });
  if (tokens.length === 0) throw new ConfigError(VARIABLE, `holds no token; ${expected}`);
  return tokens;
}

/**
 * Reads the tokens file. It must be a regular file that only its owner can read or write (mode
 * 0600 or stricter): a token readable by another user is a token given to that user.
 */
export function readTokensFile(path: string | undefined): ClientToken[] {
  if (path === undefined || path.trim() === "") {
    throw new ConfigError(
      VARIABLE,
      `is not set; HTTP mode never runs without authentication. Name a file (mode 0600) with ${expected}`,
    );
  }
  const file = path.trim();
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    throw new ConfigError(VARIABLE, `cannot open ${file} (${(error as NodeJS.ErrnoException).code ?? "unreadable"})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ConfigError(VARIABLE, `${file} is not a regular file`);
    const mode = stat.mode & 0o777;
    if ((mode & 0o077) !== 0) {
      throw new ConfigError(
        VARIABLE,
        `${file} has mode ${mode.toString(8).padStart(4, "0")}, so other users can read or change the tokens; run chmod 600 ${file}`,
      );
    }
    return parseTokens(readFileSync(fd, "utf8"));
  } finally {
    closeSync(fd);
  }
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | null | undefined): string | undefined {
  const match = /^Bearer +([^\s]+) *$/i.exec(header ?? "");
  return match?.[1];
}

/**
 * The client whose token this is. Every stored digest is compared, in constant time and whether
 * or not an earlier one matched, so neither the position of a match nor the number of matching
 * leading bytes shows in the time taken. `equal` is for the unit test only.
 */
export function matchToken(
  presented: string | undefined,
  tokens: readonly ClientToken[],
  equal: (a: Buffer, b: Buffer) => boolean = timingSafeEqual,
): ClientToken | undefined {
  if (presented === undefined) return undefined;
  const digest = tokenDigest(presented);
  let found: ClientToken | undefined;
  for (const token of tokens) {
    if (equal(digest, token.digest) && found === undefined) found = token;
  }
  return found;
}

/** IPv4-mapped addresses as IPv4, IPv6 addresses by their /64 (one host usually holds a whole /64). */
export function addressKey(address: string): string {
  const plain = address.replace(/%.*$/, "").toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(plain);
  if (mapped) return mapped[1]!;
  if (!isIPv6(plain)) return plain;
  const [head = "", tail] = plain.split("::");
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const full = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${full
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

export interface FailureLimit {
  /** Failures allowed in a burst. */
  burst: number;
  /** One more failure is allowed after each such interval. */
  refillMs: number;
  /** Addresses remembered at most; the oldest is forgotten first. */
  maxTracked: number;
}

export const AUTH_FAILURE_LIMIT: FailureLimit = { burst: 10, refillMs: 6_000, maxTracked: 10_000 };

/** Failed authentications per source address, as a token bucket; time comes from the caller. */
export class FailureLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly limit: FailureLimit = AUTH_FAILURE_LIMIT) {}

  /** Milliseconds until this address may try again; 0 when it may now. */
  retryAfterMs(address: string, now: number): number {
    const tokens = this.tokens(addressKey(address), now);
    return tokens >= 1 ? 0 : Math.ceil((1 - tokens) * this.limit.refillMs);
  }

  /** Counts a failure; true when it used up the address's allowance (to log that once). */
  recordFailure(address: string, now: number): boolean {
    const key = addressKey(address);
    const tokens = this.tokens(key, now) - 1;
    this.buckets.delete(key);
    if (this.buckets.size >= this.limit.maxTracked) this.buckets.delete(this.buckets.keys().next().value!);
    this.buckets.set(key, { tokens, at: now });
    return tokens < 1;
  }

  private tokens(key: string, now: number): number {
    const bucket = this.buckets.get(key);
    if (!bucket) return this.limit.burst;
    return Math.min(this.limit.burst, bucket.tokens + Math.max(0, now - bucket.at) / this.limit.refillMs);
  }
}
