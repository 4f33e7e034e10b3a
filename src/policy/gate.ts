import { isDeepStrictEqual } from "node:util";
import type { Logger } from "../log.ts";
import {
  HTTP_METHODS,
  type HttpMethod,
  type ApiReader,
  type WriteGate,
  type WriteIntent,
  type WriteOutcome,
} from "../proxmox/calls.ts";
import { LocalRefusal } from "../proxmox/errors.ts";
import { receivedParams, type ParamValue, type Params } from "../proxmox/params.ts";
import { hasEncodedSlash, pathSegments, serverView, validateApiPath } from "../proxmox/path.ts";
import type { Redactor } from "../proxmox/redact.ts";
import { AuditFile, auditLine, clientLogLine } from "./audit.ts";
import type { PolicyConfig } from "./config.ts";
import { guestsTouched, type GuestTouch, type Touches } from "./guests.ts";
import { loadProtection, type ProtectedGuest, type Protection } from "./protected.ts";
import { judgeRead } from "./reads.ts";
import { endpointRule, firstMatch, namesEndpoint, ruleMatches, type WriteRule } from "./rules.ts";
import { checkVlan, taggedNics } from "./vlan.ts";

export interface PolicyGateOptions {
  policy: PolicyConfig;
  log: Logger;
  /** Removes the API token from audit lines: the same redactor as the client's. */
  redact: Redactor;
  readFile?: (path: string) => string;
  now?: () => Date;
  /** Already loaded (several hosts: the guests of this host only); default: read policy.protectedVmsFile. */
  protection?: Protection;
  /** The PROXMOX_HOSTS label this gate guards; recorded in every audit line. */
  host?: string | undefined;
}

const MAX_BATCH_DEPTH = 3;

function describeGuest(guest: ProtectedGuest): string {
  return `${guest.vmid} (${guest.name}${guest.host ? `, host ${guest.host}` : ""})`;
}

function rulesText(rules: readonly WriteRule[]): string {
  const shown = rules.slice(0, 10).map((rule) => `'${rule.text}'`);
  return `${shown.join(", ")}${rules.length > shown.length ? `, and ${rules.length - shown.length} more` : ""}`;
}

function batchParam(value: unknown): ParamValue {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  if (
    Array.isArray(value) &&
    value.every((v) => typeof v === "string" || typeof v === "number" || typeof v === "boolean")
  ) {
    return value as ParamValue;
  }
  return JSON.stringify(value);
}

/**
 * POST /nodes/{node}/execute runs a JSON list of API calls on that node (PVE::API2::Nodes
 * execute). Returns the request and every call of its batch, reads included, recursively: each
 * is checked as a request of its own, so a batch cannot carry what a single request could not.
 */
export function expandCommands(intent: WriteIntent, depth = 0): WriteIntent[] {
  const segments = pathSegments(intent.path);
  if (intent.method !== "POST" || segments.length !== 3 || segments[0] !== "nodes" || segments[2] !== "execute")
    return [intent];
  const unreadable = (why: string) =>
    new LocalRefusal(
      "refused_rule",
      `${intent.method} ${intent.path} refused: its commands ${why}, so the local policy cannot check them. Send the calls one at a time instead.`,
    );
  if (depth >= MAX_BATCH_DEPTH) throw unreadable("nest batches too deeply");
  const raw = intent.params.commands;
  if (typeof raw !== "string") throw unreadable("are not one JSON string");
  let commands: unknown;
  try {
    commands = JSON.parse(raw);
  } catch {
    throw unreadable("are not valid JSON");
  }
  if (!Array.isArray(commands)) throw unreadable("are not a JSON array");
  const nodeSegment = intent.path.split("/")[2]!;
  const nested = commands.flatMap((command, i): WriteIntent[] => {
    if (command === null || typeof command !== "object")
      throw unreadable(`contain an entry (#${i}) that is not an object`);
    const { method, path, args } = command as Record<string, unknown>;
    const upper = typeof method === "string" ? method.toUpperCase() : "";
    if (!(HTTP_METHODS as readonly string[]).includes(upper) || typeof path !== "string") {
      throw unreadable(`contain an entry (#${i}) without a known method and a path`);
    }
    const params: Params = {};
    if (args !== undefined && args !== null) {
      if (typeof args !== "object" || Array.isArray(args))
        throw unreadable(`contain an entry (#${i}) whose args are not an object`);
      for (const [name, value] of Object.entries(args)) params[name] = batchParam(value);
    }
    const inner: WriteIntent = {
      tool: intent.tool,
      method: upper as HttpMethod,
      path: validateApiPath(`/nodes/${nodeSegment}/${path.replace(/^\/+/, "")}`),
      params,
    };
    return inner.method === "GET" ? [inner] : expandCommands(inner, depth + 1);
  });
  return [intent, ...nested];
}

