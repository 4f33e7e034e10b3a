import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileAccess, type FileAccessHooks } from "../../src/files/resolver.ts";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { installFileRoutes, type FileRoutes } from "../fake/upload.ts";
import { connectHarness, textOf, type Harness } from "../support/mcp.ts";

const UPLOAD_PATH = "/nodes/pve1/storage/local/upload";

let fake: FakeProxmox;
let routes: FileRoutes;
let base: string;
let root: string;
let outside: string;
let harness: Harness | undefined;

beforeAll(async () => {
  fake = await FakeProxmox.start();
  routes = installFileRoutes(fake);
});
afterAll(async () => {
  await fake.stop();
});

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "pve-upload-tool-")));
  root = join(base, "files");
  outside = join(base, "outside");
  mkdirSync(root, { mode: 0o755 });
  mkdirSync(outside, { mode: 0o755 });
  writeFileSync(join(outside, "secret.txt"), "secret");
  routes.uploads.length = 0;
  routes.refused.length = 0;
  fake.requests.length = 0;
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  rmSync(base, { recursive: true, force: true });
});

async function connect(opts: { hooks?: FileAccessHooks; files?: boolean; readOnly?: boolean } = {}): Promise<Harness> {
  const files = opts.files === false ? undefined : new FileAccess({ roots: [root] }, opts.hooks);
  harness = await connectHarness(fake, { deps: { files, ...(opts.readOnly ? { readOnly: true } : {}) } });
  return harness;
}

function uploadRequests() {
  return fake.apiRequests().filter((r) => r.path.endsWith("/upload"));
}

