// The frame every route of the Shlink surface is written against (docs/shlink-api.md: Shlink API):
// a route is a method, a path under /rest/v{1,2,3} and a handler; the router (shlink.ts) matches it,
// answers CORS and preflights, checks the key, and turns a thrown ShlinkProblem or a storage
// failure into Shlink's problem document. Handlers translate; the operations (src/ops) decide.

import type { AppDeps } from "../../../app.ts";
import type { Principal } from "../../../auth/policy.ts";
import type { StatsReader } from "../../../stats/link-stats.ts";
import type { LinksDeps } from "../../links.ts";
import type { PeerServer } from "../../request-origin.ts";

/** What the Shlink surface reaches; parts add what they need here (picked from src/app.ts AppDeps). */
export type ShlinkDeps = LinksDeps & { stats: StatsReader } & Pick<AppDeps, "domains" | "visitPages" | "orphans">
  // health: the database's ping and our version; the last resort for our own bugs
  & Pick<AppDeps, "storage" | "version" | "lastResort">;

/** Who may call a route: a key (X-Api-Key), nobody in particular (health), or a key in `?apiKey=` (the shorten route). */
export type ShlinkAuth = "key" | "none" | "api-key-param";

export type ShlinkCall = {
  request: Request;
  server: PeerServer;
  deps: ShlinkDeps;
  /** path parameters, percent-decoded once (the SDK does not encode them; the browser does) */
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  /** the caller; null only on a route whose auth is "none" */
  principal: Principal | null;
  /** the body's fields, JSON object or urlencoded form alike; throws a ShlinkProblem on a bad body */
  body: () => Promise<Record<string, unknown>>;
};

export type ShlinkRoute = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** after the version prefix, with `:name` parameters: "/short-urls/:shortCode/visits" */
  path: string;
  auth: ShlinkAuth;
  handle: (call: ShlinkCall) => Promise<Response>;
};
