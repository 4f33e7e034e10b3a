// Issue 11: a parameter's run-together name spelled out by its own description.
import { describe, expect, test } from "bun:test";
import type { Endpoint } from "../../src/catalog/model.ts";
import { isDeprecated } from "../../src/catalog/model.ts";
import { buildSearchIndex } from "../../src/catalog/search.ts";
import { PARAM_NAMED, spelledOut } from "../../src/catalog/search-params.ts";

describe("spelledOut: the words a run-together name abbreviates, as its description spells them", () => {
  test.each<[string, string, string[] | undefined]>([
    ["macaddr", "MAC address. That address must be unique within your network.", ["mac", "address"]],
    ["vmgenid", "Set VM Generation ID. Use '1' to autogenerate on create or update.", ["vm", "generation", "id"]],
    ["autostart", "Automatically start the guest.", ["automatically", "start"]],
    ["nodeid", "Node id for this node.", ["node", "id"]],
    // A leading piece must be long enough to stand for its word: "pa" + "th" is no "pass through".
    ["path", "Pass through the device.", undefined],
    // One word is no abbreviation of several; a name its description does not spell stays as it is.
    ["memory", "Memory properties.", undefined],
    ["onboot", "Specifies whether a VM will be started during system bootup.", undefined],
    // Only plain lower-case names.
    ["net[n]", "Specify network devices.", undefined],
  ])("%s, %j -> %j", (name, description, words) => {
    expect(spelledOut(name, description)).toEqual(words);
  });
});

describe("which parameters are documents of their own", () => {
  const endpoint = (method: string, path: string, parameters: Record<string, unknown>) =>
    ({ method, path, name: "x", description: "", parameters }) as unknown as Endpoint;
  const index = buildSearchIndex([
    endpoint("POST", "/pools", {
      poolid: { type: "string" },
      comment: { type: "string", description: "A note." },
    }),
    endpoint("GET", "/pools/{poolid}", { poolid: { type: "string" } }),
    endpoint("POST", "/nodes/{node}/ceph/pool", {
      node: { type: "string" },
      name: { type: "string", description: "The name of the pool." },
      size: { type: "integer", description: "Number of replicas per object" },
    }),
    endpoint("GET", "/nodes/{node}/ceph/pool/{name}", { node: { type: "string" }, name: { type: "string" } }),
    endpoint("POST", "/cluster/backup", {
      mailto: {
        type: "string",
        description: "Deprecated: Use notification targets/matchers instead. Email addresses.",
      },
      "notes-template": { type: "string", description: "Template for notes." },
    }),
  ]);

  test("the key of the item a POST adds names it: no setting (poolid, the Ceph pool's name)", () => {
    expect(index.params.names).not.toContain("poolid");
    expect(index.params.names).not.toContain("name");
    expect(index.params.names).toContain("comment");
    expect(index.params.names).toContain("size");
  });

  test("a retired parameter is no intent, and its words are not the endpoint's", () => {
    expect(index.params.names).not.toContain("mailto");
    expect(index.params.names).toContain("notes-template");
    expect(index.postings.get("email")).toBeUndefined();
  });
});

describe("isDeprecated: a parameter retired by its description, not one of its values", () => {
  test.each<[string | undefined, boolean]>([
    ["Deprecated: use notification targets/matchers instead. Specify when to send a notification mail", true],
    ["Defines the maximum number of tasks running concurrently. Deprecated, use 'max-workers' instead.", true],
    ["Create the directory if it doesn't exist. NOTE: Deprecated, use the 'create-base-path' option instead.", true],
    ["Get HA groups. (deprecated in favor of HA rules)", true],
    ["Specify guest boot order. Use the 'order=' sub-property as usage with no key or 'legacy=' is deprecated.", false],
    ["Select the default Console viewer: the builtin java applet (VNC; deprecated and maps to html5).", false],
    [undefined, false],
  ])("%s: %p", (description, retired) => {
    expect(isDeprecated(description)).toBe(retired);
  });
});

describe("values the docs define for a parameter name it, as enum values do", () => {
  const endpoint = (method: string, path: string, parameters: Record<string, unknown>) =>
    ({ method, path, name: "x", description: "", parameters }) as unknown as Endpoint;
  const endpoints = [
    endpoint("POST", "/cluster/firewall/rules", {
      macro: { type: "string", maxLength: 128, description: "Use predefined standard macro." },
      memory: { type: "integer", description: "Memory in MiB." },
    }),
    // A text, not a word: the file's content.
    endpoint("POST", "/nodes/{node}/qemu/{vmid}/agent/file-write", {
      content: { type: "string", maxLength: 61440, description: "The content to write into the file." },
    }),
    endpoint("POST", "/storage", { content: { type: "string", format: "pve-storage-content-list" } }),
    endpoint("GET", "/cluster/notifications/endpoints/smtp", {}),
  ];
  // pve-firewall(8)'s "Macro Definitions" define SSH, HTTPS, IPsec and SMTP for `macro`, pvesm(1)
  // defines the content types, and a definition list under `memory` holds the key "swap:".
  const index = buildSearchIndex(endpoints, {
    texts: endpoints.map(() => []),
    paramValues: new Map([
      ["macro", ["SSH", "HTTPS", "IPsec", "SMTP"]],
      ["content", ["iso", "backup"]],
      ["memory", ["swap:"]],
    ]),
  });
  const namedBy = (param: string, path: string, term: string) => {
    const doc = index.params.names.findIndex(
      (name, k) => name === param && index.endpoints[index.params.endpointOf[k]!]!.path === path,
    );
    const list = index.params.postings.get(term);
    const k = list?.ids.indexOf(doc) ?? -1;
    return k >= 0 ? list!.weights[k] : undefined;
  };

  test.each<[string, string, string, number | undefined]>([
    ["macro", "/cluster/firewall/rules", "ssh", PARAM_NAMED],
    ["macro", "/cluster/firewall/rules", "http", PARAM_NAMED], // HTTPS, stemmed
    ["macro", "/cluster/firewall/rules", "ipsec", PARAM_NAMED],
    // Not split into words it happens to hold.
    ["macro", "/cluster/firewall/rules", "sec", undefined],
    // "smtp" is what an API path ends in (the SMTP notification target): it is read as that.
    ["macro", "/cluster/firewall/rules", "smtp", undefined],
    ["content", "/storage", "iso", PARAM_NAMED],
    ["content", "/nodes/{node}/qemu/{vmid}/agent/file-write", "iso", undefined],
    // A key beside the parameter, not a value of it.
    ["memory", "/cluster/firewall/rules", "swap", undefined],
  ])("%s of %s, %s -> %p", (param, path, term, weight) => {
    expect(namedBy(param, path, term)).toBe(weight);
  });

  test("without docs, nothing names `macro` but its name", () => {
    const plain = buildSearchIndex(endpoints);
    const doc = plain.params.names.indexOf("macro");
    expect(plain.params.postings.get("ssh")?.ids.includes(doc) ?? false).toBe(false);
  });
});
