// Nothing we ship is stripped. `strip`, even `strip --strip-debug`, cuts the embedded program off a
// Bun executable and leaves bare Bun: `--version` then prints Bun's version (1.4.5) instead of ours.
// So every executable a release ships runs `--version` here: the release files, the one inside each
// .deb and the one inside each image, each also byte-identical to its release file (never a second
// build). Those this machine cannot run (musl, macOS) keep the symbol table strip removes first,
// and the macOS ones are page-hash verified (test/release/macos-signature.test.ts).
// CI sets SHORTENER_RELEASE_DIR (npm run release), SHORTENER_DEB_DIR (npm run release:deb) and
// SHORTENER_IMAGE_DIR (npm run release:image); each part is skipped without its folder.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ARM64_RUN, releaseFile, VERSION_LINE } from "../support/release.ts";

const RELEASE = process.env.SHORTENER_RELEASE_DIR;
const DEBS = process.env.SHORTENER_DEB_DIR;
const IMAGE = process.env.SHORTENER_IMAGE_DIR;
const OURS = new RegExp(`^${VERSION_LINE}\\n$`);
const SLOW = 60_000;

type Arch = "x64" | "arm64";
// Read once each: the release file's own test, the .deb's and the image's all use these bytes.
const released: Partial<Record<Arch, Uint8Array>> = {};
const releaseBytes = (arch: Arch) => (released[arch] ??= readFileSync(releaseFile(RELEASE!, `linux-${arch}`)));

/** --version of an executable's bytes, written to a temp file; arm64 under qemu where this machine is not arm64. */
function versionOf(bytes: Uint8Array, arch: Arch): string {
  const dir = mkdtempSync(join(tmpdir(), "shortener-artifact-"));
  try {
    const file = join(dir, "shortener");
    writeFileSync(file, bytes, { mode: 0o755 });
    const run = Bun.spawnSync([...(arch === "arm64" ? ARM64_RUN : []), file, "--version"], { cwd: dir, env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe" });
    return run.stdout.toString() + run.stderr.toString();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function sectionNames(file: string): string[] {
  const run = Bun.spawnSync(["readelf", "-S", "-W", file], { stdout: "pipe", stderr: "pipe" });
  return [...run.stdout.toString().matchAll(/\]\s+(\.\S+)/g)].map((m) => m[1]!);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0; // no copies: these are 100 MB each
}

/** One member of a tar stream (plain or gzip), by path with or without a leading "./". */
function fromTar(args: string[], member: string): Uint8Array {
  for (const name of [member, `./${member}`]) {
    const run = Bun.spawnSync(["tar", ...args, "-xO", name], { stdout: "pipe", stderr: "pipe" });
    if (run.exitCode === 0 && run.stdout.length > 0) return run.stdout;
  }
  throw new Error(`${member} not found by tar ${args.join(" ")}`);
}

if (!RELEASE) test.skip("every shipped executable is ours: SHORTENER_RELEASE_DIR is not set (CI sets it after npm run release)", () => {});
else describe("every shipped executable is ours (never stripped, never rebuilt)", () => {
  for (const arch of ["x64", "arm64"] as const) {
    test(`release file linux-${arch}: --version is ours`, () => {
      expect(versionOf(releaseBytes(arch), arch)).toMatch(OURS);
    }, SLOW);
  }

  for (const arch of ["x64", "arm64"] as const) {
    test(`release file linux-${arch}-musl (cannot run here): keeps .symtab and its .bun payload`, () => {
      const sections = sectionNames(releaseFile(RELEASE, `linux-${arch}-musl`));
      expect(sections).toContain(".bun");
      expect(sections).toContain(".symtab");
    });
  }

  if (!DEBS) test.skip("the executables inside the .debs: SHORTENER_DEB_DIR is not set", () => {});
  else for (const arch of ["x64", "arm64"] as const) {
    test(`the .deb for ${arch === "x64" ? "amd64" : "arm64"}: /usr/bin/shortener is the release file, and --version is ours`, () => {
      const deb = readdirSync(DEBS).find((f) => f.endsWith(`_${arch === "x64" ? "amd64" : "arm64"}.deb`));
      expect(deb).toBeDefined();
      const fsys = Bun.spawnSync(["dpkg-deb", "--fsys-tarfile", join(DEBS, deb!)], { stdout: "pipe", stderr: "pipe" });
      expect(fsys.exitCode).toBe(0);
      const dir = mkdtempSync(join(tmpdir(), "shortener-deb-"));
      try {
        writeFileSync(join(dir, "data.tar"), fsys.stdout);
        const inside = fromTar(["-f", join(dir, "data.tar")], "usr/bin/shortener");
        expect(sameBytes(inside, releaseBytes(arch))).toBe(true);
        expect(versionOf(inside, arch)).toMatch(OURS);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, SLOW);
  }

  if (!IMAGE) test.skip("the executables inside the image: SHORTENER_IMAGE_DIR is not set", () => {});
  else test("the image, each architecture: /usr/local/bin/shortener is the release file, and --version is ours", () => {
    const blob = (digest: string) => join(IMAGE, "blobs", ...digest.split(":"));
    const json = (digest: string) => JSON.parse(readFileSync(blob(digest), "utf8"));
    const top = JSON.parse(readFileSync(join(IMAGE, "index.json"), "utf8"));
    const index = json(top.manifests[0].digest);
    const seen: string[] = [];
    for (const entry of index.manifests as { digest: string; platform: { architecture: string } }[]) {
      const arch: Arch = entry.platform.architecture === "amd64" ? "x64" : "arm64";
      const manifest = json(entry.digest);
      let found: Uint8Array | null = null;
      for (const layer of manifest.layers as { digest: string; mediaType: string }[]) {
        const gz = layer.mediaType.endsWith("+gzip") ? ["-z"] : [];
        try {
          found = fromTar([...gz, "-f", blob(layer.digest)], "usr/local/bin/shortener");
        } catch {
          continue;
        }
      }
      expect(found).not.toBeNull();
      expect(sameBytes(found!, releaseBytes(arch))).toBe(true);
      expect(versionOf(found!, arch)).toMatch(OURS);
      seen.push(entry.platform.architecture);
    }
    expect(seen.sort()).toEqual(["amd64", "arm64"]);
  }, SLOW * 2);
});
