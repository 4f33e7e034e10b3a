// A loopback stand-in for pve-http-server, answering the way ../shared/pve/FACTS.md records:
// envelope, reason phrases, 401 with an empty body, 501 for bodies on GET/DELETE, chunked
// bodies and unknown paths, Connection: close on errors, UPIDs and task status.
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { extname, join } from "node:path";
import { pipeline, type Readable } from "node:stream";
import { decodeOrKeep } from "../../src/proxmox/path.ts";
import { sharedTestPki, type TestPki } from "./certs.ts";

export const FAKE_TOKEN_ID = "mcp@pve!test";
export const FAKE_TOKEN_SECRET = "5a8c1d3e-7f42-4b9e-9c1a-d2e3f4a5b6c7";
export const MAX_BODY_BYTES = 512 * 1024;
const DOCS_PREFIX = "/pve-docs/";
/** pve-http-server's Content-Types by extension ($file_extension_info). */
const STATIC_TYPES: Record<string, string> = {
  css: "text/css",
  html: "text/html",
  js: "application/javascript",
  json: "application/json",
  png: "image/png",
  svg: "image/svg+xml",
};

export interface FakeRequest {
  method: string;
  /** The request target as sent, e.g. /api2/json/nodes?x=1. */
  url: string;
  /** For API calls: the path after /api2/json, still percent-encoded; otherwise the URL path. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Query merged over form body, as Proxmox merges them. Repeated keys become arrays. */
  params: Record<string, string | string[]>;
  /** Values of the {placeholders} of the matched route template, decoded. */
  pathParams: Record<string, string>;
  /** The unread request stream, for routes registered with { stream: true }. */
  stream?: IncomingMessage;
  /** Set when the client closed the connection before the answer was complete. */
  abandoned?: boolean;
}

export interface FakeReply {
  status?: number;
  data?: unknown;
  /** Extra envelope members such as total or changes. */
  extra?: Record<string, unknown>;
  /** Error message: becomes the reason phrase (first line) and the body's message. */
  message?: string;
  errors?: Record<string, string>;
  /** Raw body instead of a JSON envelope. */
  body?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  /** Drop the connection without answering. */
  destroy?: boolean;
  /** Never answer (until the client gives up). */
  hang?: boolean;
  /** A streamed 2xx body (downloads), sent without Content-Length as pve-http-server streams; an error drops the connection. */
  stream?: Readable;
}

export type FakeHandler = (req: FakeRequest) => FakeReply | Promise<FakeReply>;

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  names: string[];
  handler: FakeHandler;
  stream: boolean;
  multipart: boolean;
}

export interface FakeOptions {
  tls?: boolean;
  tokenId?: string;
  tokenSecret?: string;
  /** Old servers (before pve-http-server 5.2) put error messages only in the reason phrase. */
  legacyErrors?: boolean;
  /** Node names of the fake cluster. */
  nodes?: string[];
  /** Its own CA and certificate (several hosts); default: the PKI shared by all fakes. */
  pki?: TestPki;
  /** A directory served under /pve-docs/, as a node serves /usr/share/pve-docs (see serveDocs). */
  docs?: string;
}

interface FakeTask {
  upid: string;
  node: string;
  type: string;
  id: string;
  startTime: number;
  pollsUntilDone: number;
  exitstatus: string;
  log: string[];
  /** While the task runs, its log grows by one line per status poll, as a real task log grows. */
  revealed: number;
}

