// Opens the recorder thread's storage for the database a --db value names (src/db/storage.ts).

import type { Logger } from "../log.ts";
import type { RecorderStorage } from "../visits/recorder-storage.ts";
import { engineOf } from "./storage.ts";
import { openSqliteRecorder } from "./sqlite/recorder.ts";
import { createEventWants, type EventWants } from "../events/wants.ts";

/**
 * `wants`: the event types a batch writes to the outbox with its visits (docs/webhooks.md: Webhooks).
 * `now`: the clock that decides which days and hours of visitors are still kept (tests set it).
 */
export async function openRecorderStorage(location: string, password: string | null, log: Logger, wants: EventWants = createEventWants(), now: () => number = Date.now): Promise<RecorderStorage> {
  // PostgreSQL's adapters are loaded only for a --db that names it (src/db/postgres/engine.ts).
  if (engineOf(location) === "postgres") return (await import("./postgres/engine.ts")).openPostgresRecorder(location, password, wants, now);
  return openSqliteRecorder(location, log, wants, now);
}
