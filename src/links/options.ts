// The optional fields a link can carry beyond its URL: expiry, a click limit and tags. Parsed from
// form text (create, import) or JSON values (create, PATCH); every problem names its code.

export const MAX_TAGS = 10;
export const TAG_PATTERN = /^[A-Za-z0-9_-]{1,30}$/;
/** A ceiling far beyond any real use that keeps the value a safe integer everywhere. */
export const MAX_CLICKS_LIMIT = 1_000_000_000;

export type OptionProblem = "expires_invalid" | "expires_past" | "max_clicks_invalid" | "tags_invalid";
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: OptionProblem; error: string };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
// A time must say its zone: a bare local time would mean something else on every machine.
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/**
 * An expiry as ms. `YYYY-MM-DD` means the end of that UTC day (the link works all of that day);
 * an ISO 8601 time needs its zone. It must lie in the future.
 */
export function parseExpiresAt(raw: unknown, now: number): Parsed<number> {
  if (typeof raw !== "string") return invalid("expires_invalid", "must be an ISO 8601 time with a zone, or YYYY-MM-DD");
  const text = raw.trim();
  let at: number;
  const day = DAY.exec(text);
  if (day) {
    const start = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    if (new Date(start).toISOString().slice(0, 10) !== text) return invalid("expires_invalid", "is not a real date");
    at = start + 86_400_000;
  } else if (INSTANT.test(text)) {
    const instant = parseInstant(text);
    if (instant === null) return invalid("expires_invalid", "is not a real time");
    at = instant;
  } else {
    return invalid("expires_invalid", "must be an ISO 8601 time with a zone (2026-12-31T18:00:00Z) or YYYY-MM-DD");
  }
  if (at <= now) return invalid("expires_past", "must be in the future");
  return { ok: true, value: at };
}

/** An ISO 8601 time with its zone as ms, or null (not one, or a date that does not exist). */
export function parseInstant(raw: unknown): number | null {
  if (typeof raw !== "string") return null;
  const text = raw.trim();
  if (!INSTANT.test(text)) return null;
  const at = Date.parse(text);
  // Date.parse rolls 2026-02-30T10:00Z over to March 2nd; the date as written must exist.
  const [y, m, d] = text.slice(0, 10).split("-").map(Number) as [number, number, number];
  const written = new Date(Date.UTC(y, m - 1, d));
  return Number.isFinite(at) && written.getUTCMonth() === m - 1 && written.getUTCDate() === d ? at : null;
}

/**
 * Whether a link's start (validFrom) lies before its end (expiresAt): a start at or after the end makes
 * a link no one can ever visit, so a create or change that would store one is refused (docs/api.md: Errors).
 */
export function windowOpen(validFrom: number | null, expiresAt: number | null): boolean {
  return validFrom === null || expiresAt === null || validFrom < expiresAt;
}

/** A click limit: a whole number from 1, as a JSON number or as text. */
export function parseMaxClicks(raw: unknown): Parsed<number> {
  const n = typeof raw === "number" ? raw : typeof raw === "string" && /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_CLICKS_LIMIT) return invalid("max_clicks_invalid", `must be a whole number from 1 to ${MAX_CLICKS_LIMIT}`);
  return { ok: true, value: n };
}

/** Tags: comma-separated text (forms, CSV) or an array of strings (JSON); duplicates dropped, order kept. */
export function parseTags(raw: unknown): Parsed<string[]> {
  let list: unknown[];
  if (typeof raw === "string") list = raw.split(",").map((t) => t.trim()).filter((t) => t !== "");
  else if (Array.isArray(raw)) list = raw.map((t) => (typeof t === "string" ? t.trim() : t));
  else return invalid("tags_invalid", "must be a list of tags");
  const tags: string[] = [];
  for (const tag of list) {
    if (typeof tag !== "string" || !TAG_PATTERN.test(tag)) return invalid("tags_invalid", "each tag must be 1 to 30 letters, digits, hyphens or underscores");
    if (!tags.includes(tag)) tags.push(tag);
  }
  if (tags.length > MAX_TAGS) return invalid("tags_invalid", `at most ${MAX_TAGS} tags`);
  return { ok: true, value: tags };
}

function invalid<T>(problem: OptionProblem, error: string): Parsed<T> {
  return { ok: false, problem, error };
}
