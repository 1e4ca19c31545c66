// Daily visitor salts in SQLite (the SaltStore of src/visits/visitor-id.ts).

import type { Database } from "bun:sqlite";
import type { SaltStore } from "../../visits/visitor-id.ts";
import type { Synchronous } from "../../util/maybe.ts";

export function sqliteSalts(db: Database): Synchronous<SaltStore> {
  const select = db.query<{ salt: Uint8Array }, [string]>("SELECT salt FROM visitor_salts WHERE day = ?");
  // INSERT OR IGNORE then SELECT again: two recorders (or a restart racing one) agree on one salt.
  const insert = db.query<void, [string, Uint8Array]>("INSERT OR IGNORE INTO visitor_salts (day, salt) VALUES (?, ?)");
  const remove = db.query<void, [string]>("DELETE FROM visitor_salts WHERE day < ?");
  return {
    saltOf(day, fresh) {
      // The stored salt first: a restart on a full or read-only disk still finds the day's salt,
      // and a day's salt is written once, not tried again by every process that needs it.
      const stored = select.get(day);
      if (stored !== null) return stored.salt;
      insert.run(day, fresh);
      return select.get(day)!.salt;
    },
    forgetBefore: (day) => remove.run(day).changes,
  };
}
