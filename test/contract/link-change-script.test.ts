// The link change script (src/links/change-script.ts) as both engines run it, where the two once
// drifted apart: PostgreSQL's delete read the link before taking its row, so an edit that committed
// while the delete waited for the row left the delete's event with the values the edit had
// replaced. docs/webhooks.md (link.deleted) says the event is the link "as it was" deleted.

import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { createLinkStore, type LinkStore } from "../../src/links/store.ts";
import { linkEvents } from "../../src/events/link-events.ts";
import { createEventWants } from "../../src/events/wants.ts";
import { openSqliteStorage } from "../../src/db/sqlite/storage.ts";
import { eventually } from "../support/eventually.ts";
import { forEachEngine, NOW } from "../support/contract-suite.ts";
import type { OpenedEngine } from "../support/engines.ts";

/** An edit of the link's URL by a connection of the test's own, held uncommitted until commit(). */
type HeldEdit = { commit(): Promise<void> };

async function holdEdit(db: OpenedEngine, id: string, url: string): Promise<HeldEdit> {
  if (db.engine === "sqlite") {
    const other = new Database(db.location);
    other.run("BEGIN IMMEDIATE");
    other.query("UPDATE links SET url = ? WHERE id = ?").run(url, id);
    return {
      commit: async () => {
        other.run("COMMIT");
        other.close();
      },
    };
  }
  const pg = new SQL(db.location, { max: 1 });
  let end!: () => void;
  const held = new Promise<void>((resolve) => (end = resolve));
  let edited!: () => void;
  const done = new Promise<void>((resolve) => (edited = resolve));
  const tx = pg.begin(async (t) => {
    await t`UPDATE links SET url = ${url} WHERE id = ${id}`;
    edited();
    await held;
  });
  await done;
  return {
    commit: async () => {
      end();
      await tx;
      await pg.close();
    },
  };
}

/**
 * The engine's links with link.deleted events, and a promise of the fact that one of its writes
 * waits for the held edit: SQLite's write found the lock busy (it retries: busy-retry.ts);
 * PostgreSQL's session waits for a lock.
 */
async function linksThatWait(db: OpenedEngine): Promise<{ links: LinkStore; waiting: () => Promise<boolean>; close: () => Promise<void> }> {
  const events = linkEvents(createEventWants(["link.deleted"]), () => null, () => NOW);
  if (db.engine === "sqlite") {
    let busy = false;
    const own = await openSqliteStorage(db.location, 0, false, () => (busy = true));
    return { links: createLinkStore(own.links, own.budget, { events }), waiting: async () => busy, close: () => own.close() };
  }
  const waits = () => db.stored.get<{ n: number }>("SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
  return { links: createLinkStore(db.adapters.links, db.adapters.budget, { events }), waiting: async () => (await waits())!.n > 0, close: async () => {} };
}

forEachEngine("link change script", (db) => {
  test("a delete's event is the link as it was deleted, even when an edit committed while the delete waited for it", async () => {
    await db().storage.links.create({ url: "https://example.com/before", alias: "raced" }, NOW);
    const { links, waiting, close } = await linksThatWait(db());
    try {
      const edit = await holdEdit(db(), "raced", "https://example.com/edited");
      const removed = links.remove("raced", NOW);
      expect(await eventually(waiting, (w) => w, 30_000, 20)).toBe(true);
      await edit.commit();
      expect(await removed).toBe(true);
    } finally {
      await close();
    }
    const written = await db().stored.all<{ data: string }>("SELECT data FROM events WHERE type = 'link.deleted'");
    expect(written.map((e) => JSON.parse(e.data).link.originalUrl)).toEqual(["https://example.com/edited"]);
    expect(await db().storage.links.get("raced")).toBeNull();
  }, 60_000);
});
