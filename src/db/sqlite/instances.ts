// The instances on a SQLite file (the InstanceRegistry of src/instances/registry.ts): one service
// owns a file, but a restart on another port or host is another row, and the rule reads them all.

import type { Database } from "bun:sqlite";
import { FORGET_AFTER_MS, type InstanceRegistry } from "../../instances/registry.ts";
import type { Synchronous } from "../../util/maybe.ts";
import { ALL_SQL, FORGET_SQL, SEEN_SQL, STARTED_SQL, STOPPED_SQL, toInstance } from "../shared/instance-rows.ts";

export function sqliteInstances(db: Database): Synchronous<InstanceRegistry> {
  const start = db.query<void, [string, number, number]>(STARTED_SQL);
  const forget = db.query<void, [number]>(FORGET_SQL);
  const seen = db.query<void, [string, number]>(SEEN_SQL);
  const stopped = db.query<void, [string, number]>(STOPPED_SQL);
  const all = db.query<Record<string, unknown>, []>(ALL_SQL);
  return {
    started(name, at, settings) {
      db.transaction(() => {
        forget.run(at - FORGET_AFTER_MS);
        start.run(name, at, settings.webhookAllowPrivate ? 1 : 0);
      }).immediate();
    },
    seen: (name, at) => void seen.run(name, at),
    stopped: (name, at) => void stopped.run(name, at),
    all: () => all.all().map(toInstance),
  };
}
