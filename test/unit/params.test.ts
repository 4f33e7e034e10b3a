import { describe, expect, test } from "bun:test";
import { LocalRefusal } from "../../src/proxmox/errors.ts";
import { checkFormSize, encodeParams, MAX_FORM_BYTES, normalizeParameters } from "../../src/proxmox/params.ts";

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
    expect(normalizeParameters({ vmid: 100, force: true, vms: [1, 2] })).toEqual({ vmid: 100, force: true, vms: [1, 2] });
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
