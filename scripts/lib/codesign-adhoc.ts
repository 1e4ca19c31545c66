// Signs a thin 64-bit Mach-O executable ad hoc, offline: what Go's linker does for darwin
// (cmd/internal/codesign, BSD licence; the same format Apple's ld64 writes), ported. Needed
// because `bun build --compile` for darwin-x64 leaves Bun's own Developer ID signature in place,
// sealing pages that are no longer there, and macOS kills such a file at launch (issue #26).
//
// The old signature is dropped and one CodeDirectory written in its place: SHA-256, 4 KiB pages,
// no special slots (no requirements, entitlements or CMS), executable segment = __TEXT. The
// signature must be the last thing in the file, and it grows, so the load commands that size it
// (LC_CODE_SIGNATURE datasize, __LINKEDIT filesize and vmsize) are set first: page 0 holds them.
// Deterministic, so signing a file this made gives back the same bytes.

import { CD, CS_ADHOC, CS_EXECSEG_MAIN_BINARY, CS_HASHTYPE_SHA256, CS_LINKER_SIGNED, CS_SUPPORTSEXECSEG, CSMAGIC_CODEDIRECTORY, CSMAGIC_EMBEDDED_SIGNATURE, CSSLOT_CODEDIRECTORY, BLOB_INDEX_ENTRY, SUPERBLOB_HEADER } from "./codesign-blobs.ts";
import { MH_EXECUTE, MachOError, SEGMENT_PAGE, readMachO, segmentNamed } from "./macho-read.ts";

export const IDENTIFIER = "shortener";

const PAGE_SHIFT = 12; // Go and ld64 hash 4 KiB pages on both CPUs; the kernel accepts 4 KiB everywhere
const PAGE_SIZE = 1 << PAGE_SHIFT;
const SHA256_SIZE = 32;

// adhoc | linker-signed: what Go writes, and Apple's ld64 and LLVM's lld for Apple silicon, and
// Bun for its own darwin-arm64 output, which is known to run. CS_LINKER_SIGNED ("automatically
// signed by the linker", cs_blobs.h) marks the signature as one nobody chose, which Apple's tools
// may regenerate: strip keeps such a signature valid after an edit (llvm-project#88323), where a
// plain ad-hoc one would be left broken. xnu lists it in CS_ALLOWED_MACHO and, in the sources
// read, gives it no policy beyond ad hoc. No CS_RUNTIME: the hardened runtime would refuse Bun's
// JIT without entitlements. If a Mac ever disagrees, CS_ADHOC alone is the one-line alternative
// (what `codesign --sign -` writes); the verifier accepts both.
const FLAGS = CS_ADHOC | CS_LINKER_SIGNED;

const alignUp = (n: number, to: number) => Math.ceil(n / to) * to;

