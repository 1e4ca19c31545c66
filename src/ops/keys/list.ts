// Every API key, revoked ones too, with the names of the users they belong to: an admin's to see.

import type { ApiKey } from "../../auth/keys.ts";
import type { Actor } from "../../auth/policy.ts";
import { adminRefusal, type AccountsDeps } from "../accounts.ts";
import { done, type Outcome } from "../outcome.ts";

/** A key, with its user's name (null: nobody's; a user since gone shows as `#id`). */
export type KeyListing = ApiKey & { userName: string | null };

export async function listKeys(actor: Actor, _input: null, deps: Pick<AccountsDeps, "keys" | "users">): Promise<Outcome<KeyListing[]>> {
  const refusal = adminRefusal(actor, "keys need an admin");
  if (refusal !== null) return refusal;
  const names = new Map((await deps.users.list()).map((u) => [u.id, u.name]));
  const keys = await deps.keys.list();
  return done(keys.map((k) => ({ ...k, userName: k.userId === null ? null : (names.get(k.userId) ?? `#${k.userId}`) })));
}
