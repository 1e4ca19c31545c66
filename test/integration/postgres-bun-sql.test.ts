// What Bun's built-in SQL client (`import { SQL } from "bun"`) does against a real PostgreSQL, for
// the storage code that uses it: value types, errors, unsafe(), transactions, LISTEN/NOTIFY,
// advisory locks, lost connections, and which settings the environment can override.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { sharedPostgres, type Postgres } from "../support/postgres.ts";
import { eventually } from "../support/eventually.ts";

let pg: Postgres;
let url: string;
let sql: SQL;
const clients: SQL[] = [];
/** Another client of the same database, closed by afterAll. */
function client(options: { bigint?: boolean } = {}): SQL {
  const c = new SQL(url, options);
  clients.push(c);
  return c;
}

/** Polls check until it is true; throws after 10 s (a bound on a hang, not a timing to assert). */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  if (!(await eventually(async () => await check(), (done) => done, 10_000, 10))) throw new Error(`still not ${what} after 10 s`);
}

/** The rejection of a query (or any promise) that must reject. */
async function rejection(p: PromiseLike<unknown>): Promise<SQL.PostgresError> {
  try {
    await p;
  } catch (error) {
    expect(error).toBeInstanceOf(SQL.PostgresError);
    return error as SQL.PostgresError;
  }
  throw new Error("expected a rejection");
}

beforeAll(async () => {
  pg = await sharedPostgres();
  url = await pg.createDatabase();
  sql = client();
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close({ timeout: 1 })));
});

describe("values", () => {
  test("int8 (BIGINT, COUNT, SUM of ints, BIGSERIAL) and NUMERIC come back as strings; int4 and float8 as numbers", async () => {
    await sql`CREATE TABLE counted (id BIGSERIAL PRIMARY KEY, n INT NOT NULL)`;
    const [inserted] = await sql`INSERT INTO counted (n) VALUES (${7}) RETURNING id`;
    expect(inserted.id).toBe("1");
    const [row] = await sql`SELECT count(*) AS c, sum(n) AS s, max(n) AS m, 2.5::NUMERIC AS num, 1.5::FLOAT8 AS f, 9007199254740993::BIGINT AS big FROM counted`;
    expect(row).toEqual({ c: "1", s: "7", m: 7, num: "2.5", f: 1.5, big: "9007199254740993" });
  });

  test("a number parameter above the int4 range is sent as int8, so it comes back as a string", async () => {
    const [row] = await sql`SELECT ${2 ** 40} AS big, ${5} AS small`;
    expect(row).toEqual({ big: "1099511627776", small: 5 });
  });

  test("bigint: true makes every int8 a BigInt, small ones too", async () => {
    const [row] = await client({ bigint: true })`SELECT count(*) AS c, 2::BIGINT AS b, 3::INT AS i`;
    expect(row).toEqual({ c: 1n, b: 2n, i: 3 });
  });

  test("timestamptz is a Date, jsonb an object, boolean a boolean, NULL null", async () => {
    const [row] = await sql`SELECT '2026-01-02T03:04:05Z'::TIMESTAMPTZ AS t, '{"a":[1]}'::JSONB AS j, true AS b, NULL::TEXT AS n`;
    expect(row.t).toBeInstanceOf(Date);
    expect((row.t as Date).toISOString()).toBe("2026-01-02T03:04:05.000Z");
    expect(row).toMatchObject({ j: { a: [1] }, b: true, n: null });
  });

  test("a result is an array of row objects with count, command, affectedRows and lastInsertRowid (always null)", async () => {
    await sql`CREATE TABLE meta (k TEXT PRIMARY KEY)`;
    const inserted = await sql`INSERT INTO meta VALUES ('a'), ('b')`;
    expect({ count: inserted.count, command: inserted.command, affectedRows: inserted.affectedRows, lastInsertRowid: inserted.lastInsertRowid }).toEqual({
      count: 2,
      command: "INSERT",
      affectedRows: 2,
      lastInsertRowid: null,
    });
    const updated = await sql`UPDATE meta SET k = k || '!' WHERE k = 'zzz'`;
    expect([updated.count, updated.affectedRows, updated.command]).toEqual([0, 0, "UPDATE"]);
    expect([...(await sql`SELECT k FROM meta ORDER BY k`.values())]).toEqual([["a"], ["b"]]);
  });
});

