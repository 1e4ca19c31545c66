// GET /<alias>/qr (docs/sharing.md: QR codes by URL): a link's short URL as a QR code, PNG or SVG.
// Whoever may read the link's statistics may have it (src/ops/stats/read.ts), on the link's own
// host or on the main domain with ?domain=. Not a click: nothing is recorded.

import type { Config } from "../config.ts";
import type { DomainDirectory } from "../domains/directory.ts";
import { linkKey } from "../domains/link-key.ts";
import { activityNow } from "../links/link.ts";
import { admitStatsReader, type StatsOpsDeps } from "../ops/stats/read.ts";
import { parseQrOptions, type QrOptions } from "../qr/options.ts";
import type { QrLogo } from "../qr/logo.ts";
import { qrEtag, qrHead, renderQr } from "../qr/render.ts";
import type { TrustedProxies } from "../visits/client-ip.ts";
import type { AuthDeps } from "./auth.ts";
import type { RateLimiter } from "./rate-limit.ts";
import { publicBase, requestClient, type PeerServer } from "./request-origin.ts";
import { apiError, badHost, linkNotFound, NOSNIFF } from "./responses.ts";
import { statsAsker } from "./stats.ts";
import { domainUnknown, linkBase, statsLinkKey } from "./stats-link.ts";

/** Drawings per client address and minute (304s and refusals are free): a 2048-pixel PNG is ~12 MB of pixels and a deflate on the main thread. */
export const QR_RENDERS_PER_MINUTE = 120;

export type QrDeps = AuthDeps &
  Pick<StatsOpsDeps, "links"> & {
    config: Pick<Config, "statsAccess" | "baseUrl">;
    directory: DomainDirectory;
    trusted: TrustedProxies;
    qrLogo: QrLogo | null;
    qrRenders: RateLimiter;
    now: () => number;
  };

export async function handleQr(request: Request, alias: string, server: PeerServer, deps: QrDeps): Promise<Response> {
  const options = parseQrOptions(new URL(request.url).searchParams, deps.qrLogo !== null);
  if (!("format" in options)) return apiError(400, "qr_invalid", options.message, options.field ?? undefined);
  // The link on ?domain=, else on the request's own domain, as its statistics are (src/http/stats-link.ts).
  const named = statsLinkKey(request, alias, deps.directory);
  if (named === "domain_unknown") return domainUnknown();
  const asker = statsAsker(request, server, deps);
  const admitted = await admitStatsReader(named.key, asker.ask, deps);
  // Under --stats-access key, a link its asker may not read looks like no link at all.
  if (admitted === "not_found" || admitted === "auth_required") return linkNotFound(alias);
  if (admitted === "refused") return asker.refusal("refused");
  const { link } = admitted;
  const activity = activityNow(link, deps.links.clicksAnswered(linkKey(link.domain, link.id)), deps.now());
  if (activity === "blocked") return apiError(410, "link_blocked", `the link "${link.id}" matches the blocklist: it has no QR code`, "id");
  const base = linkBase(named.domain, () => publicBase(deps.config, server, request, deps.trusted));
  if (base === null) return badHost();
  const shortUrl = `${base}/${link.id}`;
  // A poster is printed ahead: a disabled, expired or scheduled link's code is served, its state said.
  const headers: Record<string, string> = {
    ETag: qrEtag(shortUrl, options, deps.qrLogo),
    "Cache-Control": cacheControl(deps.config, named.domain.isDefault),
    "Link-Status": activity,
    ...NOSNIFF,
  };
  if (etagMatches(request.headers.get("if-none-match"), headers.ETag!)) return new Response(null, { status: 304, headers });
  // A HEAD is answered from the options: nothing drawn, no drawing spent.
  if (request.method === "HEAD") return undrawn(shortUrl, options, deps.qrLogo, headers);
  const verdict = deps.qrRenders.take(requestClient(server, request, deps.trusted), deps.now());
  if (!verdict.allowed) {
    const retry = String(verdict.retryAfterSeconds);
    return apiError(429, "rate_limited", `too many QR codes drawn for this address; try again in ${retry} s`, undefined, { "Retry-After": retry });
  }
  return drawn(shortUrl, options, deps.qrLogo, headers);
}

/**
 * Public statistics: a shared cache may keep the code, unless its URL comes from the request
 * (the default domain without --base-url: the Host, or a trusted proxy's X-Forwarded-Host), which
 * one cache must not hand to a request by another host. Under --stats-access key, the owner's only.
 */
function cacheControl(config: QrDeps["config"], onDefaultDomain: boolean): string {
  if (config.statsAccess !== "public") return "private, max-age=3600";
  return onDefaultDomain && !config.baseUrl ? "private, max-age=86400" : "public, max-age=86400";
}

function undrawn(shortUrl: string, options: QrOptions, logo: QrLogo | null, headers: Record<string, string>): Response {
  const head = qrHead(shortUrl, options, logo);
  if ("tooSmall" in head) return tooSmall(options, head.tooSmall);
  return new Response(null, { status: 200, headers: { ...headers, ...svgPolicy(options), "Content-Type": head.contentType } });
}

function tooSmall(options: QrOptions, least: number): Response {
  return apiError(400, "qr_invalid", `size ${options.size} is too small for this link's code: give at least ${least} (one pixel per module)`, "size");
}

/** An SVG opened on its own is a document of this origin: it may load nothing, run nothing. */
function svgPolicy(options: QrOptions): Record<string, string> {
  return options.format === "svg" ? { "Content-Security-Policy": "default-src 'none'; img-src data:; style-src 'unsafe-inline'" } : {};
}

function drawn(shortUrl: string, options: QrOptions, logo: QrLogo | null, headers: Record<string, string>): Response {
  const picture = renderQr(shortUrl, options, logo);
  if ("tooSmall" in picture) return tooSmall(options, picture.tooSmall);
  const body = typeof picture.body === "string" ? picture.body : new Uint8Array(picture.body);
  return new Response(body, { status: 200, headers: { ...headers, ...svgPolicy(options), "Content-Type": picture.contentType } });
}

/** If-None-Match: `*` or a list holding the tag (weak or strong: the comparison is weak, RFC 9110 §13.1.2). */
function etagMatches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}
