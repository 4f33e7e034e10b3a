// The yardstick of bench/http.ts: the smallest Streamable HTTP server on the same SDK and the same
// Bun.serve, one McpServer and transport per session, and one tool that GETs a Proxmox path with
// the real undici, as proxmox_get does, but with no authentication, checks, policy or catalog.
// Takes the fake's settings from the environment, prints {"url"} and serves until stdin closes.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { createAgent, request } from "../src/http/undici.ts";

const env = process.env;
const agent = createAgent({ ca: readFileSync(env.PROXMOX_CA_FILE!, "utf8"), verifyTls: true, timeoutMs: 120_000 });
const authorization = `PVEAPIToken=${env.PROXMOX_TOKEN_ID}=${env.PROXMOX_TOKEN_SECRET}`;
const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();

function newServer(): McpServer {
  const server = new McpServer({ name: "minimal", version: "0.0.0" }, { capabilities: { tools: {} } });
  server.registerTool("proxmox_get", { inputSchema: { path: z.string() } }, async ({ path }) => {
    const response = await request(`${env.PROXMOX_URL}/api2/json${path}`, {
      headers: { authorization },
      dispatcher: agent,
    });
    return { content: [{ type: "text", text: await response.body.text() }] };
  });
  return server;
}

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req, bun) {
    bun.timeout(req, 0);
    const id = req.headers.get("mcp-session-id");
    let transport = id ? sessions.get(id) : undefined;
    if (!transport) {
      const created = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sid) => void sessions.set(sid, created),
      });
      created.onclose = () => void (created.sessionId && sessions.delete(created.sessionId));
      await newServer().connect(created);
      transport = created;
    }
    return transport.handleRequest(req);
  },
});

process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.port}/mcp` })}\n`);
const stop = () => {
  void server.stop(true);
  process.exit(0);
};
process.stdin.on("end", stop);
process.stdin.on("close", stop);
process.stdin.resume();
