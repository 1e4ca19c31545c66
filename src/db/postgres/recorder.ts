// The recorder thread's PostgreSQL side: a small pool of its own, the shared daily salts, the
// writer (the same queue as SQLite's over pgBatchStore), and the forgetting of old salts and
// visitors seen. The click thread has migrated the schema before this thread starts.

import type { RecorderStorage, RecorderStorageOptions } from "../../visits/recorder-storage.ts";
import { createVisitQueue } from "../../visits/visit-queue.ts";
import { hourOf } from "../../visits/rollup.ts";
import { GRACE_MS, oldestKeptDay } from "../../visits/visitor-id.ts";
import { connectPostgres } from "./connect.ts";
import { pgBatchStore } from "./visit-batches.ts";
import { createPgVisitorIds } from "./visitor-salts.ts";

// One connection writes the batches (one at a time); one more serves the salts and the forgetting.
const RECORDER_CONNECTIONS = 2;

export async function openPostgresRecorder(url: string, password: string | null, options: RecorderStorageOptions): Promise<RecorderStorage> {
  const sql = connectPostgres(url, { max: RECORDER_CONNECTIONS, password });
  await sql`SELECT 1`; // an unreachable server fails the start here, with its reason
  const ids = createPgVisitorIds(sql, Date.now);
  const writer = createVisitQueue(pgBatchStore(sql, Date.now), options);
  return {
    visitorId: ids.of,
    prepare: ids.prepare,
    writer,
    async forget(now) {
      await ids.forgetOldDays(now);
      // Day buckets before the oldest kept day (hours of earlier days sort before it too), and the
      // hours of that day before the oldest kept hour.
      const oldestDay = oldestKeptDay(now);
      await sql`DELETE FROM visitors_seen WHERE bucket < ${oldestDay} OR (bucket > ${oldestDay} AND bucket < ${hourOf(now - GRACE_MS)})`;
    },
    async close() {
      await writer.close();
      await sql.close();
    },
  };
}
