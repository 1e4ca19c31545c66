// UTC calendar days as YYYY-MM-DD strings: what rollups are keyed by and visitsByDate reports.

const DAY_MS = 86_400_000;

/** The UTC day of a timestamp in ms. */
export function dayOf(ts: number): string {
  return new Date(ts).toISOString().slice(0, 10);
}

/** The UTC day n days after day (n may be negative). */
export function addDays(day: string, n: number): string {
  return dayOf(Date.parse(day + "T00:00:00Z") + n * DAY_MS);
}

/** Whole days from a to b (b - a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(b + "T00:00:00Z") - Date.parse(a + "T00:00:00Z")) / DAY_MS);
}

/** A real calendar date in YYYY-MM-DD form (rejects 2026-02-30). */
export function isDay(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && Number.isFinite(Date.parse(value + "T00:00:00Z")) && dayOf(Date.parse(value + "T00:00:00Z")) === value;
}

/** A time as ISO 8601 UTC with milliseconds, or null. */
export function isoTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
