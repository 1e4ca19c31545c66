// What `shortener copy` refuses, and what it does when a copy does not match its source
// (docs/postgresql.md: Moving to PostgreSQL and back): usage errors and databases that cannot be
// reached get one line and nothing is made; a target that is not empty is refused (exit 2) saying
// what it holds; a row lost on the way (a trigger of the target's drops it) or refused is found,
// reported, and the target keeps nothing (exit 1). And a copy of a SQLite file that a running
// service keeps writing reads one snapshot and still verifies. Always both engines.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverCommand, startServer } from "../support/server.ts";
import { sharedPostgres } from "../support/postgres.ts";
import { api, makeKey, type CliResult } from "../support/admin.ts";
import { click, drained, visit, UA } from "../support/clicks.ts";
import { openStored } from "../support/stored.ts";
import { eventually } from "../support/eventually.ts";
import { seed } from "../support/seed.ts";
import { copy, copyAsync, tableContents } from "../support/copy.ts";
import { connectPostgres } from "../../src/db/postgres/connect.ts";
import { migratePostgres } from "../../src/db/postgres/schema.ts";
import { openDatabase } from "../../src/db/sqlite/open.ts";

setDefaultTimeout(120_000);

let dir: string;
let source: string;
/** A PostgreSQL database holding a copy of `source` (the source of the copies back into SQLite). */
let filled: string;
const databases: string[] = [];

const newDatabase = async () => {
  const url = await (await sharedPostgres()).createDatabase();
  databases.push(url);
  return url;
};
/** A new, empty, migrated PostgreSQL database. */
async function migratedDatabase(): Promise<string> {
  const url = await newDatabase();
  const sql = connectPostgres(url, { max: 1, password: null });
  await migratePostgres(sql);
  await sql.close();
  return url;
}
const run = async (url: string, statement: string) => {
  const stored = await openStored({ dbPath: url, engine: url.startsWith("postgres") ? "postgres" : "sqlite" }, { write: true });
  await stored.run(statement);
  await stored.close();
};
const count = async (url: string, table: string) => {
  const stored = await openStored({ dbPath: url, engine: url.startsWith("postgres") ? "postgres" : "sqlite" });
  const n = (await stored.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))!.n;
  await stored.close();
  return n;
};
/** A URL as --to takes it (no password), and the environment that gives the password (PGPASSWORD). */
const plain = (url: string) => url.replace(/:[^:@/]+@/, "@");
const passwordOf = (url: string) => ({ PGPASSWORD: decodeURIComponent(new URL(url).password) });
/** The lines a command wrote on stderr that are not its progress. */
const said = (r: CliResult) => r.err.split("\n").filter((l) => l.startsWith("shortener:"));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "shortener-copy-checks-"));
  source = join(dir, "source.db");
  const server = await startServer({ dir, database: source, args: ["--trust-proxy", "127.0.0.1"] });
  const key = makeKey(source, "admin");
  for (const id of ["busy", "quiet"]) await api(server.url, key, "POST", "/api/create", { url: `https://example.com/${id}`, custom_url: id });
  await visit(server.url, "busy", [{ ua: UA.chromeWindows, ip: "192.0.2.1" }, { ua: UA.safariIphone, ip: "192.0.2.2" }, { ua: UA.googlebot, ip: "192.0.2.3" }]);
  await server.stop();
  filled = await newDatabase();
  const made = copy(["--db", source, "--to", plain(filled)], null, passwordOf(filled));
  if (made.code !== 0) throw new Error(`the first copy: ${made.err}`);
});
afterAll(async () => {
  for (const url of databases) await (await sharedPostgres()).dropDatabase(url);
  rmSync(dir, { recursive: true, force: true });
});

describe("refused before anything is opened (exit 2)", () => {
  test("no --to, a copy within one engine, a source file that is not there, a target folder that is not there", async () => {
    const missing = join(dir, "nowhere.db");
    const cases: [string[], string][] = [
      [["--db", source], "copy needs a target: shortener copy --to postgres://"],
      [["--db", source, "--to", join(dir, "other.db")], "are both SQLite files: copy a file with `shortener backup FILE`"],
      [["--db", filled, "--to", filled], "both are PostgreSQL databases: copy one with pg_dump"],
      // Found as every command finds its database (docs/configuration.md: Which database a command uses).
      [["--db", missing, "--to", await newDatabase()], `--db names ${missing}, which does not exist`],
      [["--db", filled, "--to", join(dir, "no-folder", "x.db")], `--to: the folder ${join(dir, "no-folder")} does not exist`],
    ];
    for (const [args, message] of cases) {
      const r = copy(args, null);
      expect({ args, code: r.code, said: said(r).length, has: said(r)[0]?.includes(message) }).toEqual({ args, code: 2, said: 1, has: true });
    }
    expect([missing, join(dir, "other.db")].filter(existsSync)).toEqual([]);
  });

  test("a URL without a host or a database, or with a password in it: refused, the password never printed", () => {
    for (const [to, message] of [
      ["postgres://", "not a PostgreSQL URL with a host"],
      ["postgres://shortener@127.0.0.1:1", "the PostgreSQL URL names no database"],
      ["postgres://shortener:hunter2secret@127.0.0.1:1/shortener", "leave the password out of the URL"],
    ]) {
      const r = copy(["--db", source, "--to", to!], null);
      expect({ to, code: r.code, said: said(r).length, has: said(r)[0]?.includes(message!) }).toEqual({ to, code: 2, said: 1, has: true });
      expect(r.out + r.err).not.toContain("hunter2secret");
    }
  });
});

