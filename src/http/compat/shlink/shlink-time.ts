// Times as Shlink writes them (PHP's DATE_ATOM): to the second, the offset spelled +00:00. Pure, so
// that the reader thread writes visit pages with it too (src/threads/reader/written-page.ts).

/** An instant (ms) as Shlink writes dates, e.g. 2026-12-31T18:00:00+00:00; null stays null. */
export function atomTime(ms: number): string;
export function atomTime(ms: number | null): string | null;
export function atomTime(ms: number | null): string | null {
  return ms === null ? null : `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}+00:00`;
}
