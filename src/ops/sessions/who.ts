// Who is asking, as the dashboard shows it, with what this service lets anyone do and how one signs in.

import type { Actor } from "../../auth/policy.ts";
import { userJson, type UserJson } from "../../auth/users.ts";
import type { Config } from "../../config.ts";
import { done, type Outcome } from "../outcome.ts";

export type SignInWays = { key: boolean; oidc: { name: string; url: string } | null };
export type Policy = Pick<Config, "createAccess" | "statsAccess"> & { signIn: SignInWays };
export type Who = Policy & ({ signedIn: false } | { signedIn: true; name: string; scope: string; user: UserJson | null; via: string });

export async function whoIsAsking(actor: Actor, _input: null, deps: { policy: Policy }): Promise<Outcome<Who>> {
  const policy = { createAccess: deps.policy.createAccess, statsAccess: deps.policy.statsAccess, signIn: deps.policy.signIn };
  if (actor === null) return done({ signedIn: false, ...policy });
  return done({ signedIn: true, name: actor.name, scope: actor.scope, user: actor.user === null ? null : userJson(actor.user), via: actor.via, ...policy });
}
