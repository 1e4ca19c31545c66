// Links in PostgreSQL (the LinkRepository of src/links/store.ts: the statements of the link change
// script, src/links/change-script.ts, and its transaction, and the reads), and the click budget that
// several instances share. What differs from SQLite: every change is announced to the other
// instances in its own transaction (link-changes.ts), and a link with a click limit spends its
// clicks in the database, where every instance counts against one budget.

import type { Link } from "../../links/link.ts";
import { targetOfRow } from "../../links/click-rules.ts";
import type { TransactionSQL } from "bun";
import { behaviourOf, EVERY_LINK, type ClickBudget, type LinkDestinations, type LinkRepository, type NewLink, type StoredPasswordHash, type Target } from "../../links/store.ts";
import { linkWrites, type LinkStatements } from "../../links/change-script.ts";
import { behaviourValues, DESTINATION_COLUMNS, LINK_COLUMNS, otherDestinations, PASSWORD_HASHES_PAGE, PASSWORD_HASHES_SQL, TARGET_SQL, CRAWLABLE_SQL, FILL_TITLE_SQL, KEY_OF_SEQ_SQL, toLink } from "../shared/link-rows.ts";
import { changedColumns } from "../shared/link-columns.ts";
import { DEFAULT_DOMAIN, LINK_DATA_TABLES } from "../shared/tables.ts";
import { num, numOrNull, numbered, type Pg } from "./connect.ts";
import { announce } from "./link-changes.ts";
import { linkRow, tagsOf } from "./rows.ts";
import { writeEventsIn } from "./events.ts";
import { postgresTagStatements } from "./tags.ts";
import { keyParts, linkKey } from "../../domains/link-key.ts";

const DESTINATIONS_PAGE = 5_000;
const TARGET = numbered(TARGET_SQL);
const PASSWORD_HASHES = numbered(PASSWORD_HASHES_SQL);
const CRAWLABLE = numbered(CRAWLABLE_SQL);
const FILL_TITLE = numbered(FILL_TITLE_SQL);
const KEY_OF_SEQ = numbered(KEY_OF_SEQ_SQL);

export function postgresLinks(sql: Pg): LinkRepository {
  return {
    // Each write in one transaction of its own, whose commit also tells the other instances.
    ...linkWrites((work) => sql.begin((tx) => work(postgresLinkStatements(tx, sql)))),
    target: (id) => target(sql, id),
    read: (id) => readLink(sql, id),
    destinations: () => destinations(sql),
    passwordHashes: () => passwordHashes(sql),
    async crawlable(limit) {
      return (await sql.unsafe(CRAWLABLE, [limit])).map((r: { domain: string; id: string }) => linkKey(r.domain, r.id));
    },
    async fillTitle(key, title) {
      const { domain, alias } = keyParts(key);
      // A row written is announced with it: the other instances' cached cards forget the old title (as a PATCH's).
      return sql.begin(async (tx) => {
        const wrote = (await tx.unsafe(FILL_TITLE, [title, domain, alias])).count > 0;
        if (wrote) await announce(tx, key);
        return wrote;
      });
    },
    async keyOfSeq(seq) {
      const [row] = await sql.unsafe(KEY_OF_SEQ, [seq]);
      return row === undefined ? null : linkKey(row.domain, row.id);
    },
  };
}

/** The statements of src/links/change-script.ts, inside tx. */
function postgresLinkStatements(tx: TransactionSQL, sql: Pg): LinkStatements {
  return {
    insertRow: (id, link, now) => insertLinkIn(tx, sql, id, link, now),
    async lock(key) {
      const { domain, alias } = keyParts(key);
      const [row] = await tx`SELECT seq FROM links WHERE domain = ${domain} AND id = ${alias} FOR UPDATE`;
      return row === undefined ? null : num(row.seq);
    },
    read: (id) => readLink(tx, id),
    async setColumns(seq, changes) {
      const columns = changedColumns(changes);
      if (columns.length === 0) return;
      await tx.unsafe(`UPDATE links SET ${columns.map(([c], i) => `${c} = $${i + 1}`).join(", ")} WHERE seq = $${columns.length + 1}`, [...columns.map(([, v]) => v), seq]);
    },
    async replaceTags(seq, tags) {
      await tx`DELETE FROM link_tags WHERE link_seq = ${seq}`;
      const distinct = [...new Set(tags)];
      if (distinct.length > 0) await tx`INSERT INTO link_tags (link_seq, tag) SELECT ${seq}, unnest(${sql.array(distinct, "TEXT")}::text[])`;
    },
    deleteRow: async (seq) => void (await tx`DELETE FROM links WHERE seq = ${seq}`), // tags cascade
    async deleteData(seq) {
      for (const table of LINK_DATA_TABLES) await tx.unsafe(`DELETE FROM ${table} WHERE link_seq = $1`, [seq]);
    },
    async retire(key, seq, now) {
      const { domain, alias } = keyParts(key);
      await tx`INSERT INTO retired_ids (domain, id, seq, retired_at) VALUES (${domain}, ${alias}, ${seq}, ${now}) ON CONFLICT DO NOTHING`;
    },
    async markBlocked(seqs, blocked) {
      await tx`UPDATE links SET blocked = ${blocked ? 1 : 0} WHERE seq = ANY(${sql.array([...seqs], "INT8")})`;
    },
    ...postgresTagStatements(tx, sql),
    writeEvents: (events) => writeEventsIn(tx, sql, events),
    announce: (id) => announce(tx, id),
  };
}

