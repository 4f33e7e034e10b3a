import { z } from "zod";

/**
 * Tolerant validation of the API viewer tree. The real files write flags as 0/1, some
 * numbers as strings, some values as null, `format` as a string or an object, Perl
 * regexes in `pattern`, and `returns` without `type`; unknown fields are kept.
 */

const flag = z.union([z.boolean(), z.number(), z.string(), z.null()]).optional();
const numberish = z.union([z.number(), z.string(), z.null()]).optional();
const text = z.string().nullish();

/** 1, "1", true -> true; 0, "0", false, null, missing -> false. */
export function toFlag(value: unknown): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string") return value !== "" && value !== "0" && value.toLowerCase() !== "false";
  return false;
}

/** A number written as a number or a numeric string; anything else is undefined. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

export const ParameterSchema = z.looseObject({
  type: z.union([z.string(), z.array(z.string()), z.null()]).optional(),
  description: text,
  verbose_description: text,
  optional: flag,
  default: z.unknown().optional(),
  enum: z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])).nullish(),
  format: z.union([z.string(), z.record(z.string(), z.unknown()), z.null()]).optional(),
  format_description: text,
  typetext: text,
  pattern: text,
  minimum: numberish,
  maximum: numberish,
  minLength: numberish,
  maxLength: numberish,
  requires: z.unknown().optional(),
  items: z.unknown().optional(),
  title: text,
});
export type ParameterInfo = z.infer<typeof ParameterSchema>;

export const PermissionsSchema = z.looseObject({
  check: z.unknown().optional(),
  user: text,
  description: text,
});
export type PermissionsInfo = z.infer<typeof PermissionsSchema>;

export const MethodSchema = z.looseObject({
  method: text,
  name: text,
  description: text,
  allowtoken: flag,
  protected: flag,
  download_allowed: flag,
  expose_credentials: flag,
  proxyto: text,
  parameters: z
    .looseObject({
      properties: z.record(z.string(), ParameterSchema).nullish(),
      additionalProperties: z.unknown().optional(),
    })
    .nullish(),
  returns: z.unknown().optional(),
  permissions: PermissionsSchema.nullish(),
});
export type MethodInfo = z.infer<typeof MethodSchema>;

/** A tree node; each method under `info` is validated on its own (see catalog.ts). */
export interface SchemaNode {
  path: string;
  text?: string | null | undefined;
  leaf?: unknown;
  info?: Record<string, unknown> | null | undefined;
  children?: SchemaNode[] | null | undefined;
  [key: string]: unknown;
}

export const NodeSchema: z.ZodType<SchemaNode> = z.looseObject({
  path: z.string().startsWith("/"),
  text,
  leaf: flag,
  info: z.record(z.string(), z.unknown()).nullish(),
  get children() {
    return z.array(NodeSchema).nullish();
  },
});

export const TreeSchema = z.array(NodeSchema).min(1, "the schema array is empty");

/** A short account of the first few validation problems, with where they are. */
export function describeIssues(error: z.ZodError, limit = 3): string {
  return error.issues
    .slice(0, limit)
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "(root)"}: ${issue.message}`)
    .join("; ");
}
