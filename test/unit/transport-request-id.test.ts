import { describe, expect, test } from "bun:test";
import { readMessageEdges } from "../../src/transport/request-id.ts";

const PAD = "x".repeat(100);

describe("readMessageEdges: the id from the start of a message", () => {
  test.each([
    ["id first, params cut off", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"a":"${PAD}`, 7],
    ["a string id", `{"id":"req-1","method":"x","params":{"a":"${PAD}`, "req-1"],
    ["a string id with escapes", `{"id":"a\\"b\\u0041","method":"x","params":{`, 'a"bA'],
    [
      "after whole values of every kind",
      `{"jsonrpc":"2.0","t":true,"n":null,"f":-1.5e3,"o":{"id":1,"l":[1,{"id":2}]},"id":3,"params":{`,
      3,
    ],
    ["whitespace everywhere", ` \t{ "jsonrpc" : "2.0" ,\n "id" : 12 , "params": {`, 12],
    ["id last in a complete object", `{"method":"x","id":5}`, 5],
  ])("%s", (_label, head, id) => {
    expect(readMessageEdges(head, "")).toEqual({ id, response: false });
  });

  test.each([
    ["the only id is inside params", `{"method":"tools/call","params":{"arguments":{"id":9,"pad":"${PAD}`],
    ["an id inside an array in params", `{"params":[{"id":9}],"x":"${PAD}`],
    ["the head ends inside the id's number", `{"jsonrpc":"2.0","id":12`],
    ["the head ends inside an earlier value", `{"jsonrpc":"2.0","params":{"a":"${PAD}`],
    ["a fractional id is not an MCP id", `{"id":1.5,"method":"x"}`],
    ["null is not an id", `{"id":null,"method":"x"}`],
    ["an object id", `{"id":{"n":1},"method":"x"}`],
    ["not an object", `["id",1]`],
    ["not JSON at all", `id: 4`],
    ["a key that only contains id", `{"xid":4,"idx":5,"params":{`],
  ])("nothing when %s", (_label, head) => {
    expect(readMessageEdges(head, "").id).toBeUndefined();
  });

  test.each([
    ["result", `{"jsonrpc":"2.0","id":4,"result":{"a":"${PAD}`],
    ["error", `{"error":{"code":1},"id":4}`],
    ["result before the id", `{"result":{"content":[{"text":"${PAD}`],
  ])("a response (%s) is marked as one, so it is never answered", (_label, head) => {
    expect(readMessageEdges(head, "").response).toBe(true);
  });
});

describe("readMessageEdges: the id from the end (where the MCP TypeScript SDK writes it)", () => {
  const head = `{"method":"tools/call","params":{"arguments":{"pad":"${PAD}`;
  test.each([
    ["a number", `${PAD}"}},"jsonrpc":"2.0","id":41}`, 41],
    ["a negative number", `${PAD}"}},"id":-3}`, -3],
    ["a plain string", `${PAD}"}},"jsonrpc":"2.0","id":"abc-1"}`, "abc-1"],
    ["whitespace and a CR before the end", `${PAD}"}} , "id" : 8 }\r\n`, 8],
    ["id right after the opening brace", `{"id":2}`, 2],
  ])("%s", (_label, tail, id) => {
    expect(readMessageEdges(head, tail)).toEqual({ id, response: false });
  });

  test.each([
    ["the last member is not the id", `${PAD}"}},"id":41,"jsonrpc":"2.0"}`],
    ["an id inside the last member", `${PAD}","id":41}}}`],
    ["an escaped quote before id (inside a string)", `${PAD}\\",\\"id\\":41}"}}`],
    ["a last string value that ends like an id member", `${PAD}"},"note":"x,\\"id\\":3"}`],
    ["a string id with escapes (ambiguous read backwards)", `${PAD}"}},"id":"a\\"b"}`],
    ["no closing brace (cut off)", `${PAD}"}},"jsonrpc":"2.0","id":41`],
    ["a fractional id", `${PAD}"}},"id":4.5}`],
  ])("nothing when %s", (_label, tail) => {
    expect(readMessageEdges(head, tail).id).toBeUndefined();
  });

  test("the start wins over the end", () => {
    expect(readMessageEdges(`{"id":1,"params":{"a":"${PAD}`, `${PAD}"},"id":2}`).id).toBe(1);
  });
});
