// A booted Debian for package tests: debootstrap once into a git-ignored cache (~36 s), then for each
// run a copy of it booted with systemd-nspawn, and commands run inside through nsenter.
// Needs root, debootstrap and systemd-container. Works without systemd or machined on the host
// (--register=no --keep-unit), which is why machinectl and systemd-run -M are not used.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { eventually } from "./eventually.ts";
import { isRunning, procStat } from "../../scripts/lib/processes.ts";

const SUITE = "bookworm";
// minbase has no init: systemd-sysv makes systemd PID 1, dbus lets systemctl talk to it.
const PACKAGES = ["systemd", "systemd-sysv", "dbus", "curl", "ca-certificates"];
const MIRROR = process.env.SHORTENER_DEBIAN_MIRROR ?? "http://deb.debian.org/debian";
// Commands inside get this environment, not the test runner's.
const GUEST_ENV = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", LANG: "C.UTF-8", DEBIAN_FRONTEND: "noninteractive" };

export type Run = { code: number; stdout: string; stderr: string };
export type Container = {
  /** A command inside the container, as root. */
  run(cmd: string[], timeoutMs?: number): Run;
  /** A /bin/sh script inside the container, as root. */
  sh(script: string, timeoutMs?: number): Run;
  /** Powers it off (killed if that fails) and deletes the copy; safe to call twice. */
  stop(): Promise<void>;
};

function cacheRoot(): string {
  return resolve(process.env.SHORTENER_CACHE_DIR ?? join(import.meta.dir, "../../.cache"), "debootstrap");
}

/** The cached tree for these packages (a new set of packages is a new folder); made when missing. */
export function debootstrapped(): { path: string; seconds: number; fresh: boolean } {
  const key = new Bun.CryptoHasher("sha256").update(`${SUITE} minbase ${PACKAGES.join(",")}`).digest("hex").slice(0, 12);
  const path = join(cacheRoot(), `${SUITE}-minbase-${key}`);
  if (existsSync(path)) return { path, seconds: 0, fresh: false };
  mkdirSync(cacheRoot(), { recursive: true });
  // Into a folder of its own and renamed when complete: an interrupted debootstrap is never reused.
  const partial = `${path}.partial-${process.pid}`;
  const t0 = performance.now();
  const run = Bun.spawnSync(["debootstrap", "--variant=minbase", `--include=${PACKAGES.join(",")}`, SUITE, partial, MIRROR], { stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) {
    rmSync(partial, { recursive: true, force: true });
    throw new Error(`debootstrap ${SUITE} failed (exit ${run.exitCode}):\n${run.stdout.toString().slice(-2000)}\n${run.stderr.toString().slice(-2000)}`);
  }
  try {
    renameSync(partial, path);
  } catch {
    rmSync(partial, { recursive: true, force: true }); // another run finished first; use its copy
  }
  return { path, seconds: (performance.now() - t0) / 1000, fresh: true };
}

/** The container's PID 1: the child of systemd-nspawn named systemd. */
function childNamedSystemd(parent: number): number | null {
  const pid = readdirSync("/proc").find((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    const stat = procStat(entry);
    return stat?.ppid === parent && stat.name === "systemd";
  });
  return pid === undefined ? null : Number(pid);
}

/**
 * Boots a fresh copy of image (from debootstrapped()) with only a loopback network, binds each
 * host folder read-only at its guest path, and waits until systemd says the boot is done.
 */
export async function bootContainer(image: string, binds: { host: string; guest: string }[] = []): Promise<Container> {
  const folder = mkdtempSync(join(tmpdir(), "shortener-nspawn-"));
  const root = join(folder, "root");
  const copy = Bun.spawnSync(["cp", "-a", "--reflink=auto", image, root], { stdout: "pipe", stderr: "pipe" });
  if (copy.exitCode !== 0) {
    rmSync(folder, { recursive: true, force: true });
    throw new Error(`copying ${image}: ${copy.stderr.toString()}`);
  }
  const name = `shortener-test-${process.pid}`;
  const nspawn = Bun.spawn(
    ["systemd-nspawn", "-D", root, "-b", "--register=no", "--keep-unit", "--private-network", "--console=pipe", `--machine=${name}`, ...binds.map((b) => `--bind-ro=${b.host}:${b.guest}`)],
    { stdin: "ignore", stdout: Bun.file(join(folder, "console.log")), stderr: Bun.file(join(folder, "nspawn.log")) },
  );
  let pid1: number | null = null;
  let stopped = false;

  const enter = (cmd: string[], timeoutMs: number): Run => {
    if (pid1 === null) throw new Error("the container is not running");
    const r = Bun.spawnSync(["/usr/bin/nsenter", "-t", String(pid1), "-a", ...cmd], { env: GUEST_ENV, stdout: "pipe", stderr: "pipe", timeout: timeoutMs });
    return { code: r.exitCode ?? -1, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  };

  // Interrupted (Ctrl-C, a CI timeout), bun test runs no afterAll and fires no "exit": kill the
  // container's PID 1 (its whole PID namespace goes with it, nspawn then exits) and drop the copy.
  const interrupted = () => {
    if (pid1 !== null && isRunning(pid1)) process.kill(pid1, "SIGKILL");
    // nspawn still writes its last lines into the folder; delete it once nspawn is gone.
    for (let i = 0; i < 200 && isRunning(nspawn.pid); i++) Bun.sleepSync(50);
    rmSync(folder, { recursive: true, force: true });
    process.exit(130);
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off("SIGINT", interrupted);
    process.off("SIGTERM", interrupted);
    if (pid1 !== null && isRunning(pid1)) enter(["systemctl", "poweroff"], 10_000); // "Connection reset by peer" is normal
    await Promise.race([nspawn.exited, Bun.sleep(30_000)]);
    // It did not power off: kill its PID 1 (its whole PID namespace goes with it), then nspawn.
    if (pid1 !== null && isRunning(pid1)) process.kill(pid1, "SIGKILL");
    if (nspawn.exitCode === null) nspawn.kill("SIGKILL");
    await nspawn.exited;
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 30_000;
    while ((pid1 = childNamedSystemd(nspawn.pid)) === null) {
      if (nspawn.exitCode !== null || Date.now() > deadline) {
        throw new Error(`systemd-nspawn did not start systemd (exit ${nspawn.exitCode}):\n${readFileSync(join(folder, "nspawn.log"), "utf8")}`);
      }
      await Bun.sleep(50);
    }
    // Until systemd has its bus socket, systemctl cannot ask ("Failed to connect to bus"); then
    // --wait waits out the boot. "degraded" also means booted: the test looks at its own units.
    const booted = (state: Run) => /^(running|degraded)$/m.test(state.stdout);
    const state = await eventually(async () => enter(["systemctl", "is-system-running", "--wait"], 60_000), booted, deadline + 60_000 - Date.now());
    if (!booted(state)) throw new Error(`the container did not finish booting: ${state.stdout}${state.stderr}`);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    run: (cmd, timeoutMs = 60_000) => enter(cmd, timeoutMs),
    sh: (script, timeoutMs = 60_000) => enter(["/bin/sh", "-c", script], timeoutMs),
    stop,
  };
}
