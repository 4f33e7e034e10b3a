// Several hosts with the built server over stdio: two fakes with different CAs and tokens.
import { describe, expect, test } from "bun:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { SITE_A, SITE_B, useTwoHosts } from "../support/hosts.ts";
import { textOf } from "../support/mcp.ts";
import { cleanEnv, connectStdio, ensureBuilt, runToExit } from "../support/stdio.ts";

const two = useTwoHosts((fake) => {
  // a server that echoes what it was sent, and the other host's secret, into its errors
  fake.route("GET", "/access/echo", (req) => ({
    status: 500,
    message: `echo ${req.headers.authorization} ${SITE_A.tokenSecret} ${SITE_B.tokenSecret} ${SITE_A.tokenId}`,
  }));
});

function expectNoToken(text: string): void {
  for (const token of [SITE_A, SITE_B])
    for (const form of [token.tokenSecret, token.tokenId, encodeURIComponent(token.tokenId)])
      expect(text).not.toContain(form);
}

/** Waits (bounded) until the server has logged `line`: the version probe runs after connect. */
async function logged(stderr: () => string, line: string): Promise<string> {
  for (let i = 0; i < 500 && !stderr().includes(line); i++) await Bun.sleep(20);
  return stderr();
}

describe("two hosts over stdio", () => {
  test("tools take host, calls reach the named host, and no token reaches stdout or stderr", async () => {
    ensureBuilt();
    two.b.route("GET", "/version", (req) => ({ status: 500, message: `no version ${req.headers.authorization}` }));
    const s = await connectStdio(cleanEnv(two.env()));
    try {
      const { tools } = await s.client.listTools();
      for (const tool of tools) expect(tool.inputSchema.required).toContain("host");
      expect(s.client.getInstructions()).toContain("site-a, site-b");

      const call = async (host: string, path: string) =>
        (await s.client.callTool({ name: "proxmox_get", arguments: { host, path } })) as CallToolResult;
      const nodes = await call("site-a", "/nodes");
      expect(JSON.parse(textOf(nodes))).toMatchObject({
        host: "site-a",
        data: [{ node: "alpha1" }, { node: "alpha2" }],
      });
      const echo = await call("site-b", "/access/echo");
      expect(echo.isError).toBe(true);
      expect(textOf(echo)).toStartWith("Host site-b: GET /access/echo failed: HTTP 500 echo PVEAPIToken=[redacted]");
      expectNoToken(textOf(echo) + JSON.stringify(echo.structuredContent));

      const stderr = await logged(s.stderr, "host site-b: GET /version failed");
      expect(stderr).toContain("host site-a: Proxmox VE 8.4.1 at https://127.0.0.1:");
      expect(stderr).toContain(`Proxmox at ${two.a.url} (site-a), ${two.b.url} (site-b)`);
      expectNoToken(stderr);
      for (const [fake, own] of [
        [two.a, SITE_A],
        [two.b, SITE_B],
      ] as const)
        for (const request of fake.apiRequests())
          expect(request.headers.authorization).toBe(`PVEAPIToken=${own.tokenId}=${own.tokenSecret}`);
    } finally {
      await s.close();
    }
  });

  test("every configuration problem is one stderr line naming its variable; exit 1, nothing on stdout", async () => {
    ensureBuilt();
    const result = await runToExit(
      cleanEnv(
        two.env({
          PROXMOX_URL: "https://pve.example.com:8006",
          PROXMOX_SITE_A_URL: "",
          PROXMOX_SITE_B_TOKEN_SECRET: "",
          PROXMOX_SITE_B_TOKEN: `${SITE_B.tokenId}:${SITE_B.tokenSecret}`,
        }),
      ),
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines.map((line) => /^proxmox-ve-mcp: configuration error: (PROXMOX_[A-Z_]+): /.exec(line)?.[1])).toEqual([
      "PROXMOX_URL",
      "PROXMOX_SITE_A_URL",
      "PROXMOX_SITE_B_TOKEN",
    ]);
    expectNoToken(result.stderr);
  });
});
