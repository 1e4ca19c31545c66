// Checks a Mach-O executable's embedded code signature offline, the way macOS will when it runs
// it: every page hash, that the seal reaches the signature (codeLimit == dataoff), that nothing
// lies after it, the structural rules xnu's cs_validate_csblob / cs_validate_codedirectory
// (bsd/kern/ubc_subr.c) reject a signature for, and the __LINKEDIT layout `codesign --strict`
// and dyld expect. Bun 1.4.5's cross-compiled darwin-x64 fails here (issue #26, finding 1): it
// keeps Bun's own Developer ID signature, whose pages no longer match. Only Apple's tools can
// say more (the CMS of a Developer ID signature, Gatekeeper); the release workflow runs them on a Mac.

import {
  BLOB_INDEX_ENTRY, CD, CS_ADHOC, CS_EXECSEG_MAIN_BINARY, CS_HASHTYPE_SHA256, CS_RUNTIME, CS_SUPPORTSCODELIMIT64,
  CS_SUPPORTSEXECSEG, CS_SUPPORTSSCATTER, CS_SUPPORTSTEAMID, CSMAGIC_CODEDIRECTORY, CSMAGIC_EMBEDDED_DER_ENTITLEMENTS,
  CSMAGIC_EMBEDDED_ENTITLEMENTS, CSMAGIC_EMBEDDED_SIGNATURE, CSSLOT_ALTERNATE_CODEDIRECTORIES,
  CSSLOT_ALTERNATE_CODEDIRECTORY_LIMIT, CSSLOT_CODEDIRECTORY, CSSLOT_DER_ENTITLEMENTS, CSSLOT_ENTITLEMENTS,
  CSSLOT_SIGNATURESLOT, HASH_NAMES, HASH_SIZES, SUPERBLOB_HEADER, flagNames,
} from "./codesign-blobs.ts";
import { MACH_CPU } from "./executable-header.ts";
import { CPU_TYPE_ARM64, MH_EXECUTE, type MachO, MachOError, readMachO, segmentNamed } from "./macho-read.ts";

export type CodeDirectoryInfo = {
  slot: number;
  version: number;
  flags: number;
  identifier: string;
  hashType: number;
  pageSize: number;
  nCodeSlots: number;
  nSpecialSlots: number;
  codeLimit: number;
  /** Code slots whose hash does not match the page. */
  badSlots: number;
  execSeg: { base: number; limit: number; flags: number } | null;
};

export type SignatureInfo = {
  fileSize: number;
  cpu?: string;
  dataoff?: number;
  datasize?: number;
  /** The SuperBlob's entries: slot type and blob magic. */
  blobs: { slot: number; magic: number; length: number }[];
  codeDirectories: CodeDirectoryInfo[];
};

export type Verification = { ok: boolean; problems: string[]; info: SignatureInfo };

export type VerifyOptions = {
  /**
   * Require an ad-hoc signature (the default: what the release ships). Off, a Developer ID
   * signature passes too, its CMS unchecked: used for Bun's own runtime as a known-good sample.
   */
  requireAdHoc?: boolean;
};

// Each page size the kernel accepts: 4 KiB everywhere, or the kernel's own page (16 KiB on arm64).
const PAGE_SHIFTS: Readonly<Record<number, number[]>> = { [CPU_TYPE_ARM64]: [12, 14] };
// Special slots whose blob lives in the SuperBlob; 1 (Info.plist) and 3 (resources) hash outside files.
const BLOB_BACKED_SPECIAL_SLOTS = new Set([2, 5, 7, 8, 9, 10, 11]);

const hex = (n: number) => `0x${n.toString(16)}`;
const isCodeDirectorySlot = (slot: number) =>
  slot === CSSLOT_CODEDIRECTORY || (slot >= CSSLOT_ALTERNATE_CODEDIRECTORIES && slot < CSSLOT_ALTERNATE_CODEDIRECTORY_LIMIT);

function digest(hashType: number, data: Uint8Array): Uint8Array {
  switch (hashType) {
    case 1: return Bun.SHA1.hash(data) as Uint8Array;
    case 2: case 3: return Bun.SHA256.hash(data) as Uint8Array; // 3 is SHA-256 cut to 20 bytes
    case 4: return Bun.SHA384.hash(data) as Uint8Array;
    default: throw new Error(`hash type ${hashType}`);
  }
}

const equalBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** "0, 23723–23796": a list of slot numbers, runs collapsed, for a message a person reads. */
function slotRanges(slots: number[], max = 6): string {
  const runs: string[] = [];
  for (let i = 0; i < slots.length; ) {
    let j = i;
    while (j + 1 < slots.length && slots[j + 1] === slots[j]! + 1) j++;
    runs.push(i === j ? `${slots[i]}` : `${slots[i]}–${slots[j]}`);
    i = j + 1;
  }
  return runs.length > max ? `${runs.slice(0, max).join(", ")}, …` : runs.join(", ");
}

function checkLayout(macho: MachO, fileSize: number, problems: string[]): void {
  const cs = macho.codeSignature!;
  const signatureEnd = cs.dataoff + cs.datasize;
  if (fileSize > signatureEnd) problems.push(`${fileSize - signatureEnd} bytes after the signature's end (${signatureEnd}): stale data nothing seals`);
  if (fileSize < signatureEnd) problems.push(`the signature (${cs.dataoff}+${cs.datasize}) runs past the end of the file (${fileSize})`);
  // ld64 and Go place it 16-byte aligned; dyld refuses linkedit data that is not pointer-aligned.
  if (cs.dataoff % 16 !== 0) problems.push(`LC_CODE_SIGNATURE dataoff ${cs.dataoff} is not 16-byte aligned`);

  for (const seg of macho.segments) {
    if (seg.fileoff + seg.filesize > fileSize) problems.push(`segment ${seg.name} (${seg.fileoff}+${seg.filesize}) runs past the end of the file (${fileSize})`);
    if (seg.filesize > seg.vmsize) problems.push(`segment ${seg.name}: filesize ${seg.filesize} is larger than vmsize ${seg.vmsize}`);
    if (seg.name !== "__LINKEDIT" && seg.filesize > 0 && seg.fileoff + seg.filesize > cs.dataoff) problems.push(`segment ${seg.name} (${seg.fileoff}+${seg.filesize}) overlaps the signature at ${cs.dataoff}`);
  }
  if (!segmentNamed(macho, "__TEXT")) problems.push("no __TEXT segment");
  const linkedit = segmentNamed(macho, "__LINKEDIT");
  if (!linkedit) {
    problems.push("no __LINKEDIT segment: the signature must lie in it");
    return;
  }
  const linkeditEnd = linkedit.fileoff + linkedit.filesize;
  // The signature is the last thing in __LINKEDIT and ends it: `codesign --strict` fails a file
  // whose __LINKEDIT has room after its last blob, dyld one whose blobs stick out of it.
  if (linkeditEnd !== signatureEnd) problems.push(`__LINKEDIT ends at ${linkeditEnd} but the signature at ${signatureEnd}: it must end __LINKEDIT exactly`);
  const ranges = [...macho.linkedit].sort((a, b) => a.offset - b.offset);
  for (const r of ranges) {
    if (r.offset < linkedit.fileoff || r.offset + r.size > linkeditEnd) problems.push(`${r.name} (${r.offset}+${r.size}) lies outside __LINKEDIT (${linkedit.fileoff}+${linkedit.filesize})`);
  }
  for (let i = 1; i < ranges.length; i++) {
    const [a, b] = [ranges[i - 1]!, ranges[i]!];
    if (a.offset + a.size > b.offset) problems.push(`${a.name} (${a.offset}+${a.size}) overlaps ${b.name} (${b.offset})`);
  }
  const last = ranges.at(-1);
  if (last && last.name !== "code signature") problems.push(`${last.name} (${last.offset}) lies after the code signature: the signature must come last`);
}

type Blob = { slot: number; at: number; magic: number; length: number };

