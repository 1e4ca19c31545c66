// Disables a user (their sessions end in the same transaction, their keys are refused from the next
// request on, on every instance) or enables them again.

import type { User } from "../../auth/users.ts";
import type { Actor } from "../../auth/policy.ts";
import { logAction } from "../audit.ts";
import { adminRefusal, type AccountsDeps } from "../accounts.ts";
import { done, refused, type Outcome } from "../outcome.ts";

export async function setUserDisabled(actor: Actor, input: { userId: number; disabled: boolean }, deps: Pick<AccountsDeps, "users" | "log" | "now">): Promise<Outcome<User>> {
  const refusal = adminRefusal(actor, "users need an admin");
  if (refusal !== null) return refusal;
  if (!(await deps.users.setDisabled(input.userId, input.disabled ? deps.now() : null))) return refused("not_found", `no user #${input.userId}`);
  const user = (await deps.users.byId(input.userId))!;
  logAction(deps.log, actor!, input.disabled ? "user-disable" : "user-enable", `#${user.id}`, `ok ${user.name}`);
  return done(user);
}
