// Where everything is kept, as the service sees it: one SQLite file (the default, embedded) or a
// PostgreSQL database that several instances share. Each part has one interface (its own file says
// what it promises) and an implementation per engine; SQLite's answer at once, PostgreSQL's
// through promises, and callers await either (src/util/maybe.ts).

import type { LinkStore } from "../links/store.ts";
import type { LinkLister } from "../links/list.ts";
import type { StatsReader } from "../stats/queries.ts";
import type { KeyStore } from "../auth/keys.ts";
import type { SessionStore } from "../auth/sessions.ts";
import type { DailyCounts, OverviewReader } from "../stats/overview.ts";
import type { MaybePromise } from "../util/maybe.ts";

export type Engine = "sqlite" | "postgres";

export type Storage = {
  engine: Engine;
  /** the file's path, or the URL without its password: for the log */
  where: string;
  links: LinkStore;
  lister: LinkLister;
  stats: StatsReader;
  keys: KeyStore;
  sessions: SessionStore;
  overview: OverviewReader;
  dailyCounts: DailyCounts;
  /** Resolves when the database answers a query; throws otherwise (GET /health). */
  ping(): MaybePromise<void>;
  /** Links stored and the database's size on disk (GET /metrics). */
  size(): MaybePromise<{ links: number; bytes: number }>;
  /** Ids of stored links that are now reserved words (an upgrade added a page under that path). */
  idsAmong(words: readonly string[]): MaybePromise<string[]>;
  close(): Promise<void>;
};

/** A postgres:// or postgresql:// URL names a PostgreSQL database; anything else is a SQLite file. */
export function engineOf(location: string): Engine {
  return /^postgres(ql)?:\/\//i.test(location) ? "postgres" : "sqlite";
}

/** The location as it may be logged: a URL loses its password. */
export function describeLocation(location: string): string {
  if (engineOf(location) === "sqlite") return location;
  try {
    const url = new URL(location);
    if (url.password !== "") url.password = "***";
    return url.toString();
  } catch {
    return "(an unreadable postgres URL)";
  }
}
