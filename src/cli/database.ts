// Which database a command works on (docs/configuration.md: Which database a command uses).
// The service makes its database at its first start; a command never does: one run from the
// wrong folder must not leave an empty database behind and report success against it.

import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { engineOf } from "../db/storage.ts";
import { currentUser, describeUser } from "./permission.ts";

/** The .deb's and the systemd unit's database, found from any folder. */
export const SYSTEM_DATABASE = "/var/lib/shortener/shortener.db";

/** What a path holds, as far as this process may look. */
export type FileState = "file" | "missing" | "not-a-file" | "denied";

/** What the command line knows when a command starts. */
export type DatabaseFacts = {
  /** --db or SHORTENER_DB as given, or null when neither was. */
  given: string | null;
  /** How it was given, for the messages: "--db" or "SHORTENER_DB". */
  givenAs: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The working folder, against which relative paths are read. */
  cwd: string;
  /** Whether a file is there; probeFile in use, a table in the unit tests. */
  probe: (path: string) => FileState;
};

export type DatabaseChoice =
  | { ok: true; location: string; how: "given" | "state directory" | "system" | "working folder" }
  /** `message` is one line without the "shortener: " prefix; 2: nothing to open, 1: not allowed to look. */
  | { ok: false; exitCode: 1 | 2; message: string };

/** Finds the database for a command, in the documented order; never makes one. */
export type DatabaseLocator = () => DatabaseChoice;

/** The database a command uses, or why there is none: --db, $STATE_DIRECTORY, the system's, the working folder's. */
export function commandDatabase(facts: DatabaseFacts): DatabaseChoice {
  if (facts.given !== null) {
    if (engineOf(facts.given) === "postgres") return { ok: true, location: facts.given, how: "given" };
    const path = resolve(facts.cwd, facts.given);
    return named(path, "given", facts, `${facts.givenAs} names ${path}, which`);
  }
  // systemd's StateDirectory= says where the service keeps it: looking further could only find
  // another one (docs/configuration.md: Which database a command uses).
  const stateDirectory = facts.env.STATE_DIRECTORY?.split(":")[0];
  if (stateDirectory) {
    const path = resolve(facts.cwd, stateDirectory, "shortener.db");
    return named(path, "state directory", facts, `STATE_DIRECTORY is ${stateDirectory}, but ${path}`);
  }
  const here = join(resolve(facts.cwd), "shortener.db");
  for (const [path, how] of [[SYSTEM_DATABASE, "system"], [here, "working folder"]] as const) {
    const state = facts.probe(path);
    if (state === "file") return { ok: true, location: path, how };
    if (state === "denied") return denied(path);
    if (state === "not-a-file") return { ok: false, exitCode: 2, message: `${path} is not a database file (name the database with --db FILE)` };
  }
  return {
    ok: false,
    exitCode: 2,
    message:
      `no database: neither --db nor SHORTENER_DB is given, STATE_DIRECTORY is not set, and neither ${SYSTEM_DATABASE} nor ${here} exists; ` +
      "name it with --db FILE (commands never make a database; the service makes one at its first start)",
  };
}

/** A database the configuration names: used if it is there, never looked for elsewhere. `subject`: "--db names /x.db, which". */
function named(path: string, how: "given" | "state directory", facts: DatabaseFacts, subject: string): DatabaseChoice {
  const state = facts.probe(path);
  if (state === "file") return { ok: true, location: path, how };
  if (state === "denied") return denied(path);
  if (state === "not-a-file") return { ok: false, exitCode: 2, message: `${subject} is not a database file` };
  return { ok: false, exitCode: 2, message: `${subject} does not exist (commands never make a database; the service makes it at its first start)` };
}

function denied(path: string): DatabaseChoice {
  return { ok: false, exitCode: 1, message: `permission denied: cannot look for ${path} as ${describeUser(currentUser())}; run the command as root (sudo shortener …) or as the user the service runs as, or name another database with --db FILE` };
}

/** What a path holds: a stat that fails for want of permission is "denied", not "missing". */
export function probeFile(path: string): FileState {
  try {
    return statSync(path).isFile() ? "file" : "not-a-file";
  } catch (err) {
    const code = (err as { code?: string }).code;
    return code === "EACCES" || code === "EPERM" ? "denied" : "missing";
  }
}