/** bytes, its signature replaced by a fresh ad-hoc one; throws MachOError if it cannot be done safely. */
export function signAdHoc(bytes: Uint8Array, identifier: string = IDENTIFIER): Uint8Array {
  // The identifier carries no trust in an ad-hoc signature, but it is what `codesign -d` shows.
  if (!/^[\x21-\x7e]+$/.test(identifier)) throw new MachOError(`identifier ${JSON.stringify(identifier)} must be printable ASCII without spaces`);
  const macho = readMachO(bytes);
  const segmentPage = SEGMENT_PAGE[macho.cpuType];
  if (segmentPage === undefined) throw new MachOError(`CPU type 0x${macho.cpuType.toString(16)} is neither x86_64 nor arm64`);
  const cs = macho.codeSignature;
  // Bun's outputs always have one. Adding a load command would need room before the first section.
  if (!cs) throw new MachOError("no LC_CODE_SIGNATURE to fill: adding one is not supported");
  const text = segmentNamed(macho, "__TEXT");
  const linkedit = segmentNamed(macho, "__LINKEDIT");
  if (!text || !linkedit) throw new MachOError("no __TEXT or __LINKEDIT segment");

  // Everything but the old signature must lie before it, or truncating there would cut it off.
  if (cs.dataoff < linkedit.fileoff || cs.dataoff > bytes.length) throw new MachOError(`LC_CODE_SIGNATURE dataoff ${cs.dataoff} is not inside __LINKEDIT and the file`);
  for (const seg of macho.segments) {
    if (seg !== linkedit && seg.filesize > 0 && seg.fileoff + seg.filesize > cs.dataoff) throw new MachOError(`segment ${seg.name} lies after the signature's offset ${cs.dataoff}`);
  }
  for (const r of macho.linkedit) {
    if (r.name !== "code signature" && r.offset + r.size > cs.dataoff) throw new MachOError(`${r.name} lies after the signature's offset ${cs.dataoff}`);
  }

  const codeLimit = alignUp(cs.dataoff, 16); // 16-byte aligned, as ld64 and Go place it
  const nSlots = Math.ceil(codeLimit / PAGE_SIZE);
  const ident = new TextEncoder().encode(`${identifier}\0`);
  const identOffset = CD.sizeV20400;
  const hashOffset = identOffset + ident.length;
  const cdLength = hashOffset + nSlots * SHA256_SIZE;
  const blobOffset = SUPERBLOB_HEADER + BLOB_INDEX_ENTRY;
  const signatureSize = blobOffset + cdLength;
  if (codeLimit + signatureSize > 0xffffffff) throw new MachOError("file too large for 32-bit signature offsets");

  const out = new Uint8Array(codeLimit + signatureSize); // zeros between dataoff and codeLimit, if any
  out.set(bytes.subarray(0, cs.dataoff));
  const le = new DataView(out.buffer);
  le.setUint32(cs.commandOffset + 8, codeLimit, true); // dataoff
  le.setUint32(cs.commandOffset + 12, signatureSize, true); // datasize
  const linkeditSize = codeLimit + signatureSize - linkedit.fileoff;
  const linkeditVmsize = alignUp(linkeditSize, segmentPage);
  for (const seg of macho.segments) {
    if (seg !== linkedit && seg.vmsize > 0 && seg.vmaddr >= linkedit.vmaddr && seg.vmaddr < linkedit.vmaddr + linkeditVmsize) throw new MachOError(`a larger __LINKEDIT would overlap segment ${seg.name} in memory`);
  }
  le.setBigUint64(linkedit.commandOffset + 32, BigInt(linkeditVmsize), true);
  le.setBigUint64(linkedit.commandOffset + 48, BigInt(linkeditSize), true);

  // SuperBlob with one entry, then the CodeDirectory, all big-endian.
  const sig = new DataView(out.buffer, codeLimit, signatureSize);
  sig.setUint32(0, CSMAGIC_EMBEDDED_SIGNATURE);
  sig.setUint32(4, signatureSize);
  sig.setUint32(8, 1);
  sig.setUint32(SUPERBLOB_HEADER, CSSLOT_CODEDIRECTORY);
  sig.setUint32(SUPERBLOB_HEADER + 4, blobOffset);
  const cd = new DataView(out.buffer, codeLimit + blobOffset, cdLength);
  cd.setUint32(CD.magic, CSMAGIC_CODEDIRECTORY);
  cd.setUint32(CD.length, cdLength);
  cd.setUint32(CD.version, CS_SUPPORTSEXECSEG); // 0x20400: the first version with execSeg, as Go and ld64
  cd.setUint32(CD.flags, FLAGS);
  cd.setUint32(CD.hashOffset, hashOffset);
  cd.setUint32(CD.identOffset, identOffset);
  cd.setUint32(CD.nSpecialSlots, 0);
  cd.setUint32(CD.nCodeSlots, nSlots);
  cd.setUint32(CD.codeLimit, codeLimit);
  cd.setUint8(CD.hashSize, SHA256_SIZE);
  cd.setUint8(CD.hashType, CS_HASHTYPE_SHA256);
  cd.setUint8(CD.platform, 0);
  cd.setUint8(CD.pageSize, PAGE_SHIFT);
  // spare2, scatterOffset, teamOffset, spare3 and codeLimit64 stay zero.
  cd.setBigUint64(CD.execSegBase, BigInt(text.fileoff));
  cd.setBigUint64(CD.execSegLimit, BigInt(text.filesize));
  cd.setBigUint64(CD.execSegFlags, BigInt(macho.fileType === MH_EXECUTE ? CS_EXECSEG_MAIN_BINARY : 0));
  out.set(ident, codeLimit + blobOffset + identOffset);

  // Hashed last, over the edited header: slot 0 covers the load commands.
  const hashes = codeLimit + blobOffset + hashOffset;
  for (let i = 0; i < nSlots; i++) {
    Bun.SHA256.hash(out.subarray(i * PAGE_SIZE, Math.min((i + 1) * PAGE_SIZE, codeLimit)), out.subarray(hashes + i * SHA256_SIZE, hashes + (i + 1) * SHA256_SIZE));
  }
  return out;
}

