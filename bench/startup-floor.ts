// The startup yardstick: the smallest useful stdio MCP server on the same SDK, one tool with a
// zod input schema. bench/startup.ts bundles it with `bun build --target=bun` and alternates it
// with ours; it is not part of the product.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "startup-floor", version: "0.0.0" });
server.registerTool(
  "echo",
  { description: "Returns its text.", inputSchema: { text: z.string().describe("What to echo.") } },
  async ({ text }) => ({ content: [{ type: "text", text }] }),
);
await server.connect(new StdioServerTransport());
