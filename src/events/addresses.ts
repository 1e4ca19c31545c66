// Where a webhook may post (README: Webhooks, "Where webhooks may post"): the same URL rules as a
// link's destination, and, unless --webhook-allow-private, no loopback, private or link-local
// address, neither written in the URL nor resolved from its name when sending (so that a webhook
// cannot be pointed at the service's own network by an admin key that leaked).

import { isIP } from "node:net";
import { checkUrl } from "../links/url-rules.ts";
import type { ErrorCode } from "../errors.ts";
import { URL_MESSAGES } from "../links/create.ts";

export type WebhookUrlRules = { ownHosts: readonly string[]; allowPrivate: boolean; isBlocked: (url: string) => boolean };

export function checkWebhookUrl(raw: unknown, rules: WebhookUrlRules): { ok: true; url: string } | { ok: false; code: ErrorCode; error: string } {
  if (typeof raw !== "string") return { ok: false, code: "url_invalid", error: "url must be a string" };
  // Loopback is judged below with the private ranges, under the webhook's own flag.
  const checked = checkUrl(raw, { ownHosts: rules.ownHosts, allowLocal: true });
  if (!checked.ok) return { ok: false, code: checked.problem, error: URL_MESSAGES[checked.problem] };
  if (rules.isBlocked(checked.url)) return { ok: false, code: "url_blocked", error: URL_MESSAGES.url_blocked };
  const host = new URL(checked.url).hostname.replace(/^\[|\]$/g, "");
  if (!rules.allowPrivate && (isPrivateAddress(host) || /(^|\.)(localhost|local|lan|internal|home\.arpa)$/i.test(host))) {
    return { ok: false, code: "url_private", error: "the webhook's URL is on a loopback or private network; allow it with --webhook-allow-private (README: Webhooks)" };
  }
  return checked;
}

/** Loopback, unspecified, private (RFC 1918, RFC 6598 shared, fc00::/7) and link-local addresses; false for a name. */
export function isPrivateAddress(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) return privateV4(address.split(".").map(Number) as [number, number, number, number]);
  if (kind !== 6) return false;
  const g = ipv6Groups(address);
  const embedded = (hi: number, lo: number): [number, number, number, number] => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 7) && g[7]! <= 1) return true; // :: and ::1, however many zeros are written
  // IPv4 inside IPv6, however it is written (the URL parser writes [::ffff:10.0.0.1] as [::ffff:a00:1]):
  // mapped ::ffff:a.b.c.d, SIIT ::ffff:0:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d, 6to4 2002:AABB:CCDD::.
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return privateV4(embedded(g[6]!, g[7]!));
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return privateV4(embedded(g[6]!, g[7]!));
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return privateV4(embedded(g[6]!, g[7]!));
  if (g[0] === 0x2002) return privateV4(embedded(g[1]!, g[2]!));
  // unique local fc00::/7, link-local fe80::/10, site-local fec0::/10 (deprecated, still routed inside), multicast ff00::/8
  return (g[0]! & 0xfe00) === 0xfc00 || (g[0]! & 0xffc0) === 0xfe80 || (g[0]! & 0xffc0) === 0xfec0 || (g[0]! & 0xff00) === 0xff00;
}

/** The eight 16-bit groups of an address isIP() calls IPv6 (a trailing a.b.c.d is the last two; a %zone is dropped). */
function ipv6Groups(address: string): number[] {
  let a = address.toLowerCase().replace(/%.*$/, "");
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (v4) {
    const [b0, b1, b2, b3] = v4.slice(1).map(Number) as [number, number, number, number];
    a = `${a.slice(0, v4.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const parse = (s: string | undefined) => (s ? s.split(":").map((x) => parseInt(x, 16)) : []);
  const [head, tail] = a.split("::");
  const h = parse(head);
  if (tail === undefined) return h;
  const t = parse(tail);
  return [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

/** Private, loopback, unspecified, link-local, shared (100.64/10), benchmarking (198.18/15), multicast and reserved (224/3). */
function privateV4([a, b]: [number, number, number, number]): boolean {
  return a === 10 || a === 127 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127)
    || (a === 198 && (b === 18 || b === 19)) || a >= 224;
}
