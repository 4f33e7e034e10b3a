import { encodeSegment } from "../proxmox/path.ts";

/** The parts of a Proxmox task id: UPID:node:pid:pstart:starttime:type:id:user: */
export interface Upid {
  upid: string;
  node: string;
  pid: number;
  pstart: number;
  /** Unix seconds. */
  starttime: number;
  type: string;
  id: string;
  user: string;
}

const UPID = /^UPID:([^:]+):([0-9A-Fa-f]{8}):([0-9A-Fa-f]{8,9}):([0-9A-Fa-f]{8}):([^:]+):([^:]*):([^:]+):$/;

export function parseUpid(value: unknown): Upid | undefined {
  if (typeof value !== "string") return undefined;
  const m = UPID.exec(value);
  if (!m) return undefined;
  return {
    upid: value,
    node: m[1]!,
    pid: Number.parseInt(m[2]!, 16),
    pstart: Number.parseInt(m[3]!, 16),
    starttime: Number.parseInt(m[4]!, 16),
    type: m[5]!,
    id: m[6]!,
    user: m[7]!,
  };
}

/** The status path of a task, on the node named inside its UPID (other nodes answer "no such task"). */
export function taskPath(upid: Upid, leaf: "status" | "log"): string {
  return `/nodes/${encodeSegment(upid.node)}/tasks/${encodeSegment(upid.upid)}/${leaf}`;
}