function checkCodeDirectory(bytes: Uint8Array, macho: MachO, blob: Blob, blobs: Blob[], problems: string[]): CodeDirectoryInfo | null {
  const name = blob.slot === CSSLOT_CODEDIRECTORY ? "CodeDirectory" : `alternate CodeDirectory ${hex(blob.slot)}`;
  const cd = bytes.subarray(blob.at, blob.at + blob.length);
  const view = new DataView(cd.buffer, cd.byteOffset, cd.byteLength);
  const u32 = (field: number) => view.getUint32(field, false);
  if (cd.length < CD.scatterOffset) {
    problems.push(`${name} is ${cd.length} bytes, shorter than its fixed header`);
    return null;
  }
  const version = u32(CD.version);
  const headerEnd = version >= CS_SUPPORTSEXECSEG ? CD.sizeV20400 : version >= CS_SUPPORTSCODELIMIT64 ? CD.execSegBase : version >= CS_SUPPORTSTEAMID ? CD.spare3 : version >= CS_SUPPORTSSCATTER ? CD.teamOffset : CD.scatterOffset;
  if (cd.length < headerEnd) {
    problems.push(`${name} version ${hex(version)} needs a ${headerEnd}-byte header, has ${cd.length} bytes`);
    return null;
  }
  const flags = u32(CD.flags);
  const hashOffset = u32(CD.hashOffset);
  const identOffset = u32(CD.identOffset);
  const nSpecialSlots = u32(CD.nSpecialSlots);
  const nCodeSlots = u32(CD.nCodeSlots);
  const hashSize = cd[CD.hashSize]!;
  const hashType = cd[CD.hashType]!;
  const pageShift = cd[CD.pageSize]!;
  const codeLimit64 = version >= CS_SUPPORTSCODELIMIT64 ? Number(view.getBigUint64(CD.codeLimit64, false)) : 0;
  const codeLimit = codeLimit64 || u32(CD.codeLimit);

  let identifier = "";
  const identEnd = identOffset < cd.length ? cd.indexOf(0, identOffset) : -1;
  if (identEnd === -1) problems.push(`${name}: identifier at ${identOffset} is not a NUL-terminated string inside the blob`);
  else identifier = new TextDecoder().decode(cd.subarray(identOffset, identEnd));
  if (identEnd !== -1 && identifier === "") problems.push(`${name}: empty identifier`);
  if (version >= CS_SUPPORTSTEAMID && u32(CD.teamOffset) !== 0 && (u32(CD.teamOffset) >= cd.length || cd.indexOf(0, u32(CD.teamOffset)) === -1)) problems.push(`${name}: team identifier is not a NUL-terminated string inside the blob`);
  if (version >= CS_SUPPORTSSCATTER && u32(CD.scatterOffset) !== 0) problems.push(`${name}: has a scatter vector, which this verifier does not check`);

  const hashKnown = HASH_SIZES[hashType] !== undefined && hashSize === HASH_SIZES[hashType];
  if (HASH_SIZES[hashType] === undefined) problems.push(`${name}: unknown hash type ${hashType}`);
  else if (!hashKnown) problems.push(`${name}: hashSize ${hashSize} does not match hash type ${hashType} (${HASH_NAMES[hashType]}, ${HASH_SIZES[hashType]} bytes)`);
  const allowedShifts = PAGE_SHIFTS[macho.cpuType] ?? [12];
  const pageKnown = allowedShifts.includes(pageShift);
  if (!pageKnown) problems.push(`${name}: page size 2^${pageShift}; the kernel accepts ${allowedShifts.map((s) => 2 ** s).join(" or ")}`);
  const slotsFit = hashOffset <= cd.length && nSpecialSlots * hashSize <= hashOffset && hashOffset + nCodeSlots * hashSize <= cd.length;
  if (!slotsFit) problems.push(`${name}: ${nSpecialSlots} special and ${nCodeSlots} code slots of ${hashSize} bytes at ${hashOffset} do not fit its ${cd.length} bytes`);

  const dataoff = macho.codeSignature!.dataoff;
  if (codeLimit !== dataoff) problems.push(`${name}: codeLimit ${codeLimit} is not the signature's offset ${dataoff}: ${Math.abs(dataoff - codeLimit)} bytes ${codeLimit < dataoff ? "outside the seal" : "of the signature itself claimed as code"}`);
  const pageSize = 2 ** pageShift;
  const pagesNeeded = Math.ceil(codeLimit / pageSize);
  if (pageKnown && nCodeSlots !== pagesNeeded) problems.push(`${name}: ${nCodeSlots} code slots, but codeLimit ${codeLimit} spans ${pagesNeeded} pages`);

  const bad: number[] = [];
  if (hashKnown && pageKnown && slotsFit && codeLimit <= bytes.length) {
    // Each slot hashes one page; the last is cut at codeLimit, never padded (Go's Sign; xnu's cs_validate_hash).
    const hashes = cd.subarray(hashOffset);
    for (let i = 0; i < Math.min(nCodeSlots, pagesNeeded); i++) {
      const page = bytes.subarray(i * pageSize, Math.min((i + 1) * pageSize, codeLimit));
      if (!equalBytes(digest(hashType, page).subarray(0, hashSize), hashes.subarray(i * hashSize, (i + 1) * hashSize))) bad.push(i);
    }
    if (bad.length > 0) problems.push(`${name}: ${bad.length} of ${nCodeSlots} page hashes wrong (slots ${slotRanges(bad)})`);
    // Special slots sit before hashOffset at negative indices: slot n at hashOffset - n * hashSize.
    for (let n = 1; n <= nSpecialSlots; n++) {
      const stored = cd.subarray(hashOffset - n * hashSize, hashOffset - (n - 1) * hashSize);
      const backing = blobs.find((b) => b.slot === n);
      if (backing) {
        if (!equalBytes(digest(hashType, bytes.subarray(backing.at, backing.at + backing.length)).subarray(0, hashSize), stored)) problems.push(`${name}: special slot ${n} does not match the hash of its blob`);
      } else if (BLOB_BACKED_SPECIAL_SLOTS.has(n) && stored.some((b) => b !== 0)) {
        problems.push(`${name}: special slot ${n} holds a hash but the signature has no blob for it`);
      }
    }
  } else if (codeLimit > bytes.length) {
    problems.push(`${name}: codeLimit ${codeLimit} is past the end of the file`);
  }

  let execSeg: CodeDirectoryInfo["execSeg"] = null;
  if (version >= CS_SUPPORTSEXECSEG) {
    execSeg = { base: Number(view.getBigUint64(CD.execSegBase, false)), limit: Number(view.getBigUint64(CD.execSegLimit, false)), flags: Number(view.getBigUint64(CD.execSegFlags, false)) };
    const text = segmentNamed(macho, "__TEXT");
    if (text && (execSeg.base !== text.fileoff || execSeg.limit !== text.filesize)) problems.push(`${name}: executable segment ${execSeg.base}+${execSeg.limit} is not __TEXT (${text.fileoff}+${text.filesize})`);
    if (macho.fileType === MH_EXECUTE && (execSeg.flags & CS_EXECSEG_MAIN_BINARY) === 0) problems.push(`${name}: executable segment flags ${hex(execSeg.flags)} lack CS_EXECSEG_MAIN_BINARY for a main executable`);
  }
  // Bun JIT-compiles; under the hardened runtime that needs the allow-jit entitlement.
  const hasEntitlements = blobs.some((b) => b.slot === CSSLOT_ENTITLEMENTS || b.slot === CSSLOT_DER_ENTITLEMENTS);
  if ((flags & CS_RUNTIME) !== 0 && (flags & CS_ADHOC) !== 0 && !hasEntitlements) problems.push(`${name}: hardened runtime on an ad-hoc signature with no entitlements: Bun's JIT would be refused`);

  return { slot: blob.slot, version, flags, identifier, hashType, pageSize, nCodeSlots, nSpecialSlots, codeLimit, badSlots: bad.length, execSeg };
}

