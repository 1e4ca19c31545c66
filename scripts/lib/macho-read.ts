// Reads the parts of a thin 64-bit Mach-O executable that its code signature depends on: the
// header, the segments, LC_CODE_SIGNATURE and where every other load command puts data in
// __LINKEDIT. Layouts are those of <mach-o/loader.h> and <mach-o/fat.h>; Mach-O fields are stored
// in the CPU's byte order, little-endian on both macOS CPUs. Anything else (32-bit, big-endian,
// universal "fat" files) is refused with a MachOError rather than half understood.

export class MachOError extends Error {}

const MH_MAGIC_64 = 0xfeedfacf;
const MH_MAGIC = 0xfeedface; // 32-bit: no macOS release runs these any more
// Universal files start with a big-endian fat_header (<mach-o/fat.h>); 0xcafebabf is the 64-bit-offset form.
const FAT_MAGICS = new Set([0xcafebabe, 0xcafebabf]);

export const CPU_TYPE_X86_64 = 0x01000007;
export const CPU_TYPE_ARM64 = 0x0100000c;
/** The VM page size segments are rounded to: 16 KiB on Apple silicon, 4 KiB on Intel. */
export const SEGMENT_PAGE: Readonly<Record<number, number>> = { [CPU_TYPE_X86_64]: 0x1000, [CPU_TYPE_ARM64]: 0x4000 };

export const MH_EXECUTE = 2;
const MACH_HEADER_64_SIZE = 32;

const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const LC_SYMTAB = 0x2;
const LC_DYSYMTAB = 0xb;
const LC_DYLD_INFO = 0x22;
const LC_DYLD_INFO_ONLY = 0x80000022;
// Every command that is a linkedit_data_command {cmd, cmdsize, dataoff, datasize}, by name.
const LINKEDIT_DATA_COMMANDS: Readonly<Record<number, string>> = {
  [LC_CODE_SIGNATURE]: "code signature",
  0x1e: "segment split info",
  0x26: "function starts",
  0x29: "data in code",
  0x2b: "dylib code sign DRs",
  0x2e: "linker optimization hints",
  0x36: "atom info",
  0x80000033: "exports trie",
  0x80000034: "chained fixups",
};

export type Section = { name: string; offset: number; size: number };
export type Segment = {
  name: string;
  /** Offset of this segment's segment_command_64 in the file: where the signer edits sizes. */
  commandOffset: number;
  vmaddr: number;
  vmsize: number;
  fileoff: number;
  filesize: number;
  sections: Section[];
};
/** A range of __LINKEDIT some load command points at (symbol table, fixups, the signature, ...). */
export type LinkeditRange = { name: string; offset: number; size: number };
export type CodeSignatureCommand = { commandOffset: number; dataoff: number; datasize: number };

export type MachO = {
  cpuType: number;
  fileType: number;
  /** End of the load commands: header plus sizeofcmds. */
  commandsEnd: number;
  segments: Segment[];
  linkedit: LinkeditRange[];
  codeSignature: CodeSignatureCommand | null;
};

