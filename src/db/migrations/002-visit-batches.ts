// Step 2: raw visits stored as one row per link and write batch (a JSON array of visits) instead of
// a row each. Under load a batch holds hundreds of visits; one insert and one index entry for all
// of them cost 1.1 instead of 3.0–3.3 µs a visit (measured on the recorder's batches). `visits`
// stays as a view with the old columns, for ad-hoc SQL and for anyone's saved queries.

import type { PostgresDialect, SqliteDialect } from "./step.ts";

export const sqlite: SqliteDialect | null = `
  CREATE TABLE visit_batches (
    id       INTEGER PRIMARY KEY,
    link_id  TEXT NOT NULL,
    first_ts INTEGER NOT NULL,          -- ms since the Unix epoch, of the batch's first and last visit
    last_ts  INTEGER NOT NULL,
    humans   INTEGER NOT NULL,          -- visits that are not bots: lets "bots excluded" skip a batch
    visits   TEXT NOT NULL              -- JSON: [[ts, browser, os, device, country, referrer,
                                        --         utm_source, utm_medium, utm_campaign, is_bot], ...]
  );
  CREATE INDEX visit_batches_by_link_time ON visit_batches(link_id, last_ts);

  -- Existing rows in runs of 200 per link, oldest first (MAX_VISITS_PER_ROW in visit-batch.ts).
  INSERT INTO visit_batches (link_id, first_ts, last_ts, humans, visits)
    SELECT link_id, MIN(ts), MAX(ts), SUM(is_bot = 0),
           json_group_array(json_array(ts, browser, os, device, country, referrer, utm_source, utm_medium, utm_campaign, is_bot))
    FROM (SELECT *, (ROW_NUMBER() OVER (PARTITION BY link_id ORDER BY ts, rowid) - 1) / 200 AS run
          FROM visits ORDER BY link_id, ts, rowid)
    GROUP BY link_id, run
    ORDER BY link_id, run;
  DROP TABLE visits;

  CREATE VIEW visits AS
    SELECT b.link_id AS link_id,
           json_extract(v.value, '$[0]') AS ts, json_extract(v.value, '$[1]') AS browser,
           json_extract(v.value, '$[2]') AS os, json_extract(v.value, '$[3]') AS device,
           json_extract(v.value, '$[4]') AS country, json_extract(v.value, '$[5]') AS referrer,
           json_extract(v.value, '$[6]') AS utm_source, json_extract(v.value, '$[7]') AS utm_medium,
           json_extract(v.value, '$[8]') AS utm_campaign, json_extract(v.value, '$[9]') AS is_bot
    FROM visit_batches AS b, json_each(b.visits) AS v;
  `;

// PostgreSQL has no step here: it began at step 5, which makes at once everything steps 1 to 5 make
// in SQLite.
export const postgres: PostgresDialect | null = null;
