// Step 12: a link is (domain, alias), resolved once to its integer seq, and everything that belongs
// to a link is keyed by that seq (docs/architecture.md: A link's identity). Until several domains
// exist every link belongs to the default domain, written ''.
//
// - links gain their domain; retired ids are kept by domain and alias, each with the seq its link
//   had, so an event or a webhook of a deleted link still names it. A link retired before this step
//   has no seq on record: it gets one past every link's (new links never take it).
// - the data tables (src/db/shared/tables.ts), the outbox (events) and webhooks' link filters trade
//   link_id for link_seq. A row whose link_id names neither a link nor a retired id was unreachable
//   (a click recorded as its link was deleted) and goes; a webhook whose link does not exist keeps
//   link_seq 0, which names no link, and is disabled saying why: it heard nothing before either.
// - PostgreSQL's link_changes and live_watches keep the alias: they say which cached or watched
//   link changed, and the cache and the live view are asked by alias.

import type { PostgresDialect, SqliteDialect } from "./step.ts";

/** What a webhook whose link does not exist says once disabled (before step 12 it simply never fired). */
const NO_LINK = "'its link does not exist: ' || link_id";

/**
 * An id both live and retired: PostgreSQL's insert checked the retired ids on its snapshot while a
 * delete of the same id committed, so the link went in after its id was retired. The live link is
 * what the click path answers; its retired twin goes, or the id would have two seqs.
 */
const LIVE_AND_RETIRED = "DELETE FROM retired_ids WHERE id IN (SELECT id FROM links);";

