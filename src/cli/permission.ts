// Why the database cannot be opened or the port not listened on, in words that lead to the fix:
// SQLite says only "unable to open database file", and the kernel only "permission denied"
// (docs/configuration.md: Permission problems).

import { accessSync, constants, readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describeLocation, engineOf } from "../db/storage.ts";

/** The process's user, by name where /etc/passwd has one (a container's uid may have none). */
export type UserOf = { name: string | null; uid: number; gid: number };

/** The service, whose files these are, or a command run by someone beside it. */
export type Role = "service" | "command";

export function currentUser(): UserOf {
  const uid = process.getuid?.() ?? -1;
  return { name: userName(uid), uid, gid: process.getgid?.() ?? -1 };
}

/** "user nobody (uid 65534)", or "uid 1234" without a name. */
export function describeUser(user: Pick<UserOf, "name" | "uid">): string {
  return user.name === null ? `uid ${user.uid}` : `user ${user.name} (uid ${user.uid})`;
}

/** The name /etc/passwd gives a uid; null when it gives none (or cannot be read). */
export function userName(uid: number, passwd = readPasswd()): string | null {
  for (const line of passwd.split("\n")) {
    const [name, , id] = line.split(":");
    if (name && id === String(uid)) return name;
  }
  return null;
}

function readPasswd(): string {
  try {
    return readFileSync("/etc/passwd", "utf8");
  } catch {
    return "";
  }
}

/** What chown needs to give a folder to this user: `nobody:` (the user's own group), or `1234:1234` without a name. */
function owner(user: UserOf): string {
  return user.name === null ? `${user.uid}:${user.gid}` : `${user.name}:`;
}

type Access = "ok" | "denied" | "read-only" | "missing";

function access(path: string, mode: number): Access {
  try {
    accessSync(path, mode);
    return "ok";
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "EACCES" || code === "EPERM") return "denied";
    if (code === "EROFS") return "read-only";
    return "missing";
  }
}

/** Who owns a path, as a message names them. */
function ownerOf(path: string): string {
  try {
    const uid = statSync(path).uid;
    return describeUser({ name: userName(uid), uid });
  } catch {
    return "someone else";
  }
}

/**
 * The permission problem that keeps this process from opening or creating the SQLite file `file`,
 * as one line naming the user and the fix; null when there is none to see (the failure was another).
 */
export function permissionProblem(file: string, role: Role, user: UserOf = currentUser()): string | null {
  const path = resolve(file);
  const folder = dirname(path);
  const who = describeUser(user);
  // Every folder on the way must let the user in.
  const parts = folder.split("/").filter(Boolean);
  for (let i = 0; i <= parts.length; i++) {
    const dir = "/" + parts.slice(0, i).join("/");
    const state = access(dir, constants.X_OK);
    if (state === "missing") return null;
    if (state === "denied") {
      const fix = role === "service" ? `let it in (sudo chmod o+x ${dir}) or keep the database in a folder it owns` : "run the command as root (sudo shortener …) or as the user the service runs as";
      return `permission denied: ${who} cannot enter the folder ${dir} (owned by ${ownerOf(dir)}) to reach the database ${path}; ${fix}`;
    }
  }
  // SQLite writes the -wal and -shm files (or a -journal) beside the database: the folder must be writable too.
  const files = [path, `${path}-wal`, `${path}-shm`, `${path}-journal`].filter((f) => access(f, constants.F_OK) === "ok");
  const blocked =
    files.map((f) => ({ what: `write ${f}`, at: f, state: access(f, constants.R_OK | constants.W_OK) })).find((c) => c.state !== "ok") ??
    { what: files.length === 0 ? `create the database ${path}: the folder ${folder} is not writable` : `write in the folder ${folder} (SQLite keeps its -wal and -shm files beside the database ${path})`, at: folder, state: access(folder, constants.W_OK | constants.X_OK) };
  if (blocked.state === "ok" || blocked.state === "missing") return null;
  if (blocked.state === "read-only") {
    return `cannot ${blocked.what}: the file system is read-only there (under systemd's ProtectSystem=strict only the state folder, /var/lib/shortener, is writable: keep the database there, or add ReadWritePaths=${folder})`;
  }
  const fix = `sudo chown -R ${owner(user)} ${folder}`;
  const advice = role === "service"
    ? `give the folder to that user: ${fix}`
    : `run the command as its owner or as root (sudo shortener …), or give the folder to this user: ${fix}`;
  return `permission denied: ${who} cannot ${blocked.what} (owned by ${ownerOf(blocked.at)}); ${advice}`;
}

/** The line for a database that would not open: the permission problem if there is one, else the engine's words. */
export function cannotOpen(location: string, err: unknown, role: Role): string {
  const problem = engineOf(location) === "sqlite" ? permissionProblem(location, role) : null;
  return problem ?? `cannot open database ${describeLocation(location)}: ${err instanceof Error ? err.message : String(err)}`;
}

/** The line for a port that would not open; below 1024 a refusal is nearly always the missing privilege. */
export function cannotListen(host: string, port: number, err: unknown, user: UserOf = currentUser()): string {
  const code = (err as { code?: string } | null)?.code;
  if (code === "EACCES" && port > 0 && port < 1024) {
    return (
      `cannot listen on ${host}:${port}: permission denied (ports below 1024 need root or CAP_NET_BIND_SERVICE, which ${describeUser(user)} lacks; ` +
      "use --port 8080 behind a reverse proxy, or under systemd AmbientCapabilities=CAP_NET_BIND_SERVICE with CapabilityBoundingSet=CAP_NET_BIND_SERVICE)"
    );
  }
  return `cannot listen on ${host}:${port}: ${err instanceof Error ? err.message : String(err)}`;
}

/**
 * A command's write the database refused after it opened: a SQLite file it may read but not write
 * opens (read-only) when its -wal and -shm files are there, and only the write fails. The same line
 * as for one that would not open; null when the failure was another (rethrown by the caller).
 */
export function writeRefused(location: string, err: unknown, role: Role): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (engineOf(location) !== "sqlite" || (code !== "SQLITE_READONLY" && code !== "SQLITE_CANTOPEN" && code !== "SQLITE_PERM")) return null;
  return permissionProblem(location, role) ?? `cannot write database ${describeLocation(location)}: ${err instanceof Error ? err.message : String(err)}`;
}
