// The command line cannot miss its database (docs/configuration.md: Which database a command uses):
// the real executable from several working folders and with STATE_DIRECTORY, each refusal leaving
// nothing behind, the start-up log's next step, and "did you mean".

import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { startListening } from "../../scripts/lib/processes.ts";
import { cli, makeKey } from "../support/admin.ts";
import { engine, serverCommand, startServer } from "../support/server.ts";
import { eventually } from "../support/eventually.ts";

setDefaultTimeout(60_000);

const SYSTEM_DATABASE = "/var/lib/shortener/shortener.db";
// A machine with the .deb installed: the commands would find its database before ./shortener.db.
const systemHasOne = existsSync(SYSTEM_DATABASE);

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "shortener-where-"));
  folders.push(dir);
  return dir;
}

/** The service started in `cwd` with no --db, then stopped: it makes its database where it always did. */
async function serviceIn(cwd: string, env: Record<string, string> = {}): Promise<string> {
  const served = await startListening("server", [...serverCommand(), "--port", "0", "--host", "127.0.0.1"], { cwd, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), ...env } });
  await served.stop();
  return served.output();
}

/** The line of `output` that starts with `prefix`, waited for (up to 20 s) while the process runs. */
async function lineOf(output: () => string, prefix: string): Promise<string | undefined> {
  const line = async () => output().split("\n").find((l) => l.startsWith(prefix));
  return await eventually(line, (found) => found !== undefined, 20_000);
}

