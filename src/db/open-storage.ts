// Opens the storage a --db value names (src/db/storage.ts): the engine's adapters (a SQLite file or
// a PostgreSQL URL) with the domain's rules put over them, the same way for both.

import { engineOf, type EngineStorage, type Storage } from "./storage.ts";
import { openSqliteStorage } from "./sqlite/storage.ts";
import { createLinkStore, type LinkEvents, type LinkRepository, type LinkStore } from "../links/store.ts";
import { sqliteLinks } from "./sqlite/links.ts";
import { createStatsReader } from "../stats/link-stats.ts";
import { createKeyStore, type KeyStore } from "../auth/keys.ts";
import { createShareStore } from "../stats/shares.ts";
import { createSessionStore } from "../auth/sessions.ts";
import { createOverview } from "../stats/overview.ts";
import { openDatabase } from "./sqlite/open.ts";
import { sqliteKeys } from "./sqlite/keys.ts";
import { sqliteUsers } from "./sqlite/users.ts";
import type { UserRepository } from "../auth/users.ts";
import { sqliteImports } from "./sqlite/imports.ts";
import type { ImportTarget } from "../imports/target.ts";
import type { EventStore } from "../events/store.ts";
import { releaseClaims, sqliteEvents } from "./sqlite/events.ts";
import type { InstanceRegistry } from "../instances/registry.ts";
import { sqliteInstances } from "./sqlite/instances.ts";
import type { Logger } from "../log.ts";

export type StorageOptions = {
  /** SQLite: how long the click thread's connection waits for the write lock */
  busyTimeoutMs: number;
  /** PostgreSQL: the password when the URL has none (the systemd credential db-password) */
  password: string | null;
  /** The events links' changes write with them (docs/webhooks.md: Webhooks); none when absent. */
  linkEvents?: LinkEvents;
  /** SQLite: a write found the write lock taken and tries again; the recorder is asked to hurry. */
  onWriteBusy?: () => void;
  /** SQLite: where the reader thread's death is told (src/threads/start.ts). */
  log?: Logger;
};

/** The PostgreSQL adapters, loaded when a --db names PostgreSQL (src/db/postgres/engine.ts). */
const postgres = () => import("./postgres/engine.ts");

export async function openStorage(location: string, options: StorageOptions): Promise<Storage> {
  const engine = engineOf(location) === "postgres" ? await (await postgres()).openPostgresStorage(location, options.password) : await openSqliteStorage(location, options.busyTimeoutMs, true, options.onWriteBusy, options.log);
  try {
    return await withRules(engine, options.linkEvents);
  } catch (err) {
    await engine.close().catch(() => {});
    throw err;
  }
}

/** The domain's rules over an engine's adapters (also what the contract tests run against both engines). */
export async function withRules(engine: EngineStorage, linkEvents?: LinkEvents): Promise<Storage> {
  const links = createLinkStore(engine.links, engine.budget, { events: linkEvents });
  await engine.follow?.(links);
  return {
    engine: engine.engine,
    where: engine.where,
    links,
    lister: engine.lister,
    stats: createStatsReader(engine.stats),
    keys: createKeyStore(engine.keys),
    sessions: createSessionStore(engine.sessions),
    shares: createShareStore(engine.shares),
    users: engine.users,
    salts: engine.salts,
    imports: engine.imports,
    events: engine.events,
    instances: engine.instances,
    domains: engine.domains,
    relayLive: engine.relayLive,
    ...createOverview(engine.overview),
    visitPages: engine.visitPages,
    visitExport: engine.visitExport,
    orphans: engine.orphans,
    ping: engine.ping,
    size: engine.size,
    idsAmong: engine.idsAmong,
    close: engine.close,
  };
}

/** Only the API keys and the users, for the `shortener key` and `user` commands (the schema brought up to date first). */
export async function openAccounts(location: string, password: string | null): Promise<{ keys: KeyStore; users: UserRepository; close: () => Promise<void> }> {
  if (engineOf(location) === "sqlite") {
    const db = openDatabase(location);
    return { keys: createKeyStore(sqliteKeys(db)), users: sqliteUsers(db), close: async () => db.close() };
  }
  const { postgresKeys, postgresUsers } = await postgres();
  const sql = await connectMigrated(location, password, 1);
  return { keys: createKeyStore(postgresKeys(sql)), users: postgresUsers(sql), close: () => sql.close({ timeout: 5 }) };
}

/** Only what an import writes (`shortener import`, and the dashboard's import on a thread of its own), on a connection of its own. */
export async function openImports(location: string, password: string | null): Promise<{ imports: ImportTarget; close: () => Promise<void> }> {
  if (engineOf(location) === "sqlite") {
    const db = openDatabase(location);
    // An import's transaction waits for the service's recorder (and the other way round) this long at most.
    db.run("PRAGMA busy_timeout = 10000");
    // Imported history fills the rollups across a link's days and dimensions, page after page: a
    // page cache of 256 MiB instead of 2 keeps their index pages in memory.
    db.run("PRAGMA cache_size = -262144");
    return { imports: sqliteImports(db), close: async () => db.close() };
  }
  const { postgresImports } = await postgres();
  const sql = await connectMigrated(location, password, 2);
  return { imports: postgresImports(sql), close: () => sql.close({ timeout: 5 }) };
}

/**
 * Only the events' port, for the delivery thread and `shortener webhook`, on a connection of its own,
 * with the instances' records (what the service that delivers allows) and a link's read by id (a
 * webhook's link filter names one; SQLite's link statements are prepared on the first read).
 * `delivering`: the delivery thread, which owns the sends of a SQLite file (what a killed process had claimed is free again).
 */
export async function openEvents(location: string, password: string | null, delivering: boolean): Promise<{ events: EventStore; instances: InstanceRegistry; links: LinkReader; close: () => Promise<void> }> {
  if (engineOf(location) === "sqlite") {
    const db = openDatabase(location);
    if (delivering) releaseClaims(db);
    let repo: LinkRepository | undefined;
    const links: LinkReader = { get: (id) => (repo ??= sqliteLinks(db)).read(id) };
    return { events: sqliteEvents(db), instances: sqliteInstances(db), links, close: async () => db.close() };
  }
  const { postgresEvents, postgresInstances, postgresLinks } = await postgres();
  const sql = await connectMigrated(location, password, 3);
  const repo = postgresLinks(sql);
  return { events: postgresEvents(sql), instances: postgresInstances(sql), links: { get: (id) => repo.read(id) }, close: () => sql.close({ timeout: 5 }) };
}

/** A link read by its id (null: no such link). */
type LinkReader = Pick<LinkStore, "get">;

/** A small pool of a command's own, the schema brought up to date first (closed again if that fails). */
async function connectMigrated(location: string, password: string | null, max: number) {
  const { connectPostgres, migratePostgres } = await postgres();
  const sql = connectPostgres(location, { max, password });
  try {
    await migratePostgres(sql);
  } catch (err) {
    await sql.close({ timeout: 1 }).catch(() => {});
    throw err;
  }
  return sql;
}
