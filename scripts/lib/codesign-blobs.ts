// The code signature's own format: magic numbers, slots, flags and the CodeDirectory's field
// offsets, from xnu's osfmk/kern/cs_blobs.h (the kernel's copy; Go's cmd/internal/codesign cites
// the same file). Unlike the Mach-O around it, every field here is big-endian.

export const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
export const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0; // the SuperBlob LC_CODE_SIGNATURE points at
export const CSMAGIC_EMBEDDED_ENTITLEMENTS = 0xfade7171;
export const CSMAGIC_EMBEDDED_DER_ENTITLEMENTS = 0xfade7172;

export const CSSLOT_CODEDIRECTORY = 0;
export const CSSLOT_ENTITLEMENTS = 5;
export const CSSLOT_DER_ENTITLEMENTS = 7;
export const CSSLOT_ALTERNATE_CODEDIRECTORIES = 0x1000; // up to 5 more CodeDirectories, other hash types
export const CSSLOT_ALTERNATE_CODEDIRECTORY_LIMIT = 0x1005;
export const CSSLOT_SIGNATURESLOT = 0x10000;

export const CS_ADHOC = 0x2;
export const CS_RUNTIME = 0x10000; // hardened runtime
export const CS_LINKER_SIGNED = 0x20000; // "automatically signed by the linker"; see codesign-adhoc.ts
const FLAG_NAMES: readonly [number, string][] = [
  [CS_ADHOC, "adhoc"], [0x100, "hard"], [0x200, "kill"], [0x400, "expires"], [0x800, "restrict"],
  [0x1000, "enforcement"], [0x2000, "library-validation"], [CS_RUNTIME, "runtime"], [CS_LINKER_SIGNED, "linker-signed"],
];

export const CS_HASHTYPE_SHA256 = 2;
/** Digest length of each hash type the kernel knows (cs_find_md in xnu's bsd/kern/ubc_subr.c). */
export const HASH_SIZES: Readonly<Record<number, number>> = { 1: 20, 2: 32, 3: 20, 4: 48 };
export const HASH_NAMES: Readonly<Record<number, string>> = { 1: "sha1", 2: "sha256", 3: "sha256-truncated", 4: "sha384" };

export const CS_EXECSEG_MAIN_BINARY = 0x1;

// CodeDirectory versions: each adds fields at the end (cs_blobs.h CS_SUPPORTS*).
export const CS_SUPPORTSSCATTER = 0x20100;
export const CS_SUPPORTSTEAMID = 0x20200;
export const CS_SUPPORTSCODELIMIT64 = 0x20300;
export const CS_SUPPORTSEXECSEG = 0x20400;

/** Byte offsets of the CodeDirectory's fields, from the start of the blob. */
export const CD = {
  magic: 0, length: 4, version: 8, flags: 12, hashOffset: 16, identOffset: 20, nSpecialSlots: 24,
  nCodeSlots: 28, codeLimit: 32, hashSize: 36, hashType: 37, platform: 38, pageSize: 39, spare2: 40,
  scatterOffset: 44, teamOffset: 48, spare3: 52, codeLimit64: 56,
  execSegBase: 64, execSegLimit: 72, execSegFlags: 80,
  /** Size of the header through the 0x20400 fields: what Go and ld64 write before the identifier. */
  sizeV20400: 88,
} as const;

export const SUPERBLOB_HEADER = 12; // magic, length, count
export const BLOB_INDEX_ENTRY = 8; // type, offset

export function flagNames(flags: number): string {
  const names = FLAG_NAMES.filter(([bit]) => (flags & bit) !== 0).map(([, name]) => name);
  return `0x${flags.toString(16)}${names.length ? ` (${names.join(", ")})` : ""}`;
}
