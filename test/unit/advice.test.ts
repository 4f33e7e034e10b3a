import { describe, expect, test } from "bun:test";
import {
  badRequestAdvice,
  forbiddenAdvice,
  listingAdvice,
  nodeAdvice,
  notImplementedAdvice,
} from "../../src/advice/advise.ts";
import { acceptedParameters, prepareParams } from "../../src/advice/parameters.ts";
import { Catalog } from "../../src/catalog/catalog.ts";
import { MINI_APIDOC_JS } from "../fixtures/mini-schema.ts";

const catalog = Catalog.fromText(MINI_APIDOC_JS, { kind: "inline", location: "mini-schema" });
const endpoint = (method: string, path: string) => catalog.endpoint(method, path)!;

describe("403 advice", () => {
  test("names the privilege and the ACL path from the schema", () => {
    expect(forbiddenAdvice(endpoint("POST", "/nodes/{node}/qemu/{vmid}/status/start"))).toEqual([
      "POST /nodes/{node}/qemu/{vmid}/status/start needs VM.PowerMgmt on /vms/{vmid}.",
    ]);
  });
  test("says when any of several privileges is enough", () => {
    expect(forbiddenAdvice(endpoint("POST", "/nodes/{node}/qemu/{vmid}/config"))[0]).toContain(
      "any of VM.Config.Memory, VM.Config.Network on /vms/{vmid}",
    );
  });
  test("an endpoint with allowtoken 0 is one no token can call", () => {
    const hints = forbiddenAdvice(endpoint("PUT", "/access/password"));
    expect(hints[0]).toContain("refuses API tokens");
    expect(hints[0]).toContain("no token can call it");
  });
});

describe("400 advice", () => {
  test("lists the accepted parameters with types (the rejected ones are in the error's own text)", () => {
    expect(badRequestAdvice(endpoint("POST", "/nodes/{node}/qemu/{vmid}/status/start"))).toEqual([
      "POST /nodes/{node}/qemu/{vmid}/status/start accepts: timeout (integer).",
    ]);
  });
  test("accepted parameters mark the required ones and skip path placeholders", () => {
    expect(acceptedParameters(endpoint("PUT", "/access/password").parameters, [])).toBe(
      "userid (string, required), password (string, required)",
    );
  });
});

describe("501 advice", () => {
  test("an unknown path gets up to three closest endpoints with their methods", () => {
    const [hint] = notImplementedAdvice(catalog, "POST", "/nodes/pve1/qemu/100/status/shutdownn");
    expect(hint).toStartWith("Closest existing endpoints: ");
    expect(hint).toContain("POST /nodes/{node}/qemu/{vmid}/status/stop");
    expect(hint!.split(", ").length).toBe(3);
  });
  test("a known path with the wrong method names the methods it takes", () => {
    expect(notImplementedAdvice(catalog, "PUT", "/nodes/pve1/qemu/100/status/start")).toEqual([
      "/nodes/{node}/qemu/{vmid}/status/start exists, but not with PUT; it takes POST.",
    ]);
  });
});

describe("missing objects and nodes", () => {
  test("does not exist: list the parent collection, with the path's own values", () => {
    expect(listingAdvice(catalog, "/nodes/pve1/qemu/999/config")).toEqual([
      "List what exists with GET /nodes/pve1/qemu/999.",
    ]);
  });
  test("node advice lists the real nodes and catches a case mistake", () => {
    expect(
      nodeAdvice("PVE1", [
        { node: "pve1", status: "online" },
        { node: "pve2", status: "offline" },
      ]),
    ).toEqual([
      "This cluster's nodes: pve1 (online), pve2 (offline). Node names are case-sensitive: use 'pve1', not 'PVE1'.",
    ]);
    expect(nodeAdvice("ghost", [{ node: "pve1" }])).toEqual(["This cluster's nodes: pve1."]);
    expect(nodeAdvice("x", [])).toEqual([]);
  });
});

describe("prepareParams", () => {
  const config = endpoint("POST", "/nodes/{node}/qemu/{vmid}/config");
  test("'true'/'false' for a boolean parameter become booleans (sent as 1/0)", () => {
    const prepared = prepareParams(
      { onboot: "true", memory: "true" },
      config.parameters,
      ["node", "vmid"],
      "POST /nodes/{node}/qemu/{vmid}/config",
    );
    expect(prepared.params).toEqual({ onboot: true, memory: "true" });
    expect(prepared.warnings).toEqual([]);
  });
  test("unknown names produce a warning and are still sent", () => {
    const prepared = prepareParams(
      { memroy: 2048, onboot: "false" },
      config.parameters,
      ["node", "vmid"],
      "POST /nodes/{node}/qemu/{vmid}/config",
    );
    expect(prepared.params).toEqual({ memroy: 2048, onboot: false });
    expect(prepared.warnings[0]).toContain("'memroy'");
    expect(prepared.warnings[0]).toContain("memory (");
  });
});
