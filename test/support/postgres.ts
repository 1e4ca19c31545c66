// A throwaway PostgreSQL for tests: initdb in a fresh temp folder, pg_ctl start on a free port of
// 127.0.0.1 (no unix socket), a password for the one user, one database per createDatabase(): empty,
// or a copy of the cluster's template (template(), made once: see postgres-template.ts).
// sharedPostgres() starts one cluster per test process on first use. It is stopped by the preload
// (postgres-preload.ts: bun test fires no process "exit" event), by a process "exit" handler
// elsewhere, and, when the test process dies without either (kill -9, Ctrl-C), by a watchdog
// process that outlives it.

import { SQL, type Subprocess } from "bun";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clusterOwner, postgresBinDir, run, runSync, type ClusterOwner } from "./postgres-bin.ts";

export type Postgres = {
  /** The postgres:// URL (user, password, 127.0.0.1, port) of a database of this cluster. */
  url: (dbName: string) => string;
  /** A new database, empty (a copy of template1) or a copy of `template` (see template()); resolves to its URL. */
  createDatabase: (template?: string) => Promise<string>;
  /**
   * The name of this cluster's template database, made on first call by prepare(url) (which must
   * close its connections) and closed to connections after: createDatabase(name) copies it.
   */
  template: (prepare: (url: string) => Promise<void>) => Promise<string>;
  /** Drops a database made by createDatabase, ending its open connections. */
  dropDatabase: (url: string) => Promise<void>;
  /** Stops the cluster and removes its folder. Idempotent: every call gets the same promise. */
  stop: () => Promise<void>;
  /** Stops the server but keeps its data (an outage); resume() starts it again on the same port. */
  pause: () => Promise<void>;
  resume: () => Promise<void>;
  port: number;
  /** The temp folder: data/ (the cluster) and postgres.log, the server's log. */
  dir: string;
};

// Settings for a cluster that lives for one test run (written to data/shortener-test.conf).
function settings(port: number): string {
  return [
    "listen_addresses = '127.0.0.1'",
    `port = ${port}`,
    // TCP only: no socket file in /var/run/postgresql (not writable by nobody), nothing local without the password.
    "unix_socket_directories = ''",
    // Throwaway data, so durability buys nothing: no fsync, no waiting for the WAL flush, no
    // full-page images. Never settings for a real server.
    "fsync = off",
    "synchronous_commit = off",
    "full_page_writes = off",
    // Each service under test has a pool of its own (Bun's default: 10 connections), and a test
    // file may run several services at once.
    "max_connections = 200",
  ].join("\n") + "\n";
}

const USER = "postgres";
const TEMPLATE = "shortener_template";
const START_ATTEMPTS = 3; // another process can take the free port between finding it and binding it

