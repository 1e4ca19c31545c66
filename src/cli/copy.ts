// `shortener copy --to TARGET` (docs/postgresql.md: Moving to PostgreSQL and back): everything in
// the command's database into an empty database of the other engine, then a check that both hold
// the same. Exit 0 when copied and verified; 1 when the copy failed or differs (the target keeps
// nothing); 2 for a usage error, a target that is not empty or a source that does not exist.

import { existsSync, rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { DatabaseLocator } from "./database.ts";
import { describeLocation, engineOf, type Engine } from "../db/storage.ts";
import { copyDatabase, CopyPlanError, type CopyProgress, type CopyReport, type CopySource, type CopyTarget } from "../db/copy.ts";
import { ForeignTarget, openCopySource, openCopyTarget } from "../db/open-copy.ts";
import { createProgress } from "../imports/progress.ts";
import { STDIO, type Output } from "./table.ts";
import { copyReportLines } from "./copy-report.ts";

/**
 * The database copied from: the one every command takes today (--db, SHORTENER_DB, or the default
 * of config.ts). The one place to change when commands resolve their database otherwise
 * (docs/configuration.md: Which database a command uses).
 */

const ENGINE_NAMES: Record<Engine, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };

/**
 * `database`: finds the source as every command does (docs/configuration.md: Which database a
 * command uses); the target is --to, which must be empty.
 */
export async function runCopyCommand(database: DatabaseLocator, databasePassword: string | null, flags: Record<string, string>, io: Output = STDIO, terminal = process.stderr.isTTY === true): Promise<number> {
  const found = database();
  if (!found.ok) {
    io.err(`shortener: ${found.message}`);
    return found.exitCode;
  }
  const from = found.location;
  const to = flags.to;
  // Whatever a message says, it never says a password: the credential's, or one in --db.
  const secrets = [databasePassword, ...passwordsOf(from)].filter((s): s is string => s !== null && s !== "");
  const say = (line: string) => io.err(`shortener: ${secrets.reduce((text, s) => text.replaceAll(s, "***"), line)}`);
  const refusal = checkLocations(from, to);
  if (refusal !== null) {
    say(refusal);
    return 2;
  }
  const target = to!;
  const [source, into] = [where(from), where(target)];
  let reading: CopySource;
  try {
    reading = await openCopySource(from, databasePassword);
  } catch (err) {
    say(`cannot open ${source}: ${messageOf(err)}`);
    return 1;
  }
  const made = engineOf(target) === "sqlite" && !existsSync(target);
  // A target file this copy made goes again when nothing is kept in it.
  const discard = () => {
    if (made) for (const suffix of ["", "-wal", "-shm"]) rmSync(target + suffix, { force: true });
  };
  let writing: CopyTarget;
  try {
    writing = await openCopyTarget(target, databasePassword);
  } catch (err) {
    await reading.close();
    discard();
    if (err instanceof ForeignTarget) {
      say(`${into} ${err.message}; copy into a database of shortener's own (a new file, or a new PostgreSQL database: createdb)`);
      return 2;
    }
    say(`cannot open ${into}: ${messageOf(err)}`);
    return 1;
  }
  const started = performance.now();
  let report: CopyReport | Error;
  try {
    report = await copyDatabase(reading, writing, progressOnStderr(terminal));
  } catch (err) {
    report = err instanceof Error ? err : new Error(String(err));
  } finally {
    await writing.close();
    await reading.close();
  }
  if (report instanceof Error) {
    discard();
    say(report instanceof CopyPlanError ? `this release cannot copy between these databases (a bug, please report it): ${report.message}` : `the copy failed, nothing was kept in ${into}: ${report.message}`);
    return 1;
  }
  if (report.outcome === "refused") {
    discard();
    const found = report.occupied.map((o) => `${o.table} (${o.rows.toLocaleString("en")} ${o.rows === 1 ? "row" : "rows"})`).join(", ");
    say(`${into} is not empty: ${found}; copy only into an empty database (a new file, or a new PostgreSQL database: createdb)`);
    return 2;
  }
  if (report.outcome === "mismatch") discard();
  const seconds = (performance.now() - started) / 1000;
  for (const line of copyReportLines(report, { from: `${source} (${ENGINE_NAMES[engineOf(from)]})`, to: `${into} (${ENGINE_NAMES[engineOf(target)]})`, seconds })) io.out(line);
  return report.outcome === "copied" ? 0 : 1;
}

/** Why the two locations cannot be copied between, or null. */
function checkLocations(from: string, to: string | undefined): string | null {
  if (to === undefined || to === "") return "copy needs a target: shortener copy --to postgres://user@host/database (or --to FILE.db to copy PostgreSQL into a new SQLite file)";
  if (engineOf(from) === engineOf(to)) {
    return engineOf(to) === "sqlite"
      ? `copy moves a database between SQLite and PostgreSQL, and ${where(from)} and ${where(to)} are both SQLite files: copy a file with \`shortener backup FILE\``
      : "copy moves a database between SQLite and PostgreSQL, and both are PostgreSQL databases: copy one with pg_dump and pg_restore";
  }
  if (engineOf(to) === "sqlite") return existsSync(dirname(resolve(to))) ? null : `--to: the folder ${dirname(resolve(to))} does not exist`;
  const url = URL.parse(to);
  if (url === null || url.hostname === "") return `--to: not a PostgreSQL URL with a host: ${describeLocation(to)} (postgres://user@host/database)`;
  if (url.pathname.length <= 1) return `--to: the PostgreSQL URL names no database (postgres://user@host/DATABASE): ${describeLocation(to)}`;
  // A command line is readable by every user of the host (ps, /proc) and kept in shell histories.
  if (url.password !== "") return "--to: leave the password out of the URL (a command line is visible to every user of the host); put it in $CREDENTIALS_DIRECTORY/db-password or PGPASSWORD";
  return null;
}

/** A location as messages show it: a file by its absolute path, a URL without its password. */
function where(location: string): string {
  return engineOf(location) === "sqlite" ? resolve(location) : describeLocation(location);
}

/** A URL's password as written and as meant (percent-decoded). */
function passwordsOf(location: string): string[] {
  const password = engineOf(location) === "postgres" ? (URL.parse(location)?.password ?? "") : "";
  if (password === "") return [];
  try {
    return [password, decodeURIComponent(password)];
  } catch {
    return [password]; // a stray % that decodes to nothing: the client reads it as written
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The bar of src/imports/progress.ts on stderr (plain lines when it is not a terminal), and notes. */
function progressOnStderr(terminal: boolean): CopyProgress {
  const write = (text: string) => void process.stderr.write(text);
  return { ...createProgress(write, terminal), note: (text) => write(`${text}\n`) };
}