/** The writes of a request: itself and the writes of its batch (see expandCommands). */
export function expandBatch(intent: WriteIntent, depth = 0): WriteIntent[] {
  return expandCommands(intent, depth).filter((each) => each === intent || each.method !== "GET");
}

/** A path as written and, when it carries an encoded '/', as Proxmox routes it. */
function pathViews(intent: WriteIntent): WriteIntent[] {
  return hasEncodedSlash(intent.path) ? [intent, { ...intent, path: serverView(intent.path) }] : [intent];
}

/**
 * The request as written and as Proxmox receives it: the path routed (pathViews) and, when an
 * empty value makes Proxmox leave a parameter out (receivedParams), the parameters without it.
 */
function requestViews(intent: WriteIntent): WriteIntent[] {
  const received = receivedParams(intent.params);
  const same = isDeepStrictEqual(received, intent.params);
  return pathViews(intent).flatMap((view) => (same ? [view] : [view, { ...view, params: received }]));
}

/** The WriteGate of issue 6: protected guests, deny/allow rules, the VLAN guard and the audit trail. */
export class PolicyGate implements WriteGate {
  readonly protection: Protection;
  private readonly policy: PolicyConfig;
  private readonly audit: AuditFile | undefined;
  private readonly log: Logger;
  private readonly redact: Redactor;
  private readonly now: () => Date;
  private readonly host: string | undefined;

  constructor(options: PolicyGateOptions) {
    this.policy = options.policy;
    this.log = options.log;
    this.redact = options.redact;
    this.now = options.now ?? (() => new Date());
    this.host = options.host;
    this.protection = options.protection ?? loadProtection(options.policy.protectedVmsFile, options.readFile);
    this.audit = options.policy.auditLog === undefined ? undefined : new AuditFile(options.policy.auditLog);
  }

  /** Startup checks: creates the audit log (ConfigError when it cannot) and reports the policy on stderr. */
  start(): this {
    const { policy, protection, log } = this;
    const warning = this.audit?.open();
    if (warning) log.warn(warning);
    if (policy.readOnly) {
      log.info(
        "read-only mode (PROXMOX_READ_ONLY=true): writing tools are not listed and only GET requests reach Proxmox",
      );
      const refused = [
        policy.readOnlyAllowOutbound ? undefined : "reads that make a node contact other hosts",
        policy.readOnlyAllowGuestContent ? undefined : "reads inside guests and backups",
      ].filter((item) => item !== undefined);
      if (refused.length > 0) log.info(`read-only mode also refuses ${refused.join(" and ")}`);
    }
    if (protection.status === "broken") {
      log.error(
        `PROXMOX_PROTECTED_VMS_FILE ${protection.file} is unusable: ${protection.problem}. Every write is refused until it is fixed and the server restarted.`,
      );
    } else if (protection.status === "ok" && protection.guests.length === 0) {
      log.warn(`PROXMOX_PROTECTED_VMS_FILE ${protection.file} lists no guests, so no guest is protected`);
    } else if (protection.status === "ok") {
      log.info(`protected guests: ${protection.guests.map(describeGuest).join(", ")}`);
    }
    if (policy.deny.length > 0) log.info(`PROXMOX_DENY: ${rulesText(policy.deny)}`);
    if (policy.allow) log.info(`PROXMOX_ALLOW: only writes matching ${rulesText(policy.allow)}`);
    if (policy.confirm.length > 0)
      log.info(`PROXMOX_CONFIRM: a person confirms writes matching ${rulesText(policy.confirm)}`);
    if (this.audit) log.info(`audit trail: ${this.audit.path}`);
    return this;
  }

  /**
   * Every check that needs no request: the audit log, the rules, the protected guests, each
   * write inside a batch, and a path with an encoded '/' as Proxmox routes it. Throws
   * LocalRefusal; returns the writes that were judged.
   */
  precheck(intent: WriteIntent): WriteIntent[] {
    const problem = this.audit?.problem();
    if (problem) {
      throw new LocalRefusal(
        "refused_audit",
        `${intent.method} ${intent.path} refused: the audit log ${this.audit!.path} cannot be written (${problem}), and no write goes unrecorded. Ask the operator to fix the file or its directory.`,
      );
    }
    // Proxmox routes %2F as a separator and drops empty values: judge the request as written and as the server sees it.
    const intents = requestViews(intent).flatMap((view) => expandCommands(view));
    for (const each of intents) {
      if (each.method === "GET") this.checkRead(each);
      else this.checkLocal(each);
    }
    return intents;
  }

