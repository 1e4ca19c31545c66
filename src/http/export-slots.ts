// How many exports of visits the API runs at once
// (docs/statistics.md: Exporting visits, "How many at once"): an export reads its whole scope, and on
// SQLite every read waits its turn on the one reader thread, so twenty downloads of one caller would
// keep everyone's statistics waiting. A place is
// held from the answer's start to its stream's end (read to the end, cancelled, failed) and counts
// a link's visits and visits to no link alike. The command line (`shortener export visits`) has no
// such limit: it is the operator's own machine.

import type { Principal } from "../auth/policy.ts";
import { apiError } from "./responses.ts";

/** Exports one caller may run at once, and all callers together. */
export const EXPORTS_PER_CALLER = 2;
export const EXPORTS_IN_ALL = 4;
/** What a refusal's Retry-After says: an export of a large scope takes a while, a small one a moment. */
export const EXPORT_RETRY_SECONDS = 10;

/** `take`: a place for `caller`, given back by calling what it answers (once; more calls do nothing), or null when full. */
export type ExportSlots = { take(caller: string): (() => void) | null; running(): number };

export function exportSlots(perCaller = EXPORTS_PER_CALLER, inAll = EXPORTS_IN_ALL): ExportSlots {
  const held = new Map<string, number>();
  let running = 0;
  return {
    take(caller) {
      const mine = held.get(caller) ?? 0;
      if (mine >= perCaller || running >= inAll) return null;
      held.set(caller, mine + 1);
      running++;
      let given = false;
      return () => {
        if (given) return;
        given = true;
        running--;
        const left = (held.get(caller) ?? 1) - 1;
        if (left === 0) held.delete(caller);
        else held.set(caller, left);
      };
    },
    running: () => running,
  };
}

/** Who a place is counted against: a user (whatever key or session they use), else the key, else the proxy's name. */
export function exportCaller(principal: Principal): string {
  if (principal.user !== null) return `user ${principal.user.id}`;
  if (principal.keyId !== null) return `key ${principal.keyId}`;
  return `name ${principal.name}`;
}

/** The 429 past either limit, in the API's error format. */
export function tooManyExports(): Response {
  return apiError(429, "rate_limited", `too many exports running: at most ${EXPORTS_PER_CALLER} of yours and ${EXPORTS_IN_ALL} in all at once; try again when one has ended`, undefined, {
    "Retry-After": String(EXPORT_RETRY_SECONDS),
  });
}

/**
 * Runs `open` with a place held for `principal`: `open` is given the place's release to call when
 * its stream ends; an answer without a stream (a refusal) or a throw gives the place back here.
 */
export async function withExportSlot(
  slots: ExportSlots,
  principal: Principal,
  open: (release: () => void) => Promise<{ ok: true; value: ReadableStream<Uint8Array> } | { ok: false; response: Response }>,
  answer: (stream: ReadableStream<Uint8Array>) => Response,
): Promise<Response> {
  const release = slots.take(exportCaller(principal));
  if (release === null) return tooManyExports();
  let opened: Awaited<ReturnType<typeof open>>;
  try {
    opened = await open(release);
  } catch (err) {
    release();
    throw err;
  }
  if (!opened.ok) {
    release();
    return opened.response;
  }
  return answer(opened.value);
}
