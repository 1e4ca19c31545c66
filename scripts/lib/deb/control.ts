// DEBIAN/control of the .debs: which release executable each architecture packages, the package's
// version, and its fields.

/** Debian's architecture for each release executable (shortener-<version>-<release>). */
export const DEB_TARGETS = [
  { arch: "amd64", release: "linux-x64" },
  { arch: "arm64", release: "linux-arm64" },
] as const;
export type DebArch = (typeof DEB_TARGETS)[number]["arch"];

/**
 * Non-native versioning, <version>-<revision>: the program's version is the release's, and the
 * revision counts the packaging alone, so that a fixed maintainer script ships as 0.1.0-2 without a
 * new release of the program. Raise it for such a fix; a new program version starts again at 1.
 */
const DEBIAN_REVISION = 1;

// Who answers for the package (lintian wants a name and an address). A placeholder until the project
// has an address of its own; change it here only.
export const MAINTAINER = "The shortener developers <shortener@users.noreply.github.com>";
export const HOMEPAGE = "https://github.com/shortener/shortener";

export function debVersion(version: string): string {
  return `${version}-${DEBIAN_REVISION}`;
}

export function debFileName(version: string, arch: DebArch): string {
  return `shortener_${debVersion(version)}_${arch}.deb`;
}

/**
 * The newest glibc symbol version the executable asks for (readelf reads either architecture), the
 * floor of its libc6 dependency: what dpkg-shlibdeps would work out, without a source package.
 */
export function glibcNeeded(executable: string): string {
  const run = Bun.spawnSync(["readelf", "--version-info", "--wide", executable], { stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`readelf ${executable}: ${run.stderr.toString().trim()}`);
  const versions = [...run.stdout.toString().matchAll(/Name: GLIBC_(\d+)\.(\d+)/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
  if (versions.length === 0) throw new Error(`${executable}: no GLIBC_ symbol versions (not a glibc executable?)`);
  const [major, minor] = versions.reduce((a, b) => (b[0] > a[0] || (b[0] === a[0] && b[1] > a[1]) ? b : a));
  return `${major}.${minor}`;
}

export function controlFile(options: { version: string; arch: DebArch; installedSizeKiB: number; glibc: string }): string {
  return `Package: shortener
Version: ${debVersion(options.version)}
Architecture: ${options.arch}
Maintainer: ${MAINTAINER}
Installed-Size: ${options.installedSizeKiB}
Depends: libc6 (>= ${options.glibc})
Section: web
Priority: optional
Homepage: ${HOMEPAGE}
Description: self-hostable link shortener with click analytics
 A link shortener in one executable: short links with their own rules, click
 statistics (countries, browsers, referrers, unique visitors) without storing
 anyone's address, API keys, a dashboard, webhooks, and sign-in through OpenID
 Connect or an auth proxy. It keeps everything in one SQLite file, or in
 PostgreSQL for several instances.
 .
 The package runs it as a systemd service (a dynamic user, its data in
 /var/lib/shortener) on port 8080; the settings are in /etc/default/shortener.
`;
}
