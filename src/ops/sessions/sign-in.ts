// Starts a session for the dashboard (docs/sign-in.md: Signing in with a key): for a key that was
// checked, or for a user a provider vouched for (admitUser). A key's sign-in may be switched off
// (--oidc-only): keys still work as Authorization: Bearer for scripts.

import type { SessionOwner, SessionStore } from "../../auth/sessions.ts";
import type { Actor, Principal } from "../../auth/policy.ts";
import type { Logger } from "../../log.ts";
import { logAction } from "../audit.ts";
import { done, refused, type Outcome, type Problem } from "../outcome.ts";

/** Whether a key may start a session, and what the provider that signs in instead is called. */
export type KeySignIn = { allowed: boolean; provider: string | null };

export type SignInDeps = { sessions: Pick<SessionStore, "start">; log: Logger; now: () => number; keySignIn: KeySignIn };

/** The refusal of a key's sign-in where only the provider signs in (asked by a surface before it reads the key, and by signIn). */
export function keySignInRefusal(keySignIn: KeySignIn): { ok: false; problem: Problem } | null {
  if (keySignIn.allowed) return null;
  return refused("key_sign_in_off", `the dashboard signs in through ${keySignIn.provider ?? "the identity provider"} only (--oidc-only); keys still work as Authorization: Bearer for scripts`);
}

/** `owner`: the checked key's hash, or the admitted user's id. Answers the session's token (the cookie's value). */
export async function signIn(actor: Actor, input: { owner: SessionOwner }, deps: SignInDeps): Promise<Outcome<{ token: string; principal: Principal }>> {
  if (actor === null) return refused("auth_required", "signing in needs a key or a provider's word");
  const fromKey = input.owner.keyHash !== undefined;
  if (fromKey) {
    const off = keySignInRefusal(deps.keySignIn);
    if (off !== null) return off;
  }
  const token = await deps.sessions.start(input.owner, deps.now());
  logAction(deps.log, actor, "sign-in", null, fromKey ? "ok" : "ok oidc");
  return done({ token, principal: actor });
}
