// Every instance keeps links in memory for the click path; an edit, a disable or a delete made
// through one must reach the others. Each change is announced in the transaction that makes it
// (so exactly when it is committed), two ways:
// - NOTIFY, which every instance LISTENs for: delivered within milliseconds. Bun re-subscribes
//   after a lost connection, and each (re)subscription forgets every cached link, since what was
//   sent meanwhile is lost.
// - a row in link_changes, which every instance reads once a second: the fallback for a
//   notification that never arrived (a listening connection that died without anyone noticing).

import type { TransactionSQL } from "bun";
import { EVERY_LINK } from "../../links/store.ts";
import { num, type Pg } from "./connect.ts";

const CHANNEL = "shortener_links";
const POLL_MS = 1_000;
// Changes are read again for this long (a transaction may commit a while after its row's time),
// and a change read once is not acted on twice.
const POLL_WINDOW_MS = 60_000;
const KEEP_MS = 3_600_000;
const PURGE_EVERY_POLLS = 60;

/** Announces a change of one link (its id) or of every link, delivered when tx commits. */
export async function announce(tx: TransactionSQL, id: string): Promise<void> {
  await tx`INSERT INTO link_changes (link_id) VALUES (${id})`;
  await tx.notify(CHANNEL, id);
}

/** Calls forget(id or EVERY_LINK) for each change announced by any instance; resolves to stop(). */
export async function watchLinkChanges(sql: Pg, forget: (id: string) => void, pollMs = POLL_MS): Promise<() => Promise<void>> {
  const subscription = await sql.listen(CHANNEL, forget, () => forget(EVERY_LINK));
  const known = new Map<number, number>(); // seq → changed_at of the changes already acted on
  const recent = () => sql`
    SELECT seq, link_id, changed_at FROM link_changes
    WHERE changed_at > (extract(epoch FROM clock_timestamp()) * 1000)::bigint - ${POLL_WINDOW_MS}`;
  for (const r of await recent()) known.set(num(r.seq), num(r.changed_at)); // before this start: nothing cached yet
  let polls = 0;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const poll = async () => {
    try {
      let newest = 0;
      for (const r of await recent()) {
        const seq = num(r.seq);
        newest = Math.max(newest, num(r.changed_at));
        if (known.has(seq)) continue;
        known.set(seq, num(r.changed_at));
        forget(r.link_id as string);
      }
      for (const [seq, at] of known) if (at < newest - POLL_WINDOW_MS) known.delete(seq);
      if (++polls % PURGE_EVERY_POLLS === 0) {
        await sql`DELETE FROM link_changes WHERE changed_at < (extract(epoch FROM clock_timestamp()) * 1000)::bigint - ${KEEP_MS}`;
      }
    } catch {
      // The database is away: the next poll tries again (and a reconnect forgets every link anyway).
    }
    if (!stopped) timer = setTimeout(poll, pollMs);
  };
  timer = setTimeout(poll, pollMs);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await subscription.unlisten();
  };
}
