// The answer when the database refuses a write (docs/operations.md): a 503 for the client and a
// log line for the operator. SQLite's busy lock is retried by its adapters (src/db/sqlite/busy-retry.ts)
// before anything reaches here.

import { describeStorageFailure, isStorageFailure } from "../db/errors.ts";
import type { Logger } from "../log.ts";
import type { Outcome } from "../ops/outcome.ts";
import { problemResponse } from "./problems.ts";
import { apiError } from "./responses.ts";

/**
 * The answer when the database refuses a write (disk full, read-only, lock held too long): a 503
 * for the client and a log line for the operator. Anything else is a bug and is rethrown.
 */
export function storageUnavailable(err: unknown, log: Logger, what: string): Response {
  if (!isStorageFailure(err)) throw err;
  log.error(`${what} failed: storage unavailable`, { cause: describeStorageFailure(err) });
  return apiError(503, "storage_unavailable", "the database cannot store changes right now; try again later");
}

/**
 * An operation's answer, `answer`ed when it was done, its problem's when not; a write the database
 * refused (disk full, read-only; SQLite's busy lock is retried by its adapters) is a 503.
 */
export async function answered<T>(deps: { log: Logger }, what: string, operation: () => Promise<Outcome<T>>, answer: (value: T) => Response): Promise<Response> {
  let outcome: Outcome<T>;
  try {
    outcome = await operation();
  } catch (err) {
    return storageUnavailable(err, deps.log, what);
  }
  return outcome.ok ? answer(outcome.value) : problemResponse(outcome.problem);
}
