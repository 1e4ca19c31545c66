// Requests per route pattern and status, and their durations: what /metrics reports as
// shortener_http_requests_total and shortener_http_request_duration_seconds. A route is the
// pattern the request matched, never the link id in it.

import { histogramLines, newHistogram, observe, type HistogramCounts } from "./histogram.ts";

export type RequestMetrics = {
  /** A request answered: its route pattern, status and duration in seconds. */
  observe(route: string, status: number, seconds: number): void;
  /** 302 answers to clicks so far (GET and HEAD). */
  readonly redirects: number;
  lines(): string[];
};

type Route = { counts: Map<number, number>; duration: HistogramCounts };

export function createRequestMetrics(): RequestMetrics {
  const routes = new Map<string, Route>();
  let redirects = 0;
  return {
    observe(route, status, seconds) {
      let r = routes.get(route);
      if (r === undefined) routes.set(route, (r = { counts: new Map(), duration: newHistogram() }));
      r.counts.set(status, (r.counts.get(status) ?? 0) + 1);
      observe(r.duration, seconds);
      if (status === 302 && route === "/:id") redirects++;
    },
    get redirects() {
      return redirects;
    },
    lines() {
      const out = ["# HELP shortener_http_requests_total Requests answered, by route pattern and status.", "# TYPE shortener_http_requests_total counter"];
      const sorted = [...routes].sort(([a], [b]) => a.localeCompare(b));
      for (const [route, r] of sorted) {
        for (const [status, n] of [...r.counts].sort(([a], [b]) => a - b)) out.push(`shortener_http_requests_total{route="${route}",status="${status}"} ${n}`);
      }
      out.push("# HELP shortener_http_request_duration_seconds Time to answer a request (to its headers), by route pattern.", "# TYPE shortener_http_request_duration_seconds histogram");
      for (const [route, r] of sorted) out.push(...histogramLines("shortener_http_request_duration_seconds", `route="${route}"`, r.duration));
      return out;
    },
  };
}
