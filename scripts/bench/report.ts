// Turns the raw wrk results into the printed summary (medians over rounds, ratios per round) and
// returns the same figures for the JSON file.

import { requestsPerSecond, okResponses, type WrkResult } from "./wrk.ts";
import type { UnderLoad } from "./under-load.ts";
import type { ThreadGroup } from "../lib/processes.ts";
import { CARD_PEOPLE, isPeopleTarget, PEOPLE, peopleName } from "./people.ts";

type Memory = { rss: number; peak: number; anon: number };

/** `visitors`: the load pattern (repeat: 2,000 addresses come back; new: a new address every click). */
export type TargetReport = { name: string; visitors: "repeat" | "new"; rounds: WrkResult[] };
/** The name of a target's all-new-visitors twin: the same server and links, the other load pattern. */
export const NEW_VISITORS = " new";
const PATTERNS = [["", "repeating visitors"], [NEW_VISITORS, "all-new visitors"]] as const;
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
  memoryMiB: { afterClicks: Record<string, Memory>; mainAfterAll: Memory; atRest: Memory };
  /** per target, per round: CPU µs per click served, by thread group */
  cpuUsPerClick: Record<string, Record<ThreadGroup, number>[]>;
  underLoad: UnderLoad;
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
  // Every ratio on both load patterns: a target against the ceiling clicked the same way.
  const ratios = PATTERNS.flatMap(([suffix]) =>
    shorteners.filter((s) => byName.has(s + suffix)).map((s) => ({
      target: s + suffix,
      rpsVsCeiling: ratio(s + suffix, "ceiling" + suffix, requestsPerSecond),
      rpsVsReadsNothing: ratio(s + suffix, "reads-nothing", requestsPerSecond),
      p99VsCeiling: ratio(s + suffix, "ceiling" + suffix, (x) => x.latencyUs.p99),
    })),
  );
  const ceilingVsNothing = ratio("ceiling", "reads-nothing", requestsPerSecond);
  const twoVsOne = byName.has("2 instances") ? ratio("2 instances", "shortener", requestsPerSecond) : null;
  const both = (name: string, against: string) =>
    PATTERNS.filter(([suffix]) => byName.has(name + suffix) && byName.has(against + suffix)).map(([suffix, pattern]) => ({ name: name + suffix, pattern, value: ratio(name + suffix, against + suffix, requestsPerSecond) }));
  const ruled = ["5 rules", "5 rules+geo"].flatMap((n) => both(n, "shortener"));
  const fixed = ["shortener", "5 rules", "5 rules+geo", "2 instances", "ceiling", "reads-nothing"];
  const vsCompared = r.targets
    .filter((t) => t.visitors === "repeat" && !fixed.includes(t.name) && !isPeopleTarget(t.name))
    .flatMap((t) => both("shortener", t.name).map((q) => ({ ...q, name: t.name })));

  const lines: string[] = [];
  const load = (l: unknown) => (l as number[]).map((x) => x.toFixed(1)).join(" ");
  lines.push("", `database of "shortener": ${r.database}`);
  lines.push(`machine: ${r.machine.cpus} CPUs, Bun ${r.machine.bun}; load average before ${load(r.machine.loadAverageBefore)}, after ${load(r.machine.loadAverageAfter)}`);
  lines.push(`clicks: wrk -t1 -c${r.options.connections}, ${r.options.rounds} rounds x ${r.options.secondsPerRound} s, alternating (A B B A), medians over rounds;`);
  lines.push(`  each target twice: repeating visitors (2,000 addresses), and "… new": every click from a new address`);
  lines.push(`  ${"target".padEnd(18)} ${"req/s".padStart(8)} ${"p50".padStart(9)} ${"p99".padStart(9)}   req/s per round`);
  for (const s of summary) lines.push(`  ${s.name.padEnd(18)} ${int(s.rps).padStart(8)} ${ms(s.p50Us).padStart(9)} ${ms(s.p99Us).padStart(9)}   ${s.perRound.join(" ")}`);
  for (const q of ratios) {
    lines.push(`  ${q.target}/ceiling req/s ratio ${q.rpsVsCeiling.toFixed(3)} (target >= 0.85), ${q.target}/reads-nothing ${q.rpsVsReadsNothing.toFixed(3)}, p99 ratio to ceiling ${q.p99VsCeiling.toFixed(2)} (target <= 2)`);
  }
  lines.push(`  ceiling/reads-nothing req/s ratio ${ceilingVsNothing.toFixed(3)}`);
  for (const q of ruled) lines.push(`  ${q.name}/shortener (links with five rules, the last matching, vs plain links, same process; ${q.pattern}) req/s ratio ${q.value.toFixed(3)} (target >= 0.9)`);
  for (const line of cardLines(r, both)) lines.push(line);
  const empty = (r.options.comparedOnEmptyDatabase as string[] | undefined) ?? [];
  if (vsCompared.length > 0) lines.push(`  compared binaries click on a copy of the seeded database${empty.length ? `, but ${empty.join(", ")} refused its schema and ran on an empty one (ratios then favour ${empty.length > 1 ? "them" : "it"})` : ""}:`);
  for (const c of vsCompared) lines.push(`  shortener/${c.name} req/s ratio, ${c.pattern}: ${c.value.toFixed(3)} (plain links; target >= 0.98 against the binary before a change)`);
  lines.push("", "CPU per click served, µs (from /proc/<pid>/task/<tid>/stat over each round, medians over rounds; the recorder's includes its catching up after the round):");
  lines.push(`  ${"target".padEnd(18)} ${"click".padStart(7)} ${"recorder".padStart(9)} ${"reader".padStart(7)} ${"other".padStart(7)} ${"all".padStart(7)}   click - ceiling's click`);
  const ceilingClick = (name: string) => median((r.cpuUsPerClick[name.endsWith(NEW_VISITORS) ? "ceiling" + NEW_VISITORS : "ceiling"] ?? []).map((c) => c.click));
  const cpu: Record<string, Record<ThreadGroup | "all", number>> = {};
  for (const [name, rounds] of Object.entries(r.cpuUsPerClick)) {
    const m = (g: ThreadGroup) => median(rounds.map((c) => c[g]));
    const row = { click: m("click"), recorder: m("recorder"), reader: m("reader"), other: m("other"), all: median(rounds.map((c) => c.click + c.recorder + c.reader + c.other)) };
    cpu[name] = row;
    const f = (x: number) => x.toFixed(2).padStart(7);
    const overCeiling = row.click - ceilingClick(name);
    lines.push(`  ${name.padEnd(18)} ${f(row.click)} ${row.recorder.toFixed(2).padStart(9)} ${f(row.reader)} ${f(row.other)} ${f(row.all)}   ${name.startsWith("ceiling") ? "" : `${overCeiling >= 0 ? "+" : ""}${overCeiling.toFixed(2)} (target <= +0.5; recorder target <= 1.0)`}`);
  }
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
  const quiet = r.underLoad.scenarios.find((s) => s.name === "quiet")!.clicks.latencyUs.p99;
  lines.push("", `clicks under load (wrk -c50 on the click mix, each scenario ${r.underLoad.scenarios[0]?.clicks.durationUs ? (r.underLoad.scenarios[0].clicks.durationUs / 1e6).toFixed(0) : "?"} s; stats on a link with ${int(r.underLoad.distinctValues)} distinct UTM values and referrers):`);
  for (const s of r.underLoad.scenarios) {
    const c = s.clicks;
    lines.push(`  ${s.name.padEnd(14)} ${int(requestsPerSecond(c)).padStart(7)} clicks/s  p50 ${ms(c.latencyUs.p50)}  p99 ${ms(c.latencyUs.p99)}  p99/quiet ${(c.latencyUs.p99 / quiet).toFixed(2)}${s.name === "quiet" ? "" : " (target <= 2)"}${s.background ? `   ${s.background}` : ""}`);
  }
  lines.push("", "memory (MiB; RssAnon: the heaps, without the mapped executable):");
  const mem = (m: Memory) => `VmRSS ${m.rss.toFixed(1)}, RssAnon ${m.anon.toFixed(1)} (peak VmHWM ${m.peak.toFixed(1)})`;
  for (const [name, m] of Object.entries(r.memoryMiB.afterClicks)) lines.push(`  ${name} after the click rounds: ${mem(m)}${name === "shortener" ? "" : ""}`);
  lines.push(`  shortener after stats and creates: ${mem(r.memoryMiB.mainAfterAll)}`);
  lines.push(`  at rest (the binary alone, an empty folder, 5 s after start): ${mem(r.memoryMiB.atRest)}`);
  console.log(lines.join("\n"));
  return { clicks: summary, ratios, ceilingVsReadsNothing: ceilingVsNothing, twoInstancesVsOne: twoVsOne, cpu, text: lines };
}