export const sqlite: SqliteDialect | null = `
  ALTER TABLE links ADD COLUMN domain TEXT NOT NULL DEFAULT ''; -- '' the default domain

  CREATE TABLE retired_ids_12 (
    domain     TEXT NOT NULL,
    id         TEXT NOT NULL,
    seq        INTEGER NOT NULL UNIQUE,   -- the seq its link had
    retired_at INTEGER NOT NULL,
    PRIMARY KEY (domain, id)
  ) WITHOUT ROWID;
  INSERT INTO retired_ids_12 (domain, id, seq, retired_at)
    SELECT '', id, (SELECT MAX(n) FROM (SELECT COALESCE(MAX(seq), 0) AS n FROM sqlite_sequence WHERE name = 'links' UNION ALL SELECT COALESCE(MAX(seq), 0) FROM links))
                   + ROW_NUMBER() OVER (ORDER BY retired_at, id),
           retired_at
    FROM retired_ids;
  DROP TABLE retired_ids;
  ALTER TABLE retired_ids_12 RENAME TO retired_ids;
  UPDATE sqlite_sequence SET seq = (SELECT MAX(seq) FROM retired_ids)
    WHERE name = 'links' AND seq < (SELECT MAX(seq) FROM retired_ids);
  INSERT INTO sqlite_sequence (name, seq) SELECT 'links', MAX(seq) FROM retired_ids
    HAVING COUNT(*) > 0 AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'links');

  ${LIVE_AND_RETIRED}
  CREATE TEMP TABLE seq_of_12 AS SELECT id, seq FROM links UNION ALL SELECT id, seq FROM retired_ids;
  CREATE UNIQUE INDEX temp.seq_of_12_by_id ON seq_of_12(id);

  DROP VIEW visits;
  CREATE TABLE visit_batches_12 (
    id       INTEGER PRIMARY KEY,
    link_seq INTEGER NOT NULL,
    first_ts INTEGER NOT NULL,
    last_ts  INTEGER NOT NULL,
    humans   INTEGER NOT NULL,
    visits   TEXT NOT NULL,
    imported INTEGER NOT NULL DEFAULT 0
  );
  INSERT INTO visit_batches_12 SELECT b.id, s.seq, b.first_ts, b.last_ts, b.humans, b.visits, b.imported FROM visit_batches b JOIN seq_of_12 s ON s.id = b.link_id;
  DROP TABLE visit_batches;
  ALTER TABLE visit_batches_12 RENAME TO visit_batches;
  CREATE INDEX visit_batches_by_link_time ON visit_batches(link_seq, last_ts);
  CREATE VIEW visits AS
    SELECT b.link_seq AS link_seq,
           json_extract(v.value, '$[0]') AS ts, json_extract(v.value, '$[1]') AS browser,
           json_extract(v.value, '$[2]') AS os, json_extract(v.value, '$[3]') AS device,
           json_extract(v.value, '$[4]') AS country, json_extract(v.value, '$[5]') AS referrer,
           json_extract(v.value, '$[6]') AS utm_source, json_extract(v.value, '$[7]') AS utm_medium,
           json_extract(v.value, '$[8]') AS utm_campaign, json_extract(v.value, '$[9]') AS is_bot
    FROM visit_batches AS b, json_each(b.visits) AS v;

  CREATE TABLE daily_rollup_12 (
    link_seq    INTEGER NOT NULL,
    day         TEXT NOT NULL,
    total       INTEGER NOT NULL,
    bots        INTEGER NOT NULL,
    uniques     INTEGER NOT NULL DEFAULT 0,
    unique_bots INTEGER NOT NULL DEFAULT 0,
    imported    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (link_seq, day)
  ) WITHOUT ROWID;
  INSERT INTO daily_rollup_12 SELECT s.seq, r.day, r.total, r.bots, r.uniques, r.unique_bots, r.imported FROM daily_rollup r JOIN seq_of_12 s ON s.id = r.link_id;
  DROP TABLE daily_rollup;
  ALTER TABLE daily_rollup_12 RENAME TO daily_rollup;
  CREATE INDEX daily_rollup_by_day ON daily_rollup(day, link_seq, total);

  CREATE TABLE hourly_rollup_12 (
    link_seq    INTEGER NOT NULL,
    hour        TEXT NOT NULL,
    total       INTEGER NOT NULL,
    bots        INTEGER NOT NULL,
    uniques     INTEGER NOT NULL,
    unique_bots INTEGER NOT NULL,
    PRIMARY KEY (link_seq, hour)
  ) WITHOUT ROWID;
  INSERT INTO hourly_rollup_12 SELECT s.seq, r.hour, r.total, r.bots, r.uniques, r.unique_bots FROM hourly_rollup r JOIN seq_of_12 s ON s.id = r.link_id;
  DROP TABLE hourly_rollup;
  ALTER TABLE hourly_rollup_12 RENAME TO hourly_rollup;

  CREATE TABLE dimension_rollup_12 (
    link_seq  INTEGER NOT NULL,
    dimension TEXT NOT NULL,
    day       TEXT NOT NULL,
    name      TEXT NOT NULL,
    total     INTEGER NOT NULL,
    bots      INTEGER NOT NULL,
    PRIMARY KEY (link_seq, dimension, day, name)
  ) WITHOUT ROWID;
  INSERT INTO dimension_rollup_12 SELECT s.seq, r.dimension, r.day, r.name, r.total, r.bots FROM dimension_rollup r JOIN seq_of_12 s ON s.id = r.link_id;
  DROP TABLE dimension_rollup;
  ALTER TABLE dimension_rollup_12 RENAME TO dimension_rollup;

  CREATE TABLE utm_rollup_12 (
    link_seq INTEGER NOT NULL,
    day      TEXT NOT NULL,
    source   TEXT NOT NULL,
    medium   TEXT NOT NULL,
    campaign TEXT NOT NULL,
    total    INTEGER NOT NULL,
    bots     INTEGER NOT NULL,
    PRIMARY KEY (link_seq, day, source, medium, campaign)
  ) WITHOUT ROWID;
  INSERT INTO utm_rollup_12 SELECT s.seq, r.day, r.source, r.medium, r.campaign, r.total, r.bots FROM utm_rollup r JOIN seq_of_12 s ON s.id = r.link_id;
  DROP TABLE utm_rollup;
  ALTER TABLE utm_rollup_12 RENAME TO utm_rollup;

  CREATE TABLE import_links_12 (
    source   TEXT NOT NULL,
    code     TEXT NOT NULL,
    link_seq INTEGER NOT NULL,
    PRIMARY KEY (source, code)
  ) WITHOUT ROWID;
  INSERT INTO import_links_12 SELECT i.source, i.code, s.seq FROM import_links i JOIN seq_of_12 s ON s.id = i.link_id;
  DROP TABLE import_links;
  ALTER TABLE import_links_12 RENAME TO import_links;
  CREATE INDEX import_links_by_link ON import_links(link_seq);

  ALTER TABLE events ADD COLUMN link_seq INTEGER;  -- NULL: an event of no one link
  UPDATE events SET link_seq = (SELECT seq FROM seq_of_12 WHERE id = events.link_id) WHERE link_id IS NOT NULL;
  ALTER TABLE events DROP COLUMN link_id;

  ALTER TABLE webhooks ADD COLUMN link_seq INTEGER; -- NULL: every link's events
  UPDATE webhooks SET enabled = 0, disabled_reason = ${NO_LINK}
    WHERE link_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM seq_of_12 WHERE id = webhooks.link_id);
  UPDATE webhooks SET link_seq = COALESCE((SELECT seq FROM seq_of_12 WHERE id = webhooks.link_id), 0) WHERE link_id IS NOT NULL;
  ALTER TABLE webhooks DROP COLUMN link_id;

  DROP TABLE seq_of_12;
  `;

