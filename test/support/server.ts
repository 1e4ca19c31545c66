// Starts the real service as a child process on a free port with its own temp SQLite file.
// SHORTENER_BIN=/path/to/shortener runs the compiled binary instead of `bun src/main.ts`,
// so the same integration and browser suites exercise both.
// SHORTENER_TEST_ENGINE=postgres gives each service a fresh database of the shared test
// PostgreSQL (support/postgres.ts) instead of the SQLite file: a copy of the run's migrated
// template (support/postgres-template.ts), or an empty one that a SHORTENER_BIN migrates itself
// (a binary of another commit may want another schema).

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";
import { startListening } from "../../scripts/lib/processes.ts";
import { sharedPostgres } from "./postgres.ts";
import { migratedDatabase } from "./postgres-template.ts";

export const REPO_ROOT = resolve(import.meta.dir, "../..");

export type Engine = "sqlite" | "postgres";

function engineFromEnv(): Engine {
  const value = process.env.SHORTENER_TEST_ENGINE ?? "";
  if (value === "" || value === "sqlite") return "sqlite";
  if (value === "postgres") return "postgres";
  // A typo must not quietly run everything on SQLite.
  throw new Error(`SHORTENER_TEST_ENGINE=${value}: expected "postgres" or "sqlite" (or unset)`);
}

export const engine: Engine = engineFromEnv();
/** For tests that read the SQLite file themselves: test.skipIf(onPostgres)(...). */
export const onPostgres = engine === "postgres";

export type RunningServer = {
  url: string;
  port: number;
  dir: string;
  /** What --db was: the SQLite file, or on PostgreSQL the postgres:// URL of the service's database. */
  dbPath: string;
  engine: Engine;
  proc: Subprocess;
  /** Everything the process printed so far (stdout and stderr). */
  output: () => string;
  /** SIGTERM and wait for exit; returns the exit code. */
  stop: () => Promise<number>;
  /** Stop, then remove the temp folder. */
  dispose: () => Promise<void>;
};

export type StartOptions = {
  args?: string[];
  env?: Record<string, string>;
  /** Reuse a folder (and so its database) from an earlier server. */
  dir?: string;
  cwd?: string;
  /** A database of the test's own, whatever SHORTENER_TEST_ENGINE says: a postgres:// URL (the test drops it) or a SQLite file. */
  database?: string;
};

export function serverCommand(): string[] {
  const bin = process.env.SHORTENER_BIN;
  return bin ? [bin] : [process.execPath, join(REPO_ROOT, "src/main.ts")];
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "shortener-test-"));
  const dbPath = options.database ?? (onPostgres ? await postgresDatabaseOf(dir) : join(dir, "shortener.db"));
  const ownEngine: Engine = options.database ? (/^postgres(ql)?:\/\//i.test(options.database) ? "postgres" : "sqlite") : engine;
  const args = ["--port", "0", "--host", "127.0.0.1", "--db", dbPath, ...(options.args ?? [])];
  const served = await startListening("server", [...serverCommand(), ...args], {
    cwd: options.cwd ?? dir,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? dir, ...options.env },
  });
  const port = Number(new URL(served.url).port);
  const { proc, stop } = served;
  return {
    url: served.url,
    port,
    dir,
    dbPath,
    engine: ownEngine,
    proc,
    output: served.output,
    stop,
    dispose: async () => {
      await stop();
      if (options.dir) return;
      rmSync(dir, { recursive: true, force: true });
      // With the folder gone, nothing can start a server on that database again.
      if (onPostgres && !options.database) await (await sharedPostgres()).dropDatabase(dbPath);
    },
  };
}

/**
 * The database of the services started with this folder: a fresh one the first time, the same one
 * again when a test reuses the folder (as it would reuse the SQLite file in it).
 */
async function postgresDatabaseOf(dir: string): Promise<string> {
  const file = join(dir, "postgres-url");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const url = process.env.SHORTENER_BIN ? await (await sharedPostgres()).createDatabase() : await migratedDatabase();
  writeFileSync(file, url + "\n");
  return url;
}

/** POST /api/create as multipart/form-data, the spec's content type. */
export async function createLink(base: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`${base}/api/create`, { method: "POST", body: form, headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}
