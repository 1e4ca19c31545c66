// Ends a session on the server. A user who signed in through the OpenID provider is offered its
// end-session URL: the provider's own session would sign them straight back in.

import type { SessionStore } from "../../auth/sessions.ts";
import type { Actor } from "../../auth/policy.ts";
import type { Logger } from "../../log.ts";
import { logAction } from "../audit.ts";
import { done, type Outcome } from "../outcome.ts";

/** The provider a session may have come from, and the address it sends a signed-out user back to (null: --base-url unset). */
export type SignOutDeps = {
  sessions: Pick<SessionStore, "end">;
  log: Logger;
  provider: { issuer: string; endSessionUrl(returnTo: string): string | null } | null;
  baseUrl: string | null;
};

/** `token`: the session's (null: none was sent, nothing to end). Anyone may sign out, even an ended session. */
export async function signOut(actor: Actor, input: { token: string | null }, deps: SignOutDeps): Promise<Outcome<{ endSessionUrl: string | null }>> {
  if (input.token !== null) {
    await deps.sessions.end(input.token);
    if (actor !== null) logAction(deps.log, actor, "sign-out", null, "ok");
  }
  const fromProvider = actor?.via === "session" && deps.provider !== null && actor.user?.source === deps.provider.issuer;
  const endSessionUrl = fromProvider && deps.baseUrl !== null ? deps.provider!.endSessionUrl(`${deps.baseUrl}/`) : null;
  return done({ endSessionUrl });
}
