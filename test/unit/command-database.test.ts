// Which database a command uses (docs/configuration.md: Which database a command uses): the order,
// and each refusal, with the file system as a table.

import { describe, expect, test } from "bun:test";
import { commandDatabase, SYSTEM_DATABASE, type DatabaseFacts, type FileState } from "../../src/cli/database.ts";

/** Facts with these files present (anything else missing), run from /home/ana/work. */
function facts(files: Record<string, FileState>, over: Partial<DatabaseFacts> = {}): DatabaseFacts {
  return { given: null, givenAs: "--db", env: {}, cwd: "/home/ana/work", probe: (path) => files[path] ?? "missing", ...over };
}

describe("a command's database", () => {
  test("--db is used as given, read against the working folder", () => {
    expect(commandDatabase(facts({ "/srv/s/links.db": "file" }, { given: "/srv/s/links.db" }))).toEqual({ ok: true, location: "/srv/s/links.db", how: "given" });
    expect(commandDatabase(facts({ "/home/ana/work/data/s.db": "file" }, { given: "data/s.db" }))).toEqual({ ok: true, location: "/home/ana/work/data/s.db", how: "given" });
  });

  test("--db wins over everything else, even when the others exist", () => {
    const all = { "/x/given.db": "file", "/state/shortener.db": "file", [SYSTEM_DATABASE]: "file", "/home/ana/work/shortener.db": "file" } as const;
    expect(commandDatabase(facts(all, { given: "/x/given.db", env: { STATE_DIRECTORY: "/state" } }))).toMatchObject({ ok: true, location: "/x/given.db" });
  });

  test("a PostgreSQL URL is used as given, not looked for as a file", () => {
    const url = "postgres://app@db.internal/shortener";
    expect(commandDatabase(facts({}, { given: url }))).toEqual({ ok: true, location: url, how: "given" });
  });

  test("--db naming a missing file is refused with its absolute path (exit 2), never looked for elsewhere", () => {
    const r = commandDatabase(facts({ "/home/ana/work/shortener.db": "file" }, { given: "typo.db" }));
    expect(r).toEqual({ ok: false, exitCode: 2, message: expect.stringContaining("--db names /home/ana/work/typo.db, which does not exist") });
    const env = commandDatabase(facts({}, { given: "/srv/none.db", givenAs: "SHORTENER_DB" }));
    expect(env).toMatchObject({ ok: false, exitCode: 2, message: expect.stringMatching(/^SHORTENER_DB names \/srv\/none\.db, which does not exist/) });
  });

  test("$STATE_DIRECTORY/shortener.db comes next, and only it: a missing one is refused, not replaced", () => {
    const env = { STATE_DIRECTORY: "/var/lib/other:/var/lib/second" };
    expect(commandDatabase(facts({ "/var/lib/other/shortener.db": "file" }, { env }))).toEqual({ ok: true, location: "/var/lib/other/shortener.db", how: "state directory" });
    const r = commandDatabase(facts({ [SYSTEM_DATABASE]: "file", "/home/ana/work/shortener.db": "file" }, { env }));
    expect(r).toMatchObject({ ok: false, exitCode: 2, message: expect.stringContaining("STATE_DIRECTORY is /var/lib/other, but /var/lib/other/shortener.db does not exist") });
  });

  test("then the system's database, when it exists, before the working folder's", () => {
    expect(commandDatabase(facts({ [SYSTEM_DATABASE]: "file", "/home/ana/work/shortener.db": "file" }))).toEqual({ ok: true, location: SYSTEM_DATABASE, how: "system" });
  });

  test("then ./shortener.db, by its absolute path", () => {
    expect(commandDatabase(facts({ "/home/ana/work/shortener.db": "file" }))).toEqual({ ok: true, location: "/home/ana/work/shortener.db", how: "working folder" });
    expect(commandDatabase(facts({ "/tmp/shortener.db": "file" }, { cwd: "/tmp/" }))).toMatchObject({ location: "/tmp/shortener.db" });
  });

  test("nothing found: exit 2 and one line naming every place looked", () => {
    const r = commandDatabase(facts({ "/home/ana/shortener.db": "file" }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.exitCode).toBe(2);
    expect(r.message.split("\n")).toHaveLength(1);
    for (const place of ["--db", "SHORTENER_DB", "STATE_DIRECTORY", SYSTEM_DATABASE, "/home/ana/work/shortener.db"]) expect(r.message).toContain(place);
  });

  test("a place this user may not look into is not passed over: permission denied, exit 1", () => {
    const r = commandDatabase(facts({ [SYSTEM_DATABASE]: "denied", "/home/ana/work/shortener.db": "file" }));
    expect(r).toMatchObject({ ok: false, exitCode: 1, message: expect.stringContaining(`permission denied: cannot look for ${SYSTEM_DATABASE} as `) });
    expect(commandDatabase(facts({ "/srv/x.db": "denied" }, { given: "/srv/x.db" }))).toMatchObject({ ok: false, exitCode: 1, message: expect.stringContaining("sudo") });
  });

  test("a folder where the file should be is refused", () => {
    expect(commandDatabase(facts({ "/home/ana/work/shortener.db": "not-a-file" }))).toMatchObject({ ok: false, exitCode: 2, message: expect.stringContaining("/home/ana/work/shortener.db is not a database file") });
    expect(commandDatabase(facts({ "/srv": "not-a-file" }, { given: "/srv" }))).toMatchObject({ ok: false, exitCode: 2, message: expect.stringContaining("--db names /srv, which is not a database file") });
  });
});