/** Initialises and starts a new cluster; throws with the programs' output when that fails. */
export async function startPostgres(): Promise<Postgres> {
  const bin = postgresBinDir();
  const owner = clusterOwner();
  const dir = mkdtempSync(join(tmpdir(), "shortener-pg-"));
  owner.give(dir);
  const data = join(dir, "data");
  const log = join(dir, "postgres.log");
  const password = randomBytes(16).toString("hex"); // hex: no URL escaping needed
  const stopCommand = [join(bin, "pg_ctl"), "stop", "-D", data, "-m", "immediate", "-w"];
  const watchdog = startWatchdog(dir, [...owner.prefix, ...stopCommand]);
  try {
    await initCluster(bin, owner, dir, data, password);
    const port = await startCluster(bin, owner, data, log);
    return openCluster({ bin, owner, dir, data, port, password, watchdog, stopCommand, log });
  } catch (error) {
    runSync(owner, stopCommand); // in case it started and something after failed
    watchdog.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

async function initCluster(bin: string, owner: ClusterOwner, dir: string, data: string, password: string): Promise<void> {
  const pwfile = join(dir, "password");
  writeFileSync(pwfile, password, { mode: 0o600 });
  owner.give(pwfile);
  const init = await run(owner, [
    join(bin, "initdb"),
    "-D", data,
    `--username=${USER}`,
    `--pwfile=${pwfile}`,
    "--auth=scram-sha-256",
    "--encoding=UTF8",
    // Byte-order collation, the same on every machine (production clusters often use en_US.UTF-8,
    // so the service must not rely on how text sorts).
    "--locale=C",
    "--no-sync", // the folder is deleted after the run; see fsync below
    "--no-instructions",
  ]);
  rmSync(pwfile, { force: true });
  if (init.code !== 0) throw new Error(`PostgreSQL for the tests: initdb (as ${owner.name}) failed:\n${init.output}`);
  // Password login over TCP from 127.0.0.1, nothing else: replaces initdb's file (which trusts local users).
  writeFileSync(join(data, "pg_hba.conf"), `host all all 127.0.0.1/32 scram-sha-256\n`);
  appendFileSync(join(data, "postgresql.conf"), "\ninclude = 'shortener-test.conf'\n");
}

/** pg_ctl start on a free port; resolves to the port once the server accepts connections. */
async function startCluster(bin: string, owner: ClusterOwner, data: string, log: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = freePort();
    const conf = join(data, "shortener-test.conf");
    writeFileSync(conf, settings(port));
    owner.give(conf);
    // -w waits until the server reports it is ready (postmaster.pid), -t bounds that wait.
    const start = await run(owner, [join(bin, "pg_ctl"), "start", "-D", data, "-l", log, "-w", "-t", "60"]);
    const logText = existsSync(log) ? readFileSync(log, "utf8") : "";
    if (start.code !== 0) {
      if (attempt < START_ATTEMPTS && /could not bind|Address already in use/.test(logText)) continue;
      throw new Error(`PostgreSQL for the tests: pg_ctl start (as ${owner.name}) failed:\n${start.output}\n${logText}`);
    }
    // Confirmed from outside, the way a client sees it: over TCP on that port.
    const ready = await run(owner, [join(bin, "pg_isready"), "-h", "127.0.0.1", "-p", String(port), "-t", "30"]);
    if (ready.code !== 0) throw new Error(`PostgreSQL for the tests: started but pg_isready says: ${ready.output}\n${logText}`);
    return port;
  }
}

/** A port of 127.0.0.1 that was free a moment ago (startCluster retries when it no longer is). */
function freePort(): number {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}

/**
 * A detached shell that waits for this process to end, then stops the cluster (if it still runs)
 * and removes its folder: the clean-up for when this process is killed before it can do so.
 * It ignores the signals that a Ctrl-C or a kill of the process group sends; stop() kills it.
 */
function startWatchdog(dir: string, stopCommand: string[]): Subprocess {
  const script = [
    "trap '' HUP INT TERM",
    'pid=$1; dir=$2; shift 2',
    'while kill -0 "$pid" 2>/dev/null; do sleep 1; done',
    'if [ -f "$dir/data/postmaster.pid" ]; then "$@" >/dev/null 2>&1; fi',
    'rm -rf "$dir"',
  ].join("\n");
  const proc = Bun.spawn(["sh", "-c", script, "shortener-pg-watchdog", String(process.pid), dir, ...stopCommand], {
    detached: true,
    stdio: ["ignore", "ignore", "ignore"],
  });
  proc.unref(); // it must not keep this process alive
  return proc;
}

type Cluster = { bin: string; owner: ClusterOwner; dir: string; data: string; port: number; password: string; watchdog: Subprocess; stopCommand: string[]; log: string };

function openCluster(c: Cluster): Postgres {
  const url = (dbName: string) => `postgres://${USER}:${c.password}@127.0.0.1:${c.port}/${encodeURIComponent(dbName)}`;
  // `database` as well as the URL: Bun lets PGDATABASE take priority over the URL's database.
  // One connection: CREATE/DROP DATABASE one at a time.
  const admin = new SQL({ url: url("postgres"), database: "postgres", max: 1 });
  let created = 0;
  let stopping: Promise<void> | null = null;
  let template: Promise<string> | null = null;

  // Outside bun test (e.g. `bun some-script.ts`), "exit" fires; it only allows synchronous work.
  const onExit = () => {
    runSync(c.owner, c.stopCommand);
    c.watchdog.kill("SIGKILL");
    rmSync(c.dir, { recursive: true, force: true });
  };
  process.on("exit", onExit);

  const stop = () => {
    stopping ??= (async () => {
      process.off("exit", onExit);
      await admin.close({ timeout: 1 });
      // fast: ends the sessions of services still connected instead of waiting for them.
      const stopped = await run(c.owner, [join(c.bin, "pg_ctl"), "stop", "-D", c.data, "-m", "fast", "-w", "-t", "60"]);
      if (stopped.code !== 0) runSync(c.owner, c.stopCommand);
      c.watchdog.kill("SIGKILL");
      rmSync(c.dir, { recursive: true, force: true });
    })();
    return stopping;
  };

  return {
    url,
    port: c.port,
    dir: c.dir,
    stop,
    pause: async () => {
      const stopped = await run(c.owner, [join(c.bin, "pg_ctl"), "stop", "-D", c.data, "-m", "fast", "-w", "-t", "60"]);
      if (stopped.code !== 0) throw new Error(`PostgreSQL for the tests: pg_ctl stop failed:\n${stopped.output}`);
    },
    resume: async () => {
      // The settings file still names the same port, so clients find the server where it was.
      const started = await run(c.owner, [join(c.bin, "pg_ctl"), "start", "-D", c.data, "-l", c.log, "-w", "-t", "60"]);
      if (started.code !== 0) throw new Error(`PostgreSQL for the tests: pg_ctl start failed:\n${started.output}`);
    },
    createDatabase: async (from?: string) => {
      const name = `shortener_test_${++created}`;
      if (from !== undefined && from !== TEMPLATE) throw new Error(`not a template of this harness: ${from}`);
      // A copy is made block by block (no statement of the template runs again); PostgreSQL refuses
      // it while anyone is connected to the template, which is why template() closes it.
      await admin.unsafe(from === undefined ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${from}`);
      return url(name);
    },
    template: (prepare) => {
      template ??= (async () => {
        const name = TEMPLATE;
        await admin.unsafe(`CREATE DATABASE ${name}`);
        await prepare(url(name));
        // Nobody connects to it by mistake afterwards (a copy would then fail); copies allow connections again.
        await admin.unsafe(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
        return name;
      })();
      return template;
    },
    dropDatabase: async (databaseUrl: string) => {
      const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
      if (!/^shortener_test_\d+$/.test(name)) throw new Error(`not a database of this harness: ${name}`);
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

// On globalThis, so that the cluster stays one per process even if a test runner loads this
// module more than once.
const SHARED = Symbol.for("shortener.test.sharedPostgres");
type Holder = { [SHARED]?: Promise<Postgres> };

/** The test process's cluster, started on first use. A failed start stays failed (every caller sees the error). */
export function sharedPostgres(): Promise<Postgres> {
  const holder = globalThis as Holder;
  holder[SHARED] ??= startPostgres();
  return holder[SHARED];
}

/** Stops the shared cluster if it was started; for the preload's afterAll. */
export async function stopSharedPostgres(): Promise<void> {
  const holder = globalThis as Holder;
  const started = holder[SHARED];
  if (!started) return;
  delete holder[SHARED]; // a later sharedPostgres() starts a new one rather than return a stopped one
  const pg = await started.catch(() => null);
  await pg?.stop();
}
