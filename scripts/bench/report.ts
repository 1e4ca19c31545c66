// Turns the raw wrk results into the printed summary (medians over rounds, ratios per round) and
// returns the same figures for the JSON file.

import { requestsPerSecond, okResponses, type WrkResult } from "./wrk.ts";

export type TargetReport = { name: string; rounds: WrkResult[] };
export type Counting = { target: string; counted: number; served: number; sent: number; non3xx: number; socketErrors: number; written: number; dropped: number };
export type Report = {
  when: string;
  /** the main binary's engine */
  database: "SQLite" | "PostgreSQL";
  machine: Record<string, unknown>;
  options: Record<string, unknown>;
  targets: TargetReport[];
  counting: Counting[];
  stats: { seeding: string; at100: WrkResult; at1M: WrkResult };
  /** GET /api/links over 100,000 links: first page, sorted by clicks, a rare and a common search, a tag */
  list: Record<"firstPage" | "byClicks" | "rareSearch" | "commonSearch" | "tag", WrkResult>;
  creates: WrkResult;
  memoryMiB: { afterClicks: Record<string, { rss: number; peak: number }>; mainAfterAll: { rss: number; peak: number } };
};

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const ms = (us: number) => `${(us / 1000).toFixed(2)} ms`;
const int = (n: number) => Math.round(n).toLocaleString("en");

