// Lists as Proxmox reads them. Every `*-list` format (pve-vmid-list, pve-ha-resource-id-list, ...)
// is split by PVE::Tools::split_list (pve-common, src/PVE/Tools.pm) and each item is then checked
// on its own (PVE::JSONSchema::check_format). The policy must see the same items, or a value
// such as "101\0100" would name guest 100 to Proxmox and not to us.
import { scalarTexts, type ParamValue } from "../proxmox/params.ts";

/**
 * Perl's \s under Unicode rules (the parameter is a decoded character string): ASCII
 * whitespace, U+0085, U+00A0 and the Unicode space separators. Splitting on more than the
 * server does is harmless here, because every item must then be a clean id.
 */
const PERL_SPACE = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const LEADING_SPACE = new RegExp(`^[${PERL_SPACE}]+`);
const SPACE_RUN = new RegExp(`[${PERL_SPACE}]+`);

/** Perl's split drops trailing empty fields (and keeps leading ones). */
function dropTrailingEmpty(fields: string[]): string[] {
  let end = fields.length;
  while (end > 0 && fields[end - 1] === "") end--;
  return fields.slice(0, end);
}

/**
 * PVE::Tools::split_list: when the text contains a NUL it is split on NUL only (items are not
 * trimmed, leading empty items stay); otherwise ',' and ';' count as whitespace, leading
 * whitespace is dropped and the rest is split on runs of whitespace.
 */
export function splitList(text: string): string[] {
  if (text.includes("\0")) return dropTrailingEmpty(text.split("\0"));
  const spaced = text.replace(/[,;]/g, " ").replace(LEADING_SPACE, "");
  return dropTrailingEmpty(spaced.split(SPACE_RUN));
}

/** The items of a parameter value (arrays item by item), each split as Proxmox splits lists. */
export function listItems(value: ParamValue): string[] {
  return scalarTexts(value).flatMap(splitList);
}

export interface ReadList<T> {
  found: T[];
  /** Items that could name a guest but are not in a form the policy can read. */
  unreadable: string[];
}

const DIGITS = /^\d+$/;

/**
 * Guest ids of a pve-vmid or pve-vmid-list value. Proxmox accepts only ^[1-9][0-9]{2,8}$
 * (PVE::JSONSchema::pve_verify_vmid); here any run of digits counts (0100 is read as 100, to
 * fail closed), and every other item is unreadable.
 */
export function readGuestIds(value: ParamValue): ReadList<number> {
  const found: number[] = [];
  const unreadable: string[] = [];
  for (const item of listItems(value)) {
    if (DIGITS.test(item)) found.push(Number(item));
    else unreadable.push(item);
  }
  return { found, unreadable };
}

/** HA resource types that are guests (PVE::HA::Resources::PVEVM and PVECT). */
const GUEST_HA_TYPES = new Set(["vm", "ct"]);

/**
 * Guest ids of HA resource ids: "vm:100", "ct:100" or a bare "100" (pve-ha-resource-or-vm-id),
 * lists of them (pve-ha-resource-id-list). Other well-formed resource types are not guests. A
 * guest type, a malformed type or no type counts when the name is digits and is unreadable
 * otherwise ("vm:abc").
 */
export function readHaGuestIds(value: ParamValue): ReadList<number> {
  const found: number[] = [];
  const unreadable: string[] = [];
  for (const item of listItems(value)) {
    const colon = item.indexOf(":");
    const type = colon < 0 ? undefined : item.slice(0, colon).toLowerCase();
    const name = colon < 0 ? item : item.slice(colon + 1);
    if (type !== undefined && /^[a-z]+$/.test(type) && !GUEST_HA_TYPES.has(type)) continue;
    if (DIGITS.test(name)) found.push(Number(name));
    else unreadable.push(item);
  }
  return { found, unreadable };
}

const FALSE_VALUES = new Set(["", "0", "false", "no", "off"]);

/** Anything but an explicit false counts as set (fails closed for flags such as all=). */
export function isTruthy(value: ParamValue | undefined): boolean {
  if (value === undefined) return false;
  return scalarTexts(value).some((item) => !FALSE_VALUES.has(item.trim().toLowerCase()));
}
