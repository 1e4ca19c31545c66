// Links in PostgreSQL, and the same bounded in-memory map as SQLite's store (src/links/store.ts)
// so that a click on a known link is answered without the database. What differs with several
// instances: a change is announced to the others (link-changes.ts), and a link with a click limit
// spends its clicks in the database, where every instance counts against one budget.

import { generateId } from "../../links/id.ts";
import { isReserved, looksLikeId } from "../../links/alias.ts";
import type { Link } from "../../links/link.ts";
import { LINK_COLUMNS, toLink } from "../../links/rows.ts";
import { clickRules, DELETED, GONE, verdictBeforeBudget, type Admission, type Target } from "../../links/click-rules.ts";
import { AliasRetiredError, AliasTakenError, DEFAULT_CACHE_ENTRIES, MAX_GENERATION_TRIES, newlyStored, targetOfNew, type LinkChanges, type LinkStore, type NewLink } from "../../links/store.ts";
import { Lru } from "../../util/lru.ts";
import { cryptoRandomBytes, type RandomBytes } from "../../util/random.ts";
import { num, numOrNull, type Pg } from "./connect.ts";
import { announce, EVERY_LINK } from "./link-changes.ts";
import { linkRow, tagsOf } from "./rows.ts";

const DESTINATIONS_PAGE = 5_000;

/** The store, and forget(): what the change listener calls for another instance's change. */
export type PgLinkStore = LinkStore & { forget(id: string): void };

