// The image's file system for one architecture, as tar entries in path order: the Debian
// packages' files less what only a system with a shell and dpkg uses, plus what their maintainer
// scripts would make, the accounts, the data folder and the release binary, byte for byte.

import type { DebFile } from "./deb-file.ts";
import { caBundle, GROUP, NONROOT, NSSWITCH, PASSWD } from "./system-files.ts";
import { byPath, type TarEntry } from "./tar.ts";

export const BINARY_PATH = "usr/local/bin/shortener";
export const DATA_PATH = "data";
export const CA_BUNDLE_PATH = "etc/ssl/certs/ca-certificates.crt";
const DOC_PATH = "usr/share/doc/shortener";

export type RootfsInput = {
  debs: readonly DebFile[];
  /** The release executable for this architecture, never stripped: its payload lives in an ELF section. */
  binary: Uint8Array;
  /** The project's LICENSE and NOTICE.md (third-party notices), shipped beside the binary. */
  license: Uint8Array;
  notice: Uint8Array;
};

/** Gone with everything under them: manuals, lintian's notes, hooks and files for logins and for dpkg. */
const DROPPED = ["usr/share/man", "usr/share/lintian", "usr/share/base-files", "etc/ca-certificates", "etc/update-motd.d", "etc/profile.d", "etc/skel"];
/** Kept as folders (base-files makes them), emptied: update-ca-certificates, zic and such run only from maintainer scripts. */
const EMPTIED = ["usr/sbin", "usr/share/info"];

/** Tools, manuals and docs nobody can use without a shell; each package's copyright stays. */
function pruned(path: string): boolean {
  if (/^usr\/share\/doc\/[^/]+\/(?!copyright$)/.test(path)) return true;
  return DROPPED.some((p) => path === p || path.startsWith(`${p}/`)) || EMPTIED.some((p) => path.startsWith(`${p}/`));
}

export function buildRootfs(input: RootfsInput): TarEntry[] {
  const tree = new Map<string, TarEntry>();
  for (const deb of input.debs) {
    for (const entry of deb.entries) {
      if (pruned(entry.path)) continue;
      const seen = tree.get(entry.path);
      // A folder many packages share (usr, lib) comes once; two packages owning one file is a mistake.
      if (seen && !(seen.type === "dir" && entry.type === "dir")) throw new Error(`${entry.path} is in two packages (the second: ${deb.name})`);
      if (!seen) tree.set(entry.path, entry);
    }
  }
  const root = { uid: 0, gid: 0 };
  const nonroot = { uid: NONROOT.uid, gid: NONROOT.gid };
  const file = (path: string, data: Uint8Array | string, mode = 0o644): TarEntry => ({ path, type: "file", mode, ...root, data: typeof data === "string" ? new TextEncoder().encode(data) : data });
  const added: TarEntry[] = [
    file("etc/passwd", PASSWD),
    file("etc/group", GROUP),
    file("etc/nsswitch.conf", NSSWITCH),
    file(CA_BUNDLE_PATH, caBundle([...tree.values()])),
    { path: "tmp", type: "dir", mode: 0o1777, ...root },
    { path: "root", type: "dir", mode: 0o700, ...root },
    { path: NONROOT.home.slice(1), type: "dir", mode: 0o700, ...nonroot },
    // Writable by the service's own user; a volume mounted here starts with these owners.
    { path: DATA_PATH, type: "dir", mode: 0o755, ...nonroot },
    file(BINARY_PATH, input.binary, 0o755),
    file(`${DOC_PATH}/LICENSE`, input.license),
    file(`${DOC_PATH}/NOTICE.md`, input.notice),
    ...input.debs.map((deb) => file(`var/lib/dpkg/status.d/${deb.name}`, deb.control)),
  ];
  for (const entry of added) tree.set(entry.path, entry);
  addParents(tree);
  checkLinks(tree);
  return [...tree.values()].sort(byPath);
}

/** Every folder on the way to an entry, 0755 root, where no package made it. */
function addParents(tree: Map<string, TarEntry>): void {
  for (const path of [...tree.keys()]) {
    for (let i = path.indexOf("/"); i !== -1; i = path.indexOf("/", i + 1)) {
      const parent = path.slice(0, i);
      const seen = tree.get(parent);
      if (seen && seen.type !== "dir") throw new Error(`${path}: its parent ${parent} is a ${seen.type}`);
      if (!seen) tree.set(parent, { path: parent, type: "dir", mode: 0o755, uid: 0, gid: 0 });
    }
  }
}

/** A hardlink must repeat a file the image still has: pruning its target would break the layer. */
function checkLinks(tree: Map<string, TarEntry>): void {
  for (const entry of tree.values()) {
    if (entry.type === "hardlink" && tree.get(entry.link ?? "")?.type !== "file") throw new Error(`${entry.path} is a hardlink to ${entry.link}, which the image lacks`);
  }
}
