// Times as the sources write them: ISO 8601 with an offset (Shlink "+02:00", Bitly "+0000", Kutt
// "…Z"), or a bare "YYYY-MM-DD[ HH:MM[:SS]]" that YOURLS and Kutt on SQLite write as UTC wall-clock.
// Parsed explicitly: a date string without an offset would otherwise be read in local time.

const BARE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;
const OFFSET_WITHOUT_COLON = /([+-]\d{2})(\d{2})$/;

/** ms since the epoch, or null for an empty, zero or unreadable time. */
export function sourceTime(text: string | null | undefined): number | null {
  if (text == null) return null;
  const t = text.trim();
  if (t === "" || t.startsWith("0000-00-00")) return null;
  const bare = BARE.exec(t);
  if (bare !== null) {
    const [, y, mo, d, h, mi, s, ms] = bare;
    return Date.UTC(+y!, +mo! - 1, +d!, +(h ?? 0), +(mi ?? 0), +(s ?? 0), ms === undefined ? 0 : +ms.padEnd(3, "0"));
  }
  // Anything else must say its offset: a time without one would be read in this machine's zone.
  if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(t)) return null;
  const ms = Date.parse(t.replace(OFFSET_WITHOUT_COLON, "$1:$2"));
  return Number.isFinite(ms) ? ms : null;
}
