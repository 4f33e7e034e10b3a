import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Catalog } from "../../src/catalog/catalog.ts";
import type { CatalogProvider } from "../../src/catalog/loader.ts";
import { FileAccess } from "../../src/files/resolver.ts";
import { FakeProxmox } from "../fake/pve-fake.ts";
import { installFileRoutes } from "../fake/upload.ts";
import { uploadEndpointSchema } from "../support/catalog.ts";
import { sha256, useFileFixture } from "../support/files.ts";
import { textOf, type Harness } from "../support/mcp.ts";

const UPLOAD_PATH = "/nodes/pve1/storage/local/upload";

const fx = useFileFixture("pve-upload-tool-");
beforeEach(() => writeFileSync(join(fx.outside, "secret.txt"), "secret"));

function uploadRequests() {
  return fx.fake.apiRequests().filter((r) => r.path.endsWith("/upload"));
}

/** Uploads a file from the root to the local storage's upload endpoint. */
function upload(h: Harness, file: string, parameters: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return h.call("proxmox_upload", { path: UPLOAD_PATH, file_path: join(fx.root, file), parameters, ...extra });
}

/** A catalog of just the upload endpoint, as PVE 7.4+ (with checksum parameters) or 6.4 (without) lists it. */
function uploadCatalog(withChecksum: boolean, kind: "cluster" | "public" = "cluster"): Catalog {
  return Catalog.fromText(uploadEndpointSchema(withChecksum), { kind, location: "test" });
}

/** A provider already holding `catalog`, or (loaded=false) one that hands it out on the first get(). */
function provider(catalog: Catalog | Error, loaded = true, loadMs = 20): CatalogProvider & { gets: number } {
  let held = loaded && !(catalog instanceof Error) ? catalog : undefined;
  const p = {
    gets: 0,
    peek: () => held,
    get: async () => {
      p.gets++;
      await new Promise((resolve) => setTimeout(resolve, loadMs));
      if (catalog instanceof Error) throw catalog;
      held = catalog;
      return catalog;
    },
  };
  return p;
}

