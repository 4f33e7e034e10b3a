// Several hosts (PROXMOX_HOSTS) the way src/index.ts builds them: environment -> loadConfig ->
// buildHosts -> createServer, with a real SDK client in front.
import { afterAll, afterEach, beforeAll } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import type { FileAccess } from "../../src/files/resolver.ts";
import { buildHosts } from "../../src/hosts/build.ts";
import { hostVariable } from "../../src/hosts/labels.ts";
import type { HostRegistry } from "../../src/hosts/registry.ts";
import { silentLogger, type Logger } from "../../src/log.ts";
import { createTestPki, type TestPki } from "../fake/certs.ts";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { connectServer, type Harness } from "./mcp.ts";

/** PROXMOX_<LABEL>_URL, _TOKEN_ID, _TOKEN_SECRET and _CA_FILE pointing at `fake`. */
export function hostEnv(label: string, fake: FakeProxmox): Record<string, string> {
  const single = fake.env();
  const env: Record<string, string> = {};
  for (const setting of ["URL", "TOKEN_ID", "TOKEN_SECRET", "CA_FILE"] as const) {
    const value = single[`PROXMOX_${setting}`];
    if (value !== undefined) env[hostVariable(label, setting)] = value;
  }
  return env;
}

/** PROXMOX_HOSTS and each host's settings, labels in the order given. */
export function hostsEnv(
  fakes: Record<string, FakeProxmox>,
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = { PROXMOX_HOSTS: Object.keys(fakes).join(",") };
  for (const [label, fake] of Object.entries(fakes)) Object.assign(env, hostEnv(label, fake));
  return { ...env, ...extra };
}

export interface HostsHarness extends Omit<Harness, "proxmox"> {
  hosts: HostRegistry;
}

export async function connectHosts(
  env: Record<string, string>,
  options: { log?: Logger; files?: FileAccess; readFile?: (path: string) => string; learnVersions?: boolean } = {},
): Promise<HostsHarness> {
  const log = options.log ?? silentLogger;
  const hosts = buildHosts(loadConfig(env), log, options.readFile ? { readFile: options.readFile } : {});
  if (options.learnVersions) await hosts.learnVersions(log);
  const connected = await connectServer({
    hosts,
    log,
    files: options.files,
    taskPolling: { initialMs: 1, maxMs: 5 },
  });
  return {
    ...connected,
    hosts,
    close: async () => {
      await connected.close();
      await hosts.close();
    },
  };
}

export const SITE_A = { tokenId: "mcp@pve!site-a", tokenSecret: "aaaaaaaa-1111-4aaa-8aaa-aaaaaaaaaaa1" };
export const SITE_B = { tokenId: "ops@pam!site-b", tokenSecret: "bbbbbbbb-2222-4bbb-8bbb-bbbbbbbbbbb2" };

export interface TwoHosts {
  /** site-a: the shared test CA, nodes alpha1 and alpha2, Proxmox VE 8.4.1. */
  readonly a: FakeProxmox;
  /** site-b: a CA of its own, nodes beta1 and beta2, Proxmox VE 9.1.1. */
  readonly b: FakeProxmox;
  /** The CA and certificate of site-b. */
  readonly pkiB: TestPki;
  /** PROXMOX_HOSTS=site-a,site-b and both hosts' settings, plus `extra`. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** The current test's harness; closed, and both fakes' records cleared, after the test. */
  open(env?: Record<string, string>, options?: Parameters<typeof connectHosts>[1]): Promise<HostsHarness>;
  /** "METHOD /path" of the API requests `fake` received in the current test. */
  seen(fake: FakeProxmox): string[];
}

/** Two loopback fakes with different CAs, tokens, nodes and versions, started once per test file. */
export function useTwoHosts(setup: (fake: FakeProxmox) => void = () => {}): TwoHosts {
  let a: FakeProxmox | undefined;
  let b: FakeProxmox | undefined;
  let pkiB: TestPki | undefined;
  let harness: HostsHarness | undefined;
  beforeAll(async () => {
    pkiB = createTestPki();
    [a, b] = await Promise.all([
      FakeProxmox.start({ ...SITE_A, nodes: ["alpha1", "alpha2"] }),
      FakeProxmox.start({ ...SITE_B, nodes: ["beta1", "beta2"], pki: pkiB }),
    ]);
    a.route("GET", "/version", () => ({ data: { version: "8.4.1", release: "8.4", repoid: "fake0084" } }));
    setup(a);
    setup(b);
  }, 60_000); // two PKIs' RSA keys take seconds on a busy machine
  afterAll(async () => {
    await harness?.close();
    await Promise.all([a?.stop(), b?.stop()]);
    pkiB?.cleanup();
  });
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
    for (const fake of [a, b]) if (fake) fake.requests.length = 0;
  });
  const hosts: TwoHosts = {
    get a() {
      return a!;
    },
    get b() {
      return b!;
    },
    get pkiB() {
      return pkiB!;
    },
    env: (extra = {}) => hostsEnv({ "site-a": a!, "site-b": b! }, extra),
    async open(env = hosts.env(), options = {}) {
      await harness?.close();
      harness = await connectHosts(env, options);
      return harness;
    },
    seen: (fake) => fake.apiRequests().map((r) => `${r.method} ${r.path}`),
  };
  return hosts;
}
