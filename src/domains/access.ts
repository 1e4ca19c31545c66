// Who may make links on a domain (docs/api.md: Links on several domains): every domain
// is open to every creator unless an admin restricts it; a restricted one takes admins and the users
// and keys it names. Reading, changing and deleting a link stay its owner's and admins' as before.

import type { Actor } from "../auth/policy.ts";
import type { Domain } from "./domain.ts";

/** Whether `who` (null: an anonymous create) may create a link on the domain. */
export function mayCreateOn(entry: Pick<Domain, "creators">, who: Actor): boolean {
  if (entry.creators === null) return true;
  if (who === null) return false;
  if (who.scope === "admin") return true;
  if (who.user !== null && entry.creators.users.includes(who.user.id)) return true;
  return who.keyId !== null && entry.creators.keys.includes(who.keyId);
}
