import { describe, expect, test } from "bun:test";
import { loadPolicyConfig } from "../../src/policy/config.ts";
import { expandBatch, PolicyGate } from "../../src/policy/gate.ts";
import { silentLogger } from "../../src/log.ts";
import type { WriteIntent } from "../../src/proxmox/client.ts";
import { LocalRefusal } from "../../src/proxmox/errors.ts";
import type { Params } from "../../src/proxmox/params.ts";

const PROTECTED = JSON.stringify({
  protected_vms: [
    { vmid: 100, name: "mcp-host", reason: "the VM this server runs in - do NOT touch", host: "pve1" },
    { vmid: 105, name: "dns", reason: "DNS for the office" },
  ],
});

function gate(env: Record<string, string> = {}, file = PROTECTED): PolicyGate {
  const policy = loadPolicyConfig({ PROXMOX_PROTECTED_VMS_FILE: "/etc/pve-mcp/protected.json", ...env });
  return new PolicyGate({ policy, log: silentLogger, redact: (t) => t, readFile: () => file });
}

function intent(method: "POST" | "PUT" | "DELETE", path: string, params: Params = {}): WriteIntent {
  return { tool: "proxmox_request", method, path, params };
}

function refusal(g: PolicyGate, i: WriteIntent): LocalRefusal {
  try {
    g.checkLocal(i);
  } catch (error) {
    if (error instanceof LocalRefusal) return error;
    throw error;
  }
  throw new Error(`${i.method} ${i.path} was not refused`);
}

describe("protected guests", () => {
  test("the refusal names the guest, how it was touched, and the reason verbatim", () => {
    const error = refusal(gate(), intent("POST", "/nodes/pve1/qemu/100/status/stop"));
    expect(error.code).toBe("refused_protected_guest");
    expect(error.message).toContain(
      "POST /nodes/pve1/qemu/100/status/stop refused: it touches protected guest 100 (mcp-host, host pve1) through the path (/qemu/100)",
    );
    expect(error.message).toContain("Reason: the VM this server runs in - do NOT touch");
    expect(error.message).toContain("/etc/pve-mcp/protected.json");
  });

  test("several protected guests are all named", () => {
    const error = refusal(gate(), intent("POST", "/cluster/bulk-action/guest/shutdown", { vms: [105, 100, 200] }));
    expect(error.message).toContain("protected guest 105 (dns) through parameter vms. Reason: DNS for the office");
    expect(error.message).toContain("protected guest 100 (mcp-host, host pve1) through parameter vms");
  });

  test("writes that touch other guests pass", () => {
    const g = gate();
    for (const i of [
      intent("POST", "/nodes/pve1/qemu/101/status/stop"),
      intent("POST", "/nodes/pve1/stopall", { vms: "101,102" }),
      intent("POST", "/nodes/pve1/vzdump", { all: 1, exclude: "100,105" }),
      intent("PUT", "/cluster/ha/resources/vm:101", { state: "stopped" }),
    ]) {
      expect(() => g.checkLocal(i)).not.toThrow();
    }
  });

  test("an all-guests action is refused unless its list leaves out every protected guest", () => {
    const error = refusal(gate(), intent("POST", "/nodes/pve2/suspendall"));
    expect(error.code).toBe("refused_protected_guest");
    expect(error.message).toContain(
      "suspendall on node pve2 would also touch protected guest 100 (mcp-host, host pve1). Reason: the VM this server runs in - do NOT touch; 105 (dns)",
    );
    expect(error.message).toContain("leave out 100,105");
    const partial = refusal(gate(), intent("POST", "/nodes/pve1/vzdump", { all: 1, exclude: "100" }));
    expect(partial.message).toContain("protected guest 105 (dns)");
    expect(partial.message).not.toContain("100 (mcp-host");
  });

  test("a malformed file refuses every write with the reason", () => {
    const g = gate({}, '{"protected_vms": [{"vmid": 100, "name": "x"}]}');
    for (const i of [
      intent("POST", "/nodes/pve1/qemu/101/status/start"),
      intent("PUT", "/cluster/options", { keyboard: "de" }),
    ]) {
      const error = refusal(g, i);
      expect(error.code).toBe("refused_protected_guest");
      expect(error.message).toContain(
        "the protected-guests file /etc/pve-mcp/protected.json (PROXMOX_PROTECTED_VMS_FILE) is unusable: protected_vms[0].reason must be a non-empty string",
      );
      expect(error.message).toContain("every write is refused");
    }
  });

  test("an empty list protects nothing", () => {
    expect(() => gate({}, '{"protected_vms": []}').checkLocal(intent("POST", "/nodes/pve1/stopall"))).not.toThrow();
  });
});