describe("errors", () => {
  test("a unique violation: PostgresError, SQLSTATE in errno (\"23505\"), Bun's own code in code", async () => {
    await sql`CREATE TABLE uniq (k TEXT PRIMARY KEY)`;
    await sql`INSERT INTO uniq VALUES ('x')`;
    const error = await rejection(sql`INSERT INTO uniq VALUES ('x')`);
    expect(error).toBeInstanceOf(SQL.SQLError);
    expect(error.errno).toBe("23505");
    expect(error.code).toBe("ERR_POSTGRES_SERVER_ERROR"); // not the SQLSTATE, unlike node-postgres
    expect(error).toMatchObject({ constraint: "uniq_pkey", table: "uniq", schema: "public", severity: "ERROR", detail: "Key (k)=(x) already exists." });
    expect(error.message).toBe('duplicate key value violates unique constraint "uniq_pkey"');
  });

  test("a syntax error has a code of its own, ERR_POSTGRES_SYNTAX_ERROR, and errno 42601", async () => {
    const error = await rejection(sql`SELEC 1`);
    expect([error.code, error.errno]).toEqual(["ERR_POSTGRES_SYNTAX_ERROR", "42601"]);
  });

  test("a query after close() rejects with ERR_POSTGRES_CONNECTION_CLOSED", async () => {
    const closing = client();
    await closing`SELECT 1`;
    await closing.close();
    expect((await rejection(closing`SELECT 1`)).code).toBe("ERR_POSTGRES_CONNECTION_CLOSED");
  });
});

describe("sql.unsafe", () => {
  test("runs a string with $1 placeholders and an array of values", async () => {
    const [row] = await sql.unsafe("SELECT $1::INT + 1 AS v, $2::TEXT AS s", [41, "x"]);
    expect(row).toEqual({ v: 42, s: "x" });
  });

  test("without values, runs several statements and resolves to one result per statement", async () => {
    const results = await sql.unsafe("CREATE TABLE multi (n INT); INSERT INTO multi VALUES (1), (2); SELECT sum(n) AS s FROM multi");
    expect(results).toHaveLength(3);
    expect([...results[2]]).toEqual([{ s: "3" }]);
  });
});

describe("transactions", () => {
  test("sql.begin commits and resolves with the callback's value; a throw rolls back and rejects with that error", async () => {
    await sql`CREATE TABLE tx (n INT)`;
    expect(await sql.begin(async (tx) => (await tx`INSERT INTO tx VALUES (1) RETURNING n`)[0].n)).toBe(1);
    const boom = new Error("boom");
    const thrown = await sql
      .begin(async (tx) => {
        await tx`INSERT INTO tx VALUES (2)`;
        throw boom;
      })
      .catch((e: unknown) => e);
    expect(thrown).toBe(boom);
    expect([...(await sql`SELECT n FROM tx`.values())]).toEqual([[1]]);
  });

  test("a failed savepoint rolls back only its own work", async () => {
    await sql`CREATE TABLE sp (n INT)`;
    await sql.begin(async (tx) => {
      await tx`INSERT INTO sp VALUES (1)`;
      await tx
        .savepoint(async (s) => {
          await s`INSERT INTO sp VALUES (2)`;
          throw new Error("undo 2");
        })
        .catch(() => {});
      await tx`INSERT INTO sp VALUES (3)`;
    });
    expect([...(await sql`SELECT n FROM sp ORDER BY n`.values())]).toEqual([[1], [3]]);
  });

  test("a hand-written BEGIN on a pool is refused (ERR_POSTGRES_UNSAFE_TRANSACTION): use sql.begin or sql.reserve", async () => {
    expect((await rejection(sql`BEGIN`)).code).toBe("ERR_POSTGRES_UNSAFE_TRANSACTION");
  });
});

describe("LISTEN/NOTIFY", () => {
  test("sql.listen(channel, onnotify) on one client receives sql.notify(channel, payload) from another; unlisten() ends it", async () => {
    const listener = client();
    const notifier = client();
    const got: string[] = [];
    const seen: string[] = []; // a second registration on the channel, kept to the end
    const subscription = await listener.listen("links_changed", (payload) => got.push(payload));
    const witness = await listener.listen("links_changed", (payload) => seen.push(payload));
    expect(subscription.channel).toBe("links_changed");
    await notifier.notify("links_changed", "abc");
    await notifier.notify("links_changed"); // no payload: ""
    await notifier`NOTIFY links_changed, 'plain SQL'`;
    // Inside a transaction: delivered on COMMIT, dropped on ROLLBACK.
    await notifier.begin((tx) => tx.notify("links_changed", "committed"));
    await notifier
      .begin(async (tx) => {
        await tx.notify("links_changed", "rolled back");
        throw new Error("roll back");
      })
      .catch(() => {});
    await notifier.notify("links_changed", "last");
    // One session's notifications arrive in order, so "last" comes after everything above.
    await until(() => got.includes("last"), "notified");
    expect(got).toEqual(["abc", "", "plain SQL", "committed", "last"]);
    await subscription.unlisten();
    await subscription.unlisten(); // idempotent
    await notifier.notify("links_changed", "after unlisten");
    await notifier.notify("links_changed", "end");
    // The witness gets "end" after "after unlisten" on the same connection: had the first
    // registration still been there, it would have had it by now.
    await until(() => seen.includes("end"), "notified");
    expect(seen).toContain("after unlisten");
    expect(got).not.toContain("after unlisten");
    await witness.unlisten();
  });

  test("the listen connection is re-established after it drops, and onlisten runs again", async () => {
    const listener = client();
    const admin = client();
    const got: string[] = [];
    let listens = 0;
    const subscription = await listener.listen("reconnects", (p) => got.push(p), () => listens++);
    expect(listens).toBe(1);
    await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN "reconnects"' AND pid <> pg_backend_pid()`;
    await until(() => listens === 2, "listening again");
    await admin.notify("reconnects", "after the drop");
    await until(() => got.length > 0, "notified");
    expect(got).toEqual(["after the drop"]);
    await subscription.unlisten();
  });
});

