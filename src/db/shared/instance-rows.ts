// The instances' rows (src/instances/registry.ts), as both engines write and read them.

import type { InstanceRecord } from "../../instances/registry.ts";

const num = (v: unknown): number => (typeof v === "number" ? v : Number(v));

/** ?1 name, ?2 at, ?3 allows private webhooks (0/1): a start writes the row afresh. */
export const STARTED_SQL = `INSERT INTO instances (name, started_at, seen_at, stopped_at, webhook_allow_private) VALUES (?1, ?2, ?2, NULL, ?3)
  ON CONFLICT (name) DO UPDATE SET started_at = excluded.started_at, seen_at = excluded.seen_at, stopped_at = NULL, webhook_allow_private = excluded.webhook_allow_private`;
/** ?1 before: rows of instances unseen since then. */
export const FORGET_SQL = "DELETE FROM instances WHERE COALESCE(stopped_at, seen_at) < ?1";
/** ?1 name, ?2 at. Only while it has not said it stopped: a heartbeat late after the stop must not revive it. */
export const SEEN_SQL = "UPDATE instances SET seen_at = ?2 WHERE name = ?1 AND stopped_at IS NULL";
/** ?1 name, ?2 at. */
export const STOPPED_SQL = "UPDATE instances SET seen_at = ?2, stopped_at = ?2 WHERE name = ?1";
export const ALL_SQL = "SELECT name, started_at, seen_at, stopped_at, webhook_allow_private FROM instances ORDER BY name";

export function toInstance(r: Record<string, unknown>): InstanceRecord {
  return {
    name: r.name as string, startedAt: num(r.started_at), seenAt: num(r.seen_at), stoppedAt: r.stopped_at === null || r.stopped_at === undefined ? null : num(r.stopped_at),
    webhookAllowPrivate: num(r.webhook_allow_private) === 1,
  };
}
