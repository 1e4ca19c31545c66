// The rows of an export of visits (docs/statistics.md: Exporting visits), written once for every
// surface (the API, the dashboard's download, `shortener export visits`) and both engines: the
// fields of the visits view, a CSV record or a JSON line each; visits to no link have their own
// columns (the visited path and its type in place of the link's) through the same writing. Pure: SQLite's reader thread writes
// its chunks with it where the rows were read, PostgreSQL's on the pool's side of the click thread.

import { csvRecord } from "../util/csv.ts";
import type { StoredVisit } from "../visits/visit-batch.ts";
import type { OrphanType, StoredOrphan } from "../visits/orphans.ts";

export type VisitExportFormat = "csv" | "jsonl";
export const VISIT_EXPORT_FORMATS: readonly VisitExportFormat[] = ["csv", "jsonl"];

/** The columns, in order; a JSON line has the same keys in the same order. */
export const VISIT_EXPORT_FIELDS = [
  "visitId", "timestamp", "link", "domain", "browser", "os", "device", "country", "referrer",
  "utmSource", "utmMedium", "utmCampaign", "isBot", "rule", "variant", "imported",
] as const;

/** One exported visit. `visitId`: "<batch>-<position>", the export's order and where a resume goes on. */
export type ExportedVisit = {
  visitId: string; timestamp: string; link: string; domain: string; browser: string; os: string; device: string; country: string; referrer: string;
  utmSource: string | null; utmMedium: string | null; utmCampaign: string | null; isBot: boolean; rule: string | null; variant: string | null; imported: boolean;
};

/** Where a visit was stored: its batch's id and place in it; the link's alias and its domain's name ("" when the instance knows none). */
export type VisitPlace = { batch: number; position: number; link: string; domain: string; imported: boolean };

export function exportedVisit(v: StoredVisit, at: VisitPlace): ExportedVisit {
  const [ts, browser, os, device, country, referrer, utmSource, utmMedium, utmCampaign, isBot, rule, variant] = v;
  return {
    visitId: `${at.batch}-${at.position}`, timestamp: new Date(ts).toISOString(), link: at.link, domain: at.domain,
    browser, os, device, country, referrer, utmSource, utmMedium, utmCampaign, isBot: isBot === 1,
    rule: rule === undefined ? null : rule, variant: variant ? variant : null, imported: at.imported,
  };
}

/**
 * The columns of a visit to no link (docs/statistics.md: Visits to no link, exported): no link, so
 * the path that was asked (without its query, as kept) and Shlink's name for what it was; no UTM,
 * rule, variant or import, which only a link's visits have.
 */
export const ORPHAN_EXPORT_FIELDS = ["visitId", "timestamp", "type", "visitedPath", "browser", "os", "device", "country", "referrer", "isBot"] as const;

export type ExportedOrphan = {
  visitId: string; timestamp: string; type: OrphanType; visitedPath: string; browser: string; os: string; device: string; country: string; referrer: string; isBot: boolean;
};

export function exportedOrphan(v: StoredOrphan, at: { batch: number; position: number }): ExportedOrphan {
  const [ts, type, visitedPath, browser, os, device, country, referrer, isBot] = v;
  return { visitId: `${at.batch}-${at.position}`, timestamp: new Date(ts).toISOString(), type, visitedPath, browser, os, device, country, referrer, isBot: isBot === 1 };
}

/** What an export holds: a link's visits or visits to no link; each kind has its columns. */
export type ExportKind = "links" | "orphans";
const FIELDS = { links: VISIT_EXPORT_FIELDS, orphans: ORPHAN_EXPORT_FIELDS } as const;

/** The CSV header record (CSV only: a JSON line names its own keys). */
export function exportHeader(format: VisitExportFormat, kind: ExportKind = "links"): string {
  return format === "csv" ? csvRecord(FIELDS[kind]) : "";
}

/**
 * One visit as a line. CSV cells go through csvRecord, so a referrer, UTM value or visited path a
 * spreadsheet would run as a formula is written as text, as the link export writes its cells
 * (src/util/csv.ts).
 */
export function exportLine(row: ExportedVisit, format: VisitExportFormat): string {
  return recordLine(row, VISIT_EXPORT_FIELDS, format);
}

export function orphanExportLine(row: ExportedOrphan, format: VisitExportFormat): string {
  return recordLine(row, ORPHAN_EXPORT_FIELDS, format);
}

function recordLine<R extends Record<F, string | boolean | null>, F extends string>(row: R, fields: readonly F[], format: VisitExportFormat): string {
  if (format === "jsonl") return `${JSON.stringify(row)}\n`;
  return csvRecord(fields.map((f) => {
    const value: string | boolean | null = row[f];
    return typeof value === "boolean" ? String(value) : value;
  }));
}
