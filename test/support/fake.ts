// One fake Proxmox per test file: started when the file loads, stopped after its tests, its
// request log cleared after each test so a test sees only the requests it caused.
import { afterAll, afterEach } from "bun:test";
import { FakeProxmox } from "../fake/pve-fake.ts";

export async function fakeForFile(options?: Parameters<typeof FakeProxmox.start>[0]): Promise<FakeProxmox> {
  const fake = await FakeProxmox.start(options);
  afterEach(() => {
    fake.requests.length = 0;
  });
  afterAll(() => fake.stop());
  return fake;
}
