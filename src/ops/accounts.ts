// What the operations on keys and users share: the ports they need, and the refusal of anyone but
// an admin (or the operator, who may do what an admin may: docs/architecture.md: Who is asking).

import type { KeyStore } from "../auth/keys.ts";
import type { UserRepository } from "../auth/users.ts";
import { isAdmin, type Actor } from "../auth/policy.ts";
import type { Logger } from "../log.ts";
import { refused, type Problem } from "./outcome.ts";

export type AccountsDeps = { keys: KeyStore; users: UserRepository; log: Logger; now: () => number };

/** The refusal of a non-admin, saying `why`; null when the actor is an admin. */
export function adminRefusal(actor: Actor, why: string): { ok: false; problem: Problem } | null {
  if (actor === null) return refused("auth_required", "this needs an API key: send Authorization: Bearer <key>, or sign in");
  return isAdmin(actor) ? null : refused("admin_only", why);
}
