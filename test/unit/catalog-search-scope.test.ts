// Table tests of where a query is about (src/catalog/search-scope.ts): a node, the whole cluster,
// one guest or all of them.
import { describe, expect, test } from "bun:test";
import { scopeOf, type ScopeFacts } from "../../src/catalog/search-scope.ts";
import { words } from "../../src/catalog/text.ts";

const scope = (query: string, hostByName = false): ScopeFacts => {
  const raw = words(query.toLowerCase());
  return scopeOf(raw, raw, hostByName);
};

describe("scopeOf: a node or the whole cluster", () => {
  test.each([
    // [query, namesNode, namesCluster]
    ["reboot the host", true, false],
    ["list the tasks of one node", true, false],
    ["show the cluster status", false, true],
    ["enable the firewall for the whole data center", false, true],
    ["list recent tasks across all nodes", false, true],
    ["block the address on every host", false, true],
    // Free choice: what holds on any node holds on all of them.
    ["which tasks failed on any node", false, true],
    ["let VMs use the GPU on whichever node they run", false, true],
    ["list the tasks from any node", false, true],
    // A node something goes to is the target, not the scope; all nodes are every node still.
    ["migrate VM 100 to node pve2", false, false],
    ["move the guests to another host", false, false],
    ["migrate VM 100 to any node", false, false],
    ["migrate VM 100 to any other node", false, false],
    ["push the config to all nodes", false, true],
    // Both said: neither is preferred.
    ["show the nodes of the cluster", true, true],
  ])("%s: node %p, cluster %p", (query, node, cluster) => {
    const facts = scope(query);
    expect(facts.namesNode).toBe(node);
    expect(facts.namesCluster).toBe(cluster);
  });

  test("a host named by its name names a node", () => {
    expect(scope("show the syslog", true).namesNode).toBe(true);
    expect(scope("show the syslog", false).namesNode).toBe(false);
  });
});

describe("scopeOf: guests", () => {
  test.each([
    // [query, namesGuest, guestIsPlace, asksForAll]
    ["stop VM 100", true, false, false],
    ["add a disk to VM 120", true, true, false],
    ["install docker in the container 101", true, true, false],
    ["stop all guests", false, false, true],
    ["list the vms", false, false, true],
    ["start guest 300", true, false, false],
    // One both sides know, by a determiner: one guest too. Not one of many, nor a kind.
    ["trim the VM's filesystems", true, false, false],
    ["reboot my container", true, false, false],
    ["create a VM", false, false, false],
    ["which VM uses the most memory", false, false, false],
    ["list the VMs", false, false, true],
    // A guest's word before a noun qualifies it: no one guest.
    ["ask the guest agent for the time", false, false, false],
    ["show me the VM inventory", false, false, false],
    ["move the VM to pve2", true, false, false],
  ])("%s: guest %p, place %p, all %p", (query, guest, place, all) => {
    const facts = scope(query);
    expect(facts.namesGuest).toBe(guest);
    expect(facts.guestIsPlace).toBe(place);
    expect(facts.asksForAll).toBe(all);
  });

  test.each([
    ["ping the guest agent of VM 100", true],
    ["is qga running", true],
    ["stop VM 100", false],
  ])("%s: agent %p", (query, agent) => {
    expect(scope(query).namesAgent).toBe(agent);
  });
});
