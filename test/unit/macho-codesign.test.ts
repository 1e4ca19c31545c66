// The offline macOS code signer and its verifier (scripts/lib/codesign-*.ts), on a small
// synthetic Mach-O built here for each CPU: signed, it verifies; broken one way at a time, the
// verifier names what is broken. Bun's own darwin runtimes, signed by Apple's toolchain, are
// the known-good real samples when the release cache (.cache/bun-targets/) has them.

import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { IDENTIFIER, signAdHoc } from "../../scripts/lib/codesign-adhoc.ts";
import { CD, CS_ADHOC, CS_LINKER_SIGNED, CS_RUNTIME } from "../../scripts/lib/codesign-blobs.ts";
import { verifyCodeSignature } from "../../scripts/lib/codesign-verify.ts";
import { CPU_TYPE_ARM64, CPU_TYPE_X86_64, MachOError, readMachO, segmentNamed } from "../../scripts/lib/macho-read.ts";
import { BUN_VERSION, cachedBun, DARWIN_TARGETS } from "../support/release.ts";

const TEXT_SIZE = 0x3000;
const SYMBOLS = 2; // nlist_64, 16 bytes each
const STRINGS = 16;
// 0x3000 of __TEXT + 48 of symbols: the signature starts mid-page, so the last code page is short.
const DATAOFF = TEXT_SIZE + SYMBOLS * 16 + STRINGS;
/** Segments are rounded to the VM page: 16 KiB on Apple silicon, 4 KiB on Intel. */
const vmPage = (cpuType: number) => (cpuType === CPU_TYPE_ARM64 ? 0x4000 : 0x1000);

/**
 * A minimal MH_EXECUTE: __TEXT (header and load commands, then filler), __LINKEDIT holding a
 * symbol table, and an LC_CODE_SIGNATURE with room reserved but no signature yet (datasize 0).
 */