const u64 = (view: DataView, at: number): number => {
  const value = view.getBigUint64(at, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new MachOError(`64-bit field at byte ${at} is too large: ${value}`);
  return Number(value);
};

function cString(bytes: Uint8Array, at: number, max: number): string {
  const raw = bytes.subarray(at, at + max);
  const nul = raw.indexOf(0);
  return new TextDecoder().decode(nul === -1 ? raw : raw.subarray(0, nul));
}

/** Why these bytes are not a thin 64-bit little-endian Mach-O, or null when they are. */
function notThinMachO64(bytes: Uint8Array): string | null {
  if (bytes.length < 4) return `only ${bytes.length} bytes`;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const big = view.getUint32(0, false);
  const little = view.getUint32(0, true);
  if (FAT_MAGICS.has(big)) {
    const slices = bytes.length >= 8 ? view.getUint32(4, false) : 0;
    return `a universal (fat) Mach-O with ${slices} slice(s): sign and check each thin slice before joining them with lipo`;
  }
  if (little === MH_MAGIC) return "a 32-bit Mach-O";
  if (big === MH_MAGIC_64 || big === MH_MAGIC) return "a big-endian Mach-O";
  if (little !== MH_MAGIC_64) return `not a Mach-O file (first bytes ${[...bytes.subarray(0, 4)].map((b) => b.toString(16).padStart(2, "0")).join(" ")})`;
  return null;
}

function need(bytes: Uint8Array, end: number, what: string): void {
  if (end > bytes.length) throw new MachOError(`truncated: ${what} ends at byte ${end}, the file has ${bytes.length}`);
}

/** Parses a thin 64-bit Mach-O; throws MachOError for anything else or anything malformed. */
export function readMachO(bytes: Uint8Array): MachO {
  const refusal = notThinMachO64(bytes);
  if (refusal) throw new MachOError(refusal);
  need(bytes, MACH_HEADER_64_SIZE, "mach_header_64");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const cpuType = view.getUint32(4, true);
  const fileType = view.getUint32(12, true);
  const ncmds = view.getUint32(16, true);
  const sizeofcmds = view.getUint32(20, true);
  const commandsEnd = MACH_HEADER_64_SIZE + sizeofcmds;
  need(bytes, commandsEnd, "the load commands");

  const segments: Segment[] = [];
  const linkedit: LinkeditRange[] = [];
  let codeSignature: CodeSignatureCommand | null = null;
  const range = (name: string, offset: number, size: number) => {
    if (size > 0) linkedit.push({ name, offset, size });
  };

  let at = MACH_HEADER_64_SIZE;
  for (let i = 0; i < ncmds; i++) {
    if (at + 8 > commandsEnd) throw new MachOError(`load command ${i} starts past sizeofcmds`);
    const cmd = view.getUint32(at, true);
    const cmdsize = view.getUint32(at + 4, true);
    // loader.h: cmdsize is a multiple of 8 for 64-bit files; anything smaller than 8 would loop forever.
    if (cmdsize < 8 || cmdsize % 8 !== 0 || at + cmdsize > commandsEnd) throw new MachOError(`load command ${i} (0x${cmd.toString(16)}) has a bad cmdsize ${cmdsize}`);
    if (cmd === LC_SEGMENT_64) {
      if (cmdsize < 72) throw new MachOError(`LC_SEGMENT_64 ${i} is too short: ${cmdsize}`);
      const nsects = view.getUint32(at + 64, true);
      if (72 + nsects * 80 > cmdsize) throw new MachOError(`LC_SEGMENT_64 ${i} claims ${nsects} sections in ${cmdsize} bytes`);
      const sections: Section[] = [];
      for (let s = 0; s < nsects; s++) {
        const sect = at + 72 + s * 80; // section_64
        sections.push({ name: cString(bytes, sect, 16), offset: view.getUint32(sect + 48, true), size: u64(view, sect + 40) });
      }
      segments.push({
        name: cString(bytes, at + 8, 16),
        commandOffset: at,
        vmaddr: u64(view, at + 24),
        vmsize: u64(view, at + 32),
        fileoff: u64(view, at + 40),
        filesize: u64(view, at + 48),
        sections,
      });
    } else if (cmd in LINKEDIT_DATA_COMMANDS) {
      if (cmdsize !== 16) throw new MachOError(`${LINKEDIT_DATA_COMMANDS[cmd]} load command has cmdsize ${cmdsize}, expected 16`);
      const dataoff = view.getUint32(at + 8, true);
      const datasize = view.getUint32(at + 12, true);
      if (cmd === LC_CODE_SIGNATURE) {
        if (codeSignature) throw new MachOError("more than one LC_CODE_SIGNATURE");
        codeSignature = { commandOffset: at, dataoff, datasize };
      }
      range(LINKEDIT_DATA_COMMANDS[cmd]!, dataoff, datasize);
    } else if (cmd === LC_SYMTAB) {
      range("symbol table", view.getUint32(at + 8, true), view.getUint32(at + 12, true) * 16); // nlist_64
      range("string table", view.getUint32(at + 16, true), view.getUint32(at + 20, true));
    } else if (cmd === LC_DYSYMTAB) {
      range("table of contents", view.getUint32(at + 32, true), view.getUint32(at + 36, true) * 8);
      range("module table", view.getUint32(at + 40, true), view.getUint32(at + 44, true) * 56);
      range("external references", view.getUint32(at + 48, true), view.getUint32(at + 52, true) * 4);
      range("indirect symbols", view.getUint32(at + 56, true), view.getUint32(at + 60, true) * 4);
      range("external relocations", view.getUint32(at + 64, true), view.getUint32(at + 68, true) * 8);
      range("local relocations", view.getUint32(at + 72, true), view.getUint32(at + 76, true) * 8);
    } else if (cmd === LC_DYLD_INFO || cmd === LC_DYLD_INFO_ONLY) {
      const names = ["rebase info", "bind info", "weak bind info", "lazy bind info", "export info"];
      names.forEach((name, k) => range(name, view.getUint32(at + 8 + k * 8, true), view.getUint32(at + 12 + k * 8, true)));
    }
    at += cmdsize;
  }
  return { cpuType, fileType, commandsEnd, segments, linkedit, codeSignature };
}

export const segmentNamed = (macho: MachO, name: string): Segment | undefined => macho.segments.find((s) => s.name === name);