describe("a database that cannot be had (exit 1, one line, no file left behind)", () => {
  test("no server at the address", () => {
    const r = copy(["--db", source, "--to", "postgres://shortener@127.0.0.1:1/shortener"], null);
    expect({ code: r.code, said: said(r) }).toEqual({ code: 1, said: [expect.stringMatching(/^shortener: cannot open postgres:\/\/shortener@127\.0\.0\.1:1\/shortener: .*connect/i)] });
    expect(r.err).not.toContain("    at ");
  });

  test("a wrong password, from the credential or in --db: refused by the server, never printed", async () => {
    const credentials = join(dir, "credentials");
    mkdirSync(credentials, { recursive: true });
    writeFileSync(join(credentials, "db-password"), "wrong-secret-42\n");
    const plain = new URL(filled);
    plain.password = "";
    const withCredential = copy(["--db", source, "--to", plain.toString()], credentials);
    plain.password = "wrong-inline-43";
    const target = join(dir, "never.db");
    const inline = copy(["--db", plain.toString(), "--to", target], null);
    for (const r of [withCredential, inline]) {
      expect({ code: r.code, said: said(r) }).toEqual({ code: 1, said: [expect.stringContaining("password authentication failed")] });
      expect(r.out + r.err).not.toMatch(/wrong-secret-42|wrong-inline-43/);
    }
    expect(said(inline)[0]).toContain(`cannot open ${plain.toString().replace("wrong-inline-43", "***")}`);
    expect(existsSync(target)).toBe(false);
  });
});

describe("a target that is not empty (exit 2, saying what it holds, nothing written)", () => {
  test("a PostgreSQL database with a key", async () => {
    const target = await newDatabase();
    makeKey(target, "someone");
    const r = copy(["--db", source, "--to", plain(target)], null, passwordOf(target));
    expect({ code: r.code, said: said(r) }).toEqual({ code: 2, said: [expect.stringContaining("is not empty: api_keys (1 row); copy only into an empty database")] });
    expect([await count(target, "links"), await count(target, "api_keys")]).toEqual([0, 1]);
  });

  test("a SQLite file with links", async () => {
    const before = await tableContents({ dbPath: source, engine: "sqlite" });
    const r = copy(["--db", filled, "--to", source], null);
    expect({ code: r.code, said: said(r) }).toEqual({ code: 2, said: [expect.stringMatching(/is not empty: api_keys \(1 row\), links \(2 rows\), .*visit_batches/)] });
    expect(await tableContents({ dbPath: source, engine: "sqlite" })).toEqual(before);
  });
});

