// Reads what an executable's header says it runs on, and compares it with what a release target
// needs. `bun build --compile` embeds whatever Bun executable it is given without checking that it
// matches --target, so this is what stands between a wrong cached download and a broken release.

import { openSync, readSync, closeSync } from "node:fs";

export type ExecutableHeader =
  | { format: "elf"; machine: number; interpreter: string | null }
  | { format: "mach-o"; cpuType: number };

/** What a target needs: ELF machine and loader (which also tells glibc from musl), or Mach-O CPU. */
export type ExpectedHeader =
  | { format: "elf"; machine: number; interpreter: string }
  | { format: "mach-o"; cpuType: number };

export class ExecutableHeaderError extends Error {}

export const ELF_MACHINE: Readonly<Record<number, string>> = { 62: "x86-64", 183: "aarch64" };
export const MACH_CPU: Readonly<Record<number, string>> = { 0x01000007: "x86_64", 0x0100000c: "arm64" };

const PT_INTERP = 3;
const MH_MAGIC_64 = 0xfeedfacf;
// The loader path sits in the first pages of any executable; this bounds what a file read takes.
export const HEADER_BYTES = 64 * 1024;

function need(bytes: Uint8Array, end: number, what: string): void {
  if (end > bytes.length) throw new ExecutableHeaderError(`truncated: ${what} ends at byte ${end}, have ${bytes.length}`);
}

function readElf(bytes: Uint8Array, view: DataView): ExecutableHeader {
  need(bytes, 64, "ELF header");
  // Every target here is 64-bit little-endian; anything else is a wrong file, not a format to support.
  if (bytes[4] !== 2) throw new ExecutableHeaderError(`ELF class ${bytes[4]}, expected 2 (64-bit)`);
  if (bytes[5] !== 1) throw new ExecutableHeaderError(`ELF data encoding ${bytes[5]}, expected 1 (little-endian)`);
  const machine = view.getUint16(18, true);
  const phoff = Number(view.getBigUint64(32, true));
  const phentsize = view.getUint16(54, true);
  const phnum = view.getUint16(56, true);
  if (phnum > 0 && phentsize < 56) throw new ExecutableHeaderError(`ELF program header size ${phentsize}, expected at least 56`);
  let interpreter: string | null = null;
  for (let i = 0; i < phnum; i++) {
    const at = phoff + i * phentsize;
    need(bytes, at + 56, `program header ${i}`);
    if (view.getUint32(at, true) !== PT_INTERP) continue;
    const offset = Number(view.getBigUint64(at + 8, true));
    const size = Number(view.getBigUint64(at + 32, true));
    need(bytes, offset + size, "PT_INTERP path");
    const raw = bytes.subarray(offset, offset + size);
    const nul = raw.indexOf(0);
    interpreter = new TextDecoder().decode(nul === -1 ? raw : raw.subarray(0, nul));
    break;
  }
  return { format: "elf", machine, interpreter };
}

/** Parses the start of an executable (HEADER_BYTES is enough); throws ExecutableHeaderError on anything else. */
export function readExecutableHeader(bytes: Uint8Array): ExecutableHeader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  need(bytes, 8, "magic");
  if (bytes[0] === 0x7f && bytes[1] === 0x45 && bytes[2] === 0x4c && bytes[3] === 0x46) return readElf(bytes, view);
  // Mach-O is stored in the CPU's byte order; both macOS CPUs are little-endian.
  if (view.getUint32(0, true) === MH_MAGIC_64) return { format: "mach-o", cpuType: view.getUint32(4, true) };
  const magic = [...bytes.subarray(0, 4)].map((b) => b.toString(16).padStart(2, "0")).join(" ");
  throw new ExecutableHeaderError(`not a 64-bit ELF or Mach-O executable (first bytes ${magic})`);
}

export function readExecutableHeaderFile(path: string): ExecutableHeader {
  const fd = openSync(path, "r");
  try {
    const bytes = new Uint8Array(HEADER_BYTES);
    const n = readSync(fd, bytes, 0, HEADER_BYTES, 0);
    return readExecutableHeader(bytes.subarray(0, n));
  } finally {
    closeSync(fd);
  }
}

const named = (value: number, names: Readonly<Record<number, string>>) => `${value} (${names[value] ?? "unknown"})`;
const hex = (value: number) => `0x${value.toString(16).padStart(8, "0")}`;

/** Each way the header differs from what is expected, as a line for a person; empty when it matches. */
export function headerMismatches(actual: ExecutableHeader, expected: ExpectedHeader): string[] {
  if (actual.format === "mach-o" && expected.format === "mach-o") {
    if (actual.cpuType === expected.cpuType) return [];
    return [`Mach-O cputype ${hex(actual.cpuType)} (${MACH_CPU[actual.cpuType] ?? "unknown"}), expected ${hex(expected.cpuType)} (${MACH_CPU[expected.cpuType] ?? "unknown"})`];
  }
  if (actual.format === "elf" && expected.format === "elf") {
    const out: string[] = [];
    if (actual.machine !== expected.machine) out.push(`ELF e_machine ${named(actual.machine, ELF_MACHINE)}, expected ${named(expected.machine, ELF_MACHINE)}`);
    if (actual.interpreter !== expected.interpreter) out.push(`ELF interpreter ${actual.interpreter ?? "(none: static)"}, expected ${expected.interpreter}`);
    return out;
  }
  return [`format ${actual.format}, expected ${expected.format}`];
}
