import { describe, expect, test } from "bun:test";
import { LocalRefusal } from "../../src/proxmox/errors.ts";
import { readFileSync } from "node:fs";
import { z } from "zod";
import {
  checkFormSize,
  encodeParams,
  keepProtoKey,
  MAX_FORM_BYTES,
  normalizeParameters,
  PROTO_KEY_MARKER,
  receivedParams,
  type Params,
} from "../../src/proxmox/params.ts";
import { haveSharedData, SCHEMA_FILES } from "../support/shared.ts";

function refusal(fn: () => unknown): LocalRefusal {
  try {
    fn();
  } catch (e) {
    if (e instanceof LocalRefusal) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("encodeParams", () => {
  test.each([
    [{}, ""],
    [{ vmid: 100 }, "vmid=100"],
    [{ force: true, purge: false }, "force=1&purge=0"],
    [{ net0: "virtio,bridge=vmbr0,firewall=1" }, "net0=virtio%2Cbridge%3Dvmbr0%2Cfirewall%3D1"],
    [{ description: "a b&c=d+e" }, "description=a%20b%26c%3Dd%2Be"],
    [{ vms: [100, 101] }, "vms=100&vms=101"],
    [{ "checksum-algorithm": "sha256" }, "checksum-algorithm=sha256"],
    [{ flags: [true, "x"] }, "flags=1&flags=x"],
    [{ name: "é" }, "name=%C3%A9"],
  ])("%j -> %s", (params, expected) => {
    expect(encodeParams(params)).toBe(expected);
  });
});

describe("normalizeParameters", () => {
  test("undefined is no parameters", () => {
    expect(normalizeParameters(undefined)).toEqual({});
  });
  test("an object passes through", () => {
    expect(normalizeParameters({ vmid: 100, force: true, vms: [1, 2] })).toEqual({
      vmid: 100,
      force: true,
      vms: [1, 2],
    });
  });
  test.each([
    ["not json", "must be an object"],
    ["[1,2]", "must be an object"],
    ["null", "must be an object"],
    ['"text"', "must be an object"],
    [42, "must be an object"],
    [[1], "must be an object"],
    [{ net0: { model: "virtio" } }, "property strings are plain strings"],
    [{ vmid: null }, "is null"],
    [{ vms: [1, null] }, "is null"],
    [{ vms: [[1]] }, "is an object"],
    [{ n: Number.NaN }, "not a finite number"],
    [{ n: Number.POSITIVE_INFINITY }, "not a finite number"],
  ])("refuses %j", (input, why) => {
    const error = refusal(() => normalizeParameters(input));
    expect(error.code).toBe("invalid_parameters");
    expect(error.message).toContain(why);
  });
});

describe("checkFormSize", () => {
  test("512 KiB passes, one byte more is refused", () => {
    expect(() => checkFormSize("x".repeat(MAX_FORM_BYTES))).not.toThrow();
    expect(refusal(() => checkFormSize("x".repeat(MAX_FORM_BYTES + 1))).code).toBe("request_too_large");
  });
  test("counts bytes, not characters", () => {
    expect(refusal(() => checkFormSize("é".repeat(MAX_FORM_BYTES / 2 + 1))).code).toBe("request_too_large");
  });
});

describe("names of JavaScript object internals", () => {
  test.each([
    ['{"__proto__": {"vmid": 100}, "vmid": 101}', "__proto__"],
    ['{"__proto__": "x"}', "__proto__"],
    ['{"constructor": 1}', "constructor"],
    ['{"prototype": "a"}', "prototype"],
  ])("an own key from JSON.parse is refused by name: %s", (json, name) => {
    const error = refusal(() => normalizeParameters(JSON.parse(json)));
    expect(error.code).toBe("invalid_parameters");
    expect(error.message).toStartWith(`parameter '${name}' is refused: it names a JavaScript object internal`);
  });

  test("zod drops an own __proto__ key; keepProtoKey renames it first so it is refused, not lost", () => {
    const raw = JSON.parse('{"__proto__": {"vmid": 100}, "vmid": 101}') as Record<string, unknown>;
    const copied = z.looseObject({}).parse(raw);
    expect(Object.keys(copied)).toEqual(["vmid"]);
    const kept = z.looseObject({}).parse(keepProtoKey(raw));
    expect(Object.keys(kept)).toEqual([PROTO_KEY_MARKER, "vmid"]);
    expect(refusal(() => normalizeParameters(kept)).message).toContain("parameter '__proto__' is refused");
  });

  test("keepProtoKey leaves everything else alone", () => {
    const plain = { vmid: 100 };
    expect(keepProtoKey(plain)).toBe(plain);
    expect(keepProtoKey("text")).toBe("text");
    expect(keepProtoKey(null)).toBeNull();
  });

  test.skipIf(!haveSharedData("reserved parameter names against the PVE 9.1 schema"))(
    "no Proxmox parameter has one of these names",
    () => {
      const text = readFileSync(SCHEMA_FILES["9.1"].file, "utf8");
      for (const name of ["__proto__", "constructor", "prototype"]) expect(text).not.toContain(`"${name}"`);
    },
  );
});

describe("receivedParams: what pve-http-server's decode_urlencoded makes of encodeParams' output", () => {
  test.each([
    [{ vmid: "" }, {}],
    [{ vmid: 100, all: "" }, { vmid: 100 }],
    [{ vms: ["101", ""] }, {}],
    [{ vms: ["", "101"] }, { vms: ["101"] }],
    [{ vms: ["101", "", "102", "103"] }, { vms: ["102", "103"] }],
    [{ vms: [] }, {}],
    [
      { flag: false, n: 0, text: " " },
      { flag: false, n: 0, text: " " },
    ],
  ] as [Params, Params][])("%j -> %j", (params, expected) => {
    expect(receivedParams(params)).toEqual(expected);
  });
});
