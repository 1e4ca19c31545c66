// One contract suite per port, run against both engines: `forEachEngine(name, body)` declares the
// body's tests once per engine, each test with a fresh database (support/engines.ts; on PostgreSQL
// a copy of the run's migrated template, support/postgres-template.ts). A third
// engine, or an in-memory fake, would meet the same list of promises by being added to ENGINES.

import { afterAll, afterEach, beforeAll, beforeEach, describe } from "bun:test";
import { ENGINES, openEngine, type OpenedEngine } from "./engines.ts";
import type { Visit } from "../../src/visits/visit.ts";
import type { Link } from "../../src/links/link.ts";

/**
 * `db()`: the engine opened for the current test. `shared`: one database for all the body's tests
 * (opened before the first, with `setup` run on it), for suites that read a large seeded set.
 */
const HOOK_TIMEOUT_MS = 120_000;

export function forEachEngine(name: string, body: (db: () => OpenedEngine) => void, options: { shared?: (db: OpenedEngine) => Promise<void> } = {}): void {
  for (const engine of ENGINES) {
    describe(`${name} (${engine})`, () => {
      let opened: OpenedEngine | null = null;
      const open = async () => {
        opened = await openEngine(engine);
        await options.shared?.(opened);
      };
      const close = async () => {
        await opened?.dispose();
        opened = null;
      };
      // Opening may start the run's PostgreSQL cluster (initdb) on a busy, shared machine: bun's
      // 5 s default for hooks once killed initdb halfway and failed every test after it.
      if (options.shared) {
        beforeAll(open, HOOK_TIMEOUT_MS);
        afterAll(close, HOOK_TIMEOUT_MS);
      } else {
        beforeEach(open, HOOK_TIMEOUT_MS);
        afterEach(close, HOOK_TIMEOUT_MS);
      }
      body(() => opened!);
    });
  }
}

export const NOW = Date.parse("2026-11-23T12:00:00.000Z");

/** A visit of `link` (its seq and alias, as a created Link has them) with plain values; `o` overrides them. */
export const visit = (link: Pick<Link, "seq" | "id">, o: Partial<Visit> = {}): Visit => ({
  linkSeq: link.seq, linkId: link.id, ts: NOW, browser: "Chrome", os: "Linux", device: "desktop", country: "DE", referrer: "Direct",
  utmSource: null, utmMedium: null, utmCampaign: null, isBot: false, visitor: null, ...o,
});

/** Rows of a table that belong to the link of this seq, as the engine stored them. */
export async function countFor(db: OpenedEngine, table: string, seq: number): Promise<number> {
  return (await db.stored.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE link_seq = ?`, seq))!.n;
}
