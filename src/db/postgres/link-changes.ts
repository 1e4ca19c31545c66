// Every instance keeps links in memory for the click path; an edit, a disable or a delete made
// through one must reach the others. Each change is announced with NOTIFY in the transaction that
// makes it (so it is delivered exactly when it is committed), and every instance LISTENs. Bun
// re-subscribes after a lost connection; notifications sent meanwhile are lost, so each
// (re)subscription forgets every cached link.

import type { TransactionSQL } from "bun";
import type { Pg } from "./connect.ts";

const CHANNEL = "shortener_links";
/** The payload that means "every link" (no link id can be "*": src/links/alias.ts). */
export const EVERY_LINK = "*";

/** Announces a change of one link (its id) or of every link, delivered when tx commits. */
export function announce(tx: TransactionSQL, id: string): Promise<void> {
  return tx.notify(CHANNEL, id);
}

/** Calls forget(id or EVERY_LINK) for each change announced by any instance; resolves to stop(). */
export async function listenForLinkChanges(sql: Pg, forget: (id: string) => void): Promise<() => Promise<void>> {
  const subscription = await sql.listen(CHANNEL, forget, () => forget(EVERY_LINK));
  return () => subscription.unlisten();
}