  async authorize(intent: WriteIntent, client: ApiReader, signal?: AbortSignal): Promise<void> {
    const intents = this.precheck(intent);
    if (!this.policy.vlanGuard) return;
    for (const each of intents) await checkVlan(each, client, signal);
  }

  authorizeRead(intent: WriteIntent): void {
    // Most gates check no read at all: then no view of the request is worked out (every GET comes here).
    if (!this.checksReads()) return;
    for (const view of requestViews(intent)) this.checkRead(view);
  }

  /** Reads are checked in read-only mode and while a protected-guests file is configured. */
  private checksReads(): boolean {
    return this.policy.readOnly || this.protection.status !== "none";
  }

  /**
   * Reads that reach beyond the cluster's state (reads.ts): reads inside a protected guest or its
   * backups are refused; read-only mode refuses outbound reads and reads inside guests unless
   * the operator allows them.
   */
  checkRead(intent: WriteIntent): void {
    if (!this.checksReads()) return;
    const { protection, policy } = this;
    const judged = judgeRead(pathSegments(intent.path), intent.params);
    if (!judged) return;
    const { rule, guests } = judged;
    const head = `GET ${intent.path} refused: it ${rule.what}`;
    if (rule.reach === "guest-content" && protection.status === "broken") {
      throw new LocalRefusal(
        "refused_protected_guest",
        `${head}, and the protected-guests file ${protection.file} (PROXMOX_PROTECTED_VMS_FILE) is unusable: ${protection.problem}. Until the operator fixes it and restarts the server, reads inside guests and backups are refused, because it cannot be told which guests are protected.`,
      );
    }
    if (rule.reach === "guest-content" && protection.status === "ok") {
      const hit = protection.guests.filter((guest) => guests.includes(guest.vmid));
      if (hit.length > 0) {
        const lines = hit.map((guest) => `${describeGuest(guest)}. Reason: ${guest.reason}`).join("; ");
        throw new LocalRefusal(
          "refused_protected_guest",
          `${head}, and the guest is protected: ${lines}\nReads inside protected guests and their backups are refused; facts such as agent/network-get-interfaces stay readable. Protected guests are listed in ${protection.file}.`,
        );
      }
    }
    if (!policy.readOnly) return;
    if (rule.reach === "outbound" && !policy.readOnlyAllowOutbound) {
      throw new LocalRefusal(
        "refused_read_only_outbound",
        `${head}, and in read-only mode (PROXMOX_READ_ONLY=true) the nodes are not made to contact other hosts. Ask the operator to set PROXMOX_READ_ONLY_ALLOW_OUTBOUND=true if this is needed.`,
      );
    }
    if (rule.reach === "guest-content" && !policy.readOnlyAllowGuestContent) {
      throw new LocalRefusal(
        "refused_read_only_guest_content",
        `${head}, and in read-only mode (PROXMOX_READ_ONLY=true) data inside guests and backups is not read; facts such as agent/network-get-interfaces stay readable. Ask the operator to set PROXMOX_READ_ONLY_ALLOW_GUEST_CONTENT=true if this is needed.`,
      );
    }
  }

  /** The PROXMOX_CONFIRM rule that holds this write (or a write in its batch) for a person's yes. */
  confirmationRule(intent: WriteIntent): string | undefined {
    if (this.policy.confirm.length === 0) return undefined;
    for (const each of requestViews(intent).flatMap((view) => expandBatch(view))) {
      const rule = firstMatch(this.policy.confirm, each.method, each.path, true);
      if (rule) return rule.text;
    }
    return undefined;
  }

  /** The checks that read from Proxmox before this write is sent, which a dry run leaves out. */
  deferredChecks(intent: WriteIntent): string[] {
    if (!this.policy.vlanGuard) return [];
    const tagged = expandBatch(intent).flatMap((each) => taggedNics(each.params).map((nic) => nic.key));
    return tagged.length
      ? [
          `VLAN guard: ${tagged.join(", ")} carry a VLAN tag; when sent, the bridge is checked against GET /nodes/{node}/network first.`,
        ]
      : [];
  }

