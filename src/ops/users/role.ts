// Makes a user an admin or a member. A provider's admin group, when there is one, sets the flag
// again at their next sign-in (docs/sign-in.md: Users and admins).

import type { User } from "../../auth/users.ts";
import type { Actor } from "../../auth/policy.ts";
import { logAction } from "../audit.ts";
import { adminRefusal, type AccountsDeps } from "../accounts.ts";
import { done, refused, type Outcome } from "../outcome.ts";

export async function setUserRole(actor: Actor, input: { userId: number; admin: boolean }, deps: Pick<AccountsDeps, "users" | "log">): Promise<Outcome<User>> {
  const refusal = adminRefusal(actor, "users need an admin");
  if (refusal !== null) return refusal;
  if (!(await deps.users.setAdmin(input.userId, input.admin))) return refused("not_found", `no user #${input.userId}`);
  const user = (await deps.users.byId(input.userId))!;
  logAction(deps.log, actor!, input.admin ? "user-admin" : "user-member", `#${user.id}`, `ok ${user.name}`);
  return done(user);
}