describe("advisory locks", () => {
  test("pg_advisory_lock on a reserved connection blocks another session until pg_advisory_unlock", async () => {
    // Session locks belong to a connection: take them on a reserved one (or use
    // pg_advisory_xact_lock inside sql.begin), never on the pool, where the next query may run elsewhere.
    const one = await sql.reserve();
    const two = await sql.reserve();
    try {
      const [locked] = await one`SELECT pg_advisory_lock(${42})`;
      expect(locked).toEqual({ pg_advisory_lock: "" }); // a void function's result is ""
      expect((await two`SELECT pg_try_advisory_lock(${42}) AS got`)[0].got).toBe(false);
      const [{ pid }] = await two`SELECT pg_backend_pid() AS pid`;
      let acquired = false;
      const waiting = two`SELECT pg_advisory_lock(${42})`.then(() => (acquired = true));
      await until(async () => (await sql`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = ${pid} AND NOT granted`)[0].n === "1", "waiting");
      expect(acquired).toBe(false);
      expect((await one`SELECT pg_advisory_unlock(${42}) AS released`)[0].released).toBe(true);
      await waiting;
      expect(acquired).toBe(true);
      await two`SELECT pg_advisory_unlock(${42})`;
    } finally {
      await one.release();
      await two.release();
    }
  });

  test("pg_advisory_xact_lock inside sql.begin is released at COMMIT", async () => {
    await sql.begin((tx) => tx`SELECT pg_advisory_xact_lock(${7})`);
    expect((await sql`SELECT pg_try_advisory_xact_lock(${7}) AS got`)[0].got).toBe(true);
  });
});

describe("a connection that the server ends", () => {
  test("the query running on it rejects (SQLSTATE 57P01, not retried); the next query gets a new connection", async () => {
    const pool = client();
    const admin = client();
    const reserved = await pool.reserve();
    const [{ pid }] = await reserved`SELECT pg_backend_pid() AS pid`;
    const running = reserved`SELECT pg_sleep(30)`.catch((e: unknown) => e);
    await until(async () => (await admin`SELECT count(*) AS n FROM pg_stat_activity WHERE pid = ${pid} AND state = 'active'`)[0].n === "1", "running");
    await admin`SELECT pg_terminate_backend(${pid})`;
    const error = (await running) as SQL.PostgresError;
    expect(error).toBeInstanceOf(SQL.PostgresError);
    expect([error.code, error.errno]).toEqual(["ERR_POSTGRES_SERVER_ERROR", "57P01"]);
    // The reserved client keeps that error; the pool opens a new connection.
    expect((await rejection(reserved`SELECT 1`)).errno).toBe("57P01");
    await reserved.release();
    const [after] = await pool`SELECT pg_backend_pid() AS pid`;
    expect(after.pid).not.toBe(pid);
  });
});

describe("the environment", () => {
  /** Runs a script in a fresh bun with env (and only PATH besides) and returns what it printed. */
  function inChild(script: string, env: Record<string, string>): string {
    const proc = Bun.spawnSync([process.execPath, "-e", script], { env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe", stderr: "pipe", timeout: 10_000 });
    if (proc.exitCode !== 0) throw new Error(`child exited ${proc.exitCode}: ${proc.stderr.toString()}`);
    return proc.stdout.toString().trim();
  }

  test("PGDATABASE takes priority over the URL's database; a `database` option takes priority over both", async () => {
    const other = new URL(await pg.createDatabase()).pathname.slice(1);
    const named = new URL(url).pathname.slice(1);
    const script = `
      import { SQL } from "bun";
      const url = process.env.URL;
      const plain = new SQL(url);
      const explicit = new SQL({ url, database: new URL(url).pathname.slice(1) });
      const [a] = await plain\`SELECT current_database() AS db\`;
      const [b] = await explicit\`SELECT current_database() AS db\`;
      console.log(a.db + " " + b.db);
      await plain.close(); await explicit.close();`;
    expect(inChild(script, { URL: url, PGDATABASE: other })).toBe(`${other} ${named}`);
    // PGHOST, PGPORT, PGUSER and PGPASSWORD do not override the URL.
    expect(inChild(script, { URL: url, PGHOST: "192.0.2.1", PGPORT: "1", PGUSER: "nobody", PGPASSWORD: "wrong" })).toBe(`${named} ${named}`);
  });

  test("an idle pool does not keep a process alive, and close() ends a listen() that would", () => {
    const script = `
      import { SQL } from "bun";
      const idle = new SQL(process.env.URL);
      await idle\`SELECT 1\`; // never closed
      const listening = new SQL(process.env.URL);
      await listening.listen("keeps_alive", () => {});
      await listening.close();
      console.log("closed");`;
    expect(inChild(script, { URL: url })).toBe("closed"); // a process kept alive fails by the child's timeout
  }, 15_000);
});
