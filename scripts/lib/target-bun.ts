// Another platform's bun executable, of the same version as the Bun that builds, for
// `bun build --compile --compile-executable-path`. It comes from npm, like the host's: `npm install`
// refuses a package for a foreign platform, so `npm pack` fetches the tarball (npm checks its
// integrity) and the executable is taken out of it into a git-ignored cache, once per version.

import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { headerMismatches, readExecutableHeaderFile, type ExpectedHeader } from "./executable-header.ts";

export const CACHE_DIR = ".cache/bun-targets";

/** The version of the `bun` npm package this checkout builds with (node_modules/bun). */
export function installedBunVersion(root: string): string {
  return (JSON.parse(readFileSync(join(root, "node_modules/bun/package.json"), "utf8")) as { version: string }).version;
}

function run(cmd: string[], cwd: string): string {
  const r = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} exited with ${r.exitCode}:\n${r.stderr.toString()}`);
  return r.stdout.toString();
}

function packedExecutable(root: string, npmPackage: string, version: string, into: string): void {
  const work = mkdtempSync(join(root, CACHE_DIR, ".fetch-"));
  try {
    const packed = JSON.parse(run(["npm", "pack", `${npmPackage}@${version}`, "--pack-destination", work, "--json"], root)) as { filename: string }[];
    const tarball = packed[0]?.filename;
    if (!tarball) throw new Error(`npm pack ${npmPackage}@${version} named no tarball`);
    run(["tar", "-xzf", join(work, tarball), "-C", work, "package/bin/bun"], root);
    chmodSync(join(work, "package/bin/bun"), 0o755);
    mkdirSync(join(into, ".."), { recursive: true });
    // Renamed into place only when whole: an interrupted fetch leaves no half executable in the cache.
    renameSync(join(work, "package/bin/bun"), into);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Path of npmPackage@version's bun in the cache, fetched first if missing; throws if its header is
 * not `expected`. The host's own is fetched too: the bun package's install script moves it out of
 * node_modules/@oven, and one path for every target is simpler than a special case for one.
 */
export function targetBun(root: string, npmPackage: string, version: string, expected: ExpectedHeader): string {
  const path = join(root, CACHE_DIR, version, npmPackage.replace("/", "+"), "bun");
  if (!existsSync(path)) {
    mkdirSync(join(root, CACHE_DIR), { recursive: true });
    console.log(`fetching ${npmPackage}@${version} (npm pack)`);
    packedExecutable(root, npmPackage, version, path);
  }
  const problems = headerMismatches(readExecutableHeaderFile(path), expected);
  if (problems.length > 0) throw new Error(`${path} is not the executable ${npmPackage} should hold: ${problems.join("; ")} (delete it to fetch again)`);
  return path;
}