type Both = (name: string, against: string) => { name: string; pattern: string; value: number }[];

/**
 * Issue #40's click figure for links with a preview card, people's browsers only (scripts/bench/people.ts):
 * against plain links of the same binary and process, and against each compared binary's plain links
 * (against the binary before #40 this is the issue's "within 5% for people").
 */
function cardLines(r: Report, both: Both): string[] {
  const lines: string[] = [];
  const refused = (r.options.cardsRefused as Record<string, string> | undefined) ?? {};
  for (const [binary, answer] of Object.entries(refused)) lines.push(`  ${binary} refused links with a card (${answer}): no "${binary === "shortener" ? "" : binary + " "}${CARD_PEOPLE}" target`);
  const labels = r.targets.filter((t) => t.visitors === "repeat" && t.name.endsWith(" " + PEOPLE) && !t.name.endsWith(CARD_PEOPLE)).map((t) => t.name.slice(0, -PEOPLE.length - 1));
  const twin = (q: { name: string }, plain: string) => plain + q.name.slice(CARD_PEOPLE.length); // "… new" against "… new"
  for (const q of both(CARD_PEOPLE, PEOPLE)) lines.push(`  ${q.name}/${twin(q, PEOPLE)} (links with a preview card vs plain links, people's browsers, same process; ${q.pattern}) req/s ratio ${q.value.toFixed(3)} (target >= 0.95)`);
  for (const label of labels) {
    for (const q of both(CARD_PEOPLE, peopleName(label, false))) lines.push(`  ${q.name}/${twin(q, peopleName(label, false))} (card links vs ${label}'s plain links, people's browsers; ${q.pattern}) req/s ratio ${q.value.toFixed(3)} (target >= 0.95 against the binary before #40)`);
  }
  return lines;
}
