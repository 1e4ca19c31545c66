// Where everything is kept, as the service sees it: one SQLite file (the default, embedded) or a
// PostgreSQL database that several instances share. An engine's adapter (src/db/<engine>/) opens
// the ports the domain folders define (EngineStorage); open-storage.ts puts the domain's rules over
// them (Storage). SQLite's answer at once, PostgreSQL's through promises (src/util/maybe.ts).

import { resolve } from "node:path";
import type { ClickBudget, LinkRepository, LinkStore } from "../links/store.ts";
import type { LinkLister } from "../links/list.ts";
import type { StatsReader, StatsSource } from "../stats/link-stats.ts";
import type { KeyRepository, KeyStore } from "../auth/keys.ts";
import type { SessionRepository, SessionStore } from "../auth/sessions.ts";
import type { UserRepository } from "../auth/users.ts";
import type { DailyCounts, OverviewReader, OverviewSource } from "../stats/overview.ts";
import type { VisitPageSource } from "../stats/visit-pages.ts";
import type { VisitExportSource } from "../stats/visit-export.ts";
import type { MaybePromise } from "../util/maybe.ts";
import type { SaltStore } from "../visits/visitor-id.ts";
import type { ImportTarget } from "../imports/target.ts";
import type { EventStore } from "../events/store.ts";
import type { InstanceRegistry } from "../instances/registry.ts";
import type { LiveBatch } from "../events/live.ts";
import type { DomainRepository } from "../domains/repository.ts";
import type { OrphanVisitSource } from "../stats/orphan-visits.ts";
import type { ShareRepository, ShareStore } from "../stats/shares.ts";

/** How visits written by one instance reach live viewers on another (PostgreSQL; one SQLite file has one instance). */
export type LiveRelay = { announce(batch: LiveBatch): void; watchHere(watch: { ids: string[]; all: boolean }): void; stop(): Promise<void> };

export type Engine = "sqlite" | "postgres";

/** What both engines answer about the database itself. */
type Database = {
  engine: Engine;
  /** the file's path, or the URL without its password: for the log */
  where: string;
  /** Resolves when the database answers a query; throws otherwise (GET /health). */
  ping(): MaybePromise<void>;
  /** Links stored and the database's size on disk (GET /metrics). */
  size(): MaybePromise<{ links: number; bytes: number }>;
  /** Ids of stored links that are now reserved words (an upgrade added a page under that path). */
  idsAmong(words: readonly string[]): MaybePromise<string[]>;
  close(): Promise<void>;
};

/** An engine's adapters: the ports of src/links, src/stats and src/auth, one file each in src/db/<engine>/. */
export type EngineStorage = Database & {
  links: LinkRepository;
  budget: ClickBudget;
  lister: LinkLister;
  stats: StatsSource;
  overview: OverviewSource;
  /** Raw visits a page at a time, off the click thread (docs/shlink-api.md: Visits). */
  visitPages: VisitPageSource;
  /** Chunks of an export of visits, off the click thread (docs/statistics.md: Exporting visits). */
  visitExport: VisitExportSource;
  keys: KeyRepository;
  sessions: SessionRepository;
  users: UserRepository;
  /** The day's visitor salts, read on the click thread to pick a split's variant (the recorder has its own). */
  salts: SaltStore;
  /** What `shortener import` writes (links, visits and counts from another shortener, with how far it got). */
  imports: ImportTarget;
  /** Webhooks and their delivery log (docs/webhooks.md: Webhooks). */
  events: EventStore;
  /** The instances that run on the database and what they allow (src/instances/registry.ts). */
  instances: InstanceRegistry;
  /** The domains links answer on (docs/several-domains.md: Several domains). */
  domains: DomainRepository;
  /** Visits to no link (docs/statistics.md: Visits to no link). */
  orphans: OrphanVisitSource;
  /** Share links to one link's statistics, as token hashes (docs/statistics.md: Sharing statistics). */
  shares: ShareRepository;
  /** Relays the live view between instances (PostgreSQL). */
  relayLive?(publish: (batch: LiveBatch) => void, recorderWatch: (watch: { ids: string[]; all: boolean }) => void): Promise<LiveRelay>;
  /** Keeps the link store's cache in step with changes made by other instances (PostgreSQL); stopped by close(). */
  follow?(links: LinkStore): Promise<void>;
};

/** The storage the service runs on: the engine's ports behind the domain's rules. */
export type Storage = Database & {
  links: LinkStore;
  lister: LinkLister;
  stats: StatsReader;
  keys: KeyStore;
  sessions: SessionStore;
  users: UserRepository;
  salts: SaltStore;
  imports: ImportTarget;
  events: EventStore;
  instances: InstanceRegistry;
  domains: DomainRepository;
  shares: ShareStore;
  relayLive?: EngineStorage["relayLive"];
  overview: OverviewReader;
  dailyCounts: DailyCounts;
  visitPages: VisitPageSource;
  visitExport: VisitExportSource;
  orphans: OrphanVisitSource;
};

/** A postgres:// or postgresql:// URL names a PostgreSQL database; anything else is a SQLite file. */
export function engineOf(location: string): Engine {
  return /^postgres(ql)?:\/\//i.test(location) ? "postgres" : "sqlite";
}

/** The location as it may be logged: a file by its absolute path (the reader may be elsewhere), a URL without its password. */
export function describeLocation(location: string): string {
  if (engineOf(location) === "sqlite") return location === ":memory:" ? location : resolve(location);
  try {
    const url = new URL(location);
    if (url.password !== "") url.password = "***";
    return url.toString();
  } catch {
    return "(an unreadable postgres URL)";
  }
}
