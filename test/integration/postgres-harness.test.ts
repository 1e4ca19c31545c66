// The throwaway PostgreSQL of the tests (support/postgres.ts): it starts (or fails loudly), its
// databases take connections through Bun's SQL client, each is a database of its own, and stop()
// leaves no server and no folder behind.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sharedPostgres, startPostgres, type Postgres } from "../support/postgres.ts";
import { postgresBinDir } from "../support/postgres-bin.ts";
import { isRunning } from "../../scripts/lib/processes.ts";
import { eventually } from "../support/eventually.ts";
import { migratedDatabase } from "../support/postgres-template.ts";
import { openPostgresStorage } from "../../src/db/postgres/storage.ts";

const START_TIMEOUT = 60_000; // a first start on a busy CI machine runs initdb too

let pg: Postgres;
const clients: SQL[] = [];
/** A client that afterAll closes. */
function connect(url: string): SQL {
  const sql = new SQL(url);
  clients.push(sql);
  return sql;
}

beforeAll(async () => {
  pg = await sharedPostgres();
}, START_TIMEOUT);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close({ timeout: 1 })));
});

describe("the shared cluster", () => {
  test("is one per process, listening on 127.0.0.1 only", async () => {
    expect(await sharedPostgres()).toBe(pg);
    const conf = readFileSync(join(pg.dir, "data", "shortener-test.conf"), "utf8");
    expect(conf).toContain("listen_addresses = '127.0.0.1'");
    expect(conf).toContain("unix_socket_directories = ''");
  });

  test("a created database accepts a connection, as the URL's user, on the URL's database", async () => {
    const url = await pg.createDatabase();
    expect(url).toMatch(/^postgres:\/\/postgres:[0-9a-f]{32}@127\.0\.0\.1:\d+\/shortener_test_\d+$/);
    const sql = connect(url);
    expect(await sql.connect()).toBe(sql); // connect() resolves with the client itself
    const [row] = await sql`SELECT current_database() AS db, current_user AS who, inet_server_addr()::text AS addr`;
    expect(row).toEqual({ db: new URL(url).pathname.slice(1), who: "postgres", addr: "127.0.0.1/32" });
  });

  test("CREATE TABLE, INSERT and SELECT", async () => {
    const sql = connect(await pg.createDatabase());
    const created = await sql`CREATE TABLE links (id TEXT PRIMARY KEY, url TEXT NOT NULL)`;
    expect(created.command).toBe("CREATE TABLE");
    const inserted = await sql`INSERT INTO links (id, url) VALUES (${"abc"}, ${"https://example.com/"}), (${"def"}, ${"https://example.org/"})`;
    expect(inserted.count).toBe(2);
    expect(inserted.affectedRows).toBe(2);
    const rows = await sql`SELECT id, url FROM links WHERE id = ${"abc"}`;
    expect([...rows]).toEqual([{ id: "abc", url: "https://example.com/" }]);
  });

  test("two created databases are separate", async () => {
    const a = connect(await pg.createDatabase());
    const b = connect(await pg.createDatabase());
    await a`CREATE TABLE only_in_a (n INT)`;
    await a`INSERT INTO only_in_a VALUES (1)`;
    const [inA] = await a`SELECT to_regclass('only_in_a')::text AS t`;
    const [inB] = await b`SELECT to_regclass('only_in_a')::text AS t`;
    expect(inA.t).toBe("only_in_a");
    expect(inB.t).toBeNull();
  });

  test("dropDatabase removes a database and ends its sessions", async () => {
    const url = await pg.createDatabase();
    const sql = connect(url);
    await sql`SELECT 1`; // an open session, which DROP ... WITH (FORCE) ends
    await pg.dropDatabase(url);
    const admin = connect(pg.url("postgres"));
    const [row] = await admin`SELECT count(*) AS n FROM pg_database WHERE datname = ${new URL(url).pathname.slice(1)}`;
    expect(row.n).toBe("0");
  });
});

describe("databases copied from the migrated template", () => {
  /** What a database's schema is: version, columns, indexes, extensions. */
  async function shape(sql: SQL) {
    return {
      version: [...(await sql`SELECT version FROM shortener_schema`)],
      columns: [...(await sql`SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2`)],
      indexes: [...(await sql`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`)],
      extensions: (await sql`SELECT extname FROM pg_extension ORDER BY 1`).map((r: { extname: string }) => r.extname),
    };
  }

  test("a copy has exactly the schema the service's open gives a new database", async () => {
    const opened = await pg.createDatabase();
    await (await openPostgresStorage(opened, null)).close();
    const copy = await migratedDatabase();
    expect(copy).toMatch(/\/shortener_test_\d+$/);
    const expected = await shape(connect(opened));
    expect(expected.columns.length).toBeGreaterThan(0);
    expect(await shape(connect(copy))).toEqual(expected);
  });

  test("each copy is its own, the template takes no connections, and createDatabase() stays empty", async () => {
    const a = connect(await migratedDatabase());
    const b = connect(await migratedDatabase());
    await a`CREATE TABLE only_in_a (n INT)`;
    expect((await b`SELECT to_regclass('only_in_a')::text AS t`)[0].t).toBeNull();
    const refused = await connect(pg.url("shortener_template"))`SELECT 1`.catch((e: unknown) => e);
    expect(String(refused)).toContain("not currently accepting connections");
    const empty = connect(await pg.createDatabase());
    expect((await empty`SELECT to_regclass('shortener_schema')::text AS t`)[0].t).toBeNull();
  });
});

test("a cluster of its own stops for good: no server, no folder, and stop() again is a no-op", async () => {
  const own = await startPostgres();
  expect(own).not.toBe(pg);
  const pid = Number(readFileSync(join(own.dir, "data", "postmaster.pid"), "utf8").split("\n")[0]);
  expect(isRunning(pid)).toBe(true);
  const before = new SQL(own.url("postgres"), { database: "postgres" });
  await before`SELECT 1`;
  await before.close();
  await Promise.all([own.stop(), own.stop()]);
  await own.stop();
  expect(existsSync(own.dir)).toBe(false);
  // pg_ctl -w returns once the pid file is gone, which the postmaster removes as it exits.
  expect(await eventually(async () => isRunning(pid), (running) => !running, 10_000, 20)).toBe(false);
  // Nothing listens on the port any more: Bun says so with a code of its own (no SQLSTATE).
  const after = new SQL(own.url("postgres"), { database: "postgres" });
  const error = (await after`SELECT 1`.catch((e: unknown) => e)) as SQL.PostgresError;
  expect(error).toBeInstanceOf(SQL.PostgresError);
  expect(error.code).toBe("ERR_POSTGRES_CONNECTION_REFUSED");
  expect(error.errno).toBeUndefined();
  await after.close();
}, START_TIMEOUT);

test("without PostgreSQL's programs, starting fails with what to install (it never skips)", () => {
  expect(() => postgresBinDir(["/nonexistent/bin"])).toThrow(/apt-get install postgresql/);
});
