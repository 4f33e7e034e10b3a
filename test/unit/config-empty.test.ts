// "Empty means unset" for every setting: an MCP Bundle's client substitutes an optional field
// the user left empty as "", and a hand-written env block often has "" too. Each variable the
// server reads must then behave exactly as if it were absent.
import { expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { settingsTheServerReads } from "../support/settings.ts";

const REQUIRED = ["PROXMOX_URL", "PROXMOX_TOKEN_ID", "PROXMOX_TOKEN_SECRET"];
const optional = settingsTheServerReads().filter((name) => !REQUIRED.includes(name));

const base = {
  PROXMOX_URL: "https://pve.example.com:8006",
  PROXMOX_TOKEN_ID: "mcp@pve!agent",
  PROXMOX_TOKEN_SECRET: "00000000-0000-0000-0000-000000000000",
};

test("the scan finds the optional settings", () => {
  expect(optional).toContain("PROXMOX_CA_FILE");
  expect(optional).toContain("PROXMOX_FILE_ROOTS");
  expect(optional.length).toBeGreaterThan(10);
});

test.each(optional.flatMap((name) => [[name, ""] as const, [name, "  "] as const]))(
  "%s=%j is the same as unset",
  (name, value) => {
    expect(loadConfig({ ...base, [name]: value })).toEqual(loadConfig(base));
  },
);

test("all optional settings empty at once is the same as none set", () => {
  expect(loadConfig({ ...base, ...Object.fromEntries(optional.map((name) => [name, ""])) })).toEqual(loadConfig(base));
});
