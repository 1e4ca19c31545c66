// GET /metrics: Prometheus text exposition. Counters live in memory and are formatted only here,
// so the click path pays two additions and a histogram slot per click. Who may read it:
// addresses in --metrics-allow (default loopback; after the trusted-proxy rule), or an admin key.

import type { Storage } from "../db/storage.ts";
import type { LinkStore } from "../links/store.ts";
import type { ClickRecorder } from "../visits/recorder.ts";
import type { TrustedProxies } from "../visits/client-ip.ts";
import type { RequestMetrics } from "../metrics/requests.ts";
import { TITLE_FETCH_OUTCOMES, type TitleFetcher } from "../links/title-fetcher.ts";
import { histogramLines } from "../metrics/histogram.ts";
import { processLines } from "../metrics/process.ts";
import { BUILD } from "../version.ts";
import { bearerSecret, checkSecret, type AuthDeps } from "./auth.ts";
import { mayReadMetrics } from "../auth/policy.ts";
import { requestClient, type PeerServer } from "./request-origin.ts";
import { apiError } from "./responses.ts";
import type { ClickOptOuts } from "../visits/opt-outs.ts";

export type MetricsDeps = AuthDeps & {
  /** the addresses allowed without a key (--metrics-allow); null = none ("off") */
  metricsAllow: TrustedProxies | null;
  requests: RequestMetrics;
  links: Pick<LinkStore, "cacheStats">;
  recorder: Pick<ClickRecorder, "stats">;
  storage: Pick<Storage, "engine" | "size" | "domains">;
  version: string;
  /** clicks kept out of the statistics by their query or headers (the address's are the recorder's) */
  optOuts: Pick<ClickOptOuts, "counts">;
  /** --fetch-titles: its outcomes, when on */
  titles?: Pick<TitleFetcher, "stats">;
};

export async function handleMetrics(request: Request, server: PeerServer, deps: MetricsDeps): Promise<Response> {
  const header = request.headers.get("authorization");
  if (header !== null) {
    const checked = await checkSecret(bearerSecret(header), request, server, deps);
    if (!checked.ok) return checked.response;
    if (!mayReadMetrics(checked.principal)) return forbidden("metrics need an admin key (or an address in --metrics-allow)");
  } else if (deps.metricsAllow === null || !deps.metricsAllow.contains(requestClient(server, request, deps.trusted))) {
    return forbidden("this address may not read the metrics (--metrics-allow), and no admin key was sent");
  }
  return new Response((await exposition(deps)).join("\n") + "\n", {
    headers: { "Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store" },
  });
}

function forbidden(error: string): Response {
  return apiError(403, "metrics_forbidden", error);
}

async function exposition(deps: MetricsDeps): Promise<string[]> {
  const visits = deps.recorder.stats();
  const cache = deps.links.cacheStats();
  const stored = await deps.storage.size();
  // Links per domain, counted when scraped from the domains' rows (nothing on the click path); none
  // while no domain is configured (shortener_links is the default domain's then).
  const domains = await deps.storage.domains.list();
  const metric = (name: string, type: "counter" | "gauge", help: string, value: number) => [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, `${name} ${value}`];
  const esc = (v: string) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
  return [
    "# HELP shortener_build_info The running build: version, commit and build date.",
    "# TYPE shortener_build_info gauge",
    `shortener_build_info{version="${esc(deps.version)}",commit="${esc(BUILD?.commit ?? "source")}",built="${esc(BUILD?.date ?? "")}"} 1`,
    ...metric("shortener_redirects_total", "counter", "Clicks answered with a redirect (302), GET and HEAD.", deps.requests.redirects),
    ...metric("shortener_visits_recorded_total", "counter", "Visits written to the database.", visits.written),
    ...metric("shortener_visits_dropped_total", "counter", "Visits dropped because the queue was full while the database refused writes or was away.", visits.dropped),
    ...metric("shortener_clicks_delayed_total", "counter", "Clicks whose answer waited for the visit writer to catch up (it was far behind a database that answers).", visits.delayed),
    ...notCountedLines(visits.notCounted, deps.optOuts.counts()),
    ...metric("shortener_orphan_visits_dropped_total", "counter", "Visits to no link dropped because the visit queue was busy (their own bound, before clicks would wait).", visits.orphansDropped),
    ...metric("shortener_visits_discarded_total", "counter", "Visits of links deleted before the visits were written.", visits.discarded),
    ...metric("shortener_visit_queue_length", "gauge", "Visits answered but not yet written.", visits.queued),
    ...metric("shortener_links", "gauge", "Links stored.", stored.links),
    ...(domains.length === 0 ? [] : ["# HELP shortener_domain_links Links stored on each configured domain.", "# TYPE shortener_domain_links gauge"]),
    ...domains.map((d) => `shortener_domain_links{domain="${esc(d.name)}"} ${d.links}`),
    ...metric("shortener_link_cache_hits_total", "counter", "Clicks whose link was found in memory.", cache.hits),
    ...metric("shortener_link_cache_misses_total", "counter", "Clicks whose link had to be read from the database.", cache.misses),
    ...metric("shortener_database_bytes", "gauge", deps.storage.engine === "sqlite" ? "Size of the database file and its write-ahead log." : "Size of the PostgreSQL database (pg_database_size).", stored.bytes),
    "# HELP shortener_recorder_batch_write_seconds Time the recorder took to write one batch of visits and rollups.",
    "# TYPE shortener_recorder_batch_write_seconds histogram",
    ...histogramLines("shortener_recorder_batch_write_seconds", "", visits.batchWrite),
    ...titleLines(deps.titles),
    ...deps.requests.lines(),
    ...processLines(),
  ];
}

/** Clicks answered but not counted (docs/statistics.md: Not counting some clicks), by the opt-out that kept each out; always present, 0 when none is configured. */
function notCountedLines(address: number, { param, dnt }: { param: number; dnt: number }): string[] {
  return [
    "# HELP shortener_clicks_not_counted_total Clicks answered but not counted, by opt-out: address (--no-count-from), param (--no-count-param), dnt (DNT or Sec-GPC under --do-not-track skip).",
    "# TYPE shortener_clicks_not_counted_total counter",
    `shortener_clicks_not_counted_total{reason="address"} ${address}`,
    `shortener_clicks_not_counted_total{reason="param"} ${param}`,
    `shortener_clicks_not_counted_total{reason="dnt"} ${dnt}`,
  ];
}

/** Link titles fetched (docs/link-titles.md: How a title is fetched), by how each wish ended; none while --fetch-titles is off. */
function titleLines(titles: MetricsDeps["titles"]): string[] {
  if (titles === undefined) return [];
  const { outcomes, queued } = titles.stats();
  return [
    "# HELP shortener_title_fetches_total Links created without a title whose page's title was wished for, by outcome: stored, kept (a title was set meanwhile), untitled, refused (the address policy), failed, dropped (the queue was full).",
    "# TYPE shortener_title_fetches_total counter",
    ...TITLE_FETCH_OUTCOMES.map((o) => `shortener_title_fetches_total{outcome="${o}"} ${outcomes[o]}`),
    "# HELP shortener_title_fetch_queue_length Title fetches waiting for their turn.",
    "# TYPE shortener_title_fetch_queue_length gauge",
    `shortener_title_fetch_queue_length ${queued}`,
  ];
}

