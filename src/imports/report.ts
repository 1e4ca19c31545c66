// An import's result as people read it: the same lines on the command line and in the dashboard's
// dialog. Long lists are cut after a few entries; the counts say how many there were.

import type { ImportReport } from "./run.ts";

const LISTED = 20;

export function reportLines(r: ImportReport): string[] {
  const n = (x: number) => x.toLocaleString("en");
  const would = r.dryRun ? "would be " : "";
  const lines: string[] = [];
  if (r.dryRun) lines.push("Dry run: nothing was written.");
  lines.push(`${r.source}: ${n(r.links.read)} links read; ${n(r.links.created)} ${would}created, ${n(r.links.already)} imported before, ${n(r.links.skipped.length)} ${would}skipped, ${n(r.links.renamed.length)} ${would}renamed.`);
  if (r.history.keeps === "visits" && (r.history.visits > 0 || r.outcome === "done")) {
    lines.push(`${n(r.history.visits)} visits ${r.dryRun ? "would be " : ""}imported${r.history.otherLinks > 0 ? `; ${n(r.history.otherLinks)} belong to links not imported (deleted or renamed at the source, or skipped) and were left out` : ""}.`);
  }
  if (r.history.keeps === "counts" && (r.history.clicksCounted > 0 || r.outcome === "done")) lines.push(`${n(r.history.clicksCounted)} clicks ${would}imported as daily counts.`);
  list(lines, r.dryRun ? "Domains that would be added" : "Domains added", r.domains.added);
  list(lines, "Problems (nothing was written)", r.problems.map((p) => `${p.code}: ${p.why}`));
  list(lines, "Renamed", r.links.renamed.map((p) => `${p.code} -> ${p.id}: ${p.why}`));
  list(lines, "Skipped", r.links.skipped.map((p) => `${p.code}: ${p.why}`));
  list(lines, "Notes", r.notes);
  if (r.error !== null) {
    lines.push(r.outcome === "refused" ? r.error.message : `Stopped: ${r.error.message}`);
    if (r.outcome === "stopped") lines.push("What is listed above was imported and is kept; run the same command again to go on from there.");
  }
  return lines;
}

function list(lines: string[], title: string, items: string[]): void {
  if (items.length === 0) return;
  lines.push(`${title} (${items.length.toLocaleString("en")}):`);
  for (const item of items.slice(0, LISTED)) lines.push(`  ${item}`);
  if (items.length > LISTED) lines.push(`  … and ${(items.length - LISTED).toLocaleString("en")} more`);
}
