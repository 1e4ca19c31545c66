// This instance's row in the registry (src/instances/registry.ts): written when it starts listening,
// renewed every minute while it runs, marked when it stops. A write that fails is said in the log
// and does not stop the service: what it costs is a command judging by an older record.

import type { Logger } from "../log.ts";
import { HEARTBEAT_MS, type InstanceRegistry, type InstanceSettings } from "./registry.ts";

export type Presence = { name: string; stop(): Promise<void> };

export type PresenceOptions = {
  log: Logger;
  now?: () => number;
  /** How often the row is renewed (tests); HEARTBEAT_MS by default. */
  everyMs?: number;
};

/** `name`: host:port, the same again when this instance restarts there. */
// A registry's write may throw at once (SQLite) or reject (PostgreSQL, or SQLite's busy retry): either is a failure said in the log.
const attempt = (write: () => unknown): Promise<unknown> => new Promise((resolve) => resolve(write()));

export async function announcePresence(registry: InstanceRegistry, name: string, settings: InstanceSettings, o: PresenceOptions): Promise<Presence> {
  const now = o.now ?? Date.now;
  const failed = (what: string) => (err: unknown) => o.log.error(`recording this instance (${name}) in the database failed ${what}`, { error: err instanceof Error ? err.message : String(err) });
  await attempt(() => registry.started(name, now(), settings)).catch(failed("at start; commands such as `shortener webhook add` judge by an older record"));
  let beating = false;
  let lastFailed = false;
  const timer = setInterval(() => {
    if (beating) return;
    beating = true;
    attempt(() => registry.seen(name, now()))
      .then(() => void (lastFailed = false))
      // Said once per run of failures, not every minute.
      .catch((err) => void (lastFailed || failed("(its heartbeat)")(err), (lastFailed = true)))
      .finally(() => void (beating = false));
  }, o.everyMs ?? HEARTBEAT_MS);
  timer.unref();
  return {
    name,
    async stop() {
      clearInterval(timer);
      await attempt(() => registry.stopped(name, now())).catch(failed("at stop"));
    },
  };
}
