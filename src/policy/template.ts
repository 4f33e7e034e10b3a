/** Matches decoded path segments against a template such as /nodes/{node}/startall; {x} is one segment. */
export function matchTemplate(template: string, segments: readonly string[]): Record<string, string> | undefined {
  const parts = template.split("/").slice(1);
  if (parts.length !== segments.length) return undefined;
  const values: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const placeholder = /^\{(.+)\}$/.exec(part);
    if (placeholder) values[placeholder[1]!] = segments[i]!;
    else if (part !== segments[i]) return undefined;
  }
  return values;
}
