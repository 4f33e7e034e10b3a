import { describe, expect, test } from "bun:test";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { InitializeGate } from "../../src/transport/lifecycle.ts";

const request = (id: number, method: string): JSONRPCMessage => ({ jsonrpc: "2.0", id, method, params: {} });
const notification = (method: string): JSONRPCMessage => ({ jsonrpc: "2.0", method });
const result = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, result: {} });
const failure = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, error: { code: -32602, message: "bad" } });
const initialized = notification("notifications/initialized");

type Step = ["in", JSONRPCMessage] | ["out", JSONRPCMessage];

/** Runs the steps through a gate; returns whether a tools/call would be admitted afterwards. */
function callAdmittedAfter(steps: Step[]): boolean {
  const gate = new InitializeGate();
  for (const [direction, message] of steps) {
    if (direction === "in") gate.admit(message);
    else gate.sent(message);
  }
  return gate.admit(request(99, "tools/call")) === undefined;
}

describe("InitializeGate before initialization", () => {
  test.each([
    ["tools/call", request(1, "tools/call")],
    ["tools/list", request(1, "tools/list")],
    ["resources/list", request(1, "resources/list")],
    ["an unknown method", request(1, "x/y")],
  ])("refuses %s with an error for its id", (_label, message) => {
    const refusal = new InitializeGate().admit(message);
    expect(refusal).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32600 } });
    expect(refusal?.error.message).toContain("not initialized");
  });

  test.each([
    ["initialize", request(1, "initialize")],
    ["ping", request(1, "ping")],
    ["notifications/initialized", initialized],
    ["notifications/cancelled", notification("notifications/cancelled")],
    ["a response", result(9)],
  ])("passes %s", (_label, message) => {
    expect(new InitializeGate().admit(message)).toBeUndefined();
  });
});

describe("InitializeGate: when initialization is complete", () => {
  test.each<[string, Step[], boolean]>([
    ["nothing yet", [], false],
    ["initialize sent, no answer, no notification", [["in", request(1, "initialize")]], false],
    [
      "the server's result for initialize",
      [
        ["in", request(1, "initialize")],
        ["out", result(1)],
      ],
      true,
    ],
    [
      "the client's initialized notification after initialize, answer still pending (pipelined)",
      [
        ["in", request(1, "initialize")],
        ["in", initialized],
      ],
      true,
    ],
    ["an initialized notification without initialize", [["in", initialized]], false],
    [
      "an error answer to initialize",
      [
        ["in", request(1, "initialize")],
        ["out", failure(1)],
      ],
      false,
    ],
    [
      "a notification after initialize failed",
      [
        ["in", request(1, "initialize")],
        ["out", failure(1)],
        ["in", initialized],
      ],
      false,
    ],
    [
      "a result for another id",
      [
        ["in", request(1, "initialize")],
        ["out", result(2)],
      ],
      false,
    ],
    [
      "a retried initialize after a failure",
      [
        ["in", request(1, "initialize")],
        ["out", failure(1)],
        ["in", request(2, "initialize")],
        ["out", result(2)],
      ],
      true,
    ],
    [
      "only a ping",
      [
        ["in", request(1, "ping")],
        ["out", result(1)],
      ],
      false,
    ],
  ])("%s: %p", (_label, steps, admitted) => {
    expect(callAdmittedAfter(steps)).toBe(admitted);
  });
});
