// The bottom of the configuration layer: the error every setting parser throws and the value
// parsers they share. Sub-configurations import from here, never from config.ts.

export type Env = Record<string, string | undefined>;

/** A setting that is missing or invalid; `message` names the variable and what it expects. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    expected: string,
  ) {
    super(`${variable}: ${expected}`);
    this.name = "ConfigError";
  }
}

export function parseBoolean(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value.trim() === "") return fallback;
  const v = value.trim().toLowerCase();
  if (["true", "1", "yes", "on"].includes(v)) return true;
  if (["false", "0", "no", "off"].includes(v)) return false;
  throw new ConfigError(name, "expected true or false");
}

export function parsePositiveInt(
  name: string,
  value: string | undefined,
  fallback: number,
  max: number,
  unit = "",
): number {
  if (value === undefined || value.trim() === "") return fallback;
  const v = value.trim();
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > max) {
    throw new ConfigError(name, `expected a whole number${unit ? ` of ${unit}` : ""} from 1 to ${max}`);
  }
  return Number(v);
}
