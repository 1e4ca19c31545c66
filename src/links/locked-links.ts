// Links whose stored password hash is outside the bounds a verify may cost (password-hash.ts):
// written by an older version that accepted any argon2id parameters, or put into the database by
// hand. Their clicks answer locked (never verified) until the owner sets a new password or removes
// it; the operator learns which links they are once, at start (docs/security.md: Security).

import type { Logger } from "../log.ts";
import type { LinkStore } from "./store.ts";
import { passwordHashWithinBounds } from "./password-hash.ts";

/** Ids a start-up line names at most; the count says how many more there are. */
const NAMED_AT_MOST = 1_000;

/** The ids of the links whose stored hash is outside the bounds, oldest first. */
export async function lockedLinkIds(links: Pick<LinkStore, "passwordHashes">): Promise<string[]> {
  const ids: string[] = [];
  for await (const { id, passwordHash } of links.passwordHashes()) if (!passwordHashWithinBounds(passwordHash)) ids.push(id);
  return ids;
}

/** Logs one error line naming the locked links, if there are any. */
export async function reportLockedLinks(links: Pick<LinkStore, "passwordHashes">, log: Pick<Logger, "error">): Promise<void> {
  const ids = await lockedLinkIds(links);
  if (ids.length === 0) return;
  const named = ids.length > NAMED_AT_MOST ? `${ids.slice(0, NAMED_AT_MOST).join(", ")} and ${ids.length - NAMED_AT_MOST} more` : ids.join(", ");
  log.error(
    `${ids.length === 1 ? "a link is" : `${ids.length} links are`} locked: the stored password hash asks for more than this version verifies ` +
      `(docs/security.md: Security, password hashes); each answers 423 until its owner sets a new password (PATCH password) or removes it: ${named}`,
  );
}
