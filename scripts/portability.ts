// Rules that keep a tool list usable by every MCP client we know of: strict function-calling
// APIs refuse names outside [a-zA-Z0-9_-]{1,64}, long descriptions and schema combinators.

export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: Record<string, unknown>;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_DESCRIPTION = 1024;
const UNPORTABLE_KEYWORDS = [
  "$ref",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "propertyNames",
  "patternProperties",
  "if",
  "then",
  "else",
];
const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

function schemaProblems(schema: unknown, where: string, problems: string[]): void {
  if (!schema || typeof schema !== "object") return;
  const node = schema as Record<string, unknown>;
  for (const keyword of UNPORTABLE_KEYWORDS) {
    if (keyword in node) problems.push(`${where} uses '${keyword}'`);
  }
  const properties = node.properties as Record<string, unknown> | undefined;
  if (properties && typeof properties === "object") {
    for (const [name, property] of Object.entries(properties)) {
      const child = property as Record<string, unknown>;
      if (typeof child?.description !== "string" || child.description.length === 0) {
        problems.push(`${where}.${name} has no description`);
      }
      schemaProblems(property, `${where}.${name}`, problems);
    }
  }
  if (node.items) schemaProblems(node.items, `${where}[]`, problems);
}

/** Every portability problem of a tools/list answer; an empty list means portable. */
export function toolPortabilityProblems(tools: readonly ListedTool[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    const at = `tool ${JSON.stringify(tool.name)}`;
    if (!NAME.test(tool.name)) problems.push(`${at}: name must match ${NAME}`);
    if (seen.has(tool.name)) problems.push(`${at}: listed twice`);
    seen.add(tool.name);
    if (!tool.title) problems.push(`${at}: no title`);
    if (!tool.description) problems.push(`${at}: no description`);
    else if (tool.description.length > MAX_DESCRIPTION)
      problems.push(`${at}: description longer than ${MAX_DESCRIPTION} characters`);
    const schema = tool.inputSchema as Record<string, unknown> | undefined;
    if (schema?.type !== "object") problems.push(`${at}: inputSchema.type must be "object"`);
    const properties = (schema?.properties ?? {}) as Record<string, unknown>;
    for (const name of (schema?.required as string[] | undefined) ?? []) {
      if (!(name in properties)) problems.push(`${at}: required '${name}' is not a property`);
    }
    schemaProblems(schema, `${at} input`, problems);
    for (const hint of HINTS) {
      if (typeof tool.annotations?.[hint] !== "boolean") problems.push(`${at}: annotation ${hint} missing`);
    }
  }
  return problems;
}
