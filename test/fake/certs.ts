import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TestPki {
  dir: string;
  /** CA that signed the server certificate. */
  caPem: string;
  caFile: string;
  /** An unrelated CA: trusting it must not make the server trusted. */
  otherCaPem: string;
  otherCaFile: string;
  serverKey: string;
  serverCert: string;
  cleanup(): void;
}

function openssl(args: string[], cwd: string): void {
  execFileSync("openssl", args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
}

function makeCa(dir: string, name: string): void {
  openssl(
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", `${name}.key`, "-out", `${name}.pem`, "-days", "2", "-subj", `/CN=${name} test CA`],
    dir,
  );
}

/** Throwaway CA and server certificate for 127.0.0.1 / localhost, made with openssl. */
export function createTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), "pve-mcp-pki-"));
  makeCa(dir, "ca");
  makeCa(dir, "other-ca");
  writeFileSync(join(dir, "san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n");
  openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"], dir);
  openssl(
    ["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "san.ext"],
    dir,
  );
  const read = (f: string) => readFileSync(join(dir, f), "utf8");
  return {
    dir,
    caPem: read("ca.pem"),
    caFile: join(dir, "ca.pem"),
    otherCaPem: read("other-ca.pem"),
    otherCaFile: join(dir, "other-ca.pem"),
    serverKey: read("server.key"),
    serverCert: read("server.pem"),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

let shared: TestPki | undefined;

/** One PKI per test process: RSA key generation is the slow part. */
export function sharedTestPki(): TestPki {
  if (!shared) {
    shared = createTestPki();
    process.on("exit", () => shared?.cleanup());
  }
  return shared;
}

export function writePem(dir: string, name: string, pem: string): string {
  const file = join(dir, name);
  writeFileSync(file, pem);
  return file;
}