/** The link, read by `db`: the pool, or a transaction (an edit's events read it before and after). */
async function readLink(db: Pg | TransactionSQL, key: string): Promise<Link | null> {
  const { domain, alias } = keyParts(key);
  const rows = await db.unsafe(`SELECT ${LINK_COLUMNS} FROM links WHERE domain = $1 AND id = $2`, [domain, alias]);
  if (rows.length === 0) return null;
  const row = linkRow(rows[0]);
  return toLink(row, (await tagsOf(db, [row.seq])).get(row.seq) ?? []);
}

async function target(sql: Pg, key: string): Promise<Target | null> {
  const { domain, alias } = keyParts(key);
  const [row] = await sql.unsafe(TARGET, [domain, alias]);
  return targetOfRow({
    seq: numOrNull(row.seq),
    url: row.url,
    expires_at: numOrNull(row.expires_at),
    max_clicks: numOrNull(row.max_clicks),
    disabled: num(row.disabled ?? 0),
    blocked: num(row.blocked ?? 0),
    total_clicks: numOrNull(row.total_clicks),
    valid_from: numOrNull(row.valid_from),
    fallback_url: row.fallback_url ?? null,
    rules: row.rules ?? null,
    variants: row.variants ?? null,
    password_hash: row.password_hash ?? null,
    redirect_type: num(row.redirect_type ?? 302),
    title: row.title ?? null,
    card_title: row.card_title ?? null,
    card_description: row.card_description ?? null,
    card_image: row.card_image ?? null,
    retired: row.retired === true,
  });
}

async function* destinations(sql: Pg): AsyncIterable<LinkDestinations> {
  let after = 0;
  for (;;) {
    const rows = await sql.unsafe(`SELECT ${DESTINATION_COLUMNS} FROM links WHERE seq > $1 ORDER BY seq LIMIT $2`, [after, DESTINATIONS_PAGE]);
    for (const r of rows) yield { seq: num(r.seq), url: r.url as string, blocked: r.blocked === 1, also: otherDestinations(r) };
    if (rows.length < DESTINATIONS_PAGE) return;
    after = num(rows[rows.length - 1].seq);
  }
}

async function* passwordHashes(sql: Pg): AsyncIterable<StoredPasswordHash> {
  let after = 0;
  for (;;) {
    const rows = await sql.unsafe(PASSWORD_HASHES, [after, PASSWORD_HASHES_PAGE]);
    for (const r of rows) yield { id: linkKey(r.domain as string, r.id as string), passwordHash: r.password_hash as string };
    if (rows.length < PASSWORD_HASHES_PAGE) return;
    after = num(rows[rows.length - 1].seq);
  }
}

/**
 * Clicks of limited links, spent in the database: one more answered click, if the budget (the
 * larger of the answered and the recorded clicks) has room, in one statement, so that instances
 * never let through more than max_clicks between them. A HEAD only looks. A limit removed
 * meanwhile lets the click through.
 */
export function postgresClickBudget(sql: Pg): ClickBudget {
  // Clicks let through per limited link, as the database answered them last (for statusNow).
  const answered = new Map<string, number>();
  return {
    async spend(key, target, click) {
      const { domain, alias: id } = keyParts(key);
      const rows = click
        ? await sql`
            UPDATE links SET answered_clicks = CASE WHEN max_clicks IS NULL THEN answered_clicks ELSE GREATEST(answered_clicks, total_clicks) + 1 END
            WHERE domain = ${domain} AND id = ${id} AND (max_clicks IS NULL OR GREATEST(answered_clicks, total_clicks) < max_clicks)
            RETURNING answered_clicks`
        : await sql`
            SELECT answered_clicks FROM links
            WHERE domain = ${domain} AND id = ${id} AND (max_clicks IS NULL OR GREATEST(answered_clicks, total_clicks) < max_clicks)`;
      if (rows.length === 0) return target.rules!.expired;
      answered.set(key, num(rows[0].answered_clicks));
      return target;
    },
    answered: (id) => answered.get(id),
    changed(id) {
      if (id === EVERY_LINK) answered.clear();
      else answered.delete(id);
    },
    deleted: (id) => answered.delete(id),
  };
}

/** Inserts under id inside the caller's transaction (a create's own). */
export async function insertLinkIn(tx: TransactionSQL, sql: Pg, id: string, link: NewLink, now: number): Promise<number | "taken" | "retired"> {
  const [outcome] = await insertLinksIn(tx, sql, [{ id, link, createdAt: now, disabled: false }]);
  return outcome!;
}

