import type { Logger } from "../log.ts";
import {
  HTTP_METHODS,
  type HttpMethod,
  type ProxmoxClient,
  type WriteGate,
  type WriteIntent,
  type WriteOutcome,
} from "../proxmox/client.ts";
import { LocalRefusal } from "../proxmox/errors.ts";
import type { ParamValue, Params } from "../proxmox/params.ts";
import { hasEncodedSlash, pathSegments, serverView, validateApiPath } from "../proxmox/path.ts";
import type { Redactor } from "../proxmox/redact.ts";
import { AuditFile, auditLine, clientLogLine } from "./audit.ts";
import type { PolicyConfig } from "./config.ts";
import { guestsTouched, type GuestTouch } from "./guests.ts";
import { loadProtection, type ProtectedGuest, type Protection } from "./protected.ts";
import { firstMatch, type WriteRule } from "./rules.ts";
import { checkVlan } from "./vlan.ts";

export interface PolicyGateOptions {
  policy: PolicyConfig;
  log: Logger;
  /** Removes the API token from audit lines: the same redactor as the client's. */
  redact: Redactor;
  readFile?: (path: string) => string;
  now?: () => Date;
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
 * POST /nodes/{node}/execute runs a JSON list of API calls on that node. Each call is checked
 * as a write of its own, so a batch cannot carry what a single request could not.
 */
export function expandBatch(intent: WriteIntent, depth = 0): WriteIntent[] {
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
    return inner.method === "GET" ? [] : expandBatch(inner, depth + 1);
  });
  return [intent, ...nested];
}

/** The WriteGate of issue 6: protected guests, deny/allow rules, the VLAN guard and the audit trail. */
export class PolicyGate implements WriteGate {
  readonly protection: Protection;
  private readonly policy: PolicyConfig;
  private readonly audit: AuditFile | undefined;
  private readonly log: Logger;
  private readonly redact: Redactor;
  private readonly now: () => Date;

  constructor(options: PolicyGateOptions) {
    this.policy = options.policy;
    this.log = options.log;
    this.redact = options.redact;
    this.now = options.now ?? (() => new Date());
    this.protection = loadProtection(options.policy.protectedVmsFile, options.readFile);
    this.audit = options.policy.auditLog === undefined ? undefined : new AuditFile(options.policy.auditLog);
  }

  /** Startup checks: creates the audit log (ConfigError when it cannot) and reports the policy on stderr. */
  start(): this {
    const { policy, protection, log } = this;
    const warning = this.audit?.open();
    if (warning) log.warn(warning);
    if (policy.readOnly)
      log.info(
        "read-only mode (PROXMOX_READ_ONLY=true): writing tools are not listed and only GET requests reach Proxmox",
      );
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
    if (this.audit) log.info(`audit trail: ${this.audit.path}`);
    return this;
  }

  async authorize(intent: WriteIntent, client: ProxmoxClient, signal?: AbortSignal): Promise<void> {
    const problem = this.audit?.problem();
    if (problem) {
      throw new LocalRefusal(
        "refused_audit",
        `${intent.method} ${intent.path} refused: the audit log ${this.audit!.path} cannot be written (${problem}), and no write goes unrecorded. Ask the operator to fix the file or its directory.`,
      );
    }
    // Proxmox routes %2F as a separator: judge such a path as written and as the server sees it.
    const views = hasEncodedSlash(intent.path) ? [intent, { ...intent, path: serverView(intent.path) }] : [intent];
    const intents = views.flatMap((view) => expandBatch(view));
    for (const each of intents) this.checkLocal(each);
    if (!this.policy.vlanGuard) return;
    for (const each of intents) await checkVlan(each, client, signal);
  }

  record(intent: WriteIntent, outcome: WriteOutcome): void {
    const clientLine = clientLogLine(intent, outcome);
    if (clientLine) this.log.info(clientLine);
    if (!this.audit) return;
    try {
      this.audit.append(auditLine(intent, outcome, this.now(), this.redact));
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
    const denied = firstMatch(policy.deny, method, path);
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
    const touches = guestsTouched(intent.path, intent.params);
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
    if (touches.all) {
      const except = new Set(touches.all.except);
      const included = protection.guests.filter((guest) => !except.has(guest.vmid));
      if (included.length > 0) {
        const reasons = included.map((guest) => `${describeGuest(guest)}. Reason: ${guest.reason}`).join("; ");
        const ids = included.map((guest) => guest.vmid).join(",");
        throw new LocalRefusal(
          "refused_protected_guest",
          `${head}: ${touches.all.action} would also touch protected guest ${reasons}\nName the guests explicitly and leave out ${ids} (vms= for startall, stopall, suspendall, migrateall and bulk actions; vmid= or exclude= for backups), or make this change by hand.`,
        );
      }
    }
  }
}

/** Builds the gate from configuration and runs its startup checks (throws ConfigError for an unusable audit log). */
export function createPolicyGate(options: PolicyGateOptions): PolicyGate {
  return new PolicyGate(options).start();
}
