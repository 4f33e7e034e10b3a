// src/http/undici.ts builds undici's Agent on its first dispatch, so that a client created at
// startup loads nothing (test/e2e/lazy-startup.test.ts checks that on the built server). Until
// then and after, it must behave as undici's own Agent does.
import { describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:net";
import { Agent, createAgent, request } from "../../src/http/undici.ts";

/** A port with nothing listening: bound, noted, closed. */
async function closedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("the agent built on first dispatch", () => {
  test("closed before its first request, it refuses requests as a closed undici Agent does", async () => {
    const agent = createAgent({ verifyTls: true, timeoutMs: 2_000 });
    await agent.close();
    const refused = await request("http://127.0.0.1:9/", { dispatcher: agent }).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).name).toBe("ClientDestroyedError");
  });

  test("forwards undici's events and, closed after use, refuses further requests", async () => {
    const port = await closedPort();
    const agent = new Agent();
    const origins: string[] = [];
    agent.on("connectionError", (origin: URL) => origins.push(String(origin)));
    const failed = await request(`http://127.0.0.1:${port}/`, { dispatcher: agent }).catch((error: Error) => error);
    expect((failed as NodeJS.ErrnoException).code).toBe("ECONNREFUSED");
    expect(origins).toEqual([`http://127.0.0.1:${port}/`]);
    await agent.close();
    const refused = await request(`http://127.0.0.1:${port}/`, { dispatcher: agent }).catch((error: Error) => error);
    expect((refused as Error).name).toBe("ClientDestroyedError");
  });

  test("request() names its dispatcher: undici's global one is never used", async () => {
    const missing = await request("http://127.0.0.1:9/", {} as never).catch((error: Error) => error);
    expect(String(missing)).toContain("names its dispatcher");
  });
});
