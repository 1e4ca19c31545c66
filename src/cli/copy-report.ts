// What `shortener copy` prints at the end (stdout): rows per table in the source and in the copy,
// each link's clicks compared, and whether the copy was kept.

import type { CopyReport } from "../db/copy.ts";
import type { LinkClicks } from "../db/copy-verify.ts";
import { table } from "./table.ts";

type Done = Exclude<CopyReport, { outcome: "refused" }>;

const n = (value: number) => value.toLocaleString("en");

export function copyReportLines(report: Done, o: { from: string; to: string; seconds: number }): string[] {
  const same = report.outcome === "copied";
  const lines = [
    same
      ? `copied ${o.from} into ${o.to} in ${o.seconds.toFixed(1)} s`
      : `the copy of ${o.from} differs from its source, so nothing was kept in ${o.to} (rolled back):`,
  ];
  const rows = report.tables.map((t) => [t.table === "visitors_seen" ? "visitors_seen (keys)" : t.table, n(t.source), n(t.copied), t.source === t.copied ? "" : "DIFFERS"]);
  // Counts right-aligned under their headings.
  const width = Math.max(...rows.flatMap((r) => [r[1]!.length, r[2]!.length]), "copied".length);
  lines.push(...table([["table", "source".padStart(width), "copied".padStart(width), ""], ...rows.map((r) => [r[0]!, r[1]!.padStart(width), r[2]!.padStart(width), r[3]!])]).map((l) => l.trimEnd()));
  const c = report.clicks;
  if (c.differingCount === 0) {
    lines.push(`clicks of every link: ${n(c.links)} links, ${n(c.clicks)} clicks, ${n(c.visits)} visits, the same in both`);
  } else {
    lines.push(`clicks of ${n(c.differingCount)} of the links differ${c.differingCount > c.differing.length ? ` (the first ${c.differing.length})` : ""}:`);
    for (const d of c.differing) lines.push(`  ${d.id}: source ${figures(d.source)}; copy ${figures(d.copied)}`);
  }
  if (report.unknown.length > 0) lines.push(`left alone (not tables of shortener): ${report.unknown.join(", ")}`);
  if (same) lines.push(`verified: start the service with --db ${o.to.replace(/ \([^)]*\)$/, "")}`);
  return lines;
}

function figures(l: LinkClicks | null): string {
  return l === null ? "no such link" : `${n(l.total)} clicks (${n(l.humans)} by people), ${n(l.daily)} in the daily counts, ${n(l.visits)} visits`;
}
