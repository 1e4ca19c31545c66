// Daily visitor salts in PostgreSQL (the SaltStore of src/visits/visitor-id.ts), shared by every
// instance, so that a visitor is the same visitor whichever instance answers.

import type { SaltStore } from "../../visits/visitor-id.ts";
import type { Pg } from "./connect.ts";

export function postgresSalts(sql: Pg): SaltStore {
  const select = async (day: string): Promise<Uint8Array | null> => {
    const [row] = await sql`SELECT salt FROM visitor_salts WHERE day = ${day}`;
    return row === undefined ? null : new Uint8Array(row.salt as Uint8Array);
  };
  return {
    async saltOf(day, fresh) {
      // Read first (every instance but the first of the day finds it); an insert that loses the
      // race to another instance's is ignored, and the salt read again is that one.
      const stored = await select(day);
      if (stored !== null) return stored;
      await sql`INSERT INTO visitor_salts (day, salt) VALUES (${day}, ${fresh}) ON CONFLICT (day) DO NOTHING`;
      return (await select(day))!;
    },
    forgetBefore: async (day) => (await sql`DELETE FROM visitor_salts WHERE day < ${day}`).count,
  };
}
