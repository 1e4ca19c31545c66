// Statistics stay bounded whatever visitors send. A visitor picks the referrer, the UTM values and
// (through the User-Agent) the browser and system names a click is counted under; each new value
// would be a rollup row of its own. So a link keeps at most MAX_VALUES_PER_DAY distinct values a
// day in each of those dimensions (and as many UTM combinations); the clicks of further values
// that day are added to one "Other" row instead. Counts stay exact: only the names past the limit
// are not kept. Countries and device types need no limit: they come from fixed lists.
//
// Bots name themselves in the browser dimension (bot-names.ts), so of a day's browser names at most
// MAX_BOT_NAMES_PER_DAY may be ones only bots sent: a crowd of made-up crawler names cannot take the
// places of the browsers people use; further bot-only names that day are Other's too.
//
// The batch recipe (batch-recipe.ts) calls foldOther on a batch's rollups with the values the
// database already holds for the batch's links and days (read in the batch's own transaction).

import type { DimensionRow, Rollups, UtmRow, Dimension } from "./rollup.ts";

export const MAX_VALUES_PER_DAY = 100;
/** Of those, in the browser dimension: names whose clicks are all bots' (docs/clicks.md: Bots and their names). */
export const MAX_BOT_NAMES_PER_DAY = 50;
/** The stored name of the folded row: no recorded value can be it (control characters are never recorded). */
export const OTHER = "\u0001other";
/**
 * The dimensions whose values a visitor can invent: a preview's agent is named from its User-Agent
 * as a bot's browser is (rollup.ts withoutApart), so its names are capped too.
 */
export const CAPPED_DIMENSIONS: readonly Dimension[] = ["browser", "os", "referrer", "preview"];
const CAPPED = new Set<string>(CAPPED_DIMENSIONS);

/** What is stored for the batch's links and days: the names per dimension (`bot_only`: bots = total; SQLite says 1 or 0), the UTM combinations. */
export type StoredValues = {
  dimensions: readonly { link_seq: number; dimension: string; day: string; name: string; bot_only: boolean | number }[];
  utm: readonly { link_seq: number; day: string; source: string; medium: string; campaign: string }[];
};

const SEP = "\u0000";
const utmKey = (source: string, medium: string, campaign: string) => source + SEP + medium + SEP + campaign;
const OTHER_UTM = utmKey(OTHER, "", "");

/** The rollups with every value past a day's limit folded into that day's OTHER row. */
export function foldOther(rollups: Rollups, stored: StoredValues): Rollups {
  const known = new Map<string, Set<string>>(); // "link\0dimension\0day" or "link\0utm\0day" → stored values
  const add = (group: string, value: string) => {
    let set = known.get(group);
    if (set === undefined) known.set(group, (set = new Set()));
    set.add(value);
  };
  const botNames = new Map<string, number>(); // "link\0browser\0day" → stored names only bots sent
  for (const r of stored.dimensions) {
    const group = r.link_seq + SEP + r.dimension + SEP + r.day;
    add(group, r.name);
    if (r.dimension === "browser" && r.bot_only && r.name !== OTHER) botNames.set(group, (botNames.get(group) ?? 0) + 1);
  }
  for (const r of stored.utm) add(r.link_seq + SEP + "\u0002utm" + SEP + r.day, utmKey(r.source, r.medium, r.campaign));

  const dimensions = fold(
    rollups.dimensions,
    (r) => (CAPPED.has(r.dimension) ? r.linkSeq + SEP + r.dimension + SEP + r.day : null),
    (r) => r.name,
    known,
    (first) => ({ ...first, name: OTHER, total: 0, bots: 0 }),
    {
      isBotOnly: (r) => r.dimension === "browser" && r.bots === r.total,
      room: (group) => Math.max(0, MAX_BOT_NAMES_PER_DAY - (botNames.get(group) ?? 0)),
    },
  );
  const utm = fold(
    rollups.utm,
    (r) => r.linkSeq + SEP + "\u0002utm" + SEP + r.day,
    (r) => utmKey(r.source, r.medium, r.campaign),
    known,
    (first) => ({ ...first, source: OTHER, medium: "", campaign: "", total: 0, bots: 0 }),
  );
  return { ...rollups, dimensions, utm };
}

/** A part of a group's room that some of its values may take at most (bots' names of browsers). */
type Share<R> = { isBotOnly: (r: R) => boolean; room: (group: string) => number };

/**
 * Rows of one kind: those of a group that is not capped, or whose value is stored already, pass;
 * new values take the room left (the largest first), and the rest go to the group's OTHER row.
 */
function fold<R extends DimensionRow | UtmRow>(
  rows: readonly R[],
  groupOf: (r: R) => string | null,
  valueOf: (r: R) => string,
  known: Map<string, Set<string>>,
  otherOf: (first: R) => R,
  share?: Share<R>,
): R[] {
  const out: R[] = [];
  const fresh = new Map<string, R[]>();
  for (const r of rows) {
    const group = groupOf(r);
    const value = valueOf(r);
    if (group === null || known.get(group)?.has(value)) out.push(r);
    else {
      const list = fresh.get(group);
      if (list === undefined) fresh.set(group, [r]);
      else list.push(r);
    }
  }
  for (const [group, list] of fresh) {
    const stored = known.get(group);
    const storedCount = stored === undefined ? 0 : stored.size - (stored.has(OTHER) || stored.has(OTHER_UTM) ? 1 : 0);
    let room = Math.max(0, MAX_VALUES_PER_DAY - storedCount);
    let shareRoom = share === undefined ? Infinity : share.room(group);
    const shared = share === undefined ? 0 : list.filter(share.isBotOnly).length;
    if (list.length <= room && shared <= shareRoom) {
      out.push(...list);
      continue;
    }
    // The largest new values keep their names (ties by value, so that every engine keeps the same).
    list.sort((a, b) => b.total - a.total || (valueOf(a) < valueOf(b) ? -1 : valueOf(a) > valueOf(b) ? 1 : 0));
    let otherRow: R | null = null; // summarize makes no OTHER row: this is the group's only one
    for (const r of list) {
      const inShare = share !== undefined && share.isBotOnly(r);
      if (room > 0 && (!inShare || shareRoom > 0)) {
        out.push(r);
        room--;
        if (inShare) shareRoom--;
        continue;
      }
      if (otherRow === null) out.push((otherRow = otherOf(list[0]!)));
      otherRow.total += r.total;
      otherRow.bots += r.bots;
    }
  }
  return out;
}
