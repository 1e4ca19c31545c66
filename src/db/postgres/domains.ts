// The domains on a PostgreSQL database (the DomainRepository of src/domains/repository.ts): each
// change that moves links does so in the same transaction as its row, the domains locked first so
// that two changes of domains at once are taken one after the other; and announces that every link
// changed (src/db/postgres/link-changes.ts), so that the other instances' link caches forget them.

import type { TransactionSQL } from "bun";
import type { DomainRepository, StoredDomain } from "../../domains/repository.ts";
import { DEFAULT_DOMAIN } from "../../domains/domain.ts";
import * as q from "../shared/domain-rows.ts";
import { numbered, type Pg } from "./connect.ts";
import { announce } from "./link-changes.ts";
import { EVERY_LINK } from "../../links/store.ts";

const LIST = numbered(q.LIST_SQL);
const ONE = numbered(q.ONE_SQL);
const CLASH = numbered(q.CLASH_SQL);
const INSERT = numbered(q.INSERT_SQL);

export function postgresDomains(sql: Pg): DomainRepository {
  const txn = <T>(f: (tx: TransactionSQL) => Promise<T>): Promise<T> =>
    sql.begin(async (tx) => {
      await tx`LOCK TABLE domains IN SHARE ROW EXCLUSIVE MODE`;
      return f(tx);
    }) as Promise<T>;
  return {
    list: async () => (await sql.unsafe(LIST)).map(q.toDomain),
    settings: async () => (await sql.unsafe(q.SETTINGS_SQL)).map(q.toDomain),
    add: (domain) => txn(async (tx) => ((await tx.unsafe(INSERT, q.insertValues(domain))).count === 0 ? "taken" : (await get(tx, domain.name))!)),
    change: (name, settings) =>
      txn(async (tx) => {
        const columns = q.settingColumns(settings);
        if (columns.length > 0) await tx.unsafe(`UPDATE domains SET ${columns.map(([c], i) => `${c} = $${i + 1}`).join(", ")} WHERE name = $${columns.length + 1}`, [...columns.map(([, v]) => v), name]);
        return get(tx, name);
      }),
    rename: (name, to) =>
      txn(async (tx) => {
        const found = await get(tx, name);
        if (found === null) return "missing";
        if ((await get(tx, to)) !== null) return "taken";
        await tx.unsafe(numbered(q.RENAME_ROW_SQL), [to, name]);
        if (!found.isDefault) await moveRows(tx, name, to);
        await announce(tx, EVERY_LINK);
        return (await get(tx, to))!;
      }),
    makeDefault: (name) =>
      txn(async (tx) => {
        const found = await get(tx, name);
        if (found === null) return "missing";
        if (found.isDefault) return found;
        const [former] = await tx.unsafe(q.DEFAULT_NAME_SQL);
        if (former !== undefined) {
          for (const [to, from] of [[q.SWAP_PLACE, name], [former.name, DEFAULT_DOMAIN], [DEFAULT_DOMAIN, q.SWAP_PLACE]]) {
            for (const statement of q.MOVE_ALL_SQL) await tx.unsafe(numbered(statement), [to, from]);
          }
        } else {
          const both = await clashes(tx, name, DEFAULT_DOMAIN);
          if (both.length > 0) return { clash: both };
          await moveRows(tx, name, DEFAULT_DOMAIN);
        }
        await tx.unsafe(q.CLEAR_DEFAULT_SQL);
        await tx.unsafe(numbered(q.SET_DEFAULT_SQL), [name]);
        await announce(tx, EVERY_LINK);
        return (await get(tx, name))!;
      }),
    moveLinks: (from, to) =>
      txn(async (tx) => {
        const both = await clashes(tx, from, to);
        if (both.length > 0) return { clash: both };
        const moved = await moveRows(tx, from, to);
        await announce(tx, EVERY_LINK);
        return moved;
      }),
    remove: (name) =>
      txn(async (tx) => {
        const found = await get(tx, name);
        if (found === null) return "missing";
        if (found.links > 0) return "has_links";
        await tx.unsafe(numbered(q.REMOVE_SQL), [name]);
        return "removed";
      }),
  };
}

async function get(tx: TransactionSQL, name: string): Promise<StoredDomain | null> {
  const [row] = await tx.unsafe(ONE, [name]);
  return row === undefined ? null : q.toDomain(row);
}

async function clashes(tx: TransactionSQL, from: string, to: string): Promise<string[]> {
  return (await tx.unsafe(CLASH, [from, to, to])).map((r: { id: string }) => r.id);
}

async function moveRows(tx: TransactionSQL, from: string, to: string): Promise<number> {
  await tx.unsafe(numbered(q.DROP_SHADOWED_RETIRED_SQL), [from, to, to, to, from]);
  await tx.unsafe(numbered(q.MOVE_RETIRED_SQL), [to, from]);
  return (await tx.unsafe(numbered(q.MOVE_LINKS_SQL), [to, from])).count;
}