export type LinkRow = { id: string; link: NewLink; createdAt: number; disabled: boolean };

/**
 * Inserts links under their ids inside the caller's transaction, in one statement (an import's
 * page of 500 would otherwise be 500 round trips): each one's seq, or why it was not inserted.
 */
export async function insertLinksIn(tx: TransactionSQL, sql: Pg, rows: readonly LinkRow[]): Promise<(number | "taken" | "retired")[]> {
  const column = <T,>(pick: (r: LinkRow, b: ReturnType<typeof behaviourValues>) => T) => rows.map((r) => pick(r, behaviourValues(behaviourOf(r.link))));
  const text = (pick: (r: LinkRow, b: ReturnType<typeof behaviourValues>) => string | null) => sql.array(column(pick), "TEXT");
  const int8 = (pick: (r: LinkRow, b: ReturnType<typeof behaviourValues>) => number | null) => sql.array(column(pick), "INT8");
  const inserted: { domain: string; id: string; seq: string }[] = await tx`
    INSERT INTO links (domain, id, url, created_at, owner_key_id, owner_user_id, expires_at, max_clicks, rules, variants, password_hash, redirect_type, valid_from, fallback_url, crawlable, disabled, title, card_title, card_description, card_image)
    SELECT v.* FROM unnest(${text((r) => r.link.domain ?? DEFAULT_DOMAIN)}::text[], ${text((r) => r.id)}::text[], ${text((r) => r.link.url)}::text[], ${int8((r) => r.createdAt)}::int8[],
                           ${int8((r) => r.link.ownerKeyId ?? null)}::int8[], ${int8((r) => r.link.ownerUserId ?? null)}::int8[],
                           ${int8((r) => r.link.expiresAt ?? null)}::int8[], ${int8((r) => r.link.maxClicks ?? null)}::int8[],
                           ${text((_, b) => b[0])}::text[], ${text((_, b) => b[1])}::text[], ${text((_, b) => b[2])}::text[], ${int8((_, b) => b[3])}::int8[],
                           ${int8((_, b) => b[4])}::int8[], ${text((_, b) => b[5])}::text[], ${int8((_, b) => b[6])}::int8[], ${int8((r) => (r.disabled ? 1 : 0))}::int8[], ${text((r) => r.link.title ?? null)}::text[],
                           ${text((r) => r.link.cardTitle ?? null)}::text[], ${text((r) => r.link.cardDescription ?? null)}::text[], ${text((r) => r.link.cardImage ?? null)}::text[])
      AS v(domain, id, url, created_at, owner_key_id, owner_user_id, expires_at, max_clicks, rules, variants, password_hash, redirect_type, valid_from, fallback_url, crawlable, disabled, title, card_title, card_description, card_image)
    WHERE NOT EXISTS (SELECT 1 FROM retired_ids WHERE retired_ids.domain = v.domain AND retired_ids.id = v.id)
    ON CONFLICT (domain, id) DO NOTHING
    RETURNING domain, id, seq`;
  const keyOf = (r: LinkRow) => linkKey(r.link.domain ?? DEFAULT_DOMAIN, r.id);
  const seqs = new Map(inserted.map((r) => [linkKey(r.domain, r.id), num(r.seq)]));
  const tagged = rows.flatMap((r) => (seqs.has(keyOf(r)) ? [...new Set(r.link.tags ?? [])].map((tag) => [seqs.get(keyOf(r))!, tag] as const) : []));
  if (tagged.length > 0) {
    await tx`INSERT INTO link_tags (link_seq, tag) SELECT * FROM unnest(${sql.array(tagged.map(([seq]) => seq), "INT8")}::int8[], ${sql.array(tagged.map(([, tag]) => tag), "TEXT")}::text[])`;
  }
  const missing = rows.filter((r) => !seqs.has(keyOf(r)));
  const retired = missing.length === 0 ? new Set<string>() : await retiredAmong(tx, sql, missing.map((r) => [r.link.domain ?? DEFAULT_DOMAIN, r.id]));
  return rows.map((r) => seqs.get(keyOf(r)) ?? (retired.has(keyOf(r)) ? "retired" : "taken"));
}

/** The keys among (domain, alias) pairs that are retired. */
async function retiredAmong(tx: TransactionSQL, sql: Pg, pairs: [string, string][]): Promise<Set<string>> {
  const rows = await tx`SELECT r.domain, r.id FROM retired_ids AS r
    JOIN unnest(${sql.array(pairs.map(([d]) => d), "TEXT")}::text[], ${sql.array(pairs.map(([, a]) => a), "TEXT")}::text[]) AS p(domain, id)
    ON r.domain = p.domain AND r.id = p.id`;
  return new Set(rows.map((r: { domain: string; id: string }) => linkKey(r.domain, r.id)));
}
