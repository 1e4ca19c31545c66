// What a service stored, read the way an operator would with the engine's own client: the SQLite
// file read-only, or the PostgreSQL database. Queries take `?` placeholders; integers (PostgreSQL's
// int8 and numeric arrive as strings) come back as numbers, so a test reads the same on both.

import { Database } from "bun:sqlite";
import { SQL } from "bun";
import type { Engine } from "./server.ts";

export type Stored = {
  all<T = Record<string, unknown>>(sql: string, ...params: (string | number | null)[]): Promise<T[]>;
  get<T = Record<string, unknown>>(sql: string, ...params: (string | number | null)[]): Promise<T | null>;
  close(): Promise<void>;
};

const INT8 = 20;
const NUMERIC = 1700;

export async function openStored(server: { dbPath: string; engine: Engine }): Promise<Stored> {
  if (server.engine === "sqlite") {
    const db = new Database(server.dbPath, { readonly: true });
    const all = async <T,>(sql: string, ...params: (string | number | null)[]) => db.query(sql).all(...params) as T[];
    return { all, get: async <T,>(sql: string, ...params: (string | number | null)[]) => (await all<T>(sql, ...params))[0] ?? null, close: async () => db.close() };
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
  return { all, get: async <T,>(sql: string, ...params: (string | number | null)[]) => (await all<T>(sql, ...params))[0] ?? null, close: () => pg.close() };
}
