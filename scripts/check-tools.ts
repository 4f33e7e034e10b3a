// Reads a tools/list answer (JSON, from the MCP Inspector CLI) on stdin or from a file and
// fails when any tool is not portable across MCP clients. Used by .ci/run.
import { readFileSync } from "node:fs";
import { toolPortabilityProblems, type ListedTool } from "./portability.ts";

const text = process.argv[2] ? readFileSync(process.argv[2], "utf8") : readFileSync(0, "utf8");
const tools = (JSON.parse(text) as { tools: ListedTool[] }).tools;
const problems = toolPortabilityProblems(tools);
for (const problem of problems) process.stderr.write(`portability: ${problem}\n`);
process.stderr.write(
  `portability: ${tools.length} tools (${tools.map((t) => t.name).join(", ")}), ${problems.length} problems\n`,
);
process.exit(problems.length === 0 && tools.length > 0 ? 0 : 1);
