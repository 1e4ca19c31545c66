// A throwaway MariaDB for the YOURLS importer tests (YOURLS lives in MySQL/MariaDB): Debian's
// mariadb-server (apt-get install mariadb-server), mariadb-install-db into a fresh temp folder,
// mariadbd on a free port of 127.0.0.1. As root (CI) both run as `nobody` through setpriv, like the
// PostgreSQL harness (postgres-bin.ts): mariadbd must not run as root, and setpriv execs, so the
// process we hold is mariadbd itself and a kill reaches it. Bun's SQL speaks mysql:// to it.
// Whoever starts one calls stop(). A process "exit" handler (scripts) and a watchdog process (bun
// test fires no "exit"; kill -9) kill a server left behind and remove its folder.

import { SQL, type Subprocess } from "bun";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clusterOwner, run, type ClusterOwner } from "./postgres-bin.ts";
import { freePort } from "./ports.ts";

export type MariaDbUser = { name: string; password: string };

export type RunningMariaDb = {
  port: number;
  /** mysql:// URL of a database, as root (no password) unless a user is given. */
  url: (database: string, user?: MariaDbUser) => string;
  /** A new connection pool as root; the caller closes it. */
  sql: (database?: string) => SQL;
  /** An empty database in utf8mb4, the character set YOURLS asks for. */
  createDatabase: (name: string) => Promise<void>;
  /** A user that may only SELECT in that database: a test proves the importer never writes. */
  createReadOnlyUser: (database: string, name: string, password: string) => Promise<void>;
  /** Kills the server and removes its folder. Idempotent. */
  stop: () => Promise<void>;
};

const MARIADBD = "/usr/sbin/mariadbd";
const INSTALL_HINT = "install Debian's MariaDB server (apt-get install mariadb-server)";
const READY_WITHIN_MS = 60_000; // two busy cores and a parallel test run can make a start slow
const START_ATTEMPTS = 3; // another process can take the free port between finding it and binding it
const SIMPLE_NAME = /^[A-Za-z0-9_]{1,64}$/; // names that need no quoting rules of their own

// Throwaway data, so durability buys nothing: no flush per commit, no doublewrite. A larger redo
// log and buffer pool keep a 1,000,000-row INSERT … SELECT from stalling on checkpoints.
function serverArgs(dir: string, port: number): string[] {
  return [
    MARIADBD,
    "--no-defaults", // nothing from /etc/mysql (Debian's config names its own socket, log and user)
    `--datadir=${dir}/data`,
    `--tmpdir=${dir}`,
    `--port=${port}`,
    "--bind-address=127.0.0.1",
    `--socket=${dir}/mariadbd.sock`,
    `--pid-file=${dir}/mariadbd.pid`,
    `--log-error=${dir}/error.log`,
    "--skip-name-resolve", // no DNS on connect; accounts are matched by 127.0.0.1
    "--character-set-server=utf8mb4",
    "--collation-server=utf8mb4_unicode_ci",
    "--innodb-flush-log-at-trx-commit=0",
    "--innodb-doublewrite=0",
    "--innodb-buffer-pool-size=256M",
    "--innodb-log-file-size=256M",
  ];
}

export async function startMariaDb(): Promise<RunningMariaDb> {
  if (!existsSync(MARIADBD) || !Bun.which("mariadb-install-db")) throw new Error(`MariaDB for the tests: ${MARIADBD} or mariadb-install-db not found; ${INSTALL_HINT}`);
  const owner = clusterOwner();
  const dir = mkdtempSync(join(tmpdir(), "shortener-mariadb-"));
  owner.give(dir);
  try {
    // normal: root@localhost/127.0.0.1 with no password, so root can log in over TCP.
    const install = await run(owner, ["mariadb-install-db", "--no-defaults", `--datadir=${dir}/data`, "--auth-root-authentication-method=normal", "--skip-test-db"]);
    if (install.code !== 0) throw new Error(`MariaDB for the tests: mariadb-install-db (as ${owner.name}) failed:\n${install.output}`);
    return await startServer(owner, dir);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

async function startServer(owner: ClusterOwner, dir: string): Promise<RunningMariaDb> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    // TZ: the server's SYSTEM time zone is UTC on every machine, as YOURLS's data is UTC wall clock.
    const server = Bun.spawn([...owner.prefix, ...serverArgs(dir, port)], { env: { PATH: "/usr/sbin:/usr/bin:/bin", TZ: "UTC", LC_ALL: "C" }, stdio: ["ignore", "ignore", "ignore"] });
    const watchdog = startWatchdog(server.pid, dir);
    const onExit = () => {
      server.kill("SIGKILL");
      watchdog.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    };
    process.on("exit", onExit); // synchronous only: kill and remove
    const rootUrl = (database: string) => `mysql://root@127.0.0.1:${port}/${encodeURIComponent(database)}`;
    const failure = await waitUntilReady(server, rootUrl("mysql"));
    if (failure === null) return running(server, watchdog, onExit, dir, port);
    server.kill("SIGKILL");
    await server.exited;
    watchdog.kill("SIGKILL");
    process.off("exit", onExit);
    const log = existsSync(join(dir, "error.log")) ? readFileSync(join(dir, "error.log"), "utf8") : "(no error log)";
    if (attempt < START_ATTEMPTS && /Address already in use|Bind on TCP\/IP port/.test(log)) {
      rmSync(join(dir, "error.log"), { force: true });
      continue;
    }
    throw new Error(`MariaDB for the tests: mariadbd (as ${owner.name}, port ${port}) ${failure}. Its error log:\n${log}`);
  }
}

