// Parameters checked against an endpoint's schema, for a dry run. Pure. The schema can be older
// or newer than the cluster, so these are findings to show, never reasons to refuse.
import { toFlag, toNumber, type ParameterInfo } from "../catalog/schema.ts";
import { scalarText, type Params, type Scalar } from "../proxmox/params.ts";

/** "name: what is wrong", one per problem. */
export type ParameterProblem = string;

const INTEGER = /^[+-]?\d+$/;
const BOOLEAN_WORDS = new Set(["0", "1", "true", "false", "yes", "no", "on", "off"]);

function typeName(info: ParameterInfo): string {
  return Array.isArray(info.type) ? (info.type[0] ?? "string") : (info.type ?? "string");
}

/** What is wrong with one value of a parameter, or undefined. */
export function valueProblem(info: ParameterInfo, value: Scalar): string | undefined {
  const text = scalarText(value).trim();
  const type = typeName(info);
  if (type === "integer" && !INTEGER.test(text)) return `'${text}' is not an integer`;
  if (type === "number" && (text === "" || !Number.isFinite(Number(text)))) return `'${text}' is not a number`;
  if (type === "boolean" && !BOOLEAN_WORDS.has(text.toLowerCase())) return `'${text}' is not a boolean (use 0 or 1)`;
  if (Array.isArray(info.enum) && info.enum.length > 0 && !info.enum.map(String).includes(text)) {
    return `'${text}' is not one of ${info.enum.map(String).join(", ")}`;
  }
  if (type === "integer" || type === "number") {
    const n = Number(text);
    const min = toNumber(info.minimum);
    const max = toNumber(info.maximum);
    if (min !== undefined && n < min) return `${text} is below the minimum ${min}`;
    if (max !== undefined && n > max) return `${text} is above the maximum ${max}`;
  }
  return undefined;
}

/**
 * Problems of `params` (and of the values taken from the path) against an endpoint's
 * parameters: unknown names, missing required ones, wrong types, values outside an enum or
 * a range, a list where one value is taken.
 */
export function checkParameters(
  schema: Record<string, ParameterInfo>,
  params: Params,
  pathValues: Record<string, string>,
): ParameterProblem[] {
  const problems: ParameterProblem[] = [];
  for (const [name, value] of Object.entries(params)) {
    const info = schema[name];
    if (!info) {
      if (pathValues[name] === undefined) problems.push(`${name}: not a parameter of this endpoint`);
      continue;
    }
    if (Array.isArray(value) && typeName(info) !== "array") {
      problems.push(`${name}: takes one value, not a list`);
      continue;
    }
    for (const item of Array.isArray(value) ? value : [value]) {
      const problem = valueProblem(info, item);
      if (problem) problems.push(`${name}: ${problem}`);
    }
  }
  for (const [name, value] of Object.entries(pathValues)) {
    const info = schema[name];
    const problem = info ? valueProblem(info, value) : undefined;
    if (problem) problems.push(`${name} (in the path): ${problem}`);
  }
  for (const [name, info] of Object.entries(schema)) {
    if (toFlag(info.optional) || name in params || name in pathValues) continue;
    problems.push(`${name}: required, but not given`);
  }
  return problems;
}
