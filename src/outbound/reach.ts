// Where an outbound request may go (docs/security.md: Security, "Outbound requests"): a special-purpose
// address (special-addresses.ts) only with the operator's leave, given by a flag of the feature
// (--webhook-allow-private, --import-allow-private, --fetch-titles any; the command-line importer has it always).
// A written address is judged as soon as it is given; a name when it is resolved, each of its
// addresses, and the connection then goes to the address that was checked (pinned-fetch.ts, or a
// database client given that address), so that a name answering otherwise the second time (DNS
// rebinding) cannot lead it elsewhere.

import { lookup } from "node:dns/promises";
import { ipFamily } from "../visits/ip-family.ts";
import { describeSpecial, specialAddress } from "./special-addresses.ts";

/** Whether special-purpose addresses may be reached, and the flag that allows them (named in refusals). */
export type OutboundPolicy = { allowSpecial: boolean; flag: string | null };

/** The operator's own commands on the host (`shortener import`): they reach what the host reaches. */
export const OPERATOR_REACH: OutboundPolicy = { allowSpecial: true, flag: null };

/** All the addresses of a name (getaddrinfo: /etc/hosts, then DNS). */
export type Resolve = (name: string) => Promise<string[]>;

const LOOKUP_TIMEOUT_MS = 5_000;

/** A special-purpose address without the leave to reach it: written, or what a name resolved to. */
export class OutboundRefused extends Error {}

/** A name that did not resolve (in time, or at all). */
export class OutboundUnresolved extends Error {}

/** The refusal of a written host before anything is resolved: an IP literal that is special-purpose; null for a name or a public address. */
export function writtenHostRefusal(host: string, policy: OutboundPolicy): string | null {
  if (policy.allowSpecial) return null;
  const bare = host.replace(/^\[|\]$/g, "");
  const special = specialAddress(bare);
  return special === null ? null : `${bare} is ${describeSpecial(special)}${leave(policy)}`;
}

/**
 * The address to connect to for `host`: itself when it is an IP address, else the first address
 * the name resolves to, within 5 s. Every address is checked (the client could be sent to any).
 * Throws OutboundRefused or OutboundUnresolved.
 */
export async function reachableAddress(host: string, policy: OutboundPolicy, resolve: Resolve = resolveAll): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, "");
  const written = writtenHostRefusal(bare, policy);
  if (written !== null) throw new OutboundRefused(written);
  if (ipFamily(bare)) return bare;
  let addresses: string[];
  try {
    addresses = await withTimeout(resolve(bare), LOOKUP_TIMEOUT_MS);
  } catch (err) {
    throw new OutboundUnresolved(`${bare} cannot be resolved (${err instanceof Error ? err.message : String(err)})`);
  }
  if (addresses.length === 0) throw new OutboundUnresolved(`${bare} cannot be resolved (no address)`);
  if (!policy.allowSpecial) {
    for (const address of addresses) {
      const special = specialAddress(address);
      if (special !== null) throw new OutboundRefused(`${bare} resolves to ${address}, ${describeSpecial(special)}${leave(policy)}`);
    }
  }
  return addresses[0]!;
}

async function resolveAll(name: string): Promise<string[]> {
  return (await lookup(name, { all: true })).map((a) => a.address);
}

function leave(policy: OutboundPolicy): string {
  return policy.flag === null ? "" : `; reached only with ${policy.flag}`;
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
