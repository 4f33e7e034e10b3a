import { describe, expect, test } from "bun:test";
import { judgeExitStatus, pollDelay } from "../../src/tasks/outcome.ts";
import { parseUpid, taskPath } from "../../src/tasks/upid.ts";

describe("parseUpid", () => {
  test("a UPID from a user", () => {
    expect(parseUpid("UPID:pve1:00010D94:001CA6EA:6124E1B9:vzdump:100:root@pam:")).toEqual({
      upid: "UPID:pve1:00010D94:001CA6EA:6124E1B9:vzdump:100:root@pam:",
      node: "pve1",
      pid: 0x10d94,
      pstart: 0x1ca6ea,
      starttime: 0x6124e1b9,
      type: "vzdump",
      id: "100",
      user: "root@pam",
    });
  });
  test("a UPID from a token, with a 9-digit pstart", () => {
    const upid = parseUpid("UPID:optiplex2:000137B5:1112EB4AB:6991F9E1:vzcreate:300:root@pam!opentofu:");
    expect(upid?.node).toBe("optiplex2");
    expect(upid?.user).toBe("root@pam!opentofu");
    expect(upid?.type).toBe("vzcreate");
  });
  test("an empty id", () => {
    expect(parseUpid("UPID:pve:00000001:00000002:6124E1B9:imgcopy::mcp@pve!t:")?.id).toBe("");
  });
  test.each([
    null,
    42,
    "",
    "UPID:pve1",
    "upid:pve1:00010D94:001CA6EA:6124E1B9:vzdump:100:root@pam:",
    "UPID:pve1:00010D94:001CA6EA:6124E1B9:vzdump:100:root@pam",
    "UPID:pve1:XYZ:001CA6EA:6124E1B9:vzdump:100:root@pam:",
    "task submitted",
  ])("not a UPID: %j", (value) => {
    expect(parseUpid(value)).toBeUndefined();
  });
  test("the status path uses the node inside the UPID and keeps the UPID readable", () => {
    const upid = parseUpid("UPID:pve2:00010D94:001CA6EA:6124E1B9:qmigrate:100:root@pam:")!;
    expect(taskPath(upid, "status")).toBe(
      "/nodes/pve2/tasks/UPID:pve2:00010D94:001CA6EA:6124E1B9:qmigrate:100:root@pam:/status",
    );
  });
});

describe("judgeExitStatus", () => {
  test.each([
    ["OK", { ok: true }],
    ["WARNINGS: 1", { ok: true, warnings: 1 }],
    ["WARNINGS: 12", { ok: true, warnings: 12 }],
    ["command 'qm start 100' failed: exit code 1", { ok: false }],
    ["unexpected status", { ok: false }],
    [undefined, { ok: false }],
  ])("%j", (exitstatus, expected) => {
    expect(judgeExitStatus(exitstatus)).toEqual(expected);
  });
});

test("pollDelay backs off and is capped", () => {
  expect([0, 1, 2, 3, 4, 5, 6, 40].map((a) => pollDelay(a, 250, 5000))).toEqual([
    250, 500, 1000, 2000, 4000, 5000, 5000, 5000,
  ]);
});
