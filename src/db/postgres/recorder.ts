// The recorder thread's PostgreSQL side (the RecorderStorage of src/visits/recorder-storage.ts): a
// small pool of its own, the shared daily salts, the batch writer, and the forgetting of the
// visitors seen. The click thread has migrated the schema before this thread starts.

import type { RecorderStorage } from "../../visits/recorder-storage.ts";
import { hourOf } from "../../visits/rollup.ts";
import { GRACE_MS, oldestKeptDay } from "../../visits/visitor-id.ts";
import { connectPostgres } from "./connect.ts";
import { postgresBatches } from "./visit-batches.ts";
import { postgresSalts } from "./visitor-salts.ts";
import type { EventWants } from "../../events/wants.ts";

// One connection writes the batches (one at a time); one more serves the salts and the forgetting.
const RECORDER_CONNECTIONS = 2;

export async function openPostgresRecorder(url: string, password: string | null, wants: EventWants, now: () => number = Date.now): Promise<RecorderStorage> {
  const sql = connectPostgres(url, { max: RECORDER_CONNECTIONS, password });
  await sql`SELECT 1`; // an unreachable server fails the start here, with its reason
  return {
    salts: postgresSalts(sql),
    batches: postgresBatches(sql, now, wants),
    async forgetSeen(now) {
      // Day buckets before the oldest kept day (hours of earlier days sort before it too), and the
      // hours of that day before the oldest kept hour.
      const oldestDay = oldestKeptDay(now);
      return (await sql`DELETE FROM visitors_seen WHERE bucket < ${oldestDay} OR (bucket > ${oldestDay} AND bucket < ${hourOf(now - GRACE_MS)})`).count;
    },
    close: () => sql.close(),
  };
}