  record(intent: WriteIntent, outcome: WriteOutcome): void {
    const clientLine = clientLogLine(intent, outcome);
    if (clientLine) this.log.info(clientLine);
    if (!this.audit) return;
    try {
      this.audit.append(auditLine(intent, outcome, this.now(), this.redact, this.host));
    } catch (error) {
      this.log.error(
        `audit log ${this.audit.path}: cannot append (${(error as NodeJS.ErrnoException).code ?? String(error)}); ${intent.method} ${intent.path} is not recorded`,
      );
    }
  }

  /** The checks that need no request: the protection file, the rules, the protected guests. */
  checkLocal(intent: WriteIntent): void {
    const { method, path } = intent;
    const head = `${method} ${path} refused`;
    const { protection, policy } = this;
    if (protection.status === "broken") {
      throw new LocalRefusal(
        "refused_protected_guest",
        `${head}: the protected-guests file ${protection.file} (PROXMOX_PROTECTED_VMS_FILE) is unusable: ${protection.problem}. Until the operator fixes it and restarts the server, every write is refused, because it cannot be told which guests are protected.`,
      );
    }
    const denied = firstMatch(policy.deny, method, path, true);
    if (denied) {
      throw new LocalRefusal(
        "refused_rule",
        `${head} by the rule '${denied.text}' in PROXMOX_DENY. Ask the operator if this change is needed; the rule is theirs.`,
      );
    }
    if (policy.allow && !firstMatch(policy.allow, method, path)) {
      throw new LocalRefusal(
        "refused_rule",
        `${head}: it matches no rule in PROXMOX_ALLOW, which lets only these writes through: ${rulesText(policy.allow)}. Ask the operator to allow it if this change is needed.`,
      );
    }
    if (protection.status === "ok" && protection.guests.length > 0) this.checkProtected(intent, protection);
  }

  private checkProtected(intent: WriteIntent, protection: Extract<Protection, { status: "ok" }>): void {
    const byVmid = new Map(protection.guests.map((guest) => [guest.vmid, guest]));
    const touches = guestsTouched(intent.path, intent.params, intent.method);
    const hits = new Map<number, GuestTouch>();
    for (const touch of touches.guests)
      if (byVmid.has(touch.vmid) && !hits.has(touch.vmid)) hits.set(touch.vmid, touch);
    const head = `${intent.method} ${intent.path} refused`;
    const advice = `Protected guests are listed in ${protection.file}; make this change by hand, or remove the entry there and restart the server if it is really intended.`;
    if (hits.size > 0) {
      const lines = [...hits.values()].map((touch) => {
        const guest = byVmid.get(touch.vmid)!;
        return `protected guest ${describeGuest(guest)} through ${touch.via}. Reason: ${guest.reason}`;
      });
      throw new LocalRefusal("refused_protected_guest", `${head}: it touches ${lines.join("; and ")}\n${advice}`);
    }
    if (touches.unreadable) {
      const shown = touches.unreadable
        .slice(0, 3)
        .map((item) => `${JSON.stringify(item.value)} in ${item.where}`)
        .join(", ");
      throw new LocalRefusal(
        "refused_protected_guest",
        `${head}: it names guests in a form the local policy cannot read (${shown}), so it cannot be told whether a protected guest is among them. Proxmox splits lists on NUL, or else on whitespace, ',' and ';', and each item must be a guest id: send plain ids such as vms=101,102 (HA resources as vm:101).\n${advice}`,
      );
    }
    if (touches.all) this.checkAllGuests(intent, touches.all, protection);
  }

  /** An action on all guests is refused while it includes a protected guest, unless an allow rule names its endpoint. */
  private checkAllGuests(
    intent: WriteIntent,
    all: NonNullable<Touches["all"]>,
    protection: Extract<Protection, { status: "ok" }>,
  ): void {
    const except = new Set(all.except);
    const included = protection.guests.filter((guest) => !except.has(guest.vmid));
    if (included.length === 0) return;
    const explicit = this.policy.allow?.find(
      (rule) => namesEndpoint(rule, all.template) && ruleMatches(rule, intent.method, intent.path),
    );
    if (explicit) return;
    const reasons = included.map((guest) => `${describeGuest(guest)}. Reason: ${guest.reason}`).join("; ");
    const ids = included.map((guest) => guest.vmid).join(",");
    throw new LocalRefusal(
      "refused_protected_guest",
      `${intent.method} ${intent.path} refused: ${all.action} would also touch protected guest ${reasons}\n${all.narrow(ids, endpointRule(intent.method, all.template))}`,
    );
  }
}

/** Builds the gate from configuration and runs its startup checks (throws ConfigError for an unusable audit log). */
export function createPolicyGate(options: PolicyGateOptions): PolicyGate {
  return new PolicyGate(options).start();
}