describe.skipIf(systemHasOne)("which database a command uses", () => {
  test("the service still makes ./shortener.db; a command run in that folder finds it and names it by its absolute path", async () => {
    const dir = folder();
    await serviceIn(dir);
    expect(existsSync(join(dir, "shortener.db"))).toBe(true);
    const made = cli(["key", "create", "me"], {}, { cwd: dir });
    expect(made.code).toBe(0);
    expect(made.err).toContain(`created admin key "me" in ${join(dir, "shortener.db")};`);
    expect(cli(["key", "list"], {}, { cwd: dir }).out).toMatch(/^me\s+admin/m);
    // A relative --db is read against the working folder, and printed absolute.
    const relative = cli(["key", "revoke", "me", "--db", "shortener.db"], {}, { cwd: dir });
    expect(relative.err).toContain(`revoked key "me" in ${join(dir, "shortener.db")}`);
  });

  test("from any other folder every command refuses (exit 2), names every place it looked, and leaves the folder empty", () => {
    const csv = join(folder(), "links.csv");
    writeFileSync(csv, "url\nhttps://example.com/a\n");
    const elsewhere = folder();
    for (const args of [["key", "create", "me"], ["key", "list"], ["user", "list"], ["webhook", "list"], ["backup", "copy.db"], ["import", "--from", "csv", "--file", csv]]) {
      const r = cli(args, {}, { cwd: elsewhere });
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.err.trim().split("\n")).toEqual([expect.stringMatching(/^shortener: no database: neither --db nor SHORTENER_DB is given, STATE_DIRECTORY is not set/)]);
      expect(r.err).toContain(SYSTEM_DATABASE);
      expect(r.err).toContain(join(elsewhere, "shortener.db"));
      expect(r.out).toBe("");
      expect(readdirSync(elsewhere)).toEqual([]);
    }
  });

  test("STATE_DIRECTORY: the service keeps its database there, a command from anywhere uses it, and a missing one is refused rather than replaced", async () => {
    const state = folder();
    const started = folder();
    await serviceIn(started, { STATE_DIRECTORY: state });
    expect(readdirSync(started)).toEqual([]);
    expect(existsSync(join(state, "shortener.db"))).toBe(true);
    const made = cli(["key", "create", "from-unit"], { STATE_DIRECTORY: state }, { cwd: folder() });
    expect(made.code).toBe(0);
    expect(made.err).toContain(`in ${join(state, "shortener.db")};`);
    // A folder with a ./shortener.db of its own is not a stand-in for the service's.
    const here = folder();
    await serviceIn(here);
    const empty = folder();
    const r = cli(["key", "list"], { STATE_DIRECTORY: empty }, { cwd: here });
    expect(r.code).toBe(2);
    expect(r.err.trim()).toBe(`shortener: STATE_DIRECTORY is ${empty}, but ${join(empty, "shortener.db")} does not exist (commands never make a database; the service makes it at its first start)`);
    expect(readdirSync(empty)).toEqual([]);
  });

  test("--db or SHORTENER_DB naming a missing file: refused by its absolute path, nothing made", () => {
    const elsewhere = folder();
    const typo = cli(["key", "create", "me", "--db", "typo.db"], {}, { cwd: elsewhere });
    expect(typo.code).toBe(2);
    expect(typo.err).toStartWith(`shortener: --db names ${join(elsewhere, "typo.db")}, which does not exist`);
    const env = cli(["user", "list"], { SHORTENER_DB: join(elsewhere, "no", "such.db") }, { cwd: elsewhere });
    expect(env.code).toBe(2);
    expect(env.err).toStartWith(`shortener: SHORTENER_DB names ${join(elsewhere, "no", "such.db")}, which does not exist`);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

test(`--db naming the service's database (${engine}) works from any folder and is named by its absolute path`, async () => {
  const server = await startServer();
  try {
    const elsewhere = folder();
    // SQLite: a relative --db, read against the working folder; PostgreSQL: the URL, used as given.
    const given = engine === "sqlite" ? relative(elsewhere, server.dbPath) : server.dbPath;
    const r = cli(["key", "create", "named", "--db", given], {}, { cwd: elsewhere });
    expect(r.code).toBe(0);
    const url = engine === "postgres" ? new URL(server.dbPath) : null;
    expect(r.err).toContain(url === null ? ` in ${server.dbPath};` : `@${url.host}${url.pathname};`);
    if (url !== null && url.password !== "") expect(r.err).not.toContain(url.password);
    expect(readdirSync(elsewhere)).toEqual([]);
  } finally {
    await server.dispose();
  }
});

describe(`the start-up log's next step (${engine})`, () => {
  /** --db as the next step prints it: the file, or the URL without its password. */
  const dbFlag = (dbPath: string) => {
    if (engine === "sqlite") return dbPath;
    const url = new URL(dbPath);
    url.password = "";
    return url.href;
  };

  test("a new instance ends its log with how to make a key and where the dashboard is; once a key exists it says nothing", async () => {
    const server = await startServer();
    try {
      expect(await lineOf(server.output, "next:")).toBe(`next: shortener key create NAME --db ${dbFlag(server.dbPath)}, then open http://127.0.0.1:${server.port}/links and paste the key`);
      makeKey(server.dbPath, "first");
      await server.stop();
      const again = await startServer({ dir: server.dir });
      await again.stop();
      expect(again.output()).toContain("stopped");
      expect(again.output()).not.toContain("next:");
    } finally {
      await server.dispose();
    }
  });

  test("with --base-url the next step opens that address", async () => {
    const server = await startServer({ args: ["--base-url", "https://s.example.org"] });
    try {
      expect(await lineOf(server.output, "next:")).toEndWith(", then open https://s.example.org/links and paste the key");
    } finally {
      await server.dispose();
    }
  });
});

describe("did you mean", () => {
  test("an unknown flag or command: the nearest one suggested, none when nothing is near", () => {
    for (const [args, line] of [
      [["--base-ur", "https://s.example.org"], "shortener: unknown flag --base-ur; did you mean --base-url?"],
      [["key", "create", "me", "--scop", "admin"], "shortener: unknown flag --scop; did you mean --scope?"],
      [["kye", "list"], "shortener: unknown command kye; did you mean key?"],
      [["--frobnicate"], "shortener: unknown flag --frobnicate (see --help)"],
      [["frobnicate"], "shortener: unknown command frobnicate (see --help)"],
    ] as const) {
      const r = cli([...args]);
      expect({ args, code: r.code, err: r.err.trim() }).toEqual({ args, code: 2, err: line });
    }
  });

  test.each([
    [["key", "creat", "me"], "unknown key action creat; did you mean create?"],
    [["user", "lst"], "unknown user action lst; did you mean list?"],
    [["webhook", "remve", "1"], "unknown webhook action remve; did you mean remove?"],
  ])("%p: before any database is looked for", (args, words) => {
    const r = cli(args);
    expect(r.code).toBe(2);
    expect(r.err).toStartWith(`shortener: ${words} (usage:`);
  });
});