/** null once a query answers; otherwise why not (it exited, or it did not answer in time). */
async function waitUntilReady(server: Subprocess, url: string): Promise<string | null> {
  const deadline = Date.now() + READY_WITHIN_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) return `exited (${server.exitCode ?? server.signalCode}) while starting`;
    const probe = new SQL({ url, max: 1, connectionTimeout: 5 });
    try {
      await probe`SELECT 1`;
      return null;
    } catch {
      await Bun.sleep(100); // not listening yet, or still starting InnoDB
    } finally {
      await probe.close().catch(() => {});
    }
  }
  return `did not answer within ${READY_WITHIN_MS / 1000} s`;
}

function running(server: Subprocess, watchdog: Subprocess, onExit: () => void, dir: string, port: number): RunningMariaDb {
  const url = (database: string, user?: MariaDbUser) => {
    const who = user ? `${encodeURIComponent(user.name)}:${encodeURIComponent(user.password)}` : "root";
    return `mysql://${who}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  };
  const admin = new SQL({ url: url("mysql"), max: 1 });
  let stopping: Promise<void> | null = null;
  return {
    port,
    url,
    sql: (database = "mysql") => new SQL({ url: url(database) }),
    async createDatabase(name) {
      await admin.unsafe(`CREATE DATABASE ${simple(name)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    },
    async createReadOnlyUser(database, name, password) {
      // @'127.0.0.1': with --skip-name-resolve, that is the host every test connection comes from.
      const account = `'${simple(name)}'@'127.0.0.1'`;
      await admin.unsafe(`CREATE USER ${account} IDENTIFIED BY '${simple(password)}'`);
      await admin.unsafe(`GRANT SELECT ON ${simple(database)}.* TO ${account}`);
    },
    stop() {
      stopping ??= (async () => {
        process.off("exit", onExit);
        await admin.close({ timeout: 1 }).catch(() => {});
        server.kill("SIGKILL"); // throwaway data: no need for a clean shutdown
        await server.exited;
        watchdog.kill("SIGKILL");
        rmSync(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}

/** Names and passwords go into SQL text (CREATE USER takes no parameters), so only simple ones. */
function simple(value: string): string {
  if (!SIMPLE_NAME.test(value)) throw new Error(`MariaDB for the tests: use letters, digits and _ only, not ${JSON.stringify(value)}`);
  return value;
}

/**
 * A detached shell that waits for this process to end, then kills mariadbd (if it still runs) and
 * removes the folder: the clean-up for when this process ends without stop() or its "exit" handler.
 */
function startWatchdog(serverPid: number, dir: string): Subprocess {
  const script = [
    "trap '' HUP INT TERM", // outlive a Ctrl-C or a kill of the process group
    'parent=$1; server=$2; dir=$3',
    'while kill -0 "$parent" 2>/dev/null; do sleep 1; done',
    // only if that pid is still mariadbd (not a process that reused the number)
    'if grep -q mariadbd "/proc/$server/cmdline" 2>/dev/null; then kill -9 "$server"; fi',
    'rm -rf "$dir"',
  ].join("\n");
  const proc = Bun.spawn(["sh", "-c", script, "shortener-mariadb-watchdog", String(process.pid), String(serverPid), dir], { detached: true, stdio: ["ignore", "ignore", "ignore"] });
  proc.unref(); // it must not keep this process alive
  return proc;
}