function compile(template: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = template
    .split("/")
    .map((seg) => {
      const m = /^\{([^}]+)\}$/.exec(seg);
      if (m) {
        names.push(m[1]!);
        return "([^/]+)";
      }
      return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return { pattern: new RegExp(`^${source}$`), names };
}

function parseForm(text: string, into: Record<string, string | string[]>): void {
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = into[k];
    into[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
}

const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, "0");

export class FakeProxmox {
  readonly requests: FakeRequest[] = [];
  readonly nodes: string[];
  private readonly routes: Route[] = [];
  private readonly files = new Map<string, FakeHandler>();
  private docsDir: string | undefined;
  private readonly tasks = new Map<string, FakeTask>();
  private readonly sockets = new Set<Socket>();
  private taskCounter = 0;
  private waiters: Array<(req: FakeRequest) => void> = [];
  /** Number of TCP connections accepted, to tell keep-alive from reconnects. */
  connections = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly options: Required<Omit<FakeOptions, "nodes" | "docs">>,
    nodes: string[],
  ) {
    this.nodes = nodes;
    this.installDefaults();
  }

  static async start(options: FakeOptions = {}): Promise<FakeProxmox> {
    const tls = options.tls ?? true;
    const resolved = {
      tls,
      tokenId: options.tokenId ?? FAKE_TOKEN_ID,
      tokenSecret: options.tokenSecret ?? FAKE_TOKEN_SECRET,
      legacyErrors: options.legacyErrors ?? false,
      pki: options.pki ?? sharedTestPki(),
    };
    let fake: FakeProxmox | undefined;
    const listener = (req: IncomingMessage, res: ServerResponse) => {
      void fake!.handle(req, res);
    };
    const server = tls
      ? createHttpsServer({ key: resolved.pki.serverKey, cert: resolved.pki.serverCert }, listener)
      : createHttpServer(listener);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    fake = new FakeProxmox(
      server,
      `${tls ? "https" : "http"}://127.0.0.1:${port}`,
      resolved,
      options.nodes ?? ["pve1", "pve2"],
    );
    if (options.docs) fake.serveDocs(options.docs);
    server.on(tls ? "secureConnection" : "connection", (socket: Socket) => {
      fake!.connections++;
      fake!.sockets.add(socket);
      socket.on("close", () => fake!.sockets.delete(socket));
    });
    return fake;
  }

  get authorization(): string {
    return `PVEAPIToken=${this.options.tokenId}=${this.options.tokenSecret}`;
  }

  /** Environment for a server process or loadConfig pointed at this fake. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PROXMOX_URL: this.url,
      PROXMOX_TOKEN_ID: this.options.tokenId,
      PROXMOX_TOKEN_SECRET: this.options.tokenSecret,
      ...(this.options.tls ? { PROXMOX_CA_FILE: this.options.pki.caFile } : {}),
      ...extra,
    };
  }

  /** API requests only (under /api2/json). */
  apiRequests(): FakeRequest[] {
    return this.requests.filter((r) => r.url.startsWith("/api2/json"));
  }

  /** Resolves with the next request the fake receives (already recorded). */
  nextRequest(): Promise<FakeRequest> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The first request (already received or still to come) whose path is `path`. */
  async requestTo(path: string): Promise<FakeRequest> {
    for (;;) {
      const seen = this.requests.find((r) => r.path === path);
      if (seen) return seen;
      await this.nextRequest();
    }
  }

  /** Adds or replaces a route. Template placeholders like {node} match one segment. */
  route(
    method: string,
    template: string,
    handler: FakeHandler,
    opts: { stream?: boolean; multipart?: boolean } = {},
  ): this {
    const index = this.routes.findIndex((r) => r.method === method && r.template === template);
    if (index >= 0) this.routes.splice(index, 1);
    const { pattern, names } = compile(template);
    this.routes.unshift({
      method,
      template,
      pattern,
      names,
      handler,
      stream: opts.stream ?? false,
      multipart: opts.multipart ?? false,
    });
    return this;
  }

  /** Serves a non-API path (no authentication), e.g. /pve-docs/api-viewer/apidoc.js. Wins over serveDocs; undefined removes it. */
  file(path: string, handler: FakeHandler | undefined): this {
    if (handler) this.files.set(path, handler);
    else this.files.delete(path);
    return this;
  }

  /**
   * Serves a directory under /pve-docs/ as pveproxy serves /usr/share/pve-docs, without login,
   * e.g. ../shared/pve/docs/9.1.3. Undefined stops serving it.
   */
  serveDocs(dir: string | undefined): this {
    this.docsDir = dir;
    return this;
  }

  /**
   * A static file as pve-http-server answers it (src/PVE/APIServer/AnyEvent.pm, handle_request
   * and send_file_start): GET only, a simple file name in a known directory, the Content-Type
   * from the extension; a file it cannot open is a 501 whose reason is the error.
   */
  private async staticFile(method: string, path: string): Promise<FakeReply> {
    const simple = /^(\/\S+\/)([a-zA-Z0-9\-_.]+)$/.exec(path);
    if (
      method !== "GET" ||
      !simple ||
      !simple[1]!.startsWith(DOCS_PREFIX) ||
      simple[1]!.includes("/../") ||
      !this.docsDir
    ) {
      return { status: 501, message: `no such file '${path}'` };
    }
    const relative = path.slice(DOCS_PREFIX.length);
    const installed = `/usr/share/pve-docs/${relative}`;
    const file = Bun.file(join(this.docsDir, relative));
    if (!(await file.exists())) {
      return { status: 501, message: `unable to open file '${installed}' - No such file or directory` };
    }
    const type = STATIC_TYPES[extname(relative).slice(1)];
    if (!type) return { status: 501, message: "unable to detect content type" };
    return { body: Buffer.from(await file.arrayBuffer()), contentType: type };
  }

  /**
   * Starts a simulated task and returns its UPID. Its status is "running" for
   * `pollsUntilDone` status requests, then "stopped" with `exitstatus`.
   */
  startTask(
    node: string,
    type: string,
    id: string,
    opts: { pollsUntilDone?: number; exitstatus?: string; log?: string[] } = {},
  ): string {
    this.taskCounter++;
    const startTime = Math.floor(Date.now() / 1000);
    const upid = `UPID:${node}:${hex(4000 + this.taskCounter, 8)}:${hex(100000 + this.taskCounter, 8)}:${hex(startTime, 8)}:${type}:${id}:${this.options.tokenId}:`;
    this.tasks.set(upid, {
      upid,
      node,
      type,
      id,
      startTime,
      pollsUntilDone: opts.pollsUntilDone ?? 0,
      revealed: 1,
      exitstatus: opts.exitstatus ?? "OK",
      log: opts.log ?? [
        `starting ${type} ${id}`,
        opts.exitstatus && opts.exitstatus !== "OK" ? `TASK ERROR: ${opts.exitstatus}` : "TASK OK",
      ],
    });
    return upid;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private installDefaults(): void {
    this.route("GET", "/version", () => ({ data: { version: "9.1.1", release: "9.1", repoid: "fake0000" } }));
    this.route("GET", "/nodes", () => ({
      data: this.nodes.map((node) => ({ node, status: "online", type: "node", id: `node/${node}` })),
    }));
    this.route("GET", "/nodes/{node}/tasks/{upid}/status", (req) => {
      const task = this.tasks.get(req.pathParams.upid!);
      if (!task || task.node !== req.pathParams.node) return { status: 500, message: "no such task" };
      const running = task.pollsUntilDone > 0;
      if (running) {
        task.pollsUntilDone--;
        task.revealed++;
      }
      return {
        data: {
          upid: task.upid,
          node: task.node,
          pid: 4000,
          pstart: 100000,
          starttime: task.startTime,
          type: task.type,
          id: task.id,
          user: this.options.tokenId.split("!")[0],
          status: running ? "running" : "stopped",
          ...(running ? {} : { exitstatus: task.exitstatus }),
        },
      };
    });
    this.route("GET", "/nodes/{node}/tasks/{upid}/log", (req) => {
      const task = this.tasks.get(req.pathParams.upid!);
      if (!task || task.node !== req.pathParams.node) return { status: 500, message: "no such task" };
      if (req.params.download === "1") {
        return { body: `${task.log.join("\n")}\n`, contentType: "text/plain" };
      }
      const start = Number(req.params.start ?? 0);
      const limit = Number(req.params.limit ?? 50);
      const log = task.pollsUntilDone > 0 ? task.log.slice(0, Math.min(task.revealed, task.log.length - 1)) : task.log;
      const lines = log.slice(start, start + limit).map((t, i) => ({ n: start + i + 1, t }));
      return { data: lines, extra: { total: log.length } };
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? "/";
    const qIndex = url.indexOf("?");
    const rawPath = qIndex >= 0 ? url.slice(0, qIndex) : url;
    const query = new URLSearchParams(qIndex >= 0 ? url.slice(qIndex + 1) : "");
    const isApi = rawPath === "/api2/json" || rawPath.startsWith("/api2/json/");
    const path = isApi ? rawPath.slice("/api2/json".length) || "/" : rawPath;
    const method = req.method ?? "GET";
    const route = isApi ? this.findRoute(method, path) : undefined;

    req.on("error", () => undefined);
    res.on("error", () => undefined);
    const record: FakeRequest = {
      method,
      url,
      path,
      query,
      headers: req.headers,
      body: Buffer.alloc(0),
      params: {},
      pathParams: {},
    };
    this.requests.push(record);
    res.on("close", () => {
      if (!res.writableFinished) record.abandoned = true;
    });
    if (route?.route.stream) {
      record.stream = req;
    } else {
      record.body = await readBody(req);
    }
    for (const wake of this.waiters.splice(0)) wake(record);

    if (!isApi) {
      const handler = this.files.get(rawPath);
      const reply = handler ? await handler(record) : await this.staticFile(method, decodeOrKeep(rawPath));
      return this.respond(res, reply);
    }
    if (req.headers["transfer-encoding"]?.toLowerCase().includes("chunked")) {
      return this.respond(res, { status: 501, message: "chunked transfer encoding not supported" });
    }
    if (req.headers.authorization !== this.authorization) {
      return this.respond(res, {
        status: 401,
        message: req.headers.authorization ? "Authentication failed!" : "No ticket",
      });
    }
    if (
      (method === "GET" || method === "DELETE") &&
      (record.body.length > 0 || Number(req.headers["content-length"] ?? 0) > 0)
    ) {
      return this.respond(res, { status: 501, message: `Unexpected content for method '${method}'` });
    }
    if (record.body.length > MAX_BODY_BYTES) {
      return this.respond(res, { status: 501, message: "for data too large" });
    }
    const contentType = (req.headers["content-type"] ?? "").toLowerCase();
    if (
      record.body.length > 0 &&
      !contentType.startsWith("application/x-www-form-urlencoded") &&
      !contentType.startsWith("application/json")
    ) {
      return this.respond(res, { status: 506, message: `Unsupported content type '${contentType}'` });
    }
    if (route?.route.multipart === false && contentType.startsWith("multipart/")) {
      return this.respond(res, { status: 506, message: `Unsupported content type '${contentType}'` });
    }
    if (!route) {
      return this.respond(res, { status: 501, message: `Method '${method} ${decodeOrKeep(path)}' not implemented` });
    }
    record.pathParams = route.params;
    let reply: FakeReply;
    try {
      if (record.body.length > 0) {
        if (contentType.startsWith("application/json")) {
          for (const [k, v] of Object.entries(JSON.parse(record.body.toString("utf8")) as Record<string, unknown>))
            record.params[k] = String(v);
        } else {
          parseForm(record.body.toString("utf8"), record.params);
        }
      }
      // query-string values override body values; a repeated key is an array, as in the body
      const fromQuery: Record<string, string | string[]> = {};
      parseForm(query.toString(), fromQuery);
      Object.assign(record.params, fromQuery);
      reply = await route.route.handler(record);
    } catch (error) {
      reply = { status: 500, message: error instanceof Error ? error.message : String(error) };
    }
    return this.respond(res, reply);
  }

  private findRoute(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
    for (const route of this.routes) {
      if (route.method !== method && route.method !== "*") continue;
      const m = route.pattern.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => (params[name] = decodeOrKeep(m[i + 1]!)));
      return { route, params };
    }
    return undefined;
  }

  private respond(res: ServerResponse, reply: FakeReply): void {
    if (reply.hang) return;
    if (reply.destroy) {
      res.socket?.destroy();
      return;
    }
    if (reply.stream) {
      // pve-http-server streams without a length unless it knows one, and ends such a body by
      // closing the connection: an interrupted stream then looks like a complete one.
      if (reply.headers?.["content-length"] === undefined) {
        res.useChunkedEncodingByDefault = false;
        res.shouldKeepAlive = false;
      }
      res.writeHead(reply.status ?? 200, {
        server: "pve-api-daemon/3.0",
        "content-type": reply.contentType ?? "application/octet-stream",
        ...reply.headers,
      });
      pipeline(reply.stream, res, (error) => error && res.socket?.destroy());
      return;
    }
    const status = reply.status ?? 200;
    const headers: Record<string, string> = { server: "pve-api-daemon/3.0", ...reply.headers };
    let body: Buffer;
    let reason = "OK";
    if (status >= 300 && status < 400) {
      reason = reply.message ?? "Found";
      body = Buffer.alloc(0);
    } else if (status >= 400) {
      const message = reply.message ?? "error";
      reason = message.split("\n")[0]!;
      headers.connection = "close";
      if (status === 401) {
        body = Buffer.alloc(0);
      } else {
        const envelope = this.options.legacyErrors
          ? { data: null, ...(reply.errors ? { errors: reply.errors } : {}) }
          : { data: null, message: `${message}\n`, ...(reply.errors ? { errors: reply.errors } : {}) };
        body = Buffer.from(JSON.stringify(envelope));
        headers["content-type"] = "application/json;charset=UTF-8";
      }
    } else if (reply.body !== undefined) {
      body = Buffer.isBuffer(reply.body) ? reply.body : Buffer.from(reply.body);
      headers["content-type"] = reply.contentType ?? "application/octet-stream";
    } else {
      body = Buffer.from(JSON.stringify({ data: reply.data ?? null, ...reply.extra }));
      headers["content-type"] = "application/json;charset=UTF-8";
    }
    headers["content-length"] = String(body.length);
    res.writeHead(status, reason, headers);
    res.end(body);
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
