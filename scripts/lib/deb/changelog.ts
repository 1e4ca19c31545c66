// usr/share/doc/shortener/changelog.Debian: the packaging's own history, one entry per package
// version. The program's changes are CHANGELOG.md, shipped beside it as changelog.gz.

/** A changelog date as Debian's tools write it (RFC 5322): "Tue, 25 Nov 2026 00:00:00 +0000". */
function debianDate(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toUTCString().replace("GMT", "+0000");
}

// Lines of at most 80 characters (lintian: debian-changelog-line-too-long).
export function debianChangelog(options: { version: string; debVersion: string; maintainer: string; epochSeconds: number }): string {
  return `shortener (${options.debVersion}) stable; urgency=medium

  * shortener ${options.version}, the release executable unchanged (never stripped),
    with a systemd unit (a dynamic user, its data in /var/lib/shortener),
    /etc/default/shortener listing every setting, and a manual page from
    --help. The program's own changes are in changelog.gz beside this file.

 -- ${options.maintainer}  ${debianDate(options.epochSeconds)}
`;
}