test("on a terminal the progress is a bar redrawn in place on stderr; in a pipe, plain lines", async () => {
  const target = await newDatabase();
  // util-linux's script(1) runs the command on a pseudo-terminal and passes on what it shows.
  const line = [...serverCommand(), "copy", "--db", source, "--to", plain(target)].map((a) => `'${a}'`).join(" ");
  const shown = Bun.spawnSync(["script", "-qec", line, "/dev/null"], { env: { PATH: process.env.PATH ?? "", ...passwordOf(target) }, cwd: dir });
  const text = shown.stdout.toString();
  expect(shown.exitCode).toBe(0);
  expect(text).toMatch(/\r\x1b\[2Klinks: \[#{20}\] 2 of 2, /);
  expect(text).toContain("verified: start the service with --db");
  const piped = copy(["--db", filled, "--to", join(dir, "piped.db")], null);
  expect(piped.err).not.toContain("\x1b[");
  expect(piped.err).toMatch(/^links: \[#{20}\] 2 of 2, [\d,]+\/s$/m);
});

test("a database of another application is refused (exit 2) before shortener's tables are made in it", async () => {
  const file = join(dir, "notes.db");
  const pg = await newDatabase();
  new Database(file, { create: true }).close();
  for (const target of [file, pg]) await run(target, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
  const intoFile = copy(["--db", filled, "--to", file], null);
  const intoPg = copy(["--db", source, "--to", plain(pg)], null, passwordOf(pg));
  for (const r of [intoFile, intoPg]) expect({ code: r.code, said: said(r) }).toEqual({ code: 2, said: [expect.stringContaining("holds tables that are not shortener's: notes; copy into a database of shortener's own")] });
  const tables = async (at: string) => {
    const stored = await openStored({ dbPath: at, engine: at === file ? "sqlite" : "postgres" });
    const sql = at === file ? "SELECT name FROM sqlite_master WHERE type = 'table'" : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()";
    const names = (await stored.all<{ name: string }>(sql)).map((t) => t.name);
    await stored.close();
    return names;
  };
  expect([await tables(file), await tables(pg)]).toEqual([["notes"], ["notes"]]);
});

describe("a copy that differs from its source, or fails (exit 1, the target keeps nothing)", () => {
  test("into PostgreSQL: a trigger drops busy's daily counts; the table and the link are named, and nothing is kept", async () => {
    const target = await migratedDatabase();
    // Rows are keyed by the link's seq (docs/architecture.md: A link's identity): busy's is the copied link's.
    await run(target, "CREATE FUNCTION lose_busy() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.link_seq = (SELECT seq FROM links WHERE id = 'busy') THEN RETURN NULL; END IF; RETURN NEW; END $$");
    await run(target, "CREATE TRIGGER lose_busy BEFORE INSERT ON daily_rollup FOR EACH ROW EXECUTE FUNCTION lose_busy()");
    const r = copy(["--db", source, "--to", plain(target)], null, passwordOf(target));
    expect(r.code).toBe(1);
    expect(r.out).toContain("differs from its source, so nothing was kept in");
    expect(r.out).toMatch(/^daily_rollup\s+1\s+0\s+DIFFERS$/m);
    expect(r.out).toMatch(/^links\s+2\s+2$/m);
    expect(r.out).toContain("  busy: source 3 clicks (2 by people), 3 in the daily counts, 3 visits; copy 3 clicks (2 by people), 0 in the daily counts, 3 visits");
    expect(await count(target, "links")).toBe(0);
  });

  test("into PostgreSQL: a trigger refuses a link; the error is said, and nothing is kept", async () => {
    const target = await migratedDatabase();
    await run(target, "CREATE FUNCTION refuse_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no links here today'; END $$");
    await run(target, "CREATE TRIGGER refuse_links BEFORE INSERT ON links FOR EACH ROW EXECUTE FUNCTION refuse_row()");
    const r = copy(["--db", source, "--to", plain(target)], null, passwordOf(target));
    expect({ code: r.code, said: said(r) }).toEqual({ code: 1, said: [expect.stringMatching(/the copy failed, nothing was kept in postgres:\/\/.*: no links here today$/)] });
    expect(await count(target, "api_keys")).toBe(0);
  });

  test("into an empty SQLite file: a trigger drops the hourly counts; reported, and the file keeps nothing", async () => {
    const target = join(dir, "empty.db");
    openDatabase(target).close();
    await run(target, "CREATE TRIGGER lose_hours BEFORE INSERT ON hourly_rollup BEGIN SELECT RAISE(IGNORE); END");
    const r = copy(["--db", filled, "--to", target], null);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^hourly_rollup\s+1\s+0\s+DIFFERS$/m);
    // Each link's clicks agree: only the table's count tells.
    expect(r.out).toContain("clicks of every link: 2 links, 3 clicks, 3 visits, the same in both");
    expect([existsSync(target), await count(target, "links")]).toEqual([true, 0]);
  });
});

for (const engine of ["sqlite", "postgres"] as const) {
  test(`a service that keeps recording clicks on the source (${engine}): the copy reads one snapshot of it and verifies`, async () => {
    const live = engine === "sqlite" ? join(dir, "live.db") : await newDatabase();
    const server = await startServer({ dir, database: live });
    try {
      // Enough links that copying them outlasts several of the recorder's writes (one each 100 ms).
      const ids = Array.from({ length: 20_000 }, (_, i) => `live-${i}`);
      await seed({ dbPath: live, engine }, async (s) => {
        for (let i = 0; i < ids.length; i += 500) {
          await Promise.all(ids.slice(i, i + 500).map((id) => s.links.create({ url: `https://example.com/${id}`, alias: id }, Date.now())));
        }
      });
      const target = engine === "sqlite" ? await newDatabase() : join(dir, "live-copy.db");
      let copying = true;
      const clicking = (async () => {
        for (let i = 0; copying; i++) await click(server.url, ids[i % ids.length]!);
      })();
      // The copy starts once the service is writing clicks, so that it writes some while the copy runs.
      const stored = await openStored({ dbPath: live, engine });
      const recorded = async () => (await stored.get<{ n: number | null }>("SELECT SUM(total_clicks) AS n FROM links"))!.n ?? 0;
      await eventually(recorded, (n) => n >= 20);
      const r = await copyAsync(["--db", engine === "sqlite" ? live : plain(live), "--to", engine === "sqlite" ? plain(target) : target], passwordOf(engine === "sqlite" ? target : live));
      copying = false;
      await clicking;
      await drained(server.url);
      expect({ code: r.code, said: said(r) }).toEqual({ code: 0, said: [] });
      expect(r.out).toContain("verified: start the service with --db");
      // The service went on writing: the source now holds clicks that the copy does not.
      const copied = Number(/(\d[\d,]*) clicks, /.exec(r.out)![1]!.replaceAll(",", ""));
      expect(await recorded()).toBeGreaterThan(copied);
      await stored.close();
    } finally {
      await server.stop();
    }
  });
}
