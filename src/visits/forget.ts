// The recorder's minute round of forgetting: the salts of days over for more than an hour, and the
// visitor keys of days and hours as old. After a round that deleted anything the engine scrubs
// what it deleted from the disk (RecorderStorage.scrub); a round whose scrub could not complete
// (a reader kept SQLite's log busy) is followed by another try in the next round.

import { then, type MaybePromise } from "../util/maybe.ts";
import type { RecorderStorage } from "./recorder-storage.ts";
import type { VisitorIds } from "./visitor-id.ts";

/** One round at `now`; throws (or rejects with) what the database throws: try again later. */
export function createForgetting(ids: Pick<VisitorIds, "forgetOldDays">, storage: Pick<RecorderStorage, "forgetSeen" | "scrub">): (now: number) => MaybePromise<void> {
  let unscrubbed = false;
  return (now) =>
    then(ids.forgetOldDays(now), (salts) =>
      then(storage.forgetSeen(now), (seen) => {
        if (salts + seen > 0) unscrubbed = true;
        if (!unscrubbed || storage.scrub === undefined) return; // most rounds: nothing deleted
        return then(storage.scrub(), (done) => {
          if (done) unscrubbed = false;
        });
      }),
    );
}
