// Permission problems as an unprivileged user meets them (docs/configuration.md: Permission problems):
// "permission denied", who the process runs as, and the chown to run, instead of SQLite's "unable
// to open database file"; and a port below 1024. The tests run as root and switch to nobody.

import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startListening } from "../../scripts/lib/processes.ts";
import { cli } from "../support/admin.ts";
import { serverCommand } from "../support/server.ts";

setDefaultTimeout(60_000);

const NOBODY = 65534;
const AS_NOBODY = ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"];
const isRoot = process.getuid?.() === 0;
// Switching users needs root; the unprivileged user must also be able to reach the program.
const nobodyCanRun = isRoot && Bun.spawnSync([...AS_NOBODY, ...serverCommand(), "--version"]).exitCode === 0;
/** Ports below this need a privilege (Linux; some container runtimes lower it to 0). */
const unprivilegedFrom = Number(readFileSync("/proc/sys/net/ipv4/ip_unprivileged_port_start", "utf8").trim());
const WHO = `user nobody (uid ${NOBODY})`;

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** A folder root owns that everybody may enter and read, but only root may write (0755). */
function rootsFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "shortener-perm-"));
  chmodSync(dir, 0o755);
  folders.push(dir);
  return dir;
}

describe.skipIf(!nobodyCanRun)("permission problems, as user nobody", () => {
  test("the service cannot make its database in root's folder: permission denied, the user, the chown; nothing made", () => {
    const dir = rootsFolder();
    // No --db: the default ./shortener.db, once printed relative.
    const r = cli(["--port", "0", "--host", "127.0.0.1"], {}, { cwd: dir, as: AS_NOBODY });
    expect(r.code).toBe(1);
    expect(r.err.trim()).toBe(
      `shortener: permission denied: ${WHO} cannot create the database ${join(dir, "shortener.db")}: the folder ${dir} is not writable (owned by user root (uid 0)); ` +
        `give the folder to that user: sudo chown -R nobody: ${dir}`,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  test("a command on root's database: permission denied, the user, the owner and the chown", async () => {
    const dir = rootsFolder();
    const served = await startListening("server", [...serverCommand(), "--port", "0", "--host", "127.0.0.1"], { cwd: dir, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir() } });
    await served.stop();
    chmodSync(join(dir, "shortener.db"), 0o644);
    const r = cli(["key", "create", "me"], {}, { cwd: dir, as: AS_NOBODY });
    expect(r.code).toBe(1);
    expect(r.err).toStartWith(`shortener: permission denied: ${WHO} cannot write ${join(dir, "shortener.db")} (owned by user root (uid 0)); run the command as its owner or as root`);
    expect(r.err).toContain(`sudo chown -R nobody: ${dir}`);
    expect(r.out).toBe("");
    expect(cli(["key", "list", "--db", join(dir, "shortener.db")]).out).not.toContain("me ");
  });

  test("a command on a running service's database it may read but not write: permission denied, not a crash", async () => {
    const dir = rootsFolder();
    const served = await startListening("server", [...serverCommand(), "--port", "0", "--host", "127.0.0.1"], { cwd: dir, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir() } });
    try {
      // While the service runs its -wal and -shm files are there, so SQLite opens the file read-only
      // for nobody and only the command's write fails (it once escaped as a stack trace).
      for (const f of readdirSync(dir)) chmodSync(join(dir, f), 0o644);
      const r = cli(["key", "create", "me"], {}, { cwd: dir, as: AS_NOBODY });
      expect(r.err).toStartWith(`shortener: permission denied: ${WHO} cannot write ${join(dir, "shortener.db")}`);
      expect(r.err).not.toContain(" at ");
      expect(r.code).toBe(1);
      expect(r.out).toBe("");
    } finally {
      await served.stop();
    }
  });

  test("a database behind a folder nobody may enter is not passed over: permission denied, run it as root", () => {
    const closed = rootsFolder();
    chmodSync(closed, 0o700);
    mkdirSync(join(closed, "state"));
    const r = cli(["key", "list"], { STATE_DIRECTORY: join(closed, "state") }, { cwd: rootsFolder(), as: AS_NOBODY });
    expect(r.code).toBe(1);
    expect(r.err.trim()).toStartWith(`shortener: permission denied: cannot look for ${join(closed, "state", "shortener.db")} as ${WHO}; run the command as root (sudo shortener …)`);
    // The service given that folder says which folder keeps it out.
    const service = cli(["--port", "0", "--db", join(closed, "state", "shortener.db")], {}, { cwd: rootsFolder(), as: AS_NOBODY });
    expect(service.code).toBe(1);
    expect(service.err).toStartWith(`shortener: permission denied: ${WHO} cannot enter the folder ${closed} (owned by user root (uid 0))`);
  });

  test.skipIf(unprivilegedFrom <= 80)("port 80: permission denied, ports below 1024 need root or CAP_NET_BIND_SERVICE, and what to do", () => {
    const dir = rootsFolder();
    chownSync(dir, NOBODY, NOBODY);
    const r = cli(["--port", "80", "--host", "127.0.0.1", "--db", join(dir, "shortener.db")], {}, { cwd: dir, as: AS_NOBODY });
    expect(r.code).toBe(1);
    expect(r.err.trim()).toBe(
      `shortener: cannot listen on 127.0.0.1:80: permission denied (ports below 1024 need root or CAP_NET_BIND_SERVICE, which ${WHO} lacks; ` +
        "use --port 8080 behind a reverse proxy, or under systemd AmbientCapabilities=CAP_NET_BIND_SERVICE with CapabilityBoundingSet=CAP_NET_BIND_SERVICE)",
    );
  });
});
