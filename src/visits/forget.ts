// The recorder's minute round of forgetting: the salts of days over for more than an hour, and the
// visitor keys of days and hours as old. Deleting the rows is not enough for them to be gone from
// the disk: secure_delete (src/db/open.ts) zeroes them in the database's pages, but the write-ahead
// log still holds earlier copies of those pages until it happens to be overwritten. So after a round
// that deleted anything, the log is copied into the file and truncated to nothing. A reader can keep
// that from completing (it then reports busy); the next round tries again until it does.

import type { Database } from "bun:sqlite";
import type { SeenVisitors } from "./seen-visitors.ts";
import type { VisitorIds } from "./visitor-id.ts";

/** One round at `now`; throws what the database throws (a busy or full disk: try again later). */
export function createForgetting(db: Database, ids: Pick<VisitorIds, "forgetOldDays">, seen: Pick<SeenVisitors, "forget">): (now: number) => void {
  const checkpoint = db.query<{ busy: number }, []>("PRAGMA wal_checkpoint(TRUNCATE)");
  let logHoldsDeleted = false;
  return (now) => {
    if (ids.forgetOldDays(now) > 0) logHoldsDeleted = true;
    if (seen.forget(now) > 0) logHoldsDeleted = true;
    if (!logHoldsDeleted) return; // most rounds: nothing deleted, no checkpoint
    if (checkpoint.get()?.busy === 0) logHoldsDeleted = false;
  };
}
