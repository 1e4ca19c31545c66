// Where the .deb puts each file, and the unit it ships: the repo's one unit, deploy/systemd/, with
// only its ExecStart moved from /usr/local/bin (a hand install) to /usr/bin (a package's).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { roff } from "./manpage.ts";

export const PATHS = {
  binary: "usr/bin/shortener",
  // /usr/lib rather than /lib: systemd and deb-systemd-helper look in both on bookworm, and newer
  // Debian releases (merged /usr) want packages to use /usr/lib.
  unit: "usr/lib/systemd/system/shortener.service",
  defaults: "etc/default/shortener",
  manPage: "usr/share/man/man1/shortener.1.gz",
  doc: "usr/share/doc/shortener",
  lintianOverrides: "usr/share/lintian/overrides/shortener",
} as const;

/** Where the service keeps its database: systemd's StateDirectory for a DynamicUser. */
export const STATE = { link: "/var/lib/shortener", real: "/var/lib/private/shortener", db: "/var/lib/shortener/shortener.db" } as const;

const HAND_INSTALLED = /^ExecStart=\/usr\/local\/bin\/shortener(?=\s|$)/gm;

export function packagedUnit(root: string): string {
  const unit = readFileSync(join(root, "deploy/systemd/shortener.service"), "utf8");
  const found = unit.match(HAND_INSTALLED)?.length ?? 0;
  // Exactly one: a second ExecStart, or none (the unit changed its path), needs a look at this rule.
  if (found !== 1) throw new Error(`deploy/systemd/shortener.service: expected one "ExecStart=/usr/local/bin/shortener" line, found ${found}`);
  return unit.replace(HAND_INSTALLED, `ExecStart=/${PATHS.binary}`);
}

/** The man page's sections after those from --help: what the package adds. */
export function manPageTail(): [string, string][] {
  const files = [
    [`/${PATHS.defaults}`, "the settings, SHORTENER_<FLAG>=value, every one listed there commented out; systemctl restart shortener applies them"],
    [STATE.db, `the database (a link into ${STATE.real}, owned by the service's dynamic user); commands given as root, e.g. shortener key list --db ${STATE.db}, work on it directly`],
    [`/${PATHS.unit}`, "the systemd unit; change it with systemctl edit shortener"],
  ] as const;
  return [
    ["FILES", files.map(([path, text]) => `.TP\n.I ${roff(path)}\n${roff(text)}`).join("\n")],
    ["SEE ALSO", ".BR systemctl (1),\n.BR journalctl (1),\n.BR systemd.exec (5)"],
  ];
}
