// Makes an API key (docs/managing-links.md: Managing links): an admin's or the operator's to give.
// The key itself is answered once and stored as a hash only.

import { KEY_NAME_PATTERN, KeyNameTakenError, SCOPES, type ApiKey, type Scope } from "../../auth/keys.ts";
import type { User } from "../../auth/users.ts";
import type { Actor } from "../../auth/policy.ts";
import { logAction } from "../audit.ts";
import { adminRefusal, type AccountsDeps } from "../accounts.ts";
import { done, refused, type Outcome } from "../outcome.ts";

/** `scope` null: a user's key takes the user's rights (their scripts see what their browser sees), any other key is an admin's. */
export type NewKey = { name: string; scope: Scope | null; userId: number | null };

export async function createKey(actor: Actor, input: NewKey, deps: AccountsDeps): Promise<Outcome<{ key: string; record: ApiKey; user: User | null }>> {
  const refusal = adminRefusal(actor, "keys need an admin: an admin key may do anything");
  if (refusal !== null) return refusal;
  if (!KEY_NAME_PATTERN.test(input.name)) return refused("bad_request", "a key name is 1 to 64 letters, digits, dots, hyphens or underscores", "key");
  if (input.scope !== null && !SCOPES.includes(input.scope)) return refused("bad_request", `the scope must be admin or create, got ${input.scope}`);
  const user = input.userId === null ? null : await deps.users.byId(input.userId);
  if (input.userId !== null && user === null) return refused("not_found", `no user #${input.userId}`);
  const scope: Scope = input.scope ?? (user === null || user.admin ? "admin" : "create");
  try {
    const made = await deps.keys.create(input.name, scope, deps.now(), input.userId);
    logAction(deps.log, actor!, "key-create", input.name, `ok ${scope}${user === null ? "" : ` for ${user.name}`}`);
    return done({ ...made, user });
  } catch (err) {
    if (err instanceof KeyNameTakenError) return refused("bad_request", `a key named "${input.name}" exists; revoke it first or choose another name`, "key");
    throw err;
  }
}
