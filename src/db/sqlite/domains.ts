// The domains on a SQLite file (the DomainRepository of src/domains/repository.ts): each change
// that moves links does so in the same IMMEDIATE transaction as its row.

import type { Database } from "bun:sqlite";
import type { DomainRepository, StoredDomain } from "../../domains/repository.ts";
import { DEFAULT_DOMAIN } from "../../domains/domain.ts";
import type { Synchronous } from "../../util/maybe.ts";
import * as q from "../shared/domain-rows.ts";

export function sqliteDomains(db: Database): Synchronous<DomainRepository> {
  const list = db.query<Record<string, unknown>, []>(q.LIST_SQL);
  const settings = db.query<Record<string, unknown>, []>(q.SETTINGS_SQL);
  const one = db.query<Record<string, unknown>, [string]>(q.ONE_SQL);
  const clash = db.query<{ id: string }, [string, string, string]>(q.CLASH_SQL);
  const get = (name: string): StoredDomain | null => {
    const row = one.get(name);
    return row === null ? null : q.toDomain(row);
  };
  const clashes = (from: string, to: string) => clash.all(from, to, to).map((r) => r.id);
  const moveRows = (from: string, to: string) => {
    db.run(q.DROP_SHADOWED_RETIRED_SQL, [from, to, to, to, from]);
    db.run(q.MOVE_RETIRED_SQL, [to, from]);
    return db.run(q.MOVE_LINKS_SQL, [to, from]).changes;
  };
  const txn = <T>(f: () => T): T => db.transaction(f).immediate();
  return {
    list: () => list.all().map(q.toDomain),
    settings: () => settings.all().map(q.toDomain),
    add: (domain) => txn(() => (db.run(q.INSERT_SQL, q.insertValues(domain)).changes === 0 ? "taken" : get(domain.name)!)),
    change: (name, settings) =>
      txn(() => {
        const columns = q.settingColumns(settings);
        if (columns.length > 0) db.run(`UPDATE domains SET ${columns.map(([c]) => `${c} = ?`).join(", ")} WHERE name = ?`, [...columns.map(([, v]) => v), name]);
        return get(name);
      }),
    rename: (name, to) =>
      txn(() => {
        const found = get(name);
        if (found === null) return "missing";
        if (get(to) !== null) return "taken";
        db.run(q.RENAME_ROW_SQL, [to, name]);
        if (!found.isDefault) moveRows(name, to);
        return get(to)!;
      }),
    makeDefault: (name) =>
      txn(() => {
        const found = get(name);
        if (found === null) return "missing";
        if (found.isDefault) return found;
        const former = (db.query(q.DEFAULT_NAME_SQL).get() as { name: string } | null)?.name ?? null;
        // The former default's links take its name (a swap: nothing can clash); with no former row
        // (a virtual default) the '' links stay the default's, and this domain's join them.
        if (former !== null) {
          for (const [to, from] of [[q.SWAP_PLACE, name], [former, DEFAULT_DOMAIN], [DEFAULT_DOMAIN, q.SWAP_PLACE]]) {
            for (const statement of q.MOVE_ALL_SQL) db.run(statement, [to!, from!]);
          }
        } else {
          const both = clashes(name, DEFAULT_DOMAIN);
          if (both.length > 0) return { clash: both };
          moveRows(name, DEFAULT_DOMAIN);
        }
        db.run(q.CLEAR_DEFAULT_SQL);
        db.run(q.SET_DEFAULT_SQL, [name]);
        return get(name)!;
      }),
    moveLinks: (from, to) =>
      txn(() => {
        const both = clashes(from, to);
        return both.length > 0 ? { clash: both } : moveRows(from, to);
      }),
    remove: (name) =>
      txn(() => {
        const found = get(name);
        if (found === null) return "missing";
        if (found.links > 0) return "has_links";
        db.run(q.REMOVE_SQL, [name]);
        return "removed";
      }),
  };
}