function syntheticMachO(cpuType: number, { codeSignature = true } = {}): Uint8Array {
  const page = vmPage(cpuType);
  const textVm = Math.ceil(TEXT_SIZE / page) * page;
  const linkeditSize = DATAOFF - TEXT_SIZE;
  const commands = 72 + 72 + 24 + (codeSignature ? 16 : 0);
  const bytes = new Uint8Array(DATAOFF);
  // Deterministic filler, so that every page hashes differently.
  let x = 0x12345678;
  for (let i = 32 + commands; i < bytes.length; i++) bytes[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  const v = new DataView(bytes.buffer);
  v.setUint32(0, 0xfeedfacf, true);
  v.setUint32(4, cpuType, true);
  v.setUint32(8, cpuType === CPU_TYPE_ARM64 ? 0 : 3, true); // CPU_SUBTYPE_*_ALL
  v.setUint32(12, 2, true); // MH_EXECUTE
  v.setUint32(16, codeSignature ? 4 : 3, true);
  v.setUint32(20, commands, true);
  let at = 32;
  const segment = (name: string, vmaddr: number, vmsize: number, fileoff: number, filesize: number) => {
    v.setUint32(at, 0x19, true);
    v.setUint32(at + 4, 72, true);
    bytes.set(new TextEncoder().encode(name), at + 8);
    v.setBigUint64(at + 24, BigInt(vmaddr), true);
    v.setBigUint64(at + 32, BigInt(vmsize), true);
    v.setBigUint64(at + 40, BigInt(fileoff), true);
    v.setBigUint64(at + 48, BigInt(filesize), true);
    at += 72;
  };
  segment("__TEXT", 0x100000000, textVm, 0, TEXT_SIZE);
  segment("__LINKEDIT", 0x100000000 + textVm, Math.ceil(linkeditSize / page) * page, TEXT_SIZE, linkeditSize);
  v.setUint32(at, 0x2, true); // LC_SYMTAB
  v.setUint32(at + 4, 24, true);
  v.setUint32(at + 8, TEXT_SIZE, true);
  v.setUint32(at + 12, SYMBOLS, true);
  v.setUint32(at + 16, TEXT_SIZE + SYMBOLS * 16, true);
  v.setUint32(at + 20, STRINGS, true);
  at += 24;
  if (codeSignature) {
    v.setUint32(at, 0x1d, true);
    v.setUint32(at + 4, 16, true);
    v.setUint32(at + 8, DATAOFF, true);
    v.setUint32(at + 12, 0, true);
  }
  return bytes;
}

/** Where our signer's CodeDirectory starts: after the SuperBlob header and its one index entry. */
const cdAt = (signed: Uint8Array) => readMachO(signed).codeSignature!.dataoff + 20;
const be = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function patched(signed: Uint8Array, change: (b: Uint8Array, view: DataView, cd: number) => void): Uint8Array {
  const copy = signed.slice();
  change(copy, be(copy), cdAt(copy));
  return copy;
}

/** The header fields the signer may change: LC_CODE_SIGNATURE datasize, __LINKEDIT vmsize and filesize. */
function sizingFields(bytes: Uint8Array): [at: number, size: number][] {
  const macho = readMachO(bytes);
  const linkedit = segmentNamed(macho, "__LINKEDIT")!.commandOffset;
  return [[macho.codeSignature!.commandOffset + 12, 4], [linkedit + 32, 8], [linkedit + 48, 8]];
}

/** Whether signed, up to the original's signature, is the original but for the sizing fields (which must change). */
function onlySizingChanged(original: Uint8Array, signed: Uint8Array): boolean {
  const dataoff = readMachO(original).codeSignature!.dataoff;
  const fields = sizingFields(signed);
  const changed = fields.some(([at, size]) => !Buffer.from(original.subarray(at, at + size)).equals(signed.subarray(at, at + size)));
  const restored = signed.slice(0, dataoff);
  for (const [at, size] of fields) restored.set(original.subarray(at, at + size), at);
  return changed && Buffer.from(restored).equals(original.subarray(0, dataoff));
}

/**
 * signed, its signature rewritten the way Apple's `codesign --sign -` writes one (what the
 * release workflow's Mac compares against): flags adhoc only, and an empty internal requirements
 * set whose hash sits in special slot 2, before the code slots. Sizes are updated and slot 0
 * rehashed, since the header changed.
 */
function codesignStyle(signed: Uint8Array): Uint8Array {
  const macho = readMachO(signed);
  const { dataoff, commandOffset } = macho.codeSignature!;
  const ours = signed.subarray(dataoff + 20);
  const hashOffset = be(ours).getUint32(CD.hashOffset);
  const oursLength = be(ours).getUint32(CD.length);
  const requirements = new Uint8Array([0xfa, 0xde, 0x0c, 0x01, 0, 0, 0, 12, 0, 0, 0, 0]);
  const cd = new Uint8Array(oursLength + 2 * 32);
  cd.set(ours.subarray(0, hashOffset)); // header and identifier
  cd.set(Bun.SHA256.hash(requirements) as Uint8Array, hashOffset); // slot -2; slot -1 (Info.plist) stays zero
  cd.set(ours.subarray(hashOffset, oursLength), hashOffset + 64);
  const cdView = be(cd);
  cdView.setUint32(CD.length, cd.length);
  cdView.setUint32(CD.flags, CS_ADHOC);
  cdView.setUint32(CD.hashOffset, hashOffset + 64);
  cdView.setUint32(CD.nSpecialSlots, 2);
  const index = 12 + 2 * 8;
  const size = index + cd.length + requirements.length;
  const out = new Uint8Array(dataoff + size);
  out.set(signed.subarray(0, dataoff));
  const sb = new DataView(out.buffer, dataoff);
  [0xfade0cc0, size, 2, 0, index, 2, index + cd.length].forEach((value, i) => sb.setUint32(i * 4, value));
  out.set(cd, dataoff + index);
  out.set(requirements, dataoff + index + cd.length);
  const header = new DataView(out.buffer);
  const linkedit = segmentNamed(macho, "__LINKEDIT")!;
  header.setUint32(commandOffset + 12, size, true);
  header.setBigUint64(linkedit.commandOffset + 48, BigInt(dataoff + size - linkedit.fileoff), true);
  header.setBigUint64(linkedit.commandOffset + 32, BigInt(Math.ceil((dataoff + size - linkedit.fileoff) / 0x4000) * 0x4000), true);
  out.set(Bun.SHA256.hash(out.subarray(0, 4096)) as Uint8Array, dataoff + index + hashOffset + 64);
  return out;
}

for (const [cpu, cpuType] of [["x86_64", CPU_TYPE_X86_64], ["arm64", CPU_TYPE_ARM64]] as const) {
  describe(`ad-hoc signing a synthetic ${cpu} executable`, () => {
    const unsigned = syntheticMachO(cpuType);
    const signed = signAdHoc(unsigned);

    test("the unsigned file is refused, the signed one verifies", () => {
      expect(verifyCodeSignature(unsigned).ok).toBe(false);
      expect(verifyCodeSignature(signed)).toMatchObject({ ok: true, problems: [] });
    });

    test("the signature is Go's and ld64's: one SHA-256 CodeDirectory v0x20400, adhoc + linker-signed, 4 KiB pages, execSeg = __TEXT", () => {
      const { info } = verifyCodeSignature(signed);
      expect(info.blobs).toEqual([{ slot: 0, magic: 0xfade0c02, length: expect.any(Number) }]);
      expect(info.codeDirectories).toEqual([{
        slot: 0, version: 0x20400, flags: CS_ADHOC | CS_LINKER_SIGNED, identifier: IDENTIFIER, hashType: 2, pageSize: 4096,
        nCodeSlots: Math.ceil(DATAOFF / 4096), nSpecialSlots: 0, codeLimit: DATAOFF, badSlots: 0,
        execSeg: { base: 0, limit: TEXT_SIZE, flags: 1 },
      }]);
    });

    test("the file grows by the signature, which ends both __LINKEDIT and the file", () => {
      const macho = readMachO(signed);
      const { dataoff, datasize } = macho.codeSignature!;
      const linkedit = segmentNamed(macho, "__LINKEDIT")!;
      expect(dataoff).toBe(DATAOFF);
      expect(signed.length).toBe(dataoff + datasize);
      expect(linkedit.fileoff + linkedit.filesize).toBe(signed.length);
      const page = vmPage(cpuType);
      expect(linkedit.vmsize).toBe(Math.ceil(linkedit.filesize / page) * page);
    });

    test("before the signature, only the three fields that size it change", () => {
      expect(onlySizingChanged(unsigned, signed)).toBe(true);
      expect(onlySizingChanged(unsigned, patched(signed, (b) => { b[0x2345]! ^= 1; }))).toBe(false);
    });

    test("signing is idempotent, and replaces whatever signature was there", () => {
      expect(signAdHoc(signed)).toEqual(signed);
      expect(signAdHoc(signAdHoc(unsigned, "some.other.identifier"))).toEqual(signed);
    });
  });
}

describe("the verifier catches", () => {
  const signed = signAdHoc(syntheticMachO(CPU_TYPE_X86_64));

  test("nothing, on a signature shaped as Apple's codesign writes it; and signing it again gives ours back", () => {
    const apple = codesignStyle(signed);
    expect(verifyCodeSignature(apple)).toMatchObject({ ok: true, problems: [] });
    expect(verifyCodeSignature(apple).info.codeDirectories[0]).toMatchObject({ flags: CS_ADHOC, nSpecialSlots: 2 });
    expect(signAdHoc(apple)).toEqual(signed);
  });

  test("a requirements blob that no longer matches its special slot", () => {
    const apple = codesignStyle(signed);
    apple[apple.length - 1]! ^= 1;
    expect(verifyCodeSignature(apple).problems).toEqual(["CodeDirectory: special slot 2 does not match the hash of its blob"]);
  });

  test("a flipped byte in a page: that page's slot", () => {
    const broken = patched(signed, (b) => { b[0x2345]! ^= 1; });
    expect(verifyCodeSignature(broken).problems).toEqual(["CodeDirectory: 1 of 4 page hashes wrong (slots 2)"]);
  });

  test("a changed load-command area: slot 0, which covers the header", () => {
    const broken = patched(signed, (b) => { b[0x200]! ^= 0x80; }); // filler after the load commands
    expect(verifyCodeSignature(broken).problems).toEqual(["CodeDirectory: 1 of 4 page hashes wrong (slots 0)"]);
  });

  test("a last page hashed padded to 4 KiB rather than cut at codeLimit", () => {
    const broken = patched(signed, (b, view, cd) => {
      const last = Math.floor(DATAOFF / 4096);
      const padded = new Uint8Array(4096);
      padded.set(b.subarray(last * 4096, DATAOFF));
      b.set(Bun.SHA256.hash(padded) as Uint8Array, cd + view.getUint32(cd + CD.hashOffset) + last * 32);
    });
    expect(verifyCodeSignature(broken).problems).toEqual(["CodeDirectory: 1 of 4 page hashes wrong (slots 3)"]);
  });

  test("a stale tail after the signature", () => {
    const broken = new Uint8Array([...signed, 1, 2, 3, 4]);
    expect(verifyCodeSignature(broken).problems).toEqual([`4 bytes after the signature's end (${signed.length}): stale data nothing seals`]);
  });

  test("codeLimit short of dataoff, even when every page it does cover hashes right (Bun's darwin-x64)", () => {
    const broken = patched(signed, (_, view, cd) => {
      view.setUint32(cd + CD.codeLimit, 2 * 4096);
      view.setUint32(cd + CD.nCodeSlots, 2);
    });
    expect(verifyCodeSignature(broken).problems).toEqual([`CodeDirectory: codeLimit 8192 is not the signature's offset ${DATAOFF}: ${DATAOFF - 8192} bytes outside the seal`]);
  });

  test("a signature that is not ad hoc: hardened runtime only, as Bun's Developer ID one", () => {
    const broken = patched(signed, (_, view, cd) => view.setUint32(cd + CD.flags, CS_RUNTIME));
    expect(verifyCodeSignature(broken).problems).toEqual(["CodeDirectory flags 0x10000 (runtime) lack adhoc (0x2): not ad hoc, and there is no CMS signature either"]);
    // The same signature is acceptable when an Apple-issued signature is allowed (its CMS is not checked here).
    expect(verifyCodeSignature(broken, { requireAdHoc: false }).ok).toBe(true);
  });

  test("ad hoc with the hardened runtime and no entitlements: Bun's JIT would be refused", () => {
    const broken = patched(signed, (_, view, cd) => view.setUint32(cd + CD.flags, CS_ADHOC | CS_RUNTIME));
    expect(verifyCodeSignature(broken).problems).toEqual(["CodeDirectory: hardened runtime on an ad-hoc signature with no entitlements: Bun's JIT would be refused"]);
  });

  test("a wrong hash type: SHA-1 declared over SHA-256 slots", () => {
    const broken = patched(signed, (b, _, cd) => { b[cd + CD.hashType] = 1; });
    expect(verifyCodeSignature(broken).problems).toEqual([
      "CodeDirectory: hashSize 32 does not match hash type 1 (sha1, 20 bytes)",
      "no SHA-256 CodeDirectory (hash types 1 (sha1))",
    ]);
  });

  test("a signature sticking out of __LINKEDIT", () => {
    const broken = patched(signed, (_, view) => {
      const linkedit = segmentNamed(readMachO(signed), "__LINKEDIT")!.commandOffset;
      view.setBigUint64(linkedit + 48, view.getBigUint64(linkedit + 48, true) - 16n, true);
    });
    const { problems } = verifyCodeSignature(broken);
    expect(problems).toContain(`__LINKEDIT ends at ${signed.length - 16} but the signature at ${signed.length}: it must end __LINKEDIT exactly`);
    expect(problems).toContain("CodeDirectory: 1 of 4 page hashes wrong (slots 0)"); // the header edit itself
  });

  test("an execSeg that is not __TEXT", () => {
    const broken = patched(signed, (_, view, cd) => view.setBigUint64(cd + CD.execSegLimit, 0x1000n));
    expect(verifyCodeSignature(broken).problems).toEqual([`CodeDirectory: executable segment 0+4096 is not __TEXT (0+${TEXT_SIZE})`]);
  });

  test("no signature at all", () => {
    expect(verifyCodeSignature(syntheticMachO(CPU_TYPE_ARM64, { codeSignature: false })).problems).toEqual(["no LC_CODE_SIGNATURE: unsigned (Apple silicon refuses to run unsigned code)"]);
    expect(() => signAdHoc(syntheticMachO(CPU_TYPE_ARM64, { codeSignature: false }))).toThrow(MachOError);
  });

  test("a universal (fat) file: refused, by name, by both", () => {
    const fat = new Uint8Array(4096);
    new DataView(fat.buffer).setUint32(0, 0xcafebabe);
    new DataView(fat.buffer).setUint32(4, 2);
    expect(verifyCodeSignature(fat).problems).toEqual(["a universal (fat) Mach-O with 2 slice(s): sign and check each thin slice before joining them with lipo"]);
    expect(() => signAdHoc(fat)).toThrow(/universal \(fat\)/);
  });

  test("not a Mach-O at all (an ELF executable)", () => {
    const elf = new Uint8Array(4096);
    elf.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]);
    expect(verifyCodeSignature(elf).problems).toEqual(["not a Mach-O file (first bytes 7f 45 4c 46)"]);
  });
});

