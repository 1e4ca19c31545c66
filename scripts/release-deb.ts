// npm run release:deb: Debian packages of the release executables, shortener_<version>-1_amd64.deb
// and _arm64.deb. Never compiles and never strips (strip leaves bare Bun): each package carries the
// release file byte for byte, checked after the build. Flags: --binaries DIR (default dist/release),
// --out DIR (default dist/deb). Needs dpkg-deb and readelf (Debian packages dpkg and binutils).

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildDeb, extractFile, gzip, installedSizeKiB, md5sums, writeTree, type TreeFile } from "./lib/deb/build-deb.ts";
import { debianChangelog } from "./lib/deb/changelog.ts";
import { controlFile, DEB_TARGETS, debFileName, debVersion, glibcNeeded, HOMEPAGE, MAINTAINER } from "./lib/deb/control.ts";
import { copyrightFile } from "./lib/deb/copyright.ts";
import { environmentDefaults } from "./lib/deb/env-defaults.ts";
import { manPageTail, packagedUnit, PATHS } from "./lib/deb/layout.ts";
import { manPage, parseHelp } from "./lib/deb/manpage.ts";

const root = resolve(import.meta.dir, "..");
const { values } = parseArgs({ options: { binaries: { type: "string" }, out: { type: "string" } }, strict: true });
const binaries = resolve(values.binaries ?? join(root, "dist/release"));
const outDir = resolve(values.out ?? join(root, "dist/deb"));
const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
const executableOf = (release: string) => join(binaries, `shortener-${version}-${release}`);
const debian = (name: string) => readFileSync(join(root, "deploy/debian", name), "utf8");

/** This machine's executable, run: --version proves it is ours (stripped, it would be bare Bun) and dates the build. */
function ask(args: string[]): string {
  const native = DEB_TARGETS.find((t) => (process.arch === "arm64" ? t.arch === "arm64" : t.arch === "amd64"))!;
  const run = Bun.spawnSync([executableOf(native.release), ...args], { stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "" } });
  if (run.exitCode !== 0) throw new Error(`${executableOf(native.release)} ${args.join(" ")}: exit ${run.exitCode} ${run.stderr.toString().trim()}`);
  return run.stdout.toString();
}

/**
 * Each release executable's SHA-256, read once: checked against SHA256SUMS beside the executables
 * when there, and later against what each package carries.
 */
function releasedDigests(): Map<string, string> {
  const sumsFile = join(binaries, "SHA256SUMS");
  const listed = new Map(existsSync(sumsFile) ? readFileSync(sumsFile, "utf8").trim().split("\n").map((l) => [l.slice(66), l.slice(0, 64)] as const) : []);
  return new Map(DEB_TARGETS.map(({ release }) => {
    const digest = sha256(readFileSync(executableOf(release)));
    const expected = listed.get(`shortener-${version}-${release}`);
    if (expected !== undefined && expected !== digest) throw new Error(`${executableOf(release)} does not match its line in SHA256SUMS`);
    return [release, digest];
  }));
}

/** The packages this run wrote: a failure takes them all back, so that no half-made set is uploaded. */
const written: string[] = [];

