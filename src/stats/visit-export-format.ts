// The rows of an export of visits (docs/statistics.md: Exporting visits), written once for every
// surface (the API, the dashboard's download, `shortener export visits`) and both engines: the
// fields of the visits view, a CSV record or a JSON line each. Pure: SQLite's reader thread writes
// its chunks with it where the rows were read, PostgreSQL's on the pool's side of the click thread.

import { csvRecord } from "../util/csv.ts";
import type { StoredVisit } from "../visits/visit-batch.ts";

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

/** The CSV header record (CSV only: a JSON line names its own keys). */
export function exportHeader(format: VisitExportFormat): string {
  return format === "csv" ? csvRecord(VISIT_EXPORT_FIELDS) : "";
}

/**
 * One visit as a line. CSV cells go through csvRecord, so a referrer or UTM value a spreadsheet
 * would run as a formula is written as text, as the link export writes its cells (src/util/csv.ts).
 */
export function exportLine(row: ExportedVisit, format: VisitExportFormat): string {
  if (format === "jsonl") return `${JSON.stringify(row)}\n`;
  return csvRecord(VISIT_EXPORT_FIELDS.map((f) => {
    const value = row[f];
    return typeof value === "boolean" ? String(value) : value;
  }));
}
