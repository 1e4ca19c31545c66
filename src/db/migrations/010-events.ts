// Step 10: events (docs/webhooks.md: Webhooks). A change writes its event to the outbox (events) in
// its own transaction; the delivery thread fans each event out to the webhooks that want it
// (webhook_deliveries, kept 7 days as the delivery log) and moves its mark. Marks: "events", the
// last event fanned out; "expiry", up to when expired links were announced.

import type { PostgresDialect, SqliteDialect } from "./step.ts";

export const sqlite: SqliteDialect | null = `
  CREATE TABLE webhooks (
    id              INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: a deleted webhook's id names nothing new
    url             TEXT NOT NULL,
    events          TEXT NOT NULL,           -- the event types it wants, space-separated
    link_id         TEXT,                    -- only this link's events (kept when the link goes: it still hears link.deleted)
    tag             TEXT,                    -- only events of links with this tag
    secret          TEXT NOT NULL,           -- whsec_...: kept as signing needs it, shown once, never logged
    enabled         INTEGER NOT NULL DEFAULT 1,
    disabled_reason TEXT,
    created_at      INTEGER NOT NULL
  );
  CREATE TABLE events (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    type    TEXT NOT NULL,
    link_id TEXT,                            -- the link the event is about (kept after a delete: link.deleted names it)
    tags    TEXT,                            -- the link's tags then, space-separated; NULL: read at fan-out (clicks)
    at      INTEGER NOT NULL,                -- ms
    data    TEXT NOT NULL                    -- the payload's data, JSON
  );
  CREATE TABLE webhook_deliveries (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_id       INTEGER NOT NULL,
    message_id       TEXT NOT NULL,          -- webhook-id: the same on every attempt and redelivery
    type             TEXT NOT NULL,
    created_at       INTEGER NOT NULL,
    body             TEXT NOT NULL,          -- {type, timestamp, data} as sent (signed as these bytes)
    clicks           INTEGER NOT NULL DEFAULT 0, -- link.clicks: how many it itemizes
    joinable         INTEGER NOT NULL DEFAULT 0, -- 1: a link.clicks bundle that later clicks join until it is first sent (never a redelivery)
    state            TEXT NOT NULL DEFAULT 'pending', -- pending, delivered, failed
    attempts         INTEGER NOT NULL DEFAULT 0,
    first_attempt_at INTEGER,
    last_attempt_at  INTEGER,
    next_at          INTEGER NOT NULL,       -- not before (backoff, Retry-After)
    claimed_until    INTEGER NOT NULL DEFAULT 0, -- an instance is sending it until then
    response_code    INTEGER,
    error            TEXT
  );
  CREATE INDEX deliveries_queue ON webhook_deliveries(webhook_id, id) WHERE state = 'pending';
  CREATE INDEX deliveries_by_webhook ON webhook_deliveries(webhook_id, id);
  CREATE INDEX deliveries_by_age ON webhook_deliveries(created_at);
  CREATE TABLE event_marks (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
  INSERT INTO event_marks (name, value) VALUES ('events', 0), ('expiry', CAST(unixepoch('subsec') * 1000 AS INTEGER));
  CREATE INDEX links_by_expiry ON links(expires_at) WHERE expires_at IS NOT NULL;
  `;

// PostgreSQL: the same tables, and live_watches: which links some instance's live view is watching
// (the recorders announce those links' clicks by NOTIFY).
export const postgres: PostgresDialect | null = `
  CREATE TABLE webhooks (
    id              bigserial PRIMARY KEY,
    url             text NOT NULL,
    events          text NOT NULL,
    link_id         text,
    tag             text,
    secret          text NOT NULL,
    enabled         smallint NOT NULL DEFAULT 1,
    disabled_reason text,
    created_at      bigint NOT NULL
  );
  CREATE TABLE events (
    seq     bigserial PRIMARY KEY,
    type    text NOT NULL,
    link_id text,
    tags    text,
    at      bigint NOT NULL,
    data    text NOT NULL
  );
  CREATE TABLE webhook_deliveries (
    id               bigserial PRIMARY KEY,
    webhook_id       bigint NOT NULL,
    message_id       text NOT NULL,
    type             text NOT NULL,
    created_at       bigint NOT NULL,
    body             text NOT NULL,
    clicks           bigint NOT NULL DEFAULT 0,
    joinable         smallint NOT NULL DEFAULT 0,
    state            text NOT NULL DEFAULT 'pending',
    attempts         bigint NOT NULL DEFAULT 0,
    first_attempt_at bigint,
    last_attempt_at  bigint,
    next_at          bigint NOT NULL,
    claimed_until    bigint NOT NULL DEFAULT 0,
    response_code    bigint,
    error            text
  );
  CREATE INDEX deliveries_queue ON webhook_deliveries(webhook_id, id) WHERE state = 'pending';
  CREATE INDEX deliveries_by_webhook ON webhook_deliveries(webhook_id, id);
  CREATE INDEX deliveries_by_age ON webhook_deliveries(created_at);
  CREATE TABLE event_marks (name text PRIMARY KEY, value bigint NOT NULL);
  INSERT INTO event_marks (name, value) VALUES ('events', 0), ('expiry', (extract(epoch FROM clock_timestamp()) * 1000)::bigint);
  CREATE INDEX links_by_expiry ON links(expires_at) WHERE expires_at IS NOT NULL;
  CREATE TABLE live_watches (
    instance text NOT NULL,
    link_id  text NOT NULL,                  -- "*": every link (a dashboard's live counter)
    until    bigint NOT NULL,
    PRIMARY KEY (instance, link_id)
  );
  `;
