// The Debian packages the image's base is made of, fetched per architecture with apt's own
// download (signature and hash checked by apt) into a private apt state, never the host's dpkg.
// Once a folder holds every .deb they are used as they are: a rebuild is offline and gives
// the same bytes. `--refresh-debs` empties it to take the current point release (security fixes).

import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * glibc and libgcc, CA certificates, time zones, /etc/services and friends. Also two that hold only
 * files: gcc-12-base has libgcc-s1's copyright (its doc folder is a symlink there), base-files has
 * /usr/share/common-licenses (which the copyright files cite) and os-release (how scanners tell
 * which distribution's advisories apply).
 */
const BASE_PACKAGES = ["libc6", "libgcc-s1", "gcc-12-base", "ca-certificates", "tzdata", "netbase", "base-files"] as const;

export type DebianArch = "amd64" | "arm64";

// Written here rather than copied from /etc/apt: the build machine may run Ubuntu or have other
// repositories; the image is bookworm whatever the host is. Only the keyring must be on the host.
const KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg";
const SOURCES = `Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: ${KEYRING}

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: ${KEYRING}
`;

/** The .deb files of BASE_PACKAGES for arch, from <cacheDir>/<arch>/, downloaded first if any is missing. */
export function debianPackages(cacheDir: string, arch: DebianArch, options: { refresh: boolean; log: (line: string) => void }): string[] {
  const debs = join(cacheDir, arch);
  if (options.refresh) rmSync(debs, { recursive: true, force: true });
  let found = cachedDebs(debs);
  if (found.missing.length > 0) {
    download(cacheDir, arch, found.missing, options.log);
    found = cachedDebs(debs);
    if (found.missing.length > 0) throw new Error(`apt-get download left out ${found.missing.join(", ")} for ${arch}`);
  }
  return found.files;
}

function cachedDebs(folder: string): { files: string[]; missing: string[] } {
  const names = existsSync(folder) ? readdirSync(folder).filter((n) => n.endsWith(".deb")) : [];
  const files: string[] = [];
  const missing: string[] = [];
  for (const pkg of BASE_PACKAGES) {
    const matches = names.filter((n) => n.startsWith(`${pkg}_`));
    // Two versions of one package would make the image depend on which one is read last.
    if (matches.length > 1) throw new Error(`${folder} holds ${matches.join(" and ")}: run with --refresh-debs`);
    if (matches.length === 0) missing.push(pkg);
    else files.push(join(folder, matches[0]!));
  }
  return { files, missing };
}

function download(cacheDir: string, arch: DebianArch, packages: string[], log: (line: string) => void): void {
  if (!existsSync(KEYRING)) throw new Error(`${KEYRING} is missing: install the debian-archive-keyring package`);
  const state = join(cacheDir, `apt-${arch}`);
  const debs = join(cacheDir, arch);
  for (const dir of ["lists/partial", "archives/partial", "sources.list.d", "preferences.d"]) mkdirSync(join(state, dir), { recursive: true });
  mkdirSync(debs, { recursive: true });
  writeFileSync(join(state, "sources.list.d/debian.sources"), SOURCES);
  writeFileSync(join(state, "status"), "");
  // The host's apt.conf.d still applies (a proxy, for one); its sources, pins, installed packages
  // and architecture do not.
  const options = [
    `Dir::State=${state}`, `Dir::State::Lists=${state}/lists`, `Dir::State::status=${state}/status`,
    `Dir::Cache=${state}`, `Dir::Cache::archives=${state}/archives`,
    `Dir::Etc::sourcelist=/dev/null`, `Dir::Etc::sourceparts=${state}/sources.list.d`,
    `Dir::Etc::preferences=/dev/null`, `Dir::Etc::preferencesparts=${state}/preferences.d`,
    `APT::Architecture=${arch}`, `APT::Architectures=${arch}`,
    // As root apt downloads as _apt, which cannot write into a folder under the repository.
    "APT::Sandbox::User=root",
  ].flatMap((o) => ["-o", o]);
  log(`  fetching ${packages.join(" ")} for ${arch} from deb.debian.org (bookworm)`);
  apt("update", [...options, "update"], state);
  // pkg:arch, never the host's architecture, whatever apt makes of the options above.
  apt("download", [...options, "download", ...packages.map((p) => `${p}:${arch}`)], debs);
  // The indexes (~20 MB an architecture) are only for this download; the .debs are what is kept.
  rmSync(state, { recursive: true, force: true });
}

function apt(step: string, args: string[], cwd: string): void {
  const run = Bun.spawnSync(["apt-get", "-q", ...args], { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, LC_ALL: "C" } });
  if (run.exitCode !== 0) throw new Error(`apt-get ${step} failed (${run.exitCode}):\n${run.stderr.toString()}${run.stdout.toString()}`);
}
