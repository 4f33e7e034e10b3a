// Issue 11: what a retired parameter or endpoint said, handed to what the schema names in its place.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { Catalog } from "../../src/catalog/catalog.ts";
import type { Endpoint } from "../../src/catalog/model.ts";
import { successorsNamed, successorTexts } from "../../src/catalog/successors.ts";
import { haveSharedData, SCHEMA_FILES } from "../support/shared.ts";

describe("successorsNamed: what a deprecation note names in its place", () => {
  test.each([
    [
      "collections, sharing their first word",
      "Deprecated: use notification targets/matchers instead. Specify when to send a notification mail",
      [{ words: ["notification", "targets"] }, { words: ["notification", "matchers"] }],
    ],
    ["in favour of", "Create a new HA group. (deprecated in favor of HA rules)", [{ words: ["ha", "rules"] }]],
    [
      "a path",
      "Retrieve the terms of service. Deprecated, please use /cluster/acme/meta.",
      [{ path: "/cluster/acme/meta" }],
    ],
    [
      "a quoted call, its query left out",
      "Update pool data (deprecated, no support for nested pools - use 'PUT /pools/?poolid={poolid}' instead).",
      [{ path: "/pools" }],
    ],
    [
      "a quoted parameter of the same endpoint",
      "Deprecated: use 'prune-backups' instead. Maximal number of backup files.",
      [],
    ],
    ["a quoted property", "Deprecated, use the 'migration' property instead!", []],
    ["a value deprecated, not the parameter", "Specify guest boot order. Usage with 'legacy=' is deprecated.", []],
    ["no note", "Create a new HA rule.", []],
    ["no description", undefined, []],
  ])("%s", (_name, description, expected) => {
    expect(successorsNamed(description)).toEqual(expected);
  });
});

describe("successorTexts: the heir takes the words of what it replaces", () => {
  const endpoint = (method: string, path: string, description: string, parameters: Record<string, unknown> = {}) =>
    ({ method, path, name: "x", description, parameters }) as unknown as Endpoint;
  const retired = "Deprecated: use notification matchers instead. Specify when to send a notification mail";
  const endpoints = [
    endpoint("POST", "/cluster/backup", "Create new vzdump backup job.", {
      mailnotification: { type: "string", enum: ["always", "failure"], description: retired },
      schedule: { type: "string", description: "Backup schedule." },
    }),
    endpoint("PUT", "/cluster/backup/{id}", "Update vzdump backup job definition.", {
      id: { type: "string", description: "The job ID." },
      mailnotification: { type: "string", enum: ["always", "failure"], description: retired },
    }),
    endpoint("GET", "/cluster/notifications/matchers", "Returns a list of all matchers."),
    endpoint("POST", "/cluster/notifications/matchers", "Create a new matcher.", {
      name: { type: "string", description: "Name of the matcher." },
    }),
    endpoint("PUT", "/cluster/notifications/matchers/{name}", "Update a matcher.", {
      name: { type: "string", description: "Name of the matcher." },
    }),
    endpoint("POST", "/cluster/ha/groups", "Create a new HA group. (deprecated in favor of the HA rules)", {
      group: { type: "string", description: "The HA group identifier." },
      nodes: { type: "string", description: "List of cluster node names with optional priority." },
      nofailback: {
        type: "boolean",
        description: "The CRM migrates the service back. Enabling nofailback prevents that.",
      },
    }),
    endpoint("POST", "/cluster/ha/rules", "Create HA rule.", {
      nodes: { type: "string", description: "List of cluster node names with optional priority." },
    }),
    // Named "rules" too, but not below "ha".
    endpoint("POST", "/cluster/firewall/rules", "Create new rule."),
  ];
  const texts = successorTexts(endpoints);

  test("a retired parameter: its description without the note, its values, and what its endpoint is", () => {
    expect(texts[3]).toEqual([
      "Specify when to send a notification mail",
      "always",
      "failure",
      "Create new vzdump backup job.",
    ]);
  });

  test("an update hands on to the update of the successor's items", () => {
    expect(texts[4]).toContain("Update vzdump backup job definition.");
    // Its path's placeholder is no setting of the job.
    expect(texts[4]).not.toContain("The job ID.");
  });

  test("a retired endpoint hands on the parameters its heir does not take itself, without their names (not those in its texts)", () => {
    expect(texts[6]).toEqual([
      "The HA group identifier.",
      "The CRM migrates the service back. Enabling nofailback prevents that.",
    ]);
  });

  test("nothing else inherits: not the owners, no read, no list of another parent named alike", () => {
    expect([texts[0], texts[1], texts[2], texts[5], texts[7]]).toEqual([[], [], [], [], []]);
  });
});

describe("successors on PVE 9.1", () => {
  const present = haveSharedData("successors on PVE 9.1", SCHEMA_FILES["9.1"].file);
  const catalog = present
    ? Catalog.fromText(readFileSync(SCHEMA_FILES["9.1"].file, "utf8"), { kind: "inline", location: "9.1" })
    : undefined;

  test.skipIf(!present)("the backup jobs' mail settings go to the notification matchers, HA groups to HA rules", () => {
    const texts = successorTexts(catalog!.endpoints);
    const of = (method: string, path: string) =>
      texts[catalog!.endpoints.findIndex((e) => e.method === method && e.path === path)]!;
    expect(of("POST", "/cluster/notifications/matchers")).toEqual(
      expect.arrayContaining([
        "Specify when to send a notification mail",
        "failure",
        "Comma-separated list of email addresses or users that should receive email notifications.",
        "Create new vzdump backup job.",
      ]),
    );
    expect(of("POST", "/cluster/ha/rules")).toEqual(
      expect.arrayContaining(["Resources bound to restricted groups may only run on nodes defined by the group."]),
    );
    expect(of("POST", "/cluster/backup")).toEqual([]);
    // The targets take no write, so the matchers take the whole note, recipients included: the
    // schema names no better heir for `mailto` (the sendmail and SMTP targets' own `mailto` is
    // theirs already).
    expect(of("POST", "/cluster/notifications/matchers")).toContain(
      "Comma-separated list of email addresses or users that should receive email notifications.",
    );
  });

  test.skipIf(!present)("mail about failed backups is a notification matcher, without docs too", () => {
    const top = catalog!
      .search("send failure notifications of backups to the storage admins' mail target", { limit: 5 })
      .hits.map((h) => `${h.method} ${h.path}`);
    expect(top).toContain("POST /cluster/notifications/matchers");
  });
});