describe("proxmox_upload", () => {
  test("is listed with a write's annotations, beside proxmox_download", async () => {
    const h = await fx.connect();
    const { tools } = await h.client.listTools();
    const upload = tools.find((t) => t.name === "proxmox_upload");
    expect(upload?.title).toBeTruthy();
    expect(upload?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(Object.keys(upload?.inputSchema.properties ?? {}).sort()).toEqual([
      "dry_run",
      "file_path",
      "parameters",
      "path",
      "wait",
      "wait_timeout_s",
    ]);
    expect(tools.some((t) => t.name === "proxmox_download")).toBe(true);
  });

  test("in read-only mode it is not registered, while proxmox_download stays", async () => {
    const h = await fx.connect({ readOnly: true });
    const names = (await h.client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain("proxmox_upload");
    expect(names).toContain("proxmox_download");
  });

  test("without PROXMOX_FILE_ROOTS it stays listed and says how to enable file transfer", async () => {
    const h = await fx.connect({ files: false });
    expect((await h.client.listTools()).tools.map((t) => t.name)).toContain("proxmox_upload");
    writeFileSync(join(fx.root, "a.iso"), "x");
    const result = await upload(h, "a.iso", { content: "iso" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("File transfer is disabled");
    expect(textOf(result)).toContain("PROXMOX_FILE_ROOTS");
    expect((result.structuredContent as { error: { code: string } }).error.code).toBe("file_transfer_disabled");
    expect(uploadRequests()).toHaveLength(0);
  });

  test("sends the file byte-exact in a multipart body with a precomputed Content-Length, and returns the UPID", async () => {
    const content = randomBytes(3 * 1024 * 1024 + 12_345);
    writeFileSync(join(fx.root, "debian.iso"), content);
    const h = await fx.connect();
    const result = await upload(h, "debian.iso", { content: "iso" });
    expect(result.isError).toBeFalsy();
    const payload = result.structuredContent as { data: string; bytes_sent: number; file_name: string };
    expect(payload.data).toMatch(/^UPID:pve1:[0-9A-F]{8}:[0-9A-F]{8}:[0-9A-F]{8}:imgcopy::/);
    expect(payload.bytes_sent).toBe(content.length);
    expect(payload.file_name).toBe("debian.iso");

    expect(fx.routes.refused).toEqual([]);
    const [received] = fx.routes.uploads;
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

  test("with wait=true the copy task's outcome comes back: ok, or the checksum failure as an error with its log", async () => {
    const content = randomBytes(70_000);
    writeFileSync(join(fx.root, "tmpl.tar.zst"), content);
    const h = await fx.connect();
    const ok = await upload(h, "tmpl.tar.zst", { content: "vztmpl" }, { wait: true });
    expect((ok.structuredContent as { task: Record<string, unknown> }).task).toMatchObject({
      type: "imgcopy",
      node: "pve1",
      ok: true,
    });
    const bad = await upload(
      h,
      "tmpl.tar.zst",
      { content: "vztmpl", "checksum-algorithm": "sha256", checksum: "0".repeat(64) },
      { wait: true },
    );
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain("checksum mismatch");
    const task = (bad.structuredContent as { task: { ok: boolean; exitstatus: string; log_tail: string[] } }).task;
    expect(task.ok).toBe(false);
    expect(task.exitstatus).toContain("checksum mismatch");
    expect(task.log_tail.join("\n")).toContain("checksum mismatch");
    expect(uploadRequests()).toHaveLength(2);
  });

  test("filename renames, checksum parts are sent, and other parameters travel in the query string", async () => {
    const content = randomBytes(50_000);
    writeFileSync(join(fx.root, "local-name.tar.zst"), content);
    const h = await fx.connect();
    const result = await upload(h, "local-name.tar.zst", {
      content: "vztmpl",
      filename: "debian-12.tar.zst",
      "checksum-algorithm": "sha256",
      checksum: sha256(content),
      extra: "1",
    });
    expect(result.isError).toBeFalsy();
    const [received] = fx.routes.uploads;
    expect(received?.fileName).toBe("debian-12.tar.zst");
    expect(received?.query).toEqual({ extra: "1" });
    expect(received?.params["checksum-algorithm"]).toBe("sha256");
    const status = await h.call("proxmox_get", { path: `/nodes/pve1/tasks/${received!.upid}/status` });
    expect((status.structuredContent as { data: { exitstatus: string } }).data.exitstatus).toBe("OK");
  });

  test("the file part carries no Content-Type line, and the result names the stored file and its volume id", async () => {
    const content = randomBytes(10_000);
    writeFileSync(join(fx.root, "my file.iso"), content);
    const h = await fx.connect();
    const result = await upload(h, "my file.iso", { content: "iso" });
    expect(result.isError).toBeFalsy();
    const [received] = fx.routes.uploads;
    expect(received?.fileHeaders).toBe("\r\n\r\n");
    expect(received?.fileName).toBe("my file.iso");
    expect(received?.sha256).toBe(sha256(content));
    expect(result.structuredContent).toMatchObject({
      file_name: "my file.iso",
      stored_name: "my_file.iso",
      volid: "local:iso/my_file.iso",
    });
    expect(textOf(result)).toContain('"volid":"local:iso/my_file.iso"');
  });

  test("an empty file is uploaded", async () => {
    writeFileSync(join(fx.root, "empty.iso"), "");
    const h = await fx.connect();
    const result = await upload(h, "empty.iso", { content: "iso" });
    expect(result.isError).toBeFalsy();
    expect(fx.routes.uploads[0]?.size).toBe(0);
  });

  test("Proxmox's parameter errors come back with the status and errors", async () => {
    writeFileSync(join(fx.root, "a.iso"), "abc");
    const h = await fx.connect();
    const result = await h.call("proxmox_upload", { path: UPLOAD_PATH, file_path: join(fx.root, "a.iso") });
    expect(result.isError).toBe(true);
    expect(
      (result.structuredContent as { error: { status: number; errors: Record<string, string> } }).error,
    ).toMatchObject({
      status: 400,
      errors: { content: "property is missing and it is not optional" },
    });
  });

  test("a path that is not an upload endpoint is refused before anything is read or sent", async () => {
    writeFileSync(join(fx.root, "a.iso"), "abc");
    const h = await fx.connect();
    const result = await h.call("proxmox_upload", {
      path: "/nodes/pve1/qemu/100/config",
      file_path: join(fx.root, "a.iso"),
      parameters: { content: "iso" },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("not an upload endpoint");
    expect(fx.fake.apiRequests()).toHaveLength(0);
  });

  const refusedSources: [string, () => string, string][] = [
    [
      "a symlink to a file outside the roots",
      () => (symlinkSync(join(fx.outside, "secret.txt"), join(fx.root, "x.iso")), join(fx.root, "x.iso")),
      "outside the directories allowed",
    ],
    [
      "a prefix sibling of the root",
      () => (mkdirSync(`${fx.root}-evil`), writeFileSync(`${fx.root}-evil/a`, "e"), `${fx.root}-evil/a`),
      "outside the directories allowed",
    ],
    ["a directory", () => (mkdirSync(join(fx.root, "dir")), join(fx.root, "dir")), "is a directory"],
    ["a FIFO", () => (Bun.spawnSync(["mkfifo", join(fx.root, "fifo")]), join(fx.root, "fifo")), "is a FIFO"],
    [
      "a file below a group-writable directory",
      () => (
        mkdirSync(join(fx.root, "g")),
        chmodSync(join(fx.root, "g"), 0o775),
        writeFileSync(join(fx.root, "g", "a"), "a"),
        join(fx.root, "g", "a")
      ),
      "group- or world-writable",
    ],
  ];
  for (const [what, setup, message] of refusedSources) {
    test(`refuses ${what} and sends nothing`, async () => {
      const filePath = setup();
      const h = await fx.connect();
      const result = await h.call("proxmox_upload", {
        path: UPLOAD_PATH,
        file_path: filePath,
        parameters: { content: "iso" },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(message);
      expect(uploadRequests()).toHaveLength(0);
    });
  }

  test("a file name with a double quote is refused and nothing is sent", async () => {
    writeFileSync(join(fx.root, 'we"ird.iso'), "abc");
    const h = await fx.connect();
    const result = await h.call("proxmox_upload", {
      path: UPLOAD_PATH,
      file_path: join(fx.root, 'we"ird.iso'),
      parameters: { content: "iso" },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("double quote");
    expect(uploadRequests()).toHaveLength(0);
  });

  test("a file swapped for a symlink to outside after validation: nothing is sent", async () => {
    const path = join(fx.root, "swap.iso");
    writeFileSync(path, "validated bytes");
    const swap = () => {
      unlinkSync(path);
      symlinkSync(join(fx.outside, "secret.txt"), path);
    };
    const h = await fx.connect({ hooks: { afterValidate: swap } });
    const result = await h.call("proxmox_upload", {
      path: UPLOAD_PATH,
      file_path: path,
      parameters: { content: "iso" },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("replaced by a symbolic link");
    expect(uploadRequests()).toHaveLength(0);
  });

  describe("the checksum sent by default", () => {
    test("where the cluster's schema takes one, sha256 is computed, sent and verified by the task", async () => {
      const content = randomBytes(3 * 1024 * 1024 + 5);
      writeFileSync(join(fx.root, "a.iso"), content);
      const h = await fx.connect({ catalog: provider(uploadCatalog(true)) });
      const result = await upload(h, "a.iso", { content: "iso" }, { wait: true });
      expect(result.isError).toBeFalsy();
      const [received] = fx.routes.uploads;
      expect(received?.params["checksum-algorithm"]).toBe("sha256");
      expect(received?.params.checksum).toBe(sha256(content));
      const payload = result.structuredContent as { checksum: unknown; task: { ok: boolean; exitstatus: string } };
      expect(payload.checksum).toEqual({ algorithm: "sha256", value: sha256(content), source: "computed" });
      expect(payload.task).toMatchObject({ ok: true, exitstatus: "OK" });
    });

    test("a file changed between the hash and the send fails the task instead of passing", async () => {
      const path = join(fx.root, "changing.iso");
      writeFileSync(path, randomBytes(100_000));
      const files = new FileAccess({ roots: [fx.root] });
      const open = files.openForUpload.bind(files);
      files.openForUpload = async (input) => {
        const source = await open(input);
        const read = source.handle.read.bind(source.handle);
        let reads = 0;
        // The second pass over the file (the send) sees other bytes than the first (the hash).
        source.handle.read = (async (buffer: Buffer, offset: number, length: number, position: number) => {
          const out = await read(buffer, offset, length, position);
          if (++reads > 1 && out.bytesRead > 0) buffer[offset] = buffer[offset]! ^ 0xff;
          return out;
        }) as unknown as typeof read;
        return source;
      };
      const h = await fx.connect({ files, catalog: provider(uploadCatalog(true)) });
      const result = await h.call("proxmox_upload", {
        path: UPLOAD_PATH,
        file_path: path,
        parameters: { content: "iso" },
        wait: true,
      });
      const task = (result.structuredContent as { task: { ok: boolean; exitstatus: string } }).task;
      expect(task.ok).toBe(false);
      expect(task.exitstatus).toContain("checksum mismatch");
    });

    test("a catalog not yet loaded is loaded while the file is hashed", async () => {
      writeFileSync(join(fx.root, "a.iso"), "abc");
      const catalog = provider(uploadCatalog(true), false);
      const h = await fx.connect({ catalog });
      const result = await upload(h, "a.iso", { content: "iso" });
      expect(catalog.gets).toBe(1);
      expect((result.structuredContent as { checksum: { value: string } }).checksum.value).toBe(
        sha256(Buffer.from("abc")),
      );
      expect(fx.routes.uploads[0]?.params.checksum).toBe(sha256(Buffer.from("abc")));
    });

    const withheld: [string, () => CatalogProvider | undefined, string][] = [
      ["a PVE 6.4 schema, whose endpoint takes none", () => provider(uploadCatalog(false)), "takes none"],
      ["no catalog", () => undefined, "could not be read"],
      ["a catalog that fails to load", () => provider(new Error("unreachable"), false), "could not be read"],
      [
        "pve.proxmox.com's schema, which describes another release",
        () => provider(uploadCatalog(true, "public")),
        "could not be read",
      ],
    ];
    for (const [what, catalog, note] of withheld) {
      test(`is not sent with ${what}, and the result says why`, async () => {
        writeFileSync(join(fx.root, "a.iso"), "abc");
        const given = catalog();
        const h = await fx.connect(given ? { catalog: given } : {});
        const result = await upload(h, "a.iso", { content: "iso" });
        expect(result.isError).toBeFalsy();
        expect(fx.routes.uploads[0]?.params["checksum-algorithm"]).toBeUndefined();
        expect(fx.routes.uploads[0]?.params.checksum).toBeUndefined();
        expect((result.structuredContent as { checksum: unknown }).checksum).toBeNull();
        expect((result.structuredContent as { checksum_note: string }).checksum_note).toContain(note);
      });
    }

    test("PROXMOX_UPLOAD_CHECKSUM=false turns it off", async () => {
      writeFileSync(join(fx.root, "a.iso"), "abc");
      const h = await fx.connect({
        files: new FileAccess({ roots: [fx.root], uploadChecksum: false }),
        catalog: provider(uploadCatalog(true)),
      });
      const result = await upload(h, "a.iso", { content: "iso" });
      expect(fx.routes.uploads[0]?.params.checksum).toBeUndefined();
      expect((result.structuredContent as { checksum_note: string }).checksum_note).toContain(
        "PROXMOX_UPLOAD_CHECKSUM=false",
      );
    });

    test("the caller's checksum wins: sent as given, not recomputed", async () => {
      writeFileSync(join(fx.root, "a.iso"), "abc");
      const h = await fx.connect({ catalog: provider(uploadCatalog(true)) });
      const result = await upload(
        h,
        "a.iso",
        { content: "iso", "checksum-algorithm": "sha256", checksum: "F".repeat(64) },
        { wait: true },
      );
      expect(fx.routes.uploads[0]?.params.checksum).toBe("F".repeat(64));
      const payload = result.structuredContent as { checksum: unknown; task: { ok: boolean } };
      expect(payload.checksum).toEqual({ algorithm: "sha256", value: "F".repeat(64), source: "given" });
      expect(payload.task.ok).toBe(false);
    });

    test("an algorithm given alone is computed with that algorithm, whatever the catalog says", async () => {
      const content = randomBytes(5000);
      writeFileSync(join(fx.root, "a.iso"), content);
      const h = await fx.connect();
      const result = await upload(h, "a.iso", { content: "iso", "checksum-algorithm": "sha512" }, { wait: true });
      const md = createHash("sha512").update(content).digest("hex");
      expect(fx.routes.uploads[0]?.params).toMatchObject({ "checksum-algorithm": "sha512", checksum: md });
      expect((result.structuredContent as { task: { ok: boolean } }).task.ok).toBe(true);
    });

    test("a file that shrinks while it is hashed (the catalog still loading) fails cleanly, nothing sent", async () => {
      const path = join(fx.root, "shrinking.iso");
      writeFileSync(path, randomBytes(300_000));
      const files = new FileAccess({ roots: [fx.root] });
      const open = files.openForUpload.bind(files);
      // The size taken at open is larger than what can be read: the file shrank after the check.
      files.openForUpload = async (input) => ({ ...(await open(input)), size: 1_000_000 });
      const h = await fx.connect({ files, catalog: provider(uploadCatalog(true), false, 300) });
      const result = await upload(h, "shrinking.iso", { content: "iso" });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("shrank while its checksum was computed");
      expect((result.structuredContent as { error: { code: string } }).error.code).toBe("local_read_failed");
      expect(uploadRequests()).toHaveLength(0);
    });

    test("a checksum without its algorithm is refused before anything is read or sent", async () => {
      writeFileSync(join(fx.root, "a.iso"), "abc");
      const h = await fx.connect();
      const result = await upload(h, "a.iso", { content: "iso", checksum: "abc" });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("needs 'checksum-algorithm'");
      expect(uploadRequests()).toHaveLength(0);
    });

    test("a PVE 6.4 node refusing a given checksum gets a hint", async () => {
      const old = await FakeProxmox.start();
      try {
        installFileRoutes(old, { acceptsChecksum: false });
        writeFileSync(join(fx.root, "a.iso"), "abc");
        const h = await fx.connect({ fake: old });
        const result = await upload(h, "a.iso", { content: "iso", "checksum-algorithm": "md5", checksum: "x" });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain("takes no checksum");
      } finally {
        await old.stop();
      }
    });
  });

  describe("against a Proxmox that reads the body slowly or not at all", () => {
    let slow: FakeProxmox;
    let received = 0;
    let firstChunk: () => void = () => {};
    let ended: Promise<string>;
    let settle: (how: string) => void = () => {};
    beforeEach(async () => {
      slow = await FakeProxmox.start();
      received = 0;
      ended = new Promise((resolve) => (settle = resolve));
      slow.route(
        "POST",
        "/nodes/{node}/storage/{storage}/upload",
        async (req) => {
          const stream = req.stream!;
          stream.on("error", () => settle("aborted"));
          stream.on("close", () => settle(stream.readableEnded ? "complete" : "aborted"));
          if (req.query.get("stall") === "1") return { hang: true };
          // rate=<bytes per second>: read no faster than that, whatever the chunk sizes.
          const rate = Number(req.query.get("rate") ?? 0);
          const started = performance.now();
          for await (const chunk of stream) {
            received += (chunk as Buffer).length;
            firstChunk();
            const due = rate ? started + (received / rate) * 1000 - performance.now() : 20;
            await new Promise((resolve) => setTimeout(resolve, Math.max(0, due)));
          }
          return { data: "UPID:pve1:00000001:00000001:00000001:imgcopy::mcp@pve!test:" };
        },
        { stream: true, multipart: true },
      );
    });
    afterEach(async () => {
      await slow.stop();
    });

    test("cancellation mid-upload stops sending", async () => {
      writeFileSync(join(fx.root, "big.iso"), Buffer.alloc(64 * 1024 * 1024, 1));
      const harness = await fx.connect({ fake: slow });
      const controller = new AbortController();
      const started = new Promise<void>((resolve) => (firstChunk = resolve));
      const call = harness.call(
        "proxmox_upload",
        { path: UPLOAD_PATH, file_path: join(fx.root, "big.iso"), parameters: { content: "iso" } },
        { signal: controller.signal },
      );
      await started;
      controller.abort();
      await expect(call).rejects.toThrow();
      expect(await ended).toBe("aborted");
      expect(received).toBeLessThan(64 * 1024 * 1024);
    });

    test("a Proxmox that stops reading is given up after PROXMOX_TIMEOUT_MS", async () => {
      writeFileSync(join(fx.root, "big.iso"), Buffer.alloc(32 * 1024 * 1024, 1));
      const harness = await fx.connect({ fake: slow, env: { PROXMOX_TIMEOUT_MS: "300" } });
      const result = await upload(harness, "big.iso", { content: "iso", stall: 1 });
      expect(result.isError).toBe(true);
      expect((result.structuredContent as { error: { failure: string } }).error.failure).toBe("timeout");
    });

    test("a Proxmox that stops reading is given up by the stall rule, well before PROXMOX_TIMEOUT_MS", async () => {
      writeFileSync(join(fx.root, "big.iso"), Buffer.alloc(32 * 1024 * 1024, 1));
      const files = new FileAccess({ roots: [fx.root], stall: { bytesPerSecond: 100_000, windowMs: 300 } });
      const harness = await fx.connect({ fake: slow, files });
      const started = performance.now();
      const result = await upload(harness, "big.iso", { content: "iso", stall: 1 });
      expect(result.isError).toBe(true);
      expect((result.structuredContent as { error: { failure: string } }).error.failure).toBe("stalled");
      expect(textOf(result)).toContain("the upload stalled and was given up");
      expect(textOf(result)).toContain("PROXMOX_TRANSFER_MIN_RATE");
      expect(textOf(result)).toMatch(/MiB of 32\.0 MiB\)/);
      expect(performance.now() - started).toBeLessThan(10_000);
    });

    test("a slow but moving upload is not cut off by the stall rule", async () => {
      // The node reads 2 MB/s; the rule asks for 100 kB/s over 800 ms (a window long enough that a
      // loaded machine's pauses, which the fake in this process shares, do not look like a stall).
      writeFileSync(join(fx.root, "big.iso"), Buffer.alloc(6 * 1024 * 1024, 1));
      const files = new FileAccess({ roots: [fx.root], stall: { bytesPerSecond: 100_000, windowMs: 800 } });
      const harness = await fx.connect({ fake: slow, files });
      const started = performance.now();
      const result = await upload(harness, "big.iso", { content: "iso", rate: 2_000_000 });
      expect(result.isError).toBeFalsy();
      expect(await ended).toBe("complete");
      expect(received).toBeGreaterThan(6 * 1024 * 1024);
      // ~3 s at the node's pace: many windows long
      expect(performance.now() - started).toBeGreaterThan(2000);
    });

    test("an upload that keeps moving is not cut off by PROXMOX_TIMEOUT_MS", async () => {
      // generous against a loaded machine: the limit is idle time, the transfer takes several times it
      writeFileSync(join(fx.root, "big.iso"), Buffer.alloc(48 * 1024 * 1024, 1));
      const harness = await fx.connect({ fake: slow, env: { PROXMOX_TIMEOUT_MS: "700" } });
      const started = performance.now();
      const result = await upload(harness, "big.iso", { content: "iso" });
      expect(result.isError).toBeFalsy();
      expect(performance.now() - started).toBeGreaterThan(700);
      expect(received).toBeGreaterThan(48 * 1024 * 1024);
    }, 30_000);
  });

  test("a path swapped after the open does not change what is sent: the validated file goes", async () => {
    const path = join(fx.root, "swap.iso");
    const validated = randomBytes(100_000);
    writeFileSync(path, validated);
    const files = new FileAccess({ roots: [fx.root] });
    const open = files.openForUpload.bind(files);
    // Swap right after the descriptor is opened, before a byte is read.
    files.openForUpload = async (input) => {
      const source = await open(input);
      unlinkSync(path);
      symlinkSync(join(fx.outside, "secret.txt"), path);
      return source;
    };
    const result = await (
      await fx.connect({ files })
    ).call("proxmox_upload", { path: UPLOAD_PATH, file_path: path, parameters: { content: "iso" } });
    expect(result.isError).toBeFalsy();
    expect(fx.routes.uploads[0]?.sha256).toBe(sha256(validated));
  });
});
