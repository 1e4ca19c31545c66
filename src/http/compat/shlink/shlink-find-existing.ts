// findIfExists as Shlink means it (docs/shlink-api.md: Short URLs): an earlier link is handed back
// only when it is what the create asks for. Shlink's ShortUrlRepository::findOneMatching matches the
// long URL and, when given, the custom slug, domain, maxVisits, validSince, validUntil and exactly the
// tag set; we match the title and crawlable too when given, since handing back a link without them
// would drop them silently. The URL, slug and domain are matched by the shared reuse op
// (src/ops/links/reuse.ts); this is the rest, in the create's field names.

import type { Link } from "../../../links/link.ts";
import { parseExpiresAt, parseInstant, parseMaxClicks, parseTags } from "../../../links/options.ts";
import type { FieldProblem } from "../../../errors.ts";
import { parseTitle } from "../../../links/title.ts";

/** Whether a link holds every optional field a create gives (`fields`: our create's names, as createFields makes them). */
export function matchesCreate(fields: Record<string, unknown>, now: number): (link: Link) => boolean {
  const checks: ((link: Link) => boolean)[] = [];
  if (fields.tags !== undefined) {
    const tags = parseTags(fields.tags);
    // No tags asked for matches any link, as Shlink's (a tag count of 0 adds no condition).
    if (!tags.ok) return () => false;
    if (tags.value.length > 0) checks.push((l) => l.tags.length === tags.value.length && tags.value.every((t) => l.tags.includes(t)));
  }
  if (fields.max_clicks !== undefined) {
    const max = parseMaxClicks(fields.max_clicks);
    if (!max.ok) return () => false;
    checks.push((l) => l.maxClicks === max.value);
  }
  if (fields.valid_from !== undefined) {
    const from = parseInstant(fields.valid_from);
    if (from === null) return () => false;
    checks.push((l) => l.validFrom === from);
  }
  if (fields.expires_at !== undefined) {
    const until = parseExpiresAt(fields.expires_at, now);
    if (!until.ok) return () => false;
    checks.push((l) => l.expiresAt === until.value);
  }
  if (fields.title !== undefined) {
    const problems: FieldProblem[] = [];
    const title = parseTitle(fields.title, "title", problems);
    if (problems.length > 0) return () => false;
    checks.push((l) => l.title === title);
  }
  if (fields.crawlable !== undefined) checks.push((l) => l.crawlable === fields.crawlable);
  return (link) => checks.every((check) => check(link));
}
