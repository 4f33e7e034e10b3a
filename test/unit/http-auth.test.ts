import { afterAll, describe, expect, test } from "bun:test";
import { timingSafeEqual } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  addressKey,
  bearerToken,
  FailureLimiter,
  matchToken,
  parseTokens,
  readTokensFile,
  tokenDigest,
} from "../../src/transport/auth.ts";

const A = "k3J9xQ2mZ7vB4nR8tW1yL6pD5sF0hG3a";
const B = "Zq8Lm2Nx4Vb6Cr0Tp9Ws3Yd7Fg1Hj5Ke";

describe("parseTokens", () => {
  test("labels, tokens, the read-only mark, comments and blank lines", () => {
    const tokens = parseTokens(`# clients\nalice:${A}\n\n  bob:${B}:read-only  \n`);
    expect(tokens.map((t) => [t.label, t.readOnly])).toEqual([
      ["alice", false],
      ["bob", true],
    ]);
    // only the digest is kept
    expect(tokens[0]!.digest.equals(tokenDigest(A))).toBe(true);
    expect(JSON.stringify(tokens)).not.toContain(A);
  });

  test.each([
    ["", "holds no token"],
    ["# only a comment\n", "holds no token"],
    [`alice${A}`, "line 1 is not 'label:token'"],
    [`alice:${A}:read-only:x`, "line 1 is not 'label:token'"],
    [`-alice:${A}`, "line 1: the label must be"],
    [`al ice:${A}`, "line 1: the label must be"],
    [`alice:${A}:readonly`, "the third field can only be 'read-only'"],
    ["alice:tooShort123", "shorter than 32 characters"],
    [`alice:${A.slice(0, 31)}`, "shorter than 32 characters"],
    [`alice:${A.slice(0, 20)}!${A.slice(20)}`, "may hold only letters"],
    [`alice:${"a".repeat(40)}`, "too few characters to be random"],
    [`alice:${"ab".repeat(20)}`, "too few characters to be random"],
    [`alice:${A}\nalice:${B}`, "line 2: the label alice is used twice"],
    [`alice:${A}\nbob:${A}`, "line 2 (bob): the same token is given to two labels"],
  ])("refuses %j", (text, message) => {
    let error: Error | undefined;
    try {
      parseTokens(text);
    } catch (e) {
      error = e as Error;
    }
    expect(error?.message).toStartWith("PROXMOX_MCP_TOKENS_FILE: ");
    expect(error?.message).toContain(message);
    // an error never repeats a token
    expect(error?.message).not.toContain(A.slice(0, 20));
  });

  test("accepts base64 and hex tokens as openssl prints them", () => {
    expect(
      parseTokens(
        `a:${"3f9a0c1b2d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5061728394a5b6c7d8e"}\nb:qZ3+u/9Kx1mN0pQ7rS2tV4wY6zA8bC5dE1fG3hJ4kL8=`,
      ),
    ).toHaveLength(2);
  });
});

