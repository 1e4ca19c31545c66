// Finding PostgreSQL's server programs and running them. PostgreSQL refuses to run as root, so as
// root (CI) every program runs as `nobody` through setpriv and the cluster's folder belongs to
// nobody; as any other user they run as that user.

import { chownSync, existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";

const PROGRAMS = ["initdb", "pg_ctl", "postgres", "pg_isready"];
const INSTALL_HINT = "install PostgreSQL's server programs (Debian, as CI does: apt-get install postgresql)";
const NOBODY = 65534;

/** Where to look: pg_config --bindir, then Debian's folders (newest first), then PATH. */
function candidateBinDirs(): string[] {
  const candidates: string[] = [];
  const pgConfig = Bun.which("pg_config");
  if (pgConfig) candidates.push(Bun.spawnSync([pgConfig, "--bindir"]).stdout.toString().trim());
  // Debian's packages keep the server programs off PATH, one folder per major version.
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(debian, v, "bin")));
  }
  const initdb = Bun.which("initdb"); // other systems put them on PATH
  if (initdb) candidates.push(dirname(initdb));
  return candidates.filter((dir) => dir !== "");
}

/** The first folder with initdb, pg_ctl, postgres and pg_isready; throws (never skips) when there is none. */
export function postgresBinDir(candidates: string[] = candidateBinDirs()): string {
  const found = candidates.find((dir) => PROGRAMS.every((p) => existsSync(join(dir, p))));
  if (found) return found;
  const looked = candidates.length > 0 ? candidates.join(", ") : "pg_config --bindir, /usr/lib/postgresql/*/bin, PATH";
  throw new Error(`PostgreSQL for the tests: ${PROGRAMS.join(", ")} not found (looked in ${looked}); ${INSTALL_HINT}`);
}

/** Who runs the cluster: the prefix that switches to that user, and how to hand it a file. */
export type ClusterOwner = { prefix: string[]; give: (path: string) => void; name: string };

export function clusterOwner(): ClusterOwner {
  if (process.getuid?.() !== 0) return { prefix: [], give: () => {}, name: "the invoking user" };
  // setpriv (util-linux) rather than runuser: no PAM session, and --clear-groups drops root's groups.
  if (!Bun.which("setpriv")) throw new Error("PostgreSQL for the tests: running as root needs setpriv (util-linux) to run PostgreSQL as nobody");
  return {
    prefix: ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"],
    give: (path) => chownSync(path, NOBODY, NOBODY),
    name: "nobody",
  };
}

// A fixed environment: no PGPORT, PGDATA or PGHOST of the developer's shell reaches the programs,
// and their messages are in English (start() recognises "could not bind").
const ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" };

export type Ran = { code: number; output: string };

/** Runs cmd to its end, as the owner; never throws for a non-zero exit. */
export async function run(owner: ClusterOwner, cmd: string[]): Promise<Ran> {
  const proc = Bun.spawn([...owner.prefix, ...cmd], { env: ENV, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, output: out + err };
}

/** The same, synchronously: for a process "exit" handler, where nothing asynchronous runs. */
export function runSync(owner: ClusterOwner, cmd: string[]): Ran {
  const proc = Bun.spawnSync([...owner.prefix, ...cmd], { env: ENV, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  return { code: proc.exitCode ?? -1, output: proc.stdout.toString() + proc.stderr.toString() };
}
