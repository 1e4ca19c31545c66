// What a peer API (YOURLS's, Kutt's) answers when the database cannot, or the request has no host: in its own error shape, not our
// API's, and the cause logged here as the front door would (src/app.ts answerError). Anything else
// thrown is our bug and goes on to the last resort.

import { describeStorageFailure, isStorageFailure } from "../../db/errors.ts";
import type { Logger } from "../../log.ts";

export const DATABASE_AWAY = "The database cannot be reached right now; try again later";
/** No host to make short URLs under: a request without a usable Host (and no --base-url). */
export const NO_HOST = "The Host header is missing or not a valid host name.";

/** The peer's 503 for a storage failure (`answer` puts the message in its shape); rethrows anything else. */
export function storageFailureAnswer(err: unknown, request: Request, log: Logger, answer: (message: string) => Response): Response {
  if (!isStorageFailure(err)) throw err;
  log.error("request failed: storage unavailable", { path: new URL(request.url).pathname, cause: describeStorageFailure(err) });
  return answer(DATABASE_AWAY);
}