export function printReport(r: Report) {
  const byName = new Map(r.targets.map((t) => [t.name, t]));
  const summary = r.targets.map((t) => ({
    name: t.name,
    rps: median(t.rounds.map(requestsPerSecond)),
    p50Us: median(t.rounds.map((x) => x.latencyUs.p50)),
    p99Us: median(t.rounds.map((x) => x.latencyUs.p99)),
    perRound: t.rounds.map((x) => Math.round(requestsPerSecond(x))),
  }));
  // Ratios are taken within a round (runs next to each other in time), then the median over rounds.
  const ratio = (a: string, b: string, f: (x: WrkResult) => number) => {
    const ra = byName.get(a)!.rounds;
    const rb = byName.get(b)!.rounds;
    return median(ra.map((x, i) => f(x) / f(rb[i]!)));
  };
  const shorteners = r.counting.map((c) => c.target);
  const ratios = shorteners.map((s) => ({
    target: s,
    rpsVsCeiling: ratio(s, "ceiling", requestsPerSecond),
    rpsVsReadsNothing: ratio(s, "reads-nothing", requestsPerSecond),
    p99VsCeiling: ratio(s, "ceiling", (x) => x.latencyUs.p99),
  }));
  const ceilingVsNothing = ratio("ceiling", "reads-nothing", requestsPerSecond);
  const twoVsOne = byName.has("2 instances") ? ratio("2 instances", "shortener", requestsPerSecond) : null;

  const lines: string[] = [];
  const load = (l: unknown) => (l as number[]).map((x) => x.toFixed(1)).join(" ");
  lines.push("", `database of "shortener": ${r.database}`);
  lines.push(`machine: ${r.machine.cpus} CPUs, Bun ${r.machine.bun}; load average before ${load(r.machine.loadAverageBefore)}, after ${load(r.machine.loadAverageAfter)}`);
  lines.push(`clicks: wrk -t1 -c${r.options.connections}, ${r.options.rounds} rounds x ${r.options.secondsPerRound} s, alternating (A B B A), medians over rounds`);
  lines.push(`  ${"target".padEnd(14)} ${"req/s".padStart(8)} ${"p50".padStart(9)} ${"p99".padStart(9)}   req/s per round`);
  for (const s of summary) lines.push(`  ${s.name.padEnd(14)} ${int(s.rps).padStart(8)} ${ms(s.p50Us).padStart(9)} ${ms(s.p99Us).padStart(9)}   ${s.perRound.join(" ")}`);
  for (const q of ratios) {
    lines.push(`  ${q.target}/ceiling req/s ratio ${q.rpsVsCeiling.toFixed(3)} (target >= 0.85), ${q.target}/reads-nothing ${q.rpsVsReadsNothing.toFixed(3)}, p99 ratio to ceiling ${q.p99VsCeiling.toFixed(2)} (target <= 2)`);
  }
  lines.push(`  ceiling/reads-nothing req/s ratio ${ceilingVsNothing.toFixed(3)}`);
  if (twoVsOne !== null) lines.push(`  2 instances/1 instance req/s ratio ${twoVsOne.toFixed(3)} (both on this machine's CPUs, with the database and wrk)`);
  lines.push("", "counting (all click runs incl. warm-up; sum of totalClicks from /api/stats after the writer drained):");
  for (const c of r.counting) {
    // wrk stops with one request in flight per connection: those may be counted without wrk seeing the 302.
    const ok = c.counted >= c.served && c.counted <= c.sent && c.dropped === 0 && c.non3xx === 0;
    lines.push(`  ${c.target}: visits counted ${int(c.counted)}, 302s served ${int(c.served)}, requests sent ${int(c.sent)} (in flight at wrk stop: ${int(c.sent - c.served)}), non-3xx ${c.non3xx}, socket errors ${c.socketErrors}, writer written ${int(c.written)} dropped ${c.dropped} -> ${ok ? "OK (served <= counted <= sent)" : "MISMATCH"}`);
  }
  const s100 = r.stats.at100.latencyUs;
  const s1m = r.stats.at1M.latencyUs;
  lines.push("", `stats (/api/stats, 1 connection; ${r.stats.seeding}):`);
  lines.push(`  100 visits: p50 ${ms(s100.p50)} p99 ${ms(s100.p99)} (${int(requestsPerSecond(r.stats.at100))} req/s)`);
  lines.push(`  1M visits:  p50 ${ms(s1m.p50)} p99 ${ms(s1m.p99)} (${int(requestsPerSecond(r.stats.at1M))} req/s); p50 ratio 1M/100 ${(s1m.p50 / s100.p50).toFixed(2)} (target <= 2, and p50 < 10 ms)`);
  lines.push("", "owner's list (GET /api/links?limit=50 over 100,000 links, 1 connection; target p50 < 20 ms):");
  const listNames = { firstPage: "first page (newest)", byClicks: "sorted by clicks", rareSearch: "search, 10 matches", commonSearch: "search, 11,100 matches", tag: "tag, 10,000 links" } as const;
  for (const [key, label] of Object.entries(listNames)) {
    const w = r.list[key as keyof typeof listNames];
    lines.push(`  ${label.padEnd(24)} p50 ${ms(w.latencyUs.p50)} p99 ${ms(w.latencyUs.p99)} (${int(requestsPerSecond(w))} req/s, non-2xx ${w.errors.status})`);
  }
  const c = r.creates;
  lines.push("", `creates: ${int(okResponses(c) / (c.durationUs / 1e6))} /s (POST /api/create urlencoded, no alias, -c${r.options.connections}; non-2xx ${c.errors.status}), p50 ${ms(c.latencyUs.p50)} p99 ${ms(c.latencyUs.p99)}`);
  lines.push("", "memory:");
  for (const [name, m] of Object.entries(r.memoryMiB.afterClicks)) lines.push(`  ${name} after the click rounds: VmRSS ${m.rss.toFixed(1)} MiB (peak VmHWM ${m.peak.toFixed(1)} MiB)`);
  lines.push(`  shortener after stats and creates: VmRSS ${r.memoryMiB.mainAfterAll.rss.toFixed(1)} MiB (peak ${r.memoryMiB.mainAfterAll.peak.toFixed(1)} MiB)`);
  console.log(lines.join("\n"));
  return { clicks: summary, ratios, ceilingVsReadsNothing: ceilingVsNothing, twoInstancesVsOne: twoVsOne, text: lines };
}
