// Imports from other shorteners (docs/importing.md: Moving from another shortener): admins only, since an
// import writes links for everyone and reaches out to the address it is given.

import { adminRefusal } from "../accounts.ts";
import type { Actor } from "../../auth/policy.ts";
import type { Problem } from "../outcome.ts";

/** The refusal of anyone but an admin (asked by a surface before it reads a request's body, and by the operations). */
export function importsRefusal(actor: Actor): { ok: false; problem: Problem } | null {
  return adminRefusal(actor, "imports need an admin: they write links for everyone");
}

/** The refusal of anyone but an admin, for a look at an import under way. */
export function importJobRefusal(actor: Actor): { ok: false; problem: Problem } | null {
  return adminRefusal(actor, "imports need an admin");
}