/** The data tables' change in PostgreSQL: in place, a column traded for another. */
const DATA_TABLES: Record<string, string> = {
  visit_batches: "",
  daily_rollup: "PRIMARY KEY (link_seq, day)",
  hourly_rollup: "PRIMARY KEY (link_seq, hour)",
  dimension_rollup: "PRIMARY KEY (link_seq, dimension, day, name)",
  utm_rollup: "PRIMARY KEY (link_seq, day, source, medium, campaign)",
  import_links: "", // its key is (source, code)
};

function postgresDataTables(): string {
  return Object.entries(DATA_TABLES).map(([table, key]) => `
  ALTER TABLE ${table} ADD COLUMN link_seq bigint;
  UPDATE ${table} t SET link_seq = s.seq FROM seq_of_12 s WHERE s.id = t.link_id;
  DELETE FROM ${table} WHERE link_seq IS NULL;
  ALTER TABLE ${table} ALTER COLUMN link_seq SET NOT NULL;
  ALTER TABLE ${table} DROP COLUMN link_id CASCADE;${key === "" ? "" : `
  ALTER TABLE ${table} ADD ${key};`}`).join("\n");
}

export const postgres: PostgresDialect | null = `
  ALTER TABLE links ADD COLUMN domain text COLLATE "C" NOT NULL DEFAULT ''; -- '' the default domain

  ALTER TABLE retired_ids ADD COLUMN domain text COLLATE "C" NOT NULL DEFAULT '';
  ALTER TABLE retired_ids ADD COLUMN seq bigint;
  UPDATE retired_ids r SET seq = n.seq FROM (
    SELECT id, nextval(pg_get_serial_sequence('links', 'seq')) AS seq FROM (SELECT id FROM retired_ids ORDER BY retired_at, id) AS o
  ) AS n WHERE n.id = r.id;
  ALTER TABLE retired_ids ALTER COLUMN seq SET NOT NULL;
  ALTER TABLE retired_ids ALTER COLUMN domain DROP DEFAULT;
  ALTER TABLE retired_ids DROP CONSTRAINT retired_ids_pkey;
  ALTER TABLE retired_ids ADD PRIMARY KEY (domain, id);
  ALTER TABLE retired_ids ADD UNIQUE (seq);

  ${LIVE_AND_RETIRED}
  CREATE TEMP TABLE seq_of_12 ON COMMIT DROP AS SELECT id, seq FROM links UNION ALL SELECT id, seq FROM retired_ids;
  CREATE UNIQUE INDEX ON seq_of_12(id);

  DROP VIEW visits;
  ${postgresDataTables()}
  CREATE INDEX visit_batches_by_link_time ON visit_batches(link_seq, last_ts);
  CREATE INDEX daily_rollup_by_day ON daily_rollup(day, link_seq, total);
  CREATE INDEX import_links_by_link ON import_links(link_seq);
  CREATE VIEW visits AS
    SELECT b.link_seq, (v->>0)::bigint AS ts, v->>1 AS browser, v->>2 AS os, v->>3 AS device, v->>4 AS country,
           v->>5 AS referrer, v->>6 AS utm_source, v->>7 AS utm_medium, v->>8 AS utm_campaign, (v->>9)::integer AS is_bot
    FROM visit_batches AS b, jsonb_array_elements(b.visits::jsonb) AS v;

  ALTER TABLE events ADD COLUMN link_seq bigint;
  UPDATE events e SET link_seq = s.seq FROM seq_of_12 s WHERE s.id = e.link_id;
  ALTER TABLE events DROP COLUMN link_id;

  ALTER TABLE webhooks ADD COLUMN link_seq bigint;
  UPDATE webhooks SET enabled = 0, disabled_reason = ${NO_LINK}
    WHERE link_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM seq_of_12 WHERE id = webhooks.link_id);
  UPDATE webhooks w SET link_seq = COALESCE((SELECT seq FROM seq_of_12 s WHERE s.id = w.link_id), 0) WHERE link_id IS NOT NULL;
  ALTER TABLE webhooks DROP COLUMN link_id;
  `;
