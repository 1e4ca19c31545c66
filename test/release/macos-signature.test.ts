// The macOS executables of a release, checked offline: each carries the ad-hoc signature
// `npm run release` gave it (scripts/lib/codesign-adhoc.ts) and it verifies; the embedded bundle
// is whole; SHA256SUMS names the signed bytes. And Bun's own darwin-x64 output, compiled again
// here, fails the same verifier (issue #26, finding 1), while signing it touches nothing but
// its signature. CI points SHORTENER_RELEASE_DIR at dist/release after `npm run release`;
// without it, everything here is skipped. Launching on macOS is the release workflow's job.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { signAdHoc } from "../../scripts/lib/codesign-adhoc.ts";
import { CS_ADHOC, CS_LINKER_SIGNED } from "../../scripts/lib/codesign-blobs.ts";
import { verifyCodeSignature } from "../../scripts/lib/codesign-verify.ts";
import { compileService } from "../../scripts/lib/compile.ts";
import { readMachO, segmentNamed } from "../../scripts/lib/macho-read.ts";
import { cachedBun, DARWIN_TARGETS, releaseFile, VERSION } from "../support/release.ts";

const DIR = process.env.SHORTENER_RELEASE_DIR;
const root = resolve(import.meta.dir, "../..");
const X64 = DARWIN_TARGETS.find((t) => t.name === "darwin-x64")!;

/** The bytes of the section Bun embeds the bundle in (__BUN,__bun). */
function bundle(bytes: Uint8Array): Uint8Array {
  const section = segmentNamed(readMachO(bytes), "__BUN")?.sections.find((s) => s.name === "__bun");
  if (!section) throw new Error("no __BUN,__bun section");
  return bytes.subarray(section.offset, section.offset + section.size);
}

/** The build stamp src/version.ts was compiled with, as the minified bundle spells it. */
function stamp(bytes: Uint8Array): { commit: string; date: string } {
  const found = Buffer.from(bundle(bytes)).toString("latin1").match(/commit:"([^"]+)",date:"(\d{4}-\d{2}-\d{2})"/);
  if (!found) throw new Error("no build stamp in the bundle");
  return { commit: found[1]!, date: found[2]! };
}

if (!DIR) test.skip("macOS code signatures of a release: SHORTENER_RELEASE_DIR is not set (CI sets it after npm run release)", () => {});
else describe("macOS executables of the release in SHORTENER_RELEASE_DIR", () => {
  const files = DARWIN_TARGETS.map((t) => ({ target: t, path: releaseFile(DIR, t.name) }));
  // Each file is read once, on first use: every test below looks at the same ~100 MB.
  const cache: Record<string, Uint8Array> = {};
  const read = (path: string) => (cache[path] ??= new Uint8Array(readFileSync(path)));

  test("each verifies: one SHA-256 CodeDirectory, ad hoc and linker-signed, identifier \"shortener\", nothing after it", () => {
    for (const { target, path } of files) {
      const verification = verifyCodeSignature(read(path));
      expect({ file: target.name, problems: verification.problems }).toEqual({ file: target.name, problems: [] });
      expect(verification.info.cpu).toBe(target.name === "darwin-x64" ? "x86_64" : "arm64");
      expect(verification.info.blobs.map((b) => b.slot)).toEqual([0]);
      expect(verification.info.codeDirectories[0]).toMatchObject({ identifier: "shortener", flags: CS_ADHOC | CS_LINKER_SIGNED, version: 0x20400, hashType: 2, badSlots: 0 });
    }
  });

  test("the embedded bundle is whole: the same bytes in both, stamped with this version's build", () => {
    const [first, ...others] = files.map(({ path }) => read(path));
    for (const other of others) expect(Buffer.from(bundle(other)).equals(bundle(first!))).toBe(true);
    const { commit, date } = stamp(first!);
    expect(Buffer.from(bundle(first!)).includes(`"${VERSION}"`)).toBe(true);
    // Where the release's linux-x64 executable runs, its --version must name the same build.
    const linux = releaseFile(DIR, "linux-x64");
    if (process.platform === "linux" && process.arch === "x64" && existsSync(linux)) {
      const run = Bun.spawnSync([linux, "--version"], { stdout: "pipe", stderr: "pipe" });
      expect(run.stdout.toString().trim()).toBe(`shortener ${VERSION} (${commit}, built ${date})`);
    }
  });

  test("SHA256SUMS names the signed bytes", () => {
    const sums = readFileSync(join(DIR, "SHA256SUMS"), "utf8");
    for (const { path, target } of files) {
      const hash = new Bun.CryptoHasher("sha256").update(read(path)).digest("hex");
      expect(sums).toContain(`${hash}  shortener-${VERSION}-${target.name}\n`);
    }
  });

  const runtime = cachedBun(X64.npmPackage);
  if (!existsSync(runtime) || !existsSync(join(root, "src/http/web-assets.generated.ts"))) {
    test.skip("Bun's own darwin-x64 output: needs the cached Bun runtime and the built web assets, which npm run release leaves", () => {});
    return;
  }

  describe("Bun's own darwin-x64 output, compiled again here as the release compiles it", () => {
    const released = read(releaseFile(DIR, X64.name));
    let work: string;
    let raw: Uint8Array;
    let signedOnce: Uint8Array | undefined;
    // Signing hashes every page: done once, for the two tests that need it.
    const signed = () => (signedOnce ??= signAdHoc(raw));

    beforeAll(async () => {
      work = mkdtempSync(join(tmpdir(), "shortener-darwin-x64-"));
      const outfile = join(work, "shortener");
      // With the release's own stamp, so that the same sources give the same bytes.
      await compileService(root, { outfile, stamp: stamp(released), cross: { bunTarget: X64.bunTarget, executable: runtime }, bytecode: X64.bytecode });
      raw = new Uint8Array(readFileSync(outfile));
    }, 60_000);

    afterAll(() => rmSync(work, { recursive: true, force: true }));

    test("fails the verifier: Bun's Developer ID signature, sealing pages that are no longer there (finding 1)", () => {
      const { problems } = verifyCodeSignature(raw);
      expect(problems).toContainEqual(expect.stringMatching(/^CodeDirectory: codeLimit \d+ is not the signature's offset \d+: \d+ bytes outside the seal$/));
      expect(problems).toContainEqual(expect.stringMatching(/^CodeDirectory: \d+ of \d+ page hashes wrong \(slots 0, /));
      expect(problems).toContainEqual(expect.stringMatching(/lack adhoc \(0x2\)/));
    });

    test("signed, it verifies, and before its signature only the three fields that size it differ", () => {
      expect(verifyCodeSignature(signed()).problems).toEqual([]);
      const macho = readMachO(raw);
      const linkedit = segmentNamed(macho, "__LINKEDIT")!.commandOffset;
      const sizing = [[macho.codeSignature!.commandOffset + 12, 4], [linkedit + 32, 8], [linkedit + 48, 8]] as const;
      const restored = signed().slice(0, macho.codeSignature!.dataoff);
      for (const [at, size] of sizing) restored.set(raw.subarray(at, at + size), at);
      expect(Buffer.from(restored).equals(raw.subarray(0, macho.codeSignature!.dataoff))).toBe(true);
    });

    // A difference here means the tree changed since `npm run release` (release again), or that
    // bun build stopped being reproducible; either way the shipped file is not this one, signed.
    test("the released darwin-x64 is exactly this output, signed", () => {
      expect(Buffer.from(bundle(raw)).equals(bundle(released))).toBe(true);
      expect(Buffer.from(signed()).equals(released)).toBe(true);
    });
  });
});