export function createPgLinkStore(sql: Pg, random: RandomBytes = cryptoRandomBytes, cacheEntries = DEFAULT_CACHE_ENTRIES): PgLinkStore {
  const cache = new Lru<string, Target>(cacheEntries);
  // Clicks let through per limited link, as the database answered them last (for statusNow).
  const answered = new Map<string, number>();
  // Bumped by every change heard of: a read that was under way meanwhile may be stale, and is
  // used for its own click but not cached.
  let changes = 0;
  let hits = 0;
  let misses = 0;

  const forget = (id: string) => {
    changes++;
    if (id === EVERY_LINK) {
      cache.clear();
      answered.clear();
    } else {
      cache.delete(id);
      answered.delete(id);
    }
  };

  const read = async (id: string): Promise<Link | null> => {
    if (!looksLikeId(id)) return null; // no stored id is anything else (and PostgreSQL's text refuses NUL)
    const rows = await sql.unsafe(`SELECT ${LINK_COLUMNS} FROM links WHERE id = $1`, [id]);
    if (rows.length === 0) return null;
    const row = linkRow(rows[0]);
    return toLink(row, (await tagsOf(sql, [row.seq])).get(row.seq) ?? []);
  };

  /** A cache miss: the link's row, or whether its id was retired (deleted). */
  const resolve = async (id: string): Promise<Target | null> => {
    const seen = changes;
    const [row] = await sql`
      SELECT l.url, l.expires_at, l.max_clicks, l.disabled, l.blocked, l.total_clicks, r.id IS NOT NULL AS retired
      FROM (SELECT ${id}::text AS id) AS q LEFT JOIN links AS l ON l.id = q.id LEFT JOIN retired_ids AS r ON r.id = q.id`;
    let target: Target;
    if (row.url !== null) {
      target = {
        url: row.url,
        rules: clickRules({ expires_at: numOrNull(row.expires_at), max_clicks: numOrNull(row.max_clicks), disabled: row.disabled, blocked: row.blocked, total_clicks: num(row.total_clicks) }),
      };
    } else if (row.retired) target = DELETED;
    else return null;
    if (changes === seen) cache.set(id, target);
    return target;
  };

  /**
   * A limited link's click: one more answered click, if the budget (the larger of the answered and
   * the recorded clicks) has room, in one statement, so that instances never let through more
   * than max_clicks between them. A HEAD only looks. A limit removed meanwhile lets the click through.
   */
  const spend = async (id: string, target: Target, click: boolean): Promise<Admission> => {
    const rows = click
      ? await sql`
          UPDATE links SET answered_clicks = CASE WHEN max_clicks IS NULL THEN answered_clicks ELSE GREATEST(answered_clicks, total_clicks) + 1 END
          WHERE id = ${id} AND (max_clicks IS NULL OR GREATEST(answered_clicks, total_clicks) < max_clicks)
          RETURNING answered_clicks`
      : await sql`
          SELECT answered_clicks FROM links
          WHERE id = ${id} AND (max_clicks IS NULL OR GREATEST(answered_clicks, total_clicks) < max_clicks)`;
    if (rows.length === 0) return GONE.expired;
    answered.set(id, num(rows[0].answered_clicks));
    return target;
  };

  const decide = (id: string, target: Target, click: boolean, now: number): Admission | Promise<Admission> => {
    return verdictBeforeBudget(target, now) ?? spend(id, target, click);
  };

  /** The new link's seq, or why there is none. */
  const tryInsert = (id: string, link: NewLink, now: number): Promise<number | "taken" | "retired"> =>
    sql.begin(async (tx) => {
      const inserted = await tx`
        INSERT INTO links (id, url, created_at, owner_key_id, expires_at, max_clicks)
        SELECT ${id}, ${link.url}, ${now}, ${link.ownerKeyId ?? null}, ${link.expiresAt ?? null}, ${link.maxClicks ?? null}
        WHERE NOT EXISTS (SELECT 1 FROM retired_ids WHERE id = ${id})
        ON CONFLICT (id) DO NOTHING
        RETURNING seq`;
      if (inserted.length === 0) return (await tx`SELECT 1 FROM retired_ids WHERE id = ${id}`).length > 0 ? "retired" : "taken";
      const seq = num(inserted[0].seq);
      const tags = [...new Set(link.tags ?? [])];
      if (tags.length > 0) await tx`INSERT INTO link_tags (link_seq, tag) SELECT ${seq}, unnest(${sql.array(tags, "TEXT")}::text[])`;
      return seq;
    });

  const created = (seq: number, id: string, link: NewLink, now: number): Link => {
    const stored = newlyStored(seq, id, link, now);
    cache.set(id, targetOfNew(stored));
    return stored;
  };

  return {
    forget,
    async create(link, now) {
      if (link.alias != null) {
        const outcome = await tryInsert(link.alias, link, now);
        if (outcome === "taken") throw new AliasTakenError(link.alias);
        if (outcome === "retired") throw new AliasRetiredError(link.alias);
        return created(outcome, link.alias, link, now);
      }
      for (let attempt = 0; attempt < MAX_GENERATION_TRIES; attempt++) {
        const id = generateId(random);
        if (isReserved(id)) continue;
        const outcome = await tryInsert(id, link, now);
        if (typeof outcome === "number") return created(outcome, id, link, now);
      }
      throw new Error(`no free id after ${MAX_GENERATION_TRIES} tries`);
    },
    admit(id, click, now) {
      if (!looksLikeId(id)) return null;
      const hit = cache.get(id);
      if (hit !== undefined) {
        hits++;
        return decide(id, hit, click, now); // nearly always at once: a link without a click limit
      }
      misses++;
      return resolve(id).then((target) => (target === null ? null : decide(id, target, click, now)));
    },
    clicksAnswered: (id) => answered.get(id),
    cacheStats: () => ({ hits, misses }),
    get: read,
    async update(id, change: LinkChanges) {
      if (!looksLikeId(id)) return null;
      const found = await sql.begin(async (tx) => {
        const [row] = await tx`SELECT seq FROM links WHERE id = ${id} FOR UPDATE`;
        if (row === undefined) return false;
        const seq = num(row.seq);
        const sets: string[] = [];
        const values: (string | number | null)[] = [];
        const set = (column: string, value: string | number | null) => {
          values.push(value);
          sets.push(`${column} = $${values.length}`);
        };
        if (change.url !== undefined) {
          set("url", change.url);
          set("blocked", 0); // the new destination passed the blocklist (changes.ts) to get here
        }
        if (change.expiresAt !== undefined) set("expires_at", change.expiresAt);
        if (change.maxClicks !== undefined) set("max_clicks", change.maxClicks);
        if (change.disabled !== undefined) set("disabled", change.disabled ? 1 : 0);
        if (sets.length > 0) await tx.unsafe(`UPDATE links SET ${sets.join(", ")} WHERE seq = $${values.length + 1}`, [...values, seq]);
        if (change.tags !== undefined) {
          await tx`DELETE FROM link_tags WHERE link_seq = ${seq}`;
          const tags = [...new Set(change.tags)];
          if (tags.length > 0) await tx`INSERT INTO link_tags (link_seq, tag) SELECT ${seq}, unnest(${sql.array(tags, "TEXT")}::text[])`;
        }
        await announce(tx, id);
        return true;
      });
      if (!found) return null;
      forget(id);
      return read(id);
    },
    async remove(id, now) {
      if (!looksLikeId(id)) return false;
      const removed = await sql.begin(async (tx) => {
        const gone = await tx`DELETE FROM links WHERE id = ${id} RETURNING seq`; // tags cascade
        if (gone.length === 0) return false;
        for (const table of ["visit_batches", "daily_rollup", "hourly_rollup", "dimension_rollup", "utm_rollup"]) {
          await tx.unsafe(`DELETE FROM ${table} WHERE link_id = $1`, [id]);
        }
        await tx`INSERT INTO retired_ids (id, retired_at) VALUES (${id}, ${now}) ON CONFLICT DO NOTHING`;
        await announce(tx, id);
        return true;
      });
      if (!removed) return false;
      forget(id);
      cache.set(id, DELETED);
      return true;
    },
    async *destinations() {
      let after = 0;
      for (;;) {
        const rows = await sql`SELECT seq, url, blocked FROM links WHERE seq > ${after} ORDER BY seq LIMIT ${DESTINATIONS_PAGE}`;
        for (const r of rows) yield { seq: num(r.seq), url: r.url as string, blocked: r.blocked === 1 };
        if (rows.length < DESTINATIONS_PAGE) return;
        after = num(rows[rows.length - 1].seq);
      }
    },
    async setBlocked(blocked, unblocked) {
      await sql.begin(async (tx) => {
        if (blocked.length > 0) await tx`UPDATE links SET blocked = 1 WHERE seq = ANY(${sql.array([...blocked], "INT8")})`;
        if (unblocked.length > 0) await tx`UPDATE links SET blocked = 0 WHERE seq = ANY(${sql.array([...unblocked], "INT8")})`;
        await announce(tx, EVERY_LINK);
      });
      forget(EVERY_LINK);
    },
  };
}
