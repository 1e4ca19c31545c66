// The hosts this service answers under, which a destination submitted through the API (create,
// edit, import) or a webhook's receiver must not name (the rules themselves: src/ops/links/deps.ts).

import { networkInterfaces } from "node:os";
import type { Config } from "../config.ts";
import { ownHosts, type PeerServer } from "./request-origin.ts";
import type { DomainDirectory } from "../domains/directory.ts";

type Deps = { config: Pick<Config, "host" | "port">; directory?: DomainDirectory };

/**
 * The hosts this service is reached under, which a destination must not name (an operation's
 * `ownHosts`): every configured domain's too, or a link on one could lead to itself
 * (docs/api.md: Links on several domains).
 */
export function ownHostsOf(deps: Deps, base: string, request: Request, server: PeerServer): string[] {
  const port = (server as { port?: number } | null | undefined)?.port ?? deps.config.port;
  const domains = deps.directory?.configured ? deps.directory.all().flatMap((d) => (d.name === null ? [] : [d.name])) : [];
  return [...ownHosts(base, request), ...domains, ...listeningHosts(deps.config.host, port)];
}

// The service is also its own listening address: on 0.0.0.0 (or ::) every address of this
// machine, with the port. Interfaces change rarely (DHCP, VPN): read again after a minute.
let cached: { at: number; key: string; hosts: string[] } | null = null;

/** Loopback stands in when the interfaces cannot be read (below); the base URL and Host still count. */
const LOOPBACK = ["127.0.0.1", "::1"];

export function listeningHosts(host: string, port: number, interfaces: () => ReturnType<typeof networkInterfaces> = networkInterfaces): string[] {
  const key = `${host} ${port}`;
  if (cached !== null && cached.key === key && Date.now() - cached.at < 60_000) return cached.hosts;
  const bracket = (address: string) => (address.includes(":") ? `[${address}]` : address);
  const wildcard = host === "0.0.0.0" || host === "::" || host === "";
  const hosts = (wildcard ? interfaceAddresses(interfaces) : [host]).map((a) => `${bracket(a)}:${port}`);
  cached = { at: Date.now(), key, hosts };
  return hosts;
}

function interfaceAddresses(interfaces: () => ReturnType<typeof networkInterfaces>): string[] {
  try {
    return Object.values(interfaces()).flatMap((list) => (list ?? []).map((i) => i.address.replace(/%.*$/, "")));
  } catch {
    // getifaddrs() needs a netlink socket, which a sandbox may forbid (systemd's
    // RestrictAddressFamilies without AF_NETLINK): a create must not become a 500 for that.
    return LOOPBACK;
  }
}

/** For tests: forget the last reading. */
export function forgetListeningHosts(): void {
  cached = null;
}
