// Several hosts (PROXMOX_HOSTS): one gate per host, each enforcing the part of the policy that
// applies to it. Pure functions; src/hosts/build.ts builds the gates.
import { collectProblems, ConfigError } from "../settings.ts";
import type { PolicyConfig } from "./config.ts";
import type { Protection } from "./protected.ts";
import type { WriteRule } from "./rules.ts";

/** The rules that apply on `host`: those without a label and those labelled with it. */
export function rulesForHost(rules: readonly WriteRule[], host: string | undefined): WriteRule[] {
  return rules.filter((rule) => rule.host === undefined || rule.host === host);
}

/**
 * The policy one host's gate enforces: its own read-only flag and the rules that apply to it.
 * An allow list applies to a host when at least one PROXMOX_ALLOW rule applies to it.
 */
export function policyForHost(policy: PolicyConfig, host: string | undefined, readOnly: boolean): PolicyConfig {
  const allow = policy.allow ? rulesForHost(policy.allow, host) : [];
  return {
    ...policy,
    readOnly,
    deny: rulesForHost(policy.deny, host),
    allow: allow.length > 0 ? allow : undefined,
    confirm: rulesForHost(policy.confirm, host),
  };
}

/** Refuses rules labelled with a host that is not configured (all of them in single-host mode). */
export function checkRuleHosts(policy: PolicyConfig, labels: readonly string[] | undefined): void {
  const lists = [
    ["PROXMOX_DENY", policy.deny],
    ["PROXMOX_ALLOW", policy.allow ?? []],
    ["PROXMOX_CONFIRM", policy.confirm],
  ] as const;
  collectProblems(
    lists.map(([variable, rules]) => () => {
      const stray = rules.find((rule) => rule.host !== undefined && !labels?.includes(rule.host));
      if (!stray) return;
      throw new ConfigError(
        variable,
        labels
          ? `rule '${stray.text}' names host '${stray.host}', which is not in PROXMOX_HOSTS (${labels.join(", ")})`
          : `rule '${stray.text}' names host '${stray.host}', but host labels need PROXMOX_HOSTS; without it, drop the '${stray.host}:' prefix`,
      );
    }),
  );
}

/**
 * The guests one host's gate protects: entries naming that host and entries naming none. In
 * single-host mode (`labels` undefined) `host` is a free label and every entry applies. With
 * several hosts an entry naming an unknown label makes the file unusable: every write on every
 * host is refused, as for a broken file, since it cannot be told which guest was meant.
 */
export function protectionForHost(
  protection: Protection,
  host: string | undefined,
  labels: readonly string[] | undefined,
): Protection {
  if (protection.status !== "ok" || labels === undefined) return protection;
  const stray = protection.guests.find((guest) => guest.host !== undefined && !labels.includes(guest.host));
  if (stray) {
    return {
      status: "broken",
      file: protection.file,
      problem: `the entry for vmid ${stray.vmid} names host '${stray.host}', which is not in PROXMOX_HOSTS (${labels.join(", ")})`,
    };
  }
  return {
    ...protection,
    guests: protection.guests.filter((guest) => guest.host === undefined || guest.host === host),
  };
}
