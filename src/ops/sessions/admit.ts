// Lets in a person an identity provider or a trusted proxy vouched for (docs/sign-in.md: Users and
// admins): created on first sight, refused when outside the allowed group or disabled. A proxy's
// user is admitted on every request (a read), so a disable takes effect at once on every instance.

import { adminOf, allowedIn, USER_TOUCH_INTERVAL_MS, type Identity, type SignInRules, type User, type UserRepository } from "../../auth/users.ts";
import type { Logger } from "../../log.ts";
import { done, refused, type Outcome, type Problem } from "../outcome.ts";

export type AdmitDeps = { users: UserRepository; log: Logger; now: () => number };

/** Nobody is asking yet: the identity is who will be. */
export async function admitUser(_actor: null, input: { identity: Identity; rules: SignInRules }, deps: AdmitDeps): Promise<Outcome<User>> {
  const { identity, rules } = input;
  if (!allowedIn(identity, rules.allowedGroup)) {
    deps.log.info("auth failed", { reason: "group_not_allowed", user: identity.name });
    return refused("group_not_allowed", `${identity.name} is not in the group allowed to sign in (${rules.allowedGroup})`);
  }
  const user = await deps.users.upsert(identity, adminOf(identity, rules.admin), deps.now(), USER_TOUCH_INTERVAL_MS);
  if (user.disabledAt !== null) {
    deps.log.info("auth failed", { reason: "user_disabled", user: user.name });
    return { ok: false, problem: userDisabled() };
  }
  return done(user);
}

/** A disabled user is refused however they come: a key of theirs, a session, a provider or a proxy. */
export function userDisabled(): Problem {
  return { code: "user_disabled", message: "this user is disabled; an admin can enable them again (shortener user enable)" };
}