describe("rules", () => {
  test("a deny rule refuses and is quoted", () => {
    const error = refusal(gate({ PROXMOX_DENY: "DELETE /nodes/**" }), intent("DELETE", "/nodes/pve1/qemu/101"));
    expect(error.code).toBe("refused_rule");
    expect(error.message).toBe(
      "DELETE /nodes/pve1/qemu/101 refused by the rule 'DELETE /nodes/**' in PROXMOX_DENY. Ask the operator if this change is needed; the rule is theirs.",
    );
  });

  test("with an allow list, only matching writes pass", () => {
    const g = gate({ PROXMOX_ALLOW: "POST /nodes/*/qemu/*/status/start\nPOST /nodes/*/qemu/*/status/shutdown" });
    expect(() => g.checkLocal(intent("POST", "/nodes/pve1/qemu/101/status/start"))).not.toThrow();
    const error = refusal(g, intent("POST", "/nodes/pve1/qemu/101/status/stop"));
    expect(error.code).toBe("refused_rule");
    expect(error.message).toContain(
      "matches no rule in PROXMOX_ALLOW, which lets only these writes through: 'POST /nodes/*/qemu/*/status/start', 'POST /nodes/*/qemu/*/status/shutdown'",
    );
  });

  test("deny wins over allow; rules come before the protected-guest check", () => {
    const g = gate({ PROXMOX_ALLOW: "* /**", PROXMOX_DENY: "POST /nodes/*/qemu/*/status/stop" });
    expect(refusal(g, intent("POST", "/nodes/pve1/qemu/100/status/stop")).code).toBe("refused_rule");
    expect(refusal(g, intent("POST", "/nodes/pve1/qemu/100/status/start")).code).toBe("refused_protected_guest");
  });
});

describe("batches (POST /nodes/{node}/execute)", () => {
  const batch = (commands: unknown) =>
    intent("POST", "/nodes/pve1/execute", {
      commands: typeof commands === "string" ? commands : JSON.stringify(commands),
    });

  test("each command becomes a write of its own under the node; reads are dropped", () => {
    const expanded = expandBatch(
      batch([
        { method: "GET", path: "qemu/100/status/current" },
        { method: "post", path: "/qemu/100/status/stop", args: { timeout: 5 } },
        {
          method: "PUT",
          path: "lxc/101/config",
          args: { net0: "name=eth0,bridge=vmbr1,tag=3", list: [1, 2], odd: { a: 1 } },
        },
      ]),
    );
    expect(expanded.map((i) => `${i.method} ${i.path}`)).toEqual([
      "POST /nodes/pve1/execute",
      "POST /nodes/pve1/qemu/100/status/stop",
      "PUT /nodes/pve1/lxc/101/config",
    ]);
    expect(expanded[2]!.params).toEqual({ net0: "name=eth0,bridge=vmbr1,tag=3", list: [1, 2], odd: '{"a":1}' });
  });

  test("commands that cannot be read are refused", () => {
    for (const commands of [
      "not json",
      { method: "POST" },
      [null],
      [{ method: "PATCH", path: "x" }],
      [{ method: "POST", path: "x", args: [1] }],
    ]) {
      expect(() => expandBatch(batch(commands))).toThrow(/so the local policy cannot check them/);
    }
    expect(() => expandBatch(intent("POST", "/nodes/pve1/execute", {}))).toThrow(/not one JSON string/);
  });

  test("nested batches are followed, to a limit", () => {
    const inner = {
      method: "POST",
      path: "execute",
      args: { commands: JSON.stringify([{ method: "DELETE", path: "qemu/100" }]) },
    };
    expect(expandBatch(batch([inner])).map((i) => i.path)).toEqual([
      "/nodes/pve1/execute",
      "/nodes/pve1/execute",
      "/nodes/pve1/qemu/100",
    ]);
    let deep: unknown = [{ method: "DELETE", path: "qemu/100" }];
    for (let i = 0; i < 4; i++) deep = [{ method: "POST", path: "execute", args: { commands: JSON.stringify(deep) } }];
    expect(() => expandBatch(batch(deep))).toThrow(/nest batches too deeply/);
  });

  test("a command's path cannot climb out of the node", () => {
    expect(() => expandBatch(batch([{ method: "POST", path: "../../cluster/options" }]))).toThrow(
      /'\.' and '\.\.' segments/,
    );
  });
});
