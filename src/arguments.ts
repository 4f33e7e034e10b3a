// The command line. Settings come from the environment; the only arguments are --version,
// --help, --http (the same as PROXMOX_MCP_TRANSPORT=http), and directories for file transfer.
// Directories are accepted as arguments because an MCP Bundle's client can pass a
// multiple-directory choice only as separate arguments (it expands an array inside `args`,
// never inside an `env` string).
import { delimiter } from "node:path";
import { FILE_ROOTS_VARIABLE } from "./files/config.ts";
import { ConfigError, type Env } from "./settings.ts";
import { TRANSPORT_VARIABLE } from "./transport/http-config.ts";

export type Invocation = { kind: "serve"; env: Env } | { kind: "version" } | { kind: "help" };

const ARGUMENTS = "arguments";

/**
 * argv (without the runtime and script) + environment -> what to do. Directory arguments become
 * PROXMOX_FILE_ROOTS. Empty arguments are ignored, like empty settings: a client that substitutes
 * an empty choice passes "".
 */
export function parseArguments(args: readonly string[], env: Env): Invocation {
  const roots: string[] = [];
  let http = false;
  for (const arg of args) {
    if (arg === "--version" || arg === "-v") return { kind: "version" };
    if (arg === "--help" || arg === "-h") return { kind: "help" };
    if (arg === "--http") {
      http = true;
      continue;
    }
    if (arg.startsWith("-")) {
      throw new ConfigError(
        ARGUMENTS,
        `unknown option ${arg}; expected --version, --help, --http, or directories for file transfer`,
      );
    }
    if (arg.trim() === "") continue;
    if (arg.includes(delimiter)) {
      throw new ConfigError(
        ARGUMENTS,
        `directory ${JSON.stringify(arg)} contains "${delimiter}", which cannot be passed on; rename it or use ${FILE_ROOTS_VARIABLE}`,
      );
    }
    roots.push(arg);
  }
  const settings = http ? { ...env, [TRANSPORT_VARIABLE]: "http" } : env;
  if (roots.length === 0) return { kind: "serve", env: settings };
  const fromEnv = env[FILE_ROOTS_VARIABLE];
  if (fromEnv !== undefined && fromEnv.trim() !== "") {
    throw new ConfigError(
      ARGUMENTS,
      `directories were given both as arguments and in ${FILE_ROOTS_VARIABLE}; name them in one place only`,
    );
  }
  return { kind: "serve", env: { ...settings, [FILE_ROOTS_VARIABLE]: roots.join(delimiter) } };
}

export function usage(name: string, version: string): string {
  return `${name} ${version}: an MCP server for the Proxmox VE API, spoken over stdin/stdout
(or Streamable HTTP with --http). An MCP client starts or connects to it; it is not interactive.

Usage: ${name} [--http] [DIRECTORY...]
  DIRECTORY       directories proxmox_upload and proxmox_download may use
                  (the same as ${FILE_ROOTS_VARIABLE})
  --http          serve MCP over Streamable HTTP instead of stdio
                  (the same as ${TRANSPORT_VARIABLE}=http; the README says how)
  -v, --version   print the version
  -h, --help      print this text

Settings are environment variables: PROXMOX_URL, PROXMOX_TOKEN_ID and PROXMOX_TOKEN_SECRET are
required; the README lists the others. An empty variable counts as unset.
`;
}
