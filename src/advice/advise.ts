import { fillTemplate, placeholders, type Catalog, type Endpoint } from "../catalog/catalog.ts";
import { withDeadline } from "../http/deadline.ts";
import { describePermissions } from "../catalog/describe.ts";
import type { HttpMethod, ProxmoxClient } from "../proxmox/client.ts";
import { ProxmoxHttpError } from "../proxmox/errors.ts";
import { nodeOfPath } from "../proxmox/path.ts";
import { acceptedParameters } from "./parameters.ts";

/** How long an error may wait for the catalog or the node list before it is returned without them. */
export const ADVICE_BUDGET_MS = 1500;

export interface AdviceSources {
  client: ProxmoxClient;
  /** The catalog if it is loaded or can be loaded within the budget; never throws. */
  catalog(signal: AbortSignal | undefined): Promise<Catalog | undefined>;
}

export interface FailedCall {
  method: HttpMethod;
  path: string;
  signal?: AbortSignal | undefined;
}

export function forbiddenAdvice(endpoint: Endpoint): string[] {
  const hints: string[] = [];
  if (!endpoint.allowtoken) {
    hints.push(
      `${endpoint.method} ${endpoint.path} refuses API tokens entirely (allowtoken 0): no token can call it, whatever its privileges. Use the web UI or pveum on a node.`,
    );
  }
  const permissions = describePermissions(endpoint.permissions);
  if (permissions?.check) {
    hints.push(
      `${endpoint.method} ${endpoint.path} needs ${permissions.check}${permissions.description ? `; ${permissions.description}` : ""}.`,
    );
  } else if (permissions?.description) {
    hints.push(`${endpoint.method} ${endpoint.path}: ${permissions.description}`);
  }
  return hints;
}

/** The parameters the endpoint accepts; the rejected ones are already in the error's text. */
export function badRequestAdvice(endpoint: Endpoint): string[] {
  const accepted = acceptedParameters(endpoint.parameters, placeholders(endpoint.path));
  return [`${endpoint.method} ${endpoint.path} accepts: ${accepted || "no parameters"}.`];
}

/**
 * A 501 on a path the catalog does not know (or does not know with this method): the nearest
 * endpoints, or the methods the path takes. A path it knows with this method is handled by
 * valueAdvice instead: then the 501 comes from a concrete value in the path.
 */
export function notImplementedAdvice(catalog: Catalog, method: string, path: string): string[] {
  const match = catalog.match(path);
  if (match) {
    const methods = catalog.pathEntry(match.template)?.methods.map((e) => e.method) ?? [];
    if (methods.includes(method)) return valueAdvice(method, match.template, match.params);
    return [`${match.template} exists, but not with ${method}; it takes ${methods.join(", ") || "no method"}.`];
  }
  const nearest = catalog
    .closest(path, 3)
    .map(
      (template) =>
        `${(catalog.pathEntry(template)?.methods.map((e) => e.method) ?? []).join("|") || "(no methods)"} ${template}`,
    );
  return nearest.length ? [`Closest existing endpoints: ${nearest.join(", ")}.`] : [];
}

/** The endpoint exists with this method, so a value in the path is what Proxmox did not recognise. */
export function valueAdvice(method: string, template: string, values: Record<string, string>): string[] {
  const named = placeholders(template)
    .filter((name) => values[name] !== undefined)
    .map((name) => `${name} '${values[name]}'`);
  if (named.length === 0) return [];
  return [
    `${method} ${template} exists, so a value in the path was not recognised: check ${named.join(", ")} (names are case-sensitive; an id may not exist). GET /nodes lists the nodes, GET /cluster/resources the guests and storages.`,
  ];
}

/** The collection to list when an object is missing: the nearest ancestor path with a GET, filled in. */
export function listingAdvice(catalog: Catalog, path: string): string[] {
  const match = catalog.match(path);
  if (!match) return [];
  const segments = match.template.split("/");
  for (let end = segments.length - 1; end > 1; end--) {
    const template = segments.slice(0, end).join("/");
    if (!catalog.endpoint("GET", template)) continue;
    const concrete = fillTemplate(template, match.params);
    if (concrete === fillTemplate(match.template, match.params)) continue;
    return [`List what exists with GET ${concrete}.`];
  }
  return [];
}

export function nodeAdvice(pathNode: string | undefined, nodes: { node: string; status?: string }[]): string[] {
  if (nodes.length === 0) return [];
  const list = nodes.map((n) => `${n.node}${n.status ? ` (${n.status})` : ""}`).join(", ");
  const caseMatch = pathNode
    ? nodes.find((n) => n.node !== pathNode && n.node.toLowerCase() === pathNode.toLowerCase())
    : undefined;
  return [
    `This cluster's nodes: ${list}.${caseMatch ? ` Node names are case-sensitive: use '${caseMatch.node}', not '${pathNode}'.` : ""}`,
  ];
}

const NODE_PROBLEM = /hostname lookup '[^']*' failed|no such node|node '[^']*' does not exist/i;

function isNodeProblem(error: ProxmoxHttpError): boolean {
  return error.status === 595 || error.status === 596 || NODE_PROBLEM.test(`${error.reason}\n${error.detail}`);
}

async function clusterNodes(
  client: ProxmoxClient,
  signal: AbortSignal | undefined,
): Promise<{ node: string; status?: string }[]> {
  try {
    const data = await client.getData("/nodes", {}, signal, "advice");
    return Array.isArray(data)
      ? data.filter((n): n is { node: string; status?: string } => typeof n?.node === "string")
      : [];
  } catch {
    return [];
  }
}

/**
 * Hints that turn a failed call into a next step, from the catalog and (for node problems)
 * one GET /nodes. Bounded in time; any failure here just means fewer hints.
 */
export async function adviseFailure(error: unknown, call: FailedCall, sources: AdviceSources): Promise<string[]> {
  if (!(error instanceof ProxmoxHttpError)) return [];
  const budget = withDeadline(call.signal, ADVICE_BUDGET_MS);
  try {
    if (isNodeProblem(error)) {
      return nodeAdvice(nodeOfPath(call.path), await clusterNodes(sources.client, budget.signal));
    }
    if (![400, 403, 500, 501].includes(error.status)) return [];
    const catalog = await sources.catalog(budget.signal);
    if (!catalog) return [];
    const endpoint = catalog.lookup(call.method, call.path)?.endpoint;
    switch (error.status) {
      case 403:
        return endpoint ? forbiddenAdvice(endpoint) : [];
      case 400:
        return endpoint ? badRequestAdvice(endpoint) : [];
      case 501: {
        if (!/not implemented/i.test(`${error.reason}\n${error.detail}`)) return [];
        const advice = notImplementedAdvice(catalog, call.method, call.path);
        const node = nodeOfPath(call.path);
        if (!endpoint || node === undefined) return advice;
        return [...advice, ...nodeAdvice(node, await clusterNodes(sources.client, call.signal))];
      }
      default:
        return /does not exist/i.test(`${error.reason}\n${error.detail}`) ? listingAdvice(catalog, call.path) : [];
    }
  } catch {
    return [];
  } finally {
    budget.done();
  }
}
