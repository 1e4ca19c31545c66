// What a service stored, read the way an operator would with the engine's own client: the SQLite
// file read-only (writable when a test plants a row an older version could have written), or the
// PostgreSQL database. Queries take `?` placeholders; integers (PostgreSQL's
// int8 and numeric arrive as strings) come back as numbers, so a test reads the same on both.

import { Database } from "bun:sqlite";
import { SQL } from "bun";
import type { Engine } from "./server.ts";

export type Stored = {
  all<T = Record<string, unknown>>(sql: string, ...params: (string | number | null)[]): Promise<T[]>;
  get<T = Record<string, unknown>>(sql: string, ...params: (string | number | null)[]): Promise<T | null>;
  /** A write (opened with `write: true`); best made while no service runs on the database, whose cache would not see it. */
  run(sql: string, ...params: (string | number | null)[]): Promise<void>;
  close(): Promise<void>;
};

const INT8 = 20;
const NUMERIC = 1700;

export async function openStored(server: { dbPath: string; engine: Engine }, { write = false } = {}): Promise<Stored> {
  if (server.engine === "sqlite") {
    const db = new Database(server.dbPath, write ? { readwrite: true } : { readonly: true });
    const all = async <T,>(sql: string, ...params: (string | number | null)[]) => db.query(sql).all(...params) as T[];
    const run = async (sql: string, ...params: (string | number | null)[]) => {
      if (!write) throw new Error("openStored: opened read-only; pass { write: true }");
      db.query(sql).run(...params);
    };
    return { all, get: async <T,>(sql: string, ...params: (string | number | null)[]) => (await all<T>(sql, ...params))[0] ?? null, run, close: async () => db.close() };
  }
  const pg = new SQL(server.dbPath, { max: 1 });
  const all = async <T,>(sql: string, ...params: (string | number | null)[]): Promise<T[]> => {
    let n = 0;
    const result = await pg.unsafe(sql.replace(/\?/g, () => `$${++n}`), params);
    const columns = ((result as unknown as { columns?: { name: string; type: number }[] }).columns ?? []).filter((c) => c.type === INT8 || c.type === NUMERIC);
    return (result as Record<string, unknown>[]).map((row) => {
      const out = { ...row };
      for (const c of columns) if (typeof out[c.name] === "string") out[c.name] = Number(out[c.name]);
      return out as T;
    });
  };
  const run = async (sql: string, ...params: (string | number | null)[]) => {
    if (!write) throw new Error("openStored: opened read-only; pass { write: true }");
    await all(sql, ...params);
  };
  return { all, get: async <T,>(sql: string, ...params: (string | number | null)[]) => (await all<T>(sql, ...params))[0] ?? null, run, close: () => pg.close() };
}
