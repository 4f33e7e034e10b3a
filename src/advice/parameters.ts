import { placeholders, type Catalog } from "../catalog/catalog.ts";
import { toFlag, type ParameterInfo } from "../catalog/schema.ts";
import type { Params, ParamValue } from "../proxmox/params.ts";

type ParameterShape = ParameterInfo;

function isOptional(p: ParameterShape): boolean {
  return toFlag(p.optional);
}

function typeOf(p: ParameterShape): string {
  if (Array.isArray(p.enum)) return p.enum.map(String).join("|");
  if (typeof p.typetext === "string") return p.typetext;
  return Array.isArray(p.type) ? p.type.join("|") : (p.type ?? "string");
}

/** "vmid (integer, required), force (boolean), ..." for an endpoint's accepted parameters. */
export function acceptedParameters(
  parameters: Record<string, ParameterShape>,
  pathPlaceholders: readonly string[],
  max = 40,
): string {
  const names = Object.keys(parameters).filter((n) => !pathPlaceholders.includes(n));
  const shown = names.slice(0, max).map((n) => {
    const p = parameters[n]!;
    return `${n} (${typeOf(p)}${isOptional(p) ? "" : ", required"})`;
  });
  return names.length > max ? `${shown.join(", ")}, and ${names.length - max} more` : shown.join(", ");
}

export interface PreparedParams {
  params: Params;
  warnings: string[];
}

function booleanWord(value: ParamValue): ParamValue {
  if (value === "true") return true;
  if (value === "false") return false;
  return value;
}

/**
 * Help before sending, when the endpoint is known: "true"/"false" for a boolean parameter
 * becomes a boolean (sent as 1/0), and names the schema does not know produce a warning.
 * Nothing else changes: the schema may be older or newer than the cluster.
 */
export function prepareParams(
  params: Params,
  parameters: Record<string, ParameterShape>,
  pathPlaceholders: readonly string[],
  endpointLabel: string,
): PreparedParams {
  const out: Params = {};
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    const shape = parameters[name];
    if (!shape && !pathPlaceholders.includes(name)) unknown.push(name);
    out[name] =
      shape?.type === "boolean"
        ? Array.isArray(value)
          ? (value.map(booleanWord) as ParamValue)
          : booleanWord(value)
        : value;
  }
  const warnings = unknown.length
    ? [
        `${endpointLabel} does not list ${unknown.map((n) => `'${n}'`).join(", ")} in the catalog; the request was sent unchanged, but Proxmox may refuse it. Accepted: ${acceptedParameters(parameters, pathPlaceholders, 25)}.`,
      ]
    : [];
  return { params: out, warnings };
}

/** prepareParams for the endpoint a concrete path and method belong to; unchanged when the catalog has none. */
export function prepareForCatalog(
  catalog: Catalog | undefined,
  method: string,
  path: string,
  params: Params,
): PreparedParams {
  const found = catalog?.lookup(method, path);
  if (!found) return { params, warnings: [] };
  const { endpoint, match } = found;
  return prepareParams(
    params,
    endpoint.parameters,
    placeholders(match.template),
    `${endpoint.method} ${endpoint.path}`,
  );
}