function sha256(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

describe("proxmox_upload", () => {
  test("is listed with a write's annotations, beside proxmox_download", async () => {
    const h = await connect();
    const { tools } = await h.client.listTools();
    const upload = tools.find((t) => t.name === "proxmox_upload");
    expect(upload?.title).toBeTruthy();
    expect(upload?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
    expect(Object.keys(upload?.inputSchema.properties ?? {}).sort()).toEqual(["file_path", "parameters", "path"]);
    expect(tools.some((t) => t.name === "proxmox_download")).toBe(true);
  });

  test("in read-only mode it is not registered, while proxmox_download stays", async () => {
    const h = await connect({ readOnly: true });
    const names = (await h.client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain("proxmox_upload");
    expect(names).toContain("proxmox_download");
  });

  test("without PROXMOX_FILE_ROOTS it stays listed and says how to enable file transfer", async () => {
    const h = await connect({ files: false });
    expect((await h.client.listTools()).tools.map((t) => t.name)).toContain("proxmox_upload");
    writeFileSync(join(root, "a.iso"), "x");
    const result = await h.call("proxmox_upload", { path: UPLOAD_PATH, file_path: join(root, "a.iso"), parameters: { content: "iso" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("File transfer is disabled");
    expect(textOf(result)).toContain("PROXMOX_FILE_ROOTS");
    expect((result.structuredContent as { error: { code: string } }).error.code).toBe("file_transfer_disabled");
    expect(uploadRequests()).toHaveLength(0);
  });

  test("sends the file byte-exact in a multipart body with a precomputed Content-Length, and returns the UPID", async () => {
    const content = randomBytes(3 * 1024 * 1024 + 12_345);
    writeFileSync(join(root, "debian.iso"), content);
    const h = await connect();
    const result = await h.call("proxmox_upload", { path: UPLOAD_PATH, file_path: join(root, "debian.iso"), parameters: { content: "iso" } });
    expect(result.isError).toBeFalsy();
    const payload = result.structuredContent as { data: string; bytes_sent: number; file_name: string };
    expect(payload.data).toMatch(/^UPID:pve1:[0-9A-F]{8}:[0-9A-F]{8}:[0-9A-F]{8}:imgcopy::/);
    expect(payload.bytes_sent).toBe(content.length);
    expect(payload.file_name).toBe("debian.iso");

    expect(routes.refused).toEqual([]);
    const [received] = routes.uploads;
    expect(received?.size).toBe(content.length);
    expect(received?.sha256).toBe(sha256(content));
    expect(received?.fileName).toBe("debian.iso");
    expect(received?.params.content).toBe("iso");
    expect(received?.upid).toBe(payload.data);

    const [request] = uploadRequests();
    expect(request?.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(request?.headers["content-length"])).toBe(received!.contentLength);
    expect(received!.contentLength).toBeGreaterThan(content.length);
    expect(request?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=[A-Za-z0-9]+$/);
  });

  test("filename renames, checksum parts are sent, and other parameters travel in the query string", async () => {
    const content = randomBytes(50_000);
    writeFileSync(join(root, "local-name.tar.zst"), content);
    const h = await connect();
    const result = await h.call("proxmox_upload", {
      path: UPLOAD_PATH,
      file_path: join(root, "local-name.tar.zst"),
      parameters: { content: "vztmpl", filename: "debian-12.tar.zst", "checksum-algorithm": "sha256", checksum: sha256(content), extra: "1" },
    });
    expect(result.isError).toBeFalsy();
    const [received] = routes.uploads;
    expect(received?.fileName).toBe("debian-12.tar.zst");
    expect(received?.query).toEqual({ extra: "1" });
    expect(received?.params["checksum-algorithm"]).toBe("sha256");
    const status = await h.call("proxmox_get", { path: `/nodes/pve1/tasks/${received!.upid}/status` });
    expect((status.structuredContent as { data: { exitstatus: string } }).data.exitstatus).toBe("OK");
  });

  test("an empty file is uploaded", async () => {
    writeFileSync(join(root, "empty.iso"), "");
    const h = await connect();
    const result = await h.call("proxmox_upload", { path: UPLOAD_PATH, file_path: join(root, "empty.iso"), parameters: { content: "iso" } });
    expect(result.isError).toBeFalsy();
    expect(routes.uploads[0]?.size).toBe(0);
  });

  test("Proxmox's parameter errors come back with the status and errors", async () => {
    writeFileSync(join(root, "a.iso"), "abc");
    const h = await connect();
    const result = await h.call("proxmox_upload", { path: UPLOAD_PATH, file_path: join(root, "a.iso") });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { error: { status: number; errors: Record<string, string> } }).error).toMatchObject({
      status: 400,
      errors: { content: "property is missing and it is not optional" },
    });
  });

  test("a path that is not an upload endpoint is refused before anything is read or sent", async () => {
    writeFileSync(join(root, "a.iso"), "abc");
    const h = await connect();
    const result = await h.call("proxmox_upload", { path: "/nodes/pve1/qemu/100/config", file_path: join(root, "a.iso"), parameters: { content: "iso" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("not an upload endpoint");
    expect(fake.apiRequests()).toHaveLength(0);
  });

  const refusedSources: [string, () => string, string][] = [
    ["a symlink to a file outside the roots", () => (symlinkSync(join(outside, "secret.txt"), join(root, "x.iso")), join(root, "x.iso")), "outside the directories allowed"],
    ["a prefix sibling of the root", () => (mkdirSync(`${root}-evil`), writeFileSync(`${root}-evil/a`, "e"), `${root}-evil/a`), "outside the directories allowed"],
    ["a directory", () => (mkdirSync(join(root, "dir")), join(root, "dir")), "is a directory"],
    ["a FIFO", () => (Bun.spawnSync(["mkfifo", join(root, "fifo")]), join(root, "fifo")), "is a FIFO"],
    [
      "a file below a group-writable directory",
      () => (mkdirSync(join(root, "g")), chmodSync(join(root, "g"), 0o775), writeFileSync(join(root, "g", "a"), "a"), join(root, "g", "a")),
      "group- or world-writable",
    ],
  ];
  for (const [what, setup, message] of refusedSources) {
    test(`refuses ${what} and sends nothing`, async () => {
      const filePath = setup();
      const h = await connect();
      const result = await h.call("proxmox_upload", { path: UPLOAD_PATH, file_path: filePath, parameters: { content: "iso" } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(message);
      expect(uploadRequests()).toHaveLength(0);
    });
  }

  test("a file name with a double quote is refused and nothing is sent", async () => {
    writeFileSync(join(root, 'we"ird.iso'), "abc");
    const h = await connect();
    const result = await h.call("proxmox_upload", { path: UPLOAD_PATH, file_path: join(root, 'we"ird.iso'), parameters: { content: "iso" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("double quote");
    expect(uploadRequests()).toHaveLength(0);
  });

  test("a file swapped for a symlink to outside after validation: nothing is sent", async () => {
    const path = join(root, "swap.iso");
    writeFileSync(path, "validated bytes");
    const swap = () => {
      unlinkSync(path);
      symlinkSync(join(outside, "secret.txt"), path);
    };
    const h = await connect({ hooks: { afterValidate: swap } });
    const result = await h.call("proxmox_upload", { path: UPLOAD_PATH, file_path: path, parameters: { content: "iso" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("replaced by a symbolic link");
    expect(uploadRequests()).toHaveLength(0);
  });

  test("a path swapped after the open does not change what is sent: the validated file goes", async () => {
    const path = join(root, "swap.iso");
    const validated = randomBytes(100_000);
    writeFileSync(path, validated);
    const files = new FileAccess({ roots: [root] });
    const open = files.openForUpload.bind(files);
    // Swap right after the descriptor is opened, before a byte is read.
    files.openForUpload = async (input) => {
      const source = await open(input);
      unlinkSync(path);
      symlinkSync(join(outside, "secret.txt"), path);
      return source;
    };
    harness = await connectHarness(fake, { deps: { files } });
    const result = await harness.call("proxmox_upload", { path: UPLOAD_PATH, file_path: path, parameters: { content: "iso" } });
    expect(result.isError).toBeFalsy();
    expect(routes.uploads[0]?.sha256).toBe(sha256(validated));
  });
});
