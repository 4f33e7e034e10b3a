// File transfer routes for the loopback fake: the storage upload endpoint with a multipart
// parser that works the way pve-http-server's `file_upload_multipart` does (pattern matching,
// see ../shared/pve/FACTS.md "Upload"), and a streamed download (file-restore/download) whose
// size, content and failure point a test chooses.
import { createHash, type Hash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import type { FakeProxmox, FakeReply } from "./pve-fake.ts";

/** pve-http-server reads in large blocks; the fake waits for this much before parsing the head. */
const HEAD_WINDOW = 64 * 1024;
const UPLOAD_CONTENT = ["iso", "vztmpl", "import"];
const CHECKSUMS = ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"];

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** pve-http-server's parse_content_type: the type, and the boundary as `\S+?` of a `boundary=` parameter. */
export function parseUploadContentType(header: string): { type: string; boundary?: string } {
  const [type = "", ...params] = header.split(/\s*[;,]\s*/);
  for (const param of params) {
    const m = /^\s*boundary\s*=\s*(\S+?)\s*$/.exec(param);
    if (m) return { type, boundary: m[1]! };
  }
  return { type };
}

/**
 * The upload body parser. Phase 1 looks for the text parts content, checksum-algorithm and
 * checksum (in that order, each may be absent), then requires the file part's
 * Content-Disposition right after its boundary line, up to the filename's closing quote, and
 * drops whatever follows up to the first blank line (further part headers); phase 2 streams
 * file data up to the first `--boundary--`, dropping the line break before it. Throws
 * pve-http-server's messages. Like the real one (which runs on every socket read) it can be
 * told to parse each pushed chunk at once; by default it first gathers 64 KiB of the head.
 */
export class MultipartUploadParser {
  phase: 0 | 1 | 2 | 100 = 0;
  readonly params: Record<string, string> = {};
  /** What followed the file part's Content-Disposition up to its data (further headers, line breaks). */
  fileHeaders = "";
  private rbuf: Buffer = Buffer.alloc(0);
  private received = 0;
  private readonly delim: string;
  private readonly closeDelim: Buffer;
  /** \r?\n--boundary--\r?\n: what phase 2 holds back in case the close delimiter is split. */
  private readonly boundlen: number;

  constructor(
    boundary: string,
    private readonly size: number,
    private readonly onData: (data: Buffer) => void,
    private readonly options: { parseEveryRead?: boolean } = {},
  ) {
    this.delim = `--${escapeRe(boundary)}\\r?\\n`;
    this.closeDelim = Buffer.from(`--${boundary}--`, "latin1");
    this.boundlen = boundary.length + 8;
  }

  push(chunk: Buffer): void {
    this.received += chunk.length;
    this.rbuf = this.rbuf.length > 0 ? Buffer.concat([this.rbuf, chunk]) : chunk;
    if (!this.options.parseEveryRead && this.phase < 2 && this.rbuf.length < HEAD_WINDOW && this.received < this.size)
      return;
    this.process();
    if (this.received >= this.size && this.phase !== 100) throw new Error("upload failed");
  }

  private process(): void {
    if (this.phase === 0) {
      const m = new RegExp(`^[\\s\\S]*?(${this.delim})`).exec(this.rbuf.toString("latin1"));
      if (m) {
        this.rbuf = this.rbuf.subarray(m[0].length - m[1]!.length);
        this.phase = 1;
      }
    }
    if (this.phase === 1) this.parseHead();
    if (this.phase === 2) this.parseData();
  }

  private parseHead(): void {
    let s = this.rbuf.toString("latin1");
    const removeUntilData = () => {
      s = s.replace(/^[\s\S]*?(?:\r?\n){2}/, "");
    };
    for (const name of ["content", "checksum-algorithm", "checksum"]) {
      const part = new RegExp(
        `^${this.delim}[\\s\\S]*?Content-Disposition: ([\\s\\S]*?); name="${escapeRe(name)}"([\\s\\S]*?${this.delim})`,
      ).exec(s);
      if (!part) continue;
      assertFormDisposition(part[1]!);
      s = part[2]! + s.slice(part[0].length);
      removeUntilData();
      const value = new RegExp(`^([\\s\\S]*?)(${this.delim})`).exec(s);
      if (value) {
        s = s.slice(value[1]!.length);
        this.params[name] = Buffer.from(value[1]!, "latin1").toString("utf8").trim();
      }
    }
    // Since pve-http-server 4.2-2 ("properly parse file parts without Content-Type") the match
    // ends at the closing quote; the line breaks after it go with the further headers below.
    const file = new RegExp(
      `^${this.delim}Content-Disposition: ([\\s\\S]*?); name="([\\s\\S]*?)"; filename="([^"]+)"`,
    ).exec(s);
    if (file) {
      assertFormDisposition(file[1]!);
      if (file[2] !== "filename") throw new Error(`wrong field name '${file[2]}' for file upload, expected 'filename'`);
      this.phase = 2;
      this.params.filename = Buffer.from(file[3]!, "latin1").toString("utf8").trim();
      s = s.slice(file[0].length);
      const before = s;
      removeUntilData();
      this.fileHeaders = before.slice(0, before.length - s.length);
    }
    this.rbuf = Buffer.from(s, "latin1");
  }

  private parseData(): void {
    const at = this.rbuf.indexOf(this.closeDelim);
    if (at >= 0) {
      let end = at;
      if (end > 0 && this.rbuf[end - 1] === 0x0a) {
        end--;
        if (end > 0 && this.rbuf[end - 1] === 0x0d) end--;
      }
      if (end > 0) this.onData(this.rbuf.subarray(0, end));
      this.rbuf = Buffer.alloc(0);
      this.phase = 100;
      return;
    }
    const writable = this.rbuf.length - this.boundlen;
    if (writable > 0) {
      this.onData(this.rbuf.subarray(0, writable));
      this.rbuf = this.rbuf.subarray(writable);
    }
  }
}

function assertFormDisposition(value: string): void {
  if (value !== "form-data") throw new Error(`wrong Content-Disposition '${value}' in multipart, expected 'form-data'`);
}

export interface ReceivedUpload {
  node: string;
  storage: string;
  /** The query string as sent. */
  query: Record<string, string>;
  /** Query merged with the text parts and the file name, as Proxmox sees them. */
  params: Record<string, string>;
  fileName: string;
  /** The file part's headers after its Content-Disposition, as sent. */
  fileHeaders: string;
  contentType: string;
  contentLength: number;
  /** Size and sha256 of the file data the parser extracted. */
  size: number;
  sha256: string;
  upid: string;
}

export interface DownloadSpec {
  size: number;
  /** Seed of the pseudo-random content; the same seed gives the same bytes. */
  seed?: number;
  contentType?: string;
  /** Drop the connection after this many bytes. */
  failAfter?: number;
  /** Send Content-Length (pve-http-server does when it knows the size); otherwise the body ends at connection close. */
  declareLength?: boolean;
  /** Stop sending (but keep the connection) after this many bytes. */
  hangAfter?: number;
  /** Hash what is sent (default true); benchmarks turn it off to keep the fake's CPU out of the way. */
  hash?: boolean;
  /** From byte `after` (default 0) on, send only `bytes` every `everyMs`: a slow or trickling body. */
  pace?: { after?: number; bytes: number; everyMs: number };
}

export interface ServedDownload {
  filepath: string;
  bytes: number;
  complete: boolean;
  /** sha256 of every byte sent, set once the body is complete (unless the spec turned hashing off). */
  sha256?: string;
}

export interface FileRoutes {
  uploads: ReceivedUpload[];
  /** Uploads the parser refused, with the message it answered. */
  refused: string[];
  served: ServedDownload[];
  /** Serves `spec` for GET .../file-restore/download?filepath=<filepath>. */
  serve(filepath: string, spec: DownloadSpec): void;
  /** Resolves once `bytes` of the next download for `filepath` have been handed to the socket. */
  sent(filepath: string, bytes: number): Promise<void>;
}

// One period of generated content; not a power of two, so chunks never line up with it.
const PERIOD = 1024 * 1024 + 7;
const SEND_CHUNK = 256 * 1024;

/** One period of the content for `seed`; the content repeats it from offset 0. */
export function contentPeriod(seed: number): Buffer {
  const block = Buffer.allocUnsafe(PERIOD);
  let x = seed >>> 0 || 0x9e3779b9;
  for (let i = 0; i < PERIOD; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    block[i] = x & 0xff;
  }
  return block;
}

/** `length` bytes of the content for `period` starting at `offset`. */
export function contentAt(period: Buffer, offset: number, length: number): Buffer {
  const out = Buffer.allocUnsafe(length);
  let written = 0;
  while (written < length) {
    const from = (offset + written) % period.length;
    written += period.copy(out, written, from, Math.min(period.length, from + length - written));
  }
  return out;
}

/** The whole content a spec describes (small specs only; tests compare files with it). */
export function downloadContent(spec: DownloadSpec): Buffer {
  return contentAt(contentPeriod(spec.seed ?? 1), 0, spec.size);
}

function generated(
  spec: DownloadSpec,
  record: ServedDownload,
  progress: (bytes: number) => void,
  done: () => void,
): Readable {
  const period = contentPeriod(spec.seed ?? 1);
  // Two periods back to back: any chunk up to one period long is a slice, no copy.
  const doubled = Buffer.concat([period, period]);
  const hash: Hash | undefined = spec.hash === false ? undefined : createHash("sha256");
  const stopAt = Math.min(spec.size, spec.failAfter ?? Infinity, spec.hangAfter ?? Infinity);
  let paced: ReturnType<typeof setTimeout> | undefined;
  const send = (stream: Readable, max: number) => {
    const from = record.bytes % PERIOD;
    const chunk = doubled.subarray(from, from + Math.min(max, stopAt - record.bytes));
    hash?.update(chunk);
    record.bytes += chunk.length;
    stream.push(chunk);
    progress(record.bytes);
  };
  return new Readable({
    highWaterMark: SEND_CHUNK,
    destroy(error, callback) {
      clearTimeout(paced);
      callback(error);
    },
    read() {
      if (record.bytes >= stopAt) {
        if (stopAt === spec.size) {
          record.complete = true;
          record.sha256 = hash?.digest("hex");
          this.push(null);
          done();
        } else if (spec.failAfter !== undefined && record.bytes >= spec.failAfter) {
          this.destroy(new Error("simulated failure mid-stream"));
        }
        return; // hangAfter: never push again
      }
      const { pace } = spec;
      if (pace && record.bytes >= (pace.after ?? 0)) {
        if (paced === undefined) {
          paced = setTimeout(() => {
            paced = undefined;
            send(this, pace.bytes);
          }, pace.everyMs);
        }
        return;
      }
      send(this, pace?.after === undefined ? SEND_CHUNK : Math.min(SEND_CHUNK, pace.after - record.bytes));
    },
  });
}

async function drain(stream: IncomingMessage | undefined): Promise<void> {
  if (!stream) return;
  for await (const _ of stream) {
    // discard
  }
}

function refusal(message: string): FakeReply {
  // pve-http-server puts the first line in the status line; a CR there breaks the answer into a bare 400.
  const first = message.split("\n")[0]!;
  return first.includes("\r") ? { status: 400, message: "Bad Request" } : { status: 501, message };
}

export interface FileRouteEvents {
  /** false: the upload endpoint of PVE 6.4, which refuses checksum-algorithm and checksum. */
  acceptsChecksum?: boolean;
  onUpload?(upload: ReceivedUpload): void;
  /** A download body was sent completely. */
  onServed?(download: ServedDownload): void;
}

export function installFileRoutes(fake: FakeProxmox, events: FileRouteEvents = {}): FileRoutes {
  const uploads: ReceivedUpload[] = [];
  const refused: string[] = [];
  const served: ServedDownload[] = [];
  const specs = new Map<string, DownloadSpec>();
  const waiters: { filepath: string; bytes: number; resolve: () => void }[] = [];

  fake.route(
    "POST",
    "/nodes/{node}/storage/{storage}/upload",
    async (req) => {
      const contentType = String(req.headers["content-type"] ?? "");
      const contentLength = Number(req.headers["content-length"] ?? 0);
      const { type, boundary } = parseUploadContentType(contentType);
      const refuse = async (message: string) => {
        refused.push(message);
        await drain(req.stream);
        return refusal(message);
      };
      if (!(boundary && type === "multipart/form-data"))
        return refuse(`upload 'Content-Type '${contentType}' not implemented`);
      if (!contentLength) return refuse("upload without content length header not supported");

      const hash = createHash("sha256");
      // The worker hashes the spooled file with the algorithm asked for; the text parts precede the data.
      let asked: Hash | undefined;
      let size = 0;
      const parser = new MultipartUploadParser(boundary, contentLength, (data) => {
        const algorithm = parser.params["checksum-algorithm"];
        if (size === 0 && algorithm && algorithm !== "sha256" && CHECKSUMS.includes(algorithm))
          asked = createHash(algorithm);
        hash.update(data);
        asked?.update(data);
        size += data.length;
      });
      try {
        for await (const chunk of req.stream!) parser.push(chunk as Buffer);
        if (parser.phase !== 100) throw new Error("upload failed");
      } catch (error) {
        return refuse((error as Error).message);
      }

      const query = Object.fromEntries(req.query);
      if ("tmpfilename" in query) {
        return {
          status: 400,
          message: "Parameter verification failed.",
          errors: { tmpfilename: "only allowed on the trusted port on localhost" },
        };
      }
      const params = { ...query, ...parser.params };
      const errors: Record<string, string> = {};
      if (!params.content) errors.content = "property is missing and it is not optional";
      else if (!UPLOAD_CONTENT.includes(params.content))
        errors.content = `value '${params.content}' does not have a value in the enumeration '${UPLOAD_CONTENT.join(", ")}'`;
      const algorithm = params["checksum-algorithm"];
      if (events.acceptsChecksum === false) {
        // PVE 6.4: the schema has neither parameter and allows no others.
        for (const name of ["checksum-algorithm", "checksum"]) {
          if (params[name] !== undefined)
            errors[name] = "property is not defined in schema and the schema does not allow additional properties";
        }
      } else {
        if (algorithm !== undefined && !CHECKSUMS.includes(algorithm))
          errors["checksum-algorithm"] =
            `value '${algorithm}' does not have a value in the enumeration '${CHECKSUMS.join(", ")}'`;
        // JSONSchema `requires`: each of the two needs the other.
        if ((algorithm === undefined) !== (params.checksum === undefined)) {
          errors[algorithm === undefined ? "checksum-algorithm" : "checksum"] =
            `missing property - '${algorithm === undefined ? "checksum" : "checksum-algorithm"}' requires this property`;
        }
      }
      if (Object.keys(errors).length > 0) return { status: 400, message: "Parameter verification failed.", errors };

      const sha256 = hash.digest("hex");
      let exitstatus = "OK";
      if (algorithm !== undefined && params.checksum !== undefined) {
        const got = algorithm === "sha256" ? sha256 : (asked ?? createHash(algorithm)).digest("hex");
        // pve-storage's upload worker compares lower-cased and quotes the checksum as given.
        if (got !== params.checksum.toLowerCase())
          exitstatus = `checksum mismatch: got '${got}' != expect '${params.checksum}'`;
      }
      const node = req.pathParams.node!;
      const upid = fake.startTask(node, "imgcopy", "", { exitstatus });
      const upload: ReceivedUpload = {
        node,
        storage: req.pathParams.storage!,
        query,
        params,
        fileName: params.filename ?? "",
        fileHeaders: parser.fileHeaders,
        contentType,
        contentLength,
        size,
        sha256,
        upid,
      };
      uploads.push(upload);
      events.onUpload?.(upload);
      return { data: upid };
    },
    { stream: true, multipart: true },
  );

  fake.route("GET", "/nodes/{node}/storage/{storage}/file-restore/download", (req) => {
    const filepath = String(req.params.filepath ?? "");
    const spec = specs.get(filepath);
    if (!spec) return { status: 500, message: `unable to find '${filepath}' in the backup` };
    const record: ServedDownload = { filepath, bytes: 0, complete: false };
    served.push(record);
    const progress = (bytes: number) => {
      for (const waiter of waiters.filter((w) => w.filepath === filepath && bytes >= w.bytes)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    };
    return {
      stream: generated(spec, record, progress, () => events.onServed?.(record)),
      contentType: spec.contentType ?? "application/zip",
      ...(spec.declareLength ? { headers: { "content-length": String(spec.size) } } : {}),
    };
  });

  return {
    uploads,
    refused,
    served,
    serve: (filepath, spec) => {
      specs.set(filepath, spec);
    },
    sent: (filepath, bytes) => new Promise<void>((resolve) => waiters.push({ filepath, bytes, resolve })),
  };
}
