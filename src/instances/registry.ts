// The instances of the service that run on a database, and what each allows (docs/webhooks.md: Webhooks,
// "Where webhooks may post"). The service writes its row at start, renews it while it runs and
// marks it when it stops, so that a command run beside it (`shortener webhook add`) and the other
// instances on a shared PostgreSQL database can tell what the service will do, rather than
// accepting something it will never do. One adapter per engine (src/db/<engine>/instances.ts).

import type { MaybePromise } from "../util/maybe.ts";

/** What an instance was started with, as far as others need to know. */
export type InstanceSettings = { webhookAllowPrivate: boolean };

/** `name`: host:port, the same again when the instance restarts. */
export type InstanceRecord = InstanceSettings & { name: string; startedAt: number; seenAt: number; stoppedAt: number | null };

export type InstanceRegistry = {
  /** The instance started (again): its row written afresh; rows unseen for FORGET_AFTER_MS go. */
  started(name: string, at: number, settings: InstanceSettings): MaybePromise<void>;
  /** It still runs (every HEARTBEAT_MS). */
  seen(name: string, at: number): MaybePromise<void>;
  /** It stopped cleanly. */
  stopped(name: string, at: number): MaybePromise<void>;
  /** Every row, by name. */
  all(): MaybePromise<InstanceRecord[]>;
};

export const HEARTBEAT_MS = 60_000;
/** An instance unseen this long without saying it stopped is taken to be gone (killed, or its host died). */
export const GONE_AFTER_MS = 5 * HEARTBEAT_MS;
/** Rows older than this are forgotten at the next start of any instance. */
export const FORGET_AFTER_MS = 30 * 24 * 3_600_000;

/** Whether the record's instance runs now (it said nothing of a stop, and was seen lately). */
export function isRunning(record: InstanceRecord, now: number): boolean {
  return record.stoppedAt === null && now - record.seenAt < GONE_AFTER_MS;
}

/** When an instance was last known to run: its stop, else its last heartbeat. */
export function lastSeen(r: InstanceRecord): number {
  return r.stoppedAt ?? r.seenAt;
}

/**
 * The instances whose settings rule now: every one that runs (they share the work, so each must
 * be able to do it); when none runs, the one that ran last, as it will most likely start again.
 * Empty: no instance ever ran on the database.
 */
export function rulingInstances(records: readonly InstanceRecord[], now: number): InstanceRecord[] {
  const running = records.filter((r) => isRunning(r, now));
  if (running.length > 0) return running;
  const last = records.reduce<InstanceRecord | null>((best, r) => (best === null || lastSeen(r) > lastSeen(best) ? r : best), null);
  return last === null ? [] : [last];
}
