import { readFileSync } from "node:fs";

export interface ProtectedGuest {
  vmid: number;
  name: string;
  /** Shown verbatim in every refusal. */
  reason: string;
  /** An optional label such as the cluster or host the guest lives on. */
  host?: string;
}

/**
 * What PROXMOX_PROTECTED_VMS_FILE gave. "broken" fails closed: every write is refused with
 * `problem`, but the server still starts so the model (and the person) can be told why.
 */
export type Protection =
  | { status: "none" }
  | { status: "ok"; file: string; guests: ProtectedGuest[] }
  | { status: "broken"; file: string; problem: string };

const ENTRY_KEYS = new Set(["vmid", "name", "reason", "host"]);
const EXPECTED =
  'expected {"protected_vms": [{"vmid": 100, "name": "mcp-host", "reason": "the VM this server runs in"}]}';

function nonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

function parseVmid(value: unknown): number | undefined {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  if (!/^\d{1,9}$/.test(text)) return undefined;
  const vmid = Number(text);
  return vmid >= 100 ? vmid : undefined;
}

/** Parses the file's text; throws an Error whose message says what is wrong and where. */
export function parseProtectedGuests(text: string): ProtectedGuest[] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new Error(`it is not valid JSON (${error instanceof Error ? error.message : String(error)}); ${EXPECTED}`);
  }
  if (document === null || typeof document !== "object" || Array.isArray(document)) {
    throw new Error(`it is not a JSON object; ${EXPECTED}`);
  }
  const list = (document as Record<string, unknown>).protected_vms;
  if (!Array.isArray(list)) throw new Error(`it has no "protected_vms" array; ${EXPECTED}`);
  const seen = new Set<number>();
  return list.map((entry, i) => {
    const where = `protected_vms[${i}]`;
    if (entry === null || typeof entry !== "object" || Array.isArray(entry))
      throw new Error(`${where} is not an object; ${EXPECTED}`);
    const record = entry as Record<string, unknown>;
    const unknown = Object.keys(record).filter((key) => !ENTRY_KEYS.has(key));
    if (unknown.length > 0)
      throw new Error(`${where} has unknown key(s) ${unknown.join(", ")}; allowed are vmid, name, reason, host`);
    const vmid = parseVmid(record.vmid);
    if (vmid === undefined) throw new Error(`${where}.vmid must be a guest id (a whole number from 100 to 999999999)`);
    if (seen.has(vmid)) throw new Error(`${where}: vmid ${vmid} is listed twice`);
    seen.add(vmid);
    if (!nonEmptyString(record.name)) throw new Error(`${where}.name must be a non-empty string`);
    if (!nonEmptyString(record.reason))
      throw new Error(`${where}.reason must be a non-empty string, shown to whoever is refused`);
    if (record.host !== undefined && !nonEmptyString(record.host))
      throw new Error(`${where}.host must be a non-empty string when given`);
    return {
      vmid,
      name: record.name,
      reason: record.reason,
      ...(record.host !== undefined ? { host: record.host as string } : {}),
    };
  });
}

/** Reads PROXMOX_PROTECTED_VMS_FILE once, at startup. Never throws. */
export function loadProtection(
  file: string | undefined,
  read: (path: string) => string = (p) => readFileSync(p, "utf8"),
): Protection {
  if (file === undefined) return { status: "none" };
  let text: string;
  try {
    text = read(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : "unreadable");
    return { status: "broken", file, problem: `it cannot be read (${code})` };
  }
  try {
    return { status: "ok", file, guests: parseProtectedGuests(text) };
  } catch (error) {
    return { status: "broken", file, problem: error instanceof Error ? error.message : String(error) };
  }
}
