// The service's own addresses, for refusing links to itself (url_self). Under systemd's
// RestrictAddressFamilies without AF_NETLINK, getifaddrs() fails; that once made every create a 500.

import { afterEach, expect, test } from "bun:test";
import { forgetListeningHosts, listeningHosts } from "../../src/http/destination-rules.ts";

afterEach(() => forgetListeningHosts());

const lan = () => ({ eth0: [{ address: "192.168.1.5", netmask: "255.255.255.0", family: "IPv4" as const, mac: "00:00:00:00:00:00", internal: false, cidr: "192.168.1.5/24" }] });

test("on every address: each interface's address with the port", () => {
  expect(listeningHosts("0.0.0.0", 8080, lan)).toEqual(["192.168.1.5:8080"]);
});

test("on one address: that address only, the interfaces unread", () => {
  expect(listeningHosts("10.0.0.2", 8080, () => { throw new Error("must not be read"); })).toEqual(["10.0.0.2:8080"]);
});

test("interfaces that cannot be read (no netlink in a sandbox): loopback stands in, nothing throws", () => {
  const hosts = listeningHosts("0.0.0.0", 8080, () => { throw new Error("getifaddrs returned an error"); });
  expect(hosts).toEqual(["127.0.0.1:8080", "[::1]:8080"]);
});
