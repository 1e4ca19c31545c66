// Imports in SQLite (the ImportTarget of src/imports/target.ts): each write one IMMEDIATE
// transaction, short enough (a page of links or visits) that the service's recorder, sharing the
// file, waits for it a few milliseconds at most.

import type { Database } from "bun:sqlite";
import type { CountRows, Cursor, ImportTarget } from "../../imports/target.ts";
import type { Visit } from "../../visits/visit.ts";
import type { Synchronous } from "../../util/maybe.ts";
import { sqliteLinks } from "./links.ts";
import { sqliteImportWriter } from "./visit-batches.ts";
import { linkKey } from "../../domains/link-key.ts";
import { DEFAULT_SETTINGS } from "../../domains/domain.ts";
import { sqliteDomains } from "./domains.ts";

export function sqliteImports(db: Database): Synchronous<ImportTarget> {
  const links = sqliteLinks(db);
  const write = sqliteImportWriter(db);
  const imported = db.query<{ code: string; domain: string; id: string; seq: number }, [string]>(
    "SELECT i.code, l.domain, l.id, l.seq FROM import_links AS i JOIN links AS l ON l.seq = i.link_seq WHERE i.source = ?",
  );
  // The (domain, id) pairs asked, as a JSON array of [domain, id]: each found by links' and retired_ids' (domain, id) keys.
  const taken = db.query<{ domain: string; id: string; how: "taken" | "retired" }, [string]>(
    `WITH asked AS (SELECT value ->> 0 AS domain, value ->> 1 AS id FROM json_each(?1))
     SELECT l.domain, l.id, 'taken' AS how FROM asked JOIN links AS l ON l.domain = asked.domain AND l.id = asked.id
     UNION ALL SELECT r.domain, r.id, 'retired' FROM asked JOIN retired_ids AS r ON r.domain = asked.domain AND r.id = asked.id`,
  );
  const domains = sqliteDomains(db);
  const remember = db.query<void, [string, string, number]>("INSERT OR REPLACE INTO import_links (source, code, link_seq) VALUES (?, ?, ?)");
  const disable = db.query<void, [number]>("UPDATE links SET disabled = 1 WHERE seq = ?");
  const readCursor = db.query<{ cursor: string }, [string, string]>("SELECT cursor FROM import_cursors WHERE source = ? AND scope = ?");
  const readCursors = db.query<{ scope: string; cursor: string }, [string, string, string]>(
    "SELECT scope, cursor FROM import_cursors WHERE source = ? AND scope >= ? AND scope < ?",
  );
  const moveCursor = db.query<void, [string, string, string]>("INSERT OR REPLACE INTO import_cursors (source, scope, cursor) VALUES (?, ?, ?)");

  const insertCursor = db.query<void, [string, string, string]>("INSERT OR IGNORE INTO import_cursors (source, scope, cursor) VALUES (?, ?, ?)");
  const replaceCursor = db.query<void, [string, string, string, string]>("UPDATE import_cursors SET cursor = ? WHERE source = ? AND scope = ? AND cursor = ?");
  const dropCursor = db.query<void, [string, string, string]>("DELETE FROM import_cursors WHERE source = ? AND scope = ? AND cursor = ?");
  const addLinks = db.transaction((source: string, rows: Parameters<ImportTarget["addLinks"]>[1]): string[] => {
    const refused: string[] = [];
    for (const r of rows) {
      const outcome = links.insert(r.id, r.link, r.createdAt);
      if (typeof outcome !== "number") {
        refused.push(r.key);
        continue;
      }
      if (r.disabled) disable.run(outcome);
      remember.run(source, r.key, outcome);
    }
    return refused;
  });
  const addVisits = db.transaction((source: string, cursors: readonly Cursor[], visits: Visit[]) => {
    write.visits(visits);
    for (const [scope, cursor] of cursors) moveCursor.run(source, scope, cursor);
  });
  const addCounts = db.transaction((source: string, cursors: readonly Cursor[], counts: CountRows) => {
    write.counts(counts);
    for (const [scope, cursor] of cursors) moveCursor.run(source, scope, cursor);
  });

  return {
    importedLinks: (source) => new Map(imported.all(source).map((r) => [r.code, { id: linkKey(r.domain, r.id), seq: r.seq }])),
    takenIds: (asked) => new Map(taken.all(JSON.stringify(asked.map((a) => [a.domain, a.id]))).map((r) => [linkKey(r.domain, r.id), r.how])),
    domains: () => domains.settings(),
    addDomain: (name, now) => domains.add({ ...DEFAULT_SETTINGS, name, isDefault: false, createdAt: now }) !== "taken",
    addLinks: (source, rows) => addLinks.immediate(source, rows),
    cursor: (source, scope) => readCursor.get(source, scope)?.cursor ?? null,
    swapCursor(source, scope, expected, next) {
      if (expected === null) return next !== null && insertCursor.run(source, scope, next).changes === 1;
      return (next === null ? dropCursor.run(source, scope, expected) : replaceCursor.run(next, source, scope, expected)).changes === 1;
    },
    cursors: (source, prefix) => new Map(readCursors.all(source, prefix, prefix + "\uffff").map((r) => [r.scope, r.cursor])),
    addVisits: (source, cursors, visits) => addVisits.immediate(source, cursors, visits),
    addCounts: (source, cursors, counts) => addCounts.immediate(source, cursors, counts),
  };
}
