// One .deb as the image needs it: its control paragraph (for /var/lib/dpkg/status.d, where image
// scanners look for the packages of a distroless image) and its files. dpkg-deb only unpacks the
// data archive (xz or zstd, which Bun cannot); the tar is read here, not extracted, and no
// maintainer script runs (what they would make, the CA bundle, is made in rootfs.ts).

import { readTar } from "./tar-read.ts";
import type { TarEntry } from "./tar.ts";

export type DebFile = { name: string; version: string; control: string; entries: TarEntry[] };

export function readDeb(path: string): DebFile {
  const control = dpkgDeb(["-f", path]).toString().trimEnd() + "\n";
  const field = (name: string) => new RegExp(`^${name}: (.+)$`, "m").exec(control)?.[1];
  const name = field("Package");
  const version = field("Version");
  if (!name || !version) throw new Error(`${path}: no Package or Version in its control file`);
  return { name, version, control, entries: readTar(dpkgDeb(["--fsys-tarfile", path])) };
}

function dpkgDeb(args: string[]): Buffer {
  const run = Bun.spawnSync(["dpkg-deb", ...args], { stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`dpkg-deb ${args.join(" ")} failed (${run.exitCode}): ${run.stderr.toString()}`);
  return run.stdout;
}
