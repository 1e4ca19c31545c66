// What a build stamps into the executable for `shortener --version`: the commit and the date.
// Read once per build, so that every target of a release carries the same stamp.

import type { BuildStamp } from "../../src/version.ts";

/** A git command's trimmed output in root, or null when it fails or there is no git (also for the image's provenance). */
export function git(root: string, args: string[]): string | null {
  try {
    const r = Bun.spawnSync(["git", ...args], { cwd: root, stdout: "pipe", stderr: "pipe" });
    return r.exitCode === 0 ? r.stdout.toString().trim() : null;
  } catch {
    return null; // no git on this machine
  }
}

/**
 * The short commit, "-dirty" when tracked files differ from it (the binary is then not that commit),
 * or "unknown" outside a git checkout (a source tarball).
 * The date is UTC; SOURCE_DATE_EPOCH, the reproducible-builds convention, overrides the clock.
 */
export function readBuildStamp(root: string, env: Record<string, string | undefined> = process.env, now: Date = new Date()): BuildStamp {
  const head = git(root, ["rev-parse", "--short=7", "HEAD"]);
  const changes = head === null ? null : git(root, ["status", "--porcelain", "--untracked-files=no"]);
  const commit = head === null ? "unknown" : changes ? `${head}-dirty` : head;
  const epoch = env.SOURCE_DATE_EPOCH;
  const when = epoch !== undefined && /^\d+$/.test(epoch) ? new Date(Number(epoch) * 1000) : now;
  return { commit, date: when.toISOString().slice(0, 10) };
}

/** `bun build` flags that replace the identifiers src/version.ts reads. */
export function stampDefines(stamp: BuildStamp): string[] {
  return [
    "--define", `SHORTENER_BUILD_COMMIT=${JSON.stringify(stamp.commit)}`,
    "--define", `SHORTENER_BUILD_DATE=${JSON.stringify(stamp.date)}`,
  ];
}