// Bun's own macOS executables, signed by Apple's tools with Bun's Developer ID: real-world
// signatures (special slots, entitlements, a CMS blob; 16 KiB pages on arm64) that must pass,
// and real-size files to re-sign. Present once `npm run release` has filled the cache.
for (const { name, npmPackage } of DARWIN_TARGETS) {
  const path = cachedBun(npmPackage);
  if (!existsSync(path)) {
    test.skip(`Bun's ${name} runtime: not in .cache/bun-targets/${BUN_VERSION} (npm run release fetches it)`, () => {});
    continue;
  }
  describe(`Bun's ${name} runtime, as npm ships it`, () => {
    const bytes = new Uint8Array(readFileSync(path));

    test("its Developer ID signature passes every check but ad hoc", () => {
      expect(verifyCodeSignature(bytes, { requireAdHoc: false })).toMatchObject({ ok: true, problems: [] });
      expect(verifyCodeSignature(bytes).problems).toEqual(["CodeDirectory flags 0x10000 (runtime) lack adhoc (0x2): a certificate signature (its CMS is not checked here), not an ad-hoc one"]);
    });

    test("signed ad hoc here, it verifies, and nothing before the signature changes but the sizing fields", () => {
      const signed = signAdHoc(bytes);
      expect(verifyCodeSignature(signed)).toMatchObject({ ok: true, problems: [] });
      expect(onlySizingChanged(bytes, signed)).toBe(true);
    });
  });
}
