// Values arrive as they left (src/db/postgres/copy.ts writes PostgreSQL's COPY text format, which
// must escape what it uses itself): text with tabs, line breaks, backslashes and a literal \N,
// every byte value in a blob, the largest integers stored, and NULLs, from SQLite into PostgreSQL
// and back into a new SQLite file.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { copyDatabase, type CopyProgress } from "../../src/db/copy.ts";
import { openCopySource, openCopyTarget } from "../../src/db/open-copy.ts";
import { openEngine, type OpenedEngine } from "../support/engines.ts";
import { openStored } from "../support/stored.ts";

const quiet: CopyProgress = { phase() {}, add() {}, end() {}, note() {} };
const TRICKY = ["tab\there", "line\nbreak", "carriage\rreturn", "back\\slash \\N \\t", "\\N", "", "quote ' \" ; --", "unicode é 日本 🙂", "trailing\\"];
const EVERY_BYTE = Uint8Array.from({ length: 256 }, (_, i) => i);
// The largest link click count and timestamp the schema's bigint may hold and JavaScript reads exactly.
const LARGE = 2 ** 53 - 1;

let sqlite: OpenedEngine;
let postgres: OpenedEngine;
let dir: string;

beforeAll(async () => {
  [sqlite, postgres] = await Promise.all([openEngine("sqlite"), openEngine("postgres")]);
  dir = mkdtempSync(join(tmpdir(), "shortener-copy-values-"));
  const stored = await openStored({ dbPath: sqlite.location, engine: "sqlite" }, { write: true });
  for (const [i, text] of TRICKY.entries()) await stored.run("INSERT INTO import_cursors (source, scope, cursor) VALUES (?, ?, ?)", `source ${i}`, text, text);
  await stored.run("INSERT INTO links (id, url, created_at, total_clicks, last_click_at, rules) VALUES ('big', 'https://example.com/\\t', ?, ?, ?, NULL)", LARGE, LARGE, LARGE);
  // A domain and the same alias on it (#37): the pair, not the alias alone, is a link.
  await stored.run("INSERT INTO domains (name, is_default, https, robots, creators, created_at) VALUES ('b.example', 0, 0, 'none', '{\"users\":[1],\"keys\":[]}', 7)");
  await stored.run("INSERT INTO links (domain, id, url, created_at) VALUES ('b.example', 'big', 'https://example.com/b', 8)");
  await stored.close();
  // A blob of every byte value, as a session's hashes are kept.
  const db = new (await import("bun:sqlite")).Database(sqlite.location);
  db.query("INSERT INTO sessions (token_hash, key_hash, created_at, last_used_at) VALUES (?, ?, 1, 2)").run(EVERY_BYTE, EVERY_BYTE.slice(128));
  db.close();
}, 60_000);
afterAll(async () => {
  await sqlite?.dispose();
  await postgres?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function contents(location: string, engine: "sqlite" | "postgres") {
  const stored = await openStored({ dbPath: location, engine });
  const hex = (v: unknown) => Buffer.from(v as Uint8Array).toString("hex");
  const out = {
    cursors: (await stored.all<{ scope: string; cursor: string }>("SELECT scope, cursor FROM import_cursors ORDER BY source")).map((r) => [r.scope, r.cursor]),
    link: await stored.get("SELECT id, url, created_at, total_clicks, last_click_at, rules FROM links WHERE id = 'big' AND domain = ''"),
    domains: await stored.all("SELECT d.name, d.is_default, d.https, d.robots, d.creators, d.created_at, l.url FROM domains AS d JOIN links AS l ON l.domain = d.name ORDER BY d.name"),
    session: (await stored.all<{ token_hash: Uint8Array; key_hash: Uint8Array; user_id: number | null }>("SELECT token_hash, key_hash, user_id FROM sessions")).map((r) => [hex(r.token_hash), hex(r.key_hash), r.user_id]),
  };
  await stored.close();
  return out;
}

test("from SQLite into PostgreSQL and back into a new file, every value is the same", async () => {
  const expected = {
    cursors: TRICKY.map((t) => [t, t]),
    link: { id: "big", url: "https://example.com/\\t", created_at: LARGE, total_clicks: LARGE, last_click_at: LARGE, rules: null },
    session: [[Buffer.from(EVERY_BYTE).toString("hex"), Buffer.from(EVERY_BYTE.slice(128)).toString("hex"), null]],
    domains: [{ name: "b.example", is_default: 0, https: 0, robots: "none", creators: '{"users":[1],"keys":[]}', created_at: 7, url: "https://example.com/b" }],
  };
  expect(await contents(sqlite.location, "sqlite")).toEqual(expected);

  const there = await copyDatabase(await openCopySource(sqlite.location, null), await openCopyTarget(postgres.location, null), quiet);
  expect(there.outcome).toBe("copied");
  expect(await contents(postgres.location, "postgres")).toEqual(expected);

  const back = join(dir, "back.db");
  const again = await copyDatabase(await openCopySource(postgres.location, null), await openCopyTarget(back, null), quiet);
  expect(again.outcome).toBe("copied");
  expect(await contents(back, "sqlite")).toEqual(expected);
}, 60_000);
