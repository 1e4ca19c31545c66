// The time range of an export of visits (docs/statistics.md: Exporting visits), as the API and the
// command line take it: `from` and `to` as days (YYYY-MM-DD, UTC; `to`'s whole day included) or as
// full ISO timestamps with a zone (`to` itself left out); either may be absent (the range is open).

import { isDay } from "../util/day.ts";

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const DAY_MS = 86_400_000;
/** The end of an open range: later than any visit. */
export const OPEN_END = 8.64e15;

export type ExportRange = { ok: true; value: { fromTs: number; toTs: number } } | { ok: false; error: string; field: "from" | "to" };

/** [fromTs, toTs) from the two values, or which one is wrong and why. */
export function exportRange(from: string | null | undefined, to: string | null | undefined): ExportRange {
  const start = instant(from, 0);
  if (start === null) return { ok: false, error: "from must be a date (YYYY-MM-DD) or an ISO timestamp with its zone", field: "from" };
  const end = instant(to, DAY_MS);
  if (end === null) return { ok: false, error: "to must be a date (YYYY-MM-DD) or an ISO timestamp with its zone", field: "to" };
  if (start !== undefined && end !== undefined && end <= start) return { ok: false, error: "from must be before to", field: "from" };
  return { ok: true, value: { fromTs: start ?? 0, toTs: end ?? OPEN_END } };
}

/** A day's start (plus `dayEnd`: a `to` day counts whole), a timestamp as it is; undefined when absent, null when neither. */
function instant(value: string | null | undefined, dayEnd: number): number | null | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  if (isDay(value)) return Date.parse(`${value}T00:00:00.000Z`) + dayEnd;
  if (!TIMESTAMP.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}
