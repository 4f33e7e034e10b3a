import { z } from "zod";

/**
 * Tolerant validation of the API viewer tree. The real files write flags as 0/1, some
 * numbers as strings, some values as null, `format` as a string or an object, Perl
 * regexes in `pattern`, and `returns` without `type`; unknown fields are kept.
 */

// Single-check validators for the quirky fields: a union would try each branch for each of
// the ~3000 parameters, which is most of the load time.
type Scalar = string | number | boolean | null;
const isScalar = (v: unknown): v is Scalar =>
  v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";
const flag = z.custom<Scalar>(isScalar, "expected a flag (0/1, a boolean or a string)").optional();
const numberish = z
  .custom<number | string | null>(
    (v) => v === null || typeof v === "number" || typeof v === "string",
    "expected a number",
  )
  .optional();
const text = z.string().nullish();
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
/** What z.record(z.string(), z.unknown()) accepts, checked without copying every entry. */
const anyObject = z.custom<Record<string, unknown>>(isPlainObject, "expected an object");

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
  type: z
    .custom<string | string[] | null>(
      (v) => v === null || typeof v === "string" || (Array.isArray(v) && v.every((t) => typeof t === "string")),
      "expected a type name",
    )
    .optional(),
  description: text,
  verbose_description: text,
  optional: flag,
  default: z.unknown().optional(),
  enum: z
    .custom<Scalar[] | null>((v) => v === null || (Array.isArray(v) && v.every(isScalar)), "expected a list of values")
    .optional(),
  format: z
    .custom<string | Record<string, unknown> | null>(
      (v) => v === null || typeof v === "string" || isPlainObject(v),
      "expected a format name or object",
    )
    .optional(),
  typetext: text,
  minimum: numberish,
  maximum: numberish,
  items: z.unknown().optional(),
  // pattern (a Perl regex, never compiled here), requires, title, ... are kept unchecked.
});
export type ParameterInfo = z.infer<typeof ParameterSchema>;

export const PermissionsSchema = z.looseObject({
  check: z.unknown().optional(),
  user: text,
  description: text,
});
export type PermissionsInfo = z.infer<typeof PermissionsSchema>;

const MethodFields = {
  method: text,
  name: text,
  description: text,
  allowtoken: flag,
  protected: flag,
  download_allowed: flag,
  expose_credentials: flag,
  proxyto: text,
  returns: z.unknown().optional(),
  permissions: PermissionsSchema.nullish(),
};

export const MethodSchema = z.looseObject({
  ...MethodFields,
  parameters: z
    .looseObject({
      properties: z.record(z.string(), ParameterSchema).nullish(),
      additionalProperties: z.unknown().optional(),
    })
    .nullish(),
});
export type MethodInfo = z.infer<typeof MethodSchema>;

/** The method without its parameters, which validateMethod checks one distinct parameter at a time. */
const MethodShellSchema = z.looseObject({
  ...MethodFields,
  parameters: z
    .looseObject({
      properties: anyObject.nullish(),
      additionalProperties: z.unknown().optional(),
    })
    .nullish(),
});

/** Validated parameters by their JSON text: of ~3000 in a schema only ~1000 differ. */
export type ParameterCache = Map<string, z.ZodSafeParseResult<ParameterInfo>>;

/**
 * MethodSchema's result, computed faster: the same parameter (node, vmid, ...) recurs on
 * hundreds of endpoints, so each distinct one is validated once and its result shared.
 */
export function validateMethod(raw: unknown, cache: ParameterCache): z.ZodSafeParseResult<MethodInfo> {
  const shell = MethodShellSchema.safeParse(raw);
  if (!shell.success) return MethodSchema.safeParse(raw);
  const properties = shell.data.parameters?.properties;
  if (!properties) return shell as z.ZodSafeParseResult<MethodInfo>;
  const checked: Record<string, ParameterInfo> = {};
  for (const [name, value] of Object.entries(properties)) {
    const key = JSON.stringify(value) ?? "undefined";
    let result = cache.get(key);
    if (!result) {
      result = ParameterSchema.safeParse(value);
      cache.set(key, result);
    }
    if (!result.success) {
      return MethodSchema.safeParse(raw);
    }
    checked[name] = result.data;
  }
  return { success: true, data: { ...shell.data, parameters: { ...shell.data.parameters, properties: checked } } };
}

/** A tree node; each method under `info` is validated on its own (see catalog.ts). */
export interface SchemaNode {
  path: string;
  text?: string | null | undefined;
  leaf?: unknown;
  info?: Record<string, unknown> | null | undefined;
  children?: SchemaNode[] | null | undefined;
  [key: string]: unknown;
}

const ChildrenSchema: z.ZodType<SchemaNode[] | null | undefined> = z.lazy(() => z.array(NodeSchema).nullish());

export const NodeSchema: z.ZodType<SchemaNode> = z.looseObject({
  path: z.string().startsWith("/"),
  text,
  leaf: flag,
  info: anyObject.nullish(),
  children: ChildrenSchema,
});

export const TreeSchema = z.array(NodeSchema).min(1, "the schema array is empty");

/** A short account of the first few validation problems, with where they are. */
export function describeIssues(error: z.ZodError, limit = 3): string {
  return error.issues
    .slice(0, limit)
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "(root)"}: ${issue.message}`)
    .join("; ");
}
