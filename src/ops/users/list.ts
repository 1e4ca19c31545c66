// The people who signed in (through the OpenID provider or a trusted proxy), oldest first: an admin's to see.

import type { User } from "../../auth/users.ts";
import type { Actor } from "../../auth/policy.ts";
import { adminRefusal, type AccountsDeps } from "../accounts.ts";
import { done, type Outcome } from "../outcome.ts";

export async function listUsers(actor: Actor, _input: null, deps: Pick<AccountsDeps, "users">): Promise<Outcome<User[]>> {
  const refusal = adminRefusal(actor, "users need an admin");
  return refusal ?? done(await deps.users.list());
}