function checkSuperBlob(bytes: Uint8Array, macho: MachO, problems: string[], info: SignatureInfo, requireAdHoc: boolean): void {
  const { dataoff, datasize } = macho.codeSignature!;
  if (dataoff + SUPERBLOB_HEADER > bytes.length) {
    problems.push(`no SuperBlob: the signature's offset ${dataoff} is at or past the end of the file`);
    return;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = view.getUint32(dataoff, false);
  if (magic !== CSMAGIC_EMBEDDED_SIGNATURE) {
    problems.push(`the signature at ${dataoff} starts with ${hex(magic)}, not the SuperBlob magic ${hex(CSMAGIC_EMBEDDED_SIGNATURE)}`);
    return;
  }
  const length = view.getUint32(dataoff + 4, false);
  const count = view.getUint32(dataoff + 8, false);
  const available = Math.min(datasize, bytes.length - dataoff);
  if (length > available) {
    problems.push(`SuperBlob length ${length} is larger than the ${available} bytes LC_CODE_SIGNATURE gives it`);
    return;
  }
  if (SUPERBLOB_HEADER + count * BLOB_INDEX_ENTRY > length) {
    problems.push(`SuperBlob index of ${count} entries does not fit its ${length} bytes`);
    return;
  }
  const blobs: Blob[] = [];
  for (let i = 0; i < count; i++) {
    const slot = view.getUint32(dataoff + SUPERBLOB_HEADER + i * BLOB_INDEX_ENTRY, false);
    const offset = view.getUint32(dataoff + SUPERBLOB_HEADER + i * BLOB_INDEX_ENTRY + 4, false);
    const blobLength = offset + 8 <= length ? view.getUint32(dataoff + offset + 4, false) : 0;
    if (offset + 8 > length || blobLength < 8 || offset + blobLength > length) {
      problems.push(`SuperBlob entry ${i} (slot ${hex(slot)}) at ${offset} does not fit the SuperBlob`);
      continue;
    }
    blobs.push({ slot, at: dataoff + offset, magic: view.getUint32(dataoff + offset, false), length: blobLength });
  }
  info.blobs = blobs.map(({ slot, magic, length }) => ({ slot, magic, length }));

  for (const blob of blobs) {
    if (isCodeDirectorySlot(blob.slot)) {
      if (blob.magic !== CSMAGIC_CODEDIRECTORY) problems.push(`slot ${hex(blob.slot)} holds magic ${hex(blob.magic)}, not a CodeDirectory`);
      else {
        const cd = checkCodeDirectory(bytes, macho, blob, blobs, problems);
        if (cd) info.codeDirectories.push(cd);
      }
    } else if (blob.slot === CSSLOT_ENTITLEMENTS && blob.magic !== CSMAGIC_EMBEDDED_ENTITLEMENTS) {
      problems.push(`the entitlements slot holds magic ${hex(blob.magic)}`);
    } else if (blob.slot === CSSLOT_DER_ENTITLEMENTS && blob.magic !== CSMAGIC_EMBEDDED_DER_ENTITLEMENTS) {
      problems.push(`the DER entitlements slot holds magic ${hex(blob.magic)}`);
    }
  }
  const slots = blobs.map((b) => b.slot);
  if (new Set(slots).size !== slots.length) problems.push(`a slot appears twice in the SuperBlob (${slots.map(hex).join(", ")})`);
  const cds = info.codeDirectories;
  if (!blobs.some((b) => b.slot === CSSLOT_CODEDIRECTORY)) problems.push("no CodeDirectory in slot 0");
  // The kernel refuses two CodeDirectories of one hash type, and picks the strongest it knows.
  if (new Set(cds.map((c) => c.hashType)).size !== cds.length) problems.push("two CodeDirectories with the same hash type");
  if (cds.length > 0 && !cds.some((c) => c.hashType === CS_HASHTYPE_SHA256)) problems.push(`no SHA-256 CodeDirectory (hash types ${cds.map((c) => `${c.hashType} (${HASH_NAMES[c.hashType] ?? "unknown"})`).join(", ")})`);
  for (const c of cds) {
    if (requireAdHoc && (c.flags & CS_ADHOC) === 0) {
      const cms = blobs.some((b) => b.slot === CSSLOT_SIGNATURESLOT && b.length > 8);
      problems.push(`CodeDirectory flags ${flagNames(c.flags)} lack adhoc (0x2): ${cms ? "a certificate signature (its CMS is not checked here), not an ad-hoc one" : "not ad hoc, and there is no CMS signature either"}`);
    }
  }
}

/** Everything wrong with bytes' code signature, as lines for a person; ok when there is nothing. */
export function verifyCodeSignature(bytes: Uint8Array, options: VerifyOptions = {}): Verification {
  const problems: string[] = [];
  const info: SignatureInfo = { fileSize: bytes.length, blobs: [], codeDirectories: [] };
  const done = (): Verification => ({ ok: problems.length === 0, problems, info });
  let macho: MachO;
  try {
    macho = readMachO(bytes);
  } catch (err) {
    if (!(err instanceof MachOError)) throw err;
    problems.push(err.message);
    return done();
  }
  info.cpu = MACH_CPU[macho.cpuType] ?? hex(macho.cpuType);
  if (MACH_CPU[macho.cpuType] === undefined) problems.push(`CPU type ${hex(macho.cpuType)} is neither x86_64 nor arm64`);
  if (!macho.codeSignature) {
    problems.push("no LC_CODE_SIGNATURE: unsigned (Apple silicon refuses to run unsigned code)");
    return done();
  }
  info.dataoff = macho.codeSignature.dataoff;
  info.datasize = macho.codeSignature.datasize;
  checkLayout(macho, bytes.length, problems);
  checkSuperBlob(bytes, macho, problems, info, options.requireAdHoc ?? true);
  return done();
}

/** One line: `ok (arm64, flags 0x20002 (adhoc, linker-signed), identifier "shortener", …)`, or BAD and the problems. */
export function describeVerification(v: Verification): string {
  const cd = v.info.codeDirectories.find((c) => c.slot === CSSLOT_CODEDIRECTORY);
  const what = cd ? ` (${v.info.cpu}, flags ${flagNames(cd.flags)}, identifier "${cd.identifier}", ${cd.nCodeSlots} ${HASH_NAMES[cd.hashType] ?? "?"} pages of ${cd.pageSize})` : v.info.cpu ? ` (${v.info.cpu})` : "";
  return v.ok ? `ok${what}` : `BAD${what}: ${v.problems.join("; ")}`;
}
