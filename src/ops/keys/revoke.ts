// Revokes the key in use under a name: it stops working at once, since every request looks its key up.

import type { Actor } from "../../auth/policy.ts";
import { logAction } from "../audit.ts";
import { adminRefusal, type AccountsDeps } from "../accounts.ts";
import { done, refused, type Outcome } from "../outcome.ts";

export async function revokeKey(actor: Actor, input: { name: string }, deps: Pick<AccountsDeps, "keys" | "log" | "now">): Promise<Outcome<{ revoked: string }>> {
  const refusal = adminRefusal(actor, "keys need an admin");
  if (refusal !== null) return refusal;
  if (!(await deps.keys.revoke(input.name, deps.now()))) return refused("not_found", `no key in use named "${input.name}"`, "key");
  logAction(deps.log, actor!, "key-revoke", input.name, "ok");
  return done({ revoked: input.name });
}
