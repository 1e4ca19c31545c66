// Sign-in and sessions (docs/sign-in.md: Signing in): users, the session, sign-in with a key.

import { t } from "elysia";
import { SCOPES } from "../../auth/keys.ts";
import { closed, ok, oneOf } from "./common.ts";

const Access = oneOf(["public", "key"]);
export const User = t.Object(
  { id: t.Integer(), name: t.String(), email: t.Union([t.String(), t.Null()]), admin: t.Boolean(), source: oneOf(["oidc", "header", "tailscale"]) },
  { ...closed, description: "a person who signed in through the provider or the proxy" },
);
const SignInOptions = t.Object(
  {
    key: t.Boolean({ description: "a key may be pasted into the dashboard (false with --oidc-only)" }),
    oidc: t.Union([t.Object({ name: t.String(), url: t.String() }, closed), t.Null()], { description: "the provider's button: its name, and where the sign-in starts" }),
  },
  closed,
);
export const Session = ok(
  t.Object(
    {
      signedIn: t.Boolean(),
      name: t.Optional(t.String({ description: "the key's name, or the user's" })),
      scope: t.Optional(oneOf(SCOPES)),
      user: t.Optional(t.Union([User, t.Null()], { description: "the person it acts as; null for a key of nobody's" })),
      via: t.Optional(oneOf(["key", "session", "header"])),
      createAccess: Access,
      statsAccess: Access,
      signIn: SignInOptions,
    },
    closed,
  ),
);
export const SignIn = t.Object({ key: t.String({ description: "an API key, or the systemd credential" }) });
export const SignedIn = ok(t.Object({ name: t.String(), scope: oneOf(SCOPES) }, closed));
export const SignedOut = ok(
  t.Object({ signedOut: t.Literal(true), endSessionUrl: t.Optional(t.String({ description: "the provider's sign-out, for a user who signed in through it" })) }, closed),
);
