// The bottom of the configuration layer: the error every setting parser throws and the value
// parsers they share. Sub-configurations import from here, never from config.ts.

export type Env = Record<string, string | undefined>;

/** A setting that is missing or invalid; `message` names the variable and what it expects. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    /** What is wrong and what was expected, without the variable's name. */
    readonly expected: string,
  ) {
    super(`${variable}: ${expected}`);
    this.name = "ConfigError";
  }
}

/** Several settings are wrong at once: each is reported on its own line. */
export class ConfigProblems extends ConfigError {
  constructor(readonly problems: readonly ConfigError[]) {
    super(problems[0]!.variable, problems[0]!.expected);
    this.message = problems.map((p) => p.message).join("\n");
    this.name = "ConfigProblems";
  }

  /** Each problem of `error` (one for a plain ConfigError). */
  static of(error: ConfigError): readonly ConfigError[] {
    return error instanceof ConfigProblems ? error.problems : [error];
  }
}

/**
 * Runs each check and gathers every ConfigError, so the operator sees all of them at once.
 * Throws the single error, or ConfigProblems for several; other errors pass through.
 */
export function collectProblems(checks: readonly (() => void)[]): void {
  const problems: ConfigError[] = [];
  for (const check of checks) {
    try {
      check();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...ConfigProblems.of(error));
    }
  }
  if (problems.length === 1) throw problems[0]!;
  if (problems.length > 1) throw new ConfigProblems(problems);
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