function main(): void {
  const started = performance.now();
  for (const { release } of DEB_TARGETS) if (!existsSync(executableOf(release))) throw new Error(`${executableOf(release)} is missing (npm run release writes it)`);
  const stamp = /^shortener (\S+) \((\S+), built (\d{4}-\d{2}-\d{2})\)$/.exec(ask(["--version"]).trim());
  if (!stamp) throw new Error("--version does not say \"shortener <version> (<commit>, built <date>)\": not a shortener release executable");
  if (stamp[1] !== version) throw new Error(`the executables are version ${stamp[1]}, package.json says ${version}`);
  // The build's own date unless SOURCE_DATE_EPOCH says otherwise: the same executables give the same .debs.
  const epoch = /^\d+$/.test(process.env.SOURCE_DATE_EPOCH ?? "") ? Number(process.env.SOURCE_DATE_EPOCH) : Date.parse(`${stamp[3]}T00:00:00Z`) / 1000;
  const date = new Date(epoch * 1000).toISOString().slice(0, 10);
  const digests = releasedDigests();

  // Made once: everything but the executable, DEBIAN/control and DEBIAN/md5sums is the same in both packages.
  const common: TreeFile[] = [
    { path: PATHS.unit, mode: 0o644, content: packagedUnit(root) },
    { path: PATHS.defaults, mode: 0o644, content: environmentDefaults() },
    { path: PATHS.manPage, mode: 0o644, content: gzip(manPage(parseHelp(ask(["--help"])), { version, date, tail: manPageTail() })) },
    { path: `${PATHS.doc}/copyright`, mode: 0o644, content: copyrightFile(root, HOMEPAGE) },
    { path: `${PATHS.doc}/changelog.Debian.gz`, mode: 0o644, content: gzip(debianChangelog({ version, debVersion: debVersion(version), maintainer: MAINTAINER, epochSeconds: epoch })) },
    { path: `${PATHS.doc}/changelog.gz`, mode: 0o644, content: gzip(readFileSync(join(root, "CHANGELOG.md"), "utf8")) },
    { path: PATHS.lintianOverrides, mode: 0o644, content: debian("lintian-overrides") },
  ];
  const commonControl: TreeFile[] = [
    { path: "DEBIAN/conffiles", mode: 0o644, content: `/${PATHS.defaults}\n` },
    ...["postinst", "prerm", "postrm"].map((name) => ({ path: `DEBIAN/${name}`, mode: 0o755, content: debian(name) })),
  ];

  mkdirSync(outDir, { recursive: true });
  // Packages of an earlier version or revision must not be uploaded beside these by mistake.
  for (const old of readdirSync(outDir).filter((f) => /^shortener_.+_(amd64|arm64)\.deb$/.test(f))) rmSync(join(outDir, old));
  console.log(`release:deb ${debVersion(version)} from ${binaries} (built ${stamp[3]}, ${stamp[2]})`);

  for (const { arch, release } of DEB_TARGETS) {
    const t0 = performance.now();
    const executable = executableOf(release);
    const staging = mkdtempSync(join(outDir, `.staging-${arch}-`));
    const deb = join(outDir, debFileName(version, arch));
    try {
      const tree = join(staging, "root");
      writeTree(tree, [{ path: PATHS.binary, mode: 0o755, copyOf: executable }, ...common]);
      // Both counted over the data alone, before DEBIAN/ is written into the same tree.
      const installedSize = installedSizeKiB(tree);
      const sums = md5sums(tree);
      writeTree(tree, [
        { path: "DEBIAN/control", mode: 0o644, content: controlFile({ version, arch, installedSizeKiB: installedSize, glibc: glibcNeeded(executable) }) },
        { path: "DEBIAN/md5sums", mode: 0o644, content: sums },
        ...commonControl,
      ]);
      buildDeb(tree, join(staging, "out.deb"), epoch);
      // What dpkg would install must be the release file itself, byte for byte.
      if (sha256(extractFile(join(staging, "out.deb"), PATHS.binary)) !== digests.get(release)) throw new Error(`${arch}: the packaged ${PATHS.binary} differs from ${executable}`);
      renameSync(join(staging, "out.deb"), deb);
      written.push(deb);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
    const mib = statSync(deb).size / 1024 / 1024;
    console.log(`  ${debFileName(version, arch).padEnd(30)} ${mib.toFixed(1).padStart(6)} MiB  ${((performance.now() - t0) / 1000).toFixed(1).padStart(5)} s  binary identical to ${release}`);
  }
  console.log(`release:deb: ${DEB_TARGETS.length} packages in ${outDir} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

try {
  main();
} catch (err) {
  for (const file of written) rmSync(file, { force: true });
  console.error(`release:deb FAILED: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