describe("readTokensFile", () => {
  const dir = mkdtempSync(join(tmpdir(), "pve-mcp-tokens-unit-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, mode: number, text = `alice:${A}\n`) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    chmodSync(path, mode);
    return path;
  };

  test.each([0o600, 0o400])("mode %o is accepted", (mode) => {
    expect(readTokensFile(file(`ok-${mode}`, mode)).map((t) => t.label)).toEqual(["alice"]);
  });

  test.each([0o640, 0o644, 0o604, 0o660, 0o666])("mode %o is refused with the chmod to run", (mode) => {
    const path = file(`open-${mode}`, mode);
    expect(() => readTokensFile(path)).toThrow(
      `has mode 0${mode.toString(8)}, so other users can read or change the tokens; run chmod 600 ${path}`,
    );
  });

  test("a symbolic link is judged by the file it points to", () => {
    const target = file("target", 0o600);
    const link = join(dir, "link");
    symlinkSync(target, link);
    expect(readTokensFile(link)).toHaveLength(1);
    chmodSync(target, 0o644);
    expect(() => readTokensFile(link)).toThrow("has mode 0644");
  });

  test("unset, missing and not a file", () => {
    expect(() => readTokensFile(undefined)).toThrow(
      "PROXMOX_MCP_TOKENS_FILE: is not set; HTTP mode never runs without authentication",
    );
    expect(() => readTokensFile("  ")).toThrow("is not set");
    expect(() => readTokensFile(join(dir, "missing"))).toThrow("(ENOENT)");
    const sub = join(dir, "sub");
    mkdirSync(sub, { mode: 0o700 });
    expect(() => readTokensFile(sub)).toThrow("is not a regular file");
  });
});

describe("bearerToken", () => {
  test.each([
    ["Bearer abc", "abc"],
    ["bearer abc", "abc"],
    ["BEARER  abc ", "abc"],
    ["Bearer", undefined],
    ["Bearer ", undefined],
    ["Basic abc", undefined],
    ["Bearer a b", undefined],
    ["Bearerabc", undefined],
    ["", undefined],
    [null, undefined],
  ])("%j -> %j", (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });
});

describe("matchToken", () => {
  const tokens = parseTokens(`alice:${A}\nbob:${B}:read-only\ncarol:${A.split("").reverse().join("")}`);

  test("finds the client of a token, and nobody for anything else", () => {
    expect(matchToken(A, tokens)?.label).toBe("alice");
    expect(matchToken(B, tokens)?.label).toBe("bob");
    expect(matchToken(B, tokens)?.readOnly).toBe(true);
    for (const wrong of [A.slice(0, -1), `${A}x`, A.toLowerCase(), "", B.slice(1) + B[0]])
      expect(matchToken(wrong, tokens)).toBeUndefined();
    expect(matchToken(undefined, tokens)).toBeUndefined();
  });

  // Timing safety as structure: every stored token is compared, always with equal-length
  // inputs (so timingSafeEqual never throws or returns early on length), whether the token
  // presented matches the first entry, the last, none, or has another length.
  test.each([
    ["the first", A],
    ["the last", A.split("").reverse().join("")],
    ["none", B.replace(/.$/, "x")],
    ["none, shorter", "short"],
    ["none, longer", A.repeat(3)],
  ])("compares against every token in constant time when matching %s", (_case, presented) => {
    const calls: Array<[number, number]> = [];
    const spy = (a: Buffer, b: Buffer) => {
      calls.push([a.length, b.length]);
      return timingSafeEqual(a, b);
    };
    matchToken(presented, tokens, spy);
    expect(calls).toEqual([
      [32, 32],
      [32, 32],
      [32, 32],
    ]);
  });
});

describe("addressKey", () => {
  test.each([
    ["127.0.0.1", "127.0.0.1"],
    ["::ffff:192.0.2.7", "192.0.2.7"],
    ["::FFFF:192.0.2.7", "192.0.2.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:aaaa::1", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
  ])("%s -> %s", (address, key) => {
    expect(addressKey(address)).toBe(key);
  });
});

describe("FailureLimiter", () => {
  const limit = { burst: 3, refillMs: 1000, maxTracked: 4 };

  test("a burst of failures, then refused until the allowance refills", () => {
    const limiter = new FailureLimiter(limit);
    expect(limiter.retryAfterMs("10.0.0.1", 0)).toBe(0);
    expect(limiter.recordFailure("10.0.0.1", 0)).toBe(false);
    expect(limiter.recordFailure("10.0.0.1", 0)).toBe(false);
    expect(limiter.retryAfterMs("10.0.0.1", 0)).toBe(0);
    expect(limiter.recordFailure("10.0.0.1", 0)).toBe(true);
    expect(limiter.retryAfterMs("10.0.0.1", 0)).toBe(1000);
    expect(limiter.retryAfterMs("10.0.0.1", 400)).toBe(600);
    expect(limiter.retryAfterMs("10.0.0.1", 1000)).toBe(0);
    // another address is not affected
    expect(limiter.retryAfterMs("10.0.0.2", 0)).toBe(0);
  });

  test("addresses of one IPv6 /64 share an allowance; IPv4-mapped addresses count as IPv4", () => {
    const limiter = new FailureLimiter(limit);
    for (const suffix of ["1", "2", "3"]) limiter.recordFailure(`2001:db8:1:2::${suffix}`, 0);
    expect(limiter.retryAfterMs("2001:db8:1:2:ffff::9", 0)).toBeGreaterThan(0);
    expect(limiter.retryAfterMs("2001:db8:1:3::1", 0)).toBe(0);
    for (let i = 0; i < 3; i++) limiter.recordFailure("::ffff:10.1.1.1", 0);
    expect(limiter.retryAfterMs("10.1.1.1", 0)).toBeGreaterThan(0);
  });

  test("remembers a bounded number of addresses, forgetting the oldest", () => {
    const limiter = new FailureLimiter(limit);
    for (let i = 0; i < 3; i++) limiter.recordFailure("10.0.0.1", 0);
    for (let n = 2; n <= 5; n++) limiter.recordFailure(`10.0.0.${n}`, 0);
    expect(limiter.retryAfterMs("10.0.0.1", 0)).toBe(0);
  });
});
