// The release check reads an executable's header: real bytes (the Bun running this test) and small
// synthetic headers for the platforms this machine cannot provide, each matched and mismatched.

import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import {
  ExecutableHeaderError,
  headerMismatches,
  readExecutableHeader,
  readExecutableHeaderFile,
  type ExpectedHeader,
} from "../../scripts/lib/executable-header.ts";

const GLIBC_X64: ExpectedHeader = { format: "elf", machine: 62, interpreter: "/lib64/ld-linux-x86-64.so.2" };
const GLIBC_ARM64: ExpectedHeader = { format: "elf", machine: 183, interpreter: "/lib/ld-linux-aarch64.so.1" };
const MUSL_X64: ExpectedHeader = { format: "elf", machine: 62, interpreter: "/lib/ld-musl-x86_64.so.1" };
const MUSL_ARM64: ExpectedHeader = { format: "elf", machine: 183, interpreter: "/lib/ld-musl-aarch64.so.1" };
const MAC_ARM64: ExpectedHeader = { format: "mach-o", cpuType: 0x0100000c };
const MAC_X64: ExpectedHeader = { format: "mach-o", cpuType: 0x01000007 };

const PT_LOAD = 1;
const PT_INTERP = 3;

/** A 64-bit little-endian ELF header with program headers at 64 (a PT_LOAD, then PT_INTERP unless static). */
function elf(machine: number, interpreter: string | null, patch: (b: Uint8Array) => void = () => {}): Uint8Array {
  const phnum = interpreter === null ? 1 : 2;
  const interpAt = 64 + phnum * 56;
  const path = new TextEncoder().encode(`${interpreter ?? ""}\0`);
  const bytes = new Uint8Array(interpAt + path.length);
  const v = new DataView(bytes.buffer);
  bytes.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]);
  v.setUint16(16, 2, true); // ET_EXEC
  v.setUint16(18, machine, true);
  v.setBigUint64(32, 64n, true);
  v.setUint16(54, 56, true);
  v.setUint16(56, phnum, true);
  v.setUint32(64, PT_LOAD, true);
  if (interpreter !== null) {
    v.setUint32(120, PT_INTERP, true);
    v.setBigUint64(120 + 8, BigInt(interpAt), true);
    v.setBigUint64(120 + 32, BigInt(path.length), true);
    bytes.set(path, interpAt);
  }
  patch(bytes);
  return bytes;
}

function machO(cpuType: number): Uint8Array {
  const bytes = new Uint8Array(32);
  const v = new DataView(bytes.buffer);
  v.setUint32(0, 0xfeedfacf, true);
  v.setUint32(4, cpuType, true);
  v.setUint32(12, 2, true); // MH_EXECUTE
  return bytes;
}

describe("the Bun running this test (real bytes)", () => {
  const header = readExecutableHeaderFile(process.execPath);
  const host: Record<string, ExpectedHeader[]> = {
    "linux x64": [GLIBC_X64, MUSL_X64],
    "linux arm64": [GLIBC_ARM64, MUSL_ARM64],
    "darwin x64": [MAC_X64],
    "darwin arm64": [MAC_ARM64],
  };
  const candidates = host[`${process.platform} ${process.arch}`] ?? [];

  test("matches this platform's header, glibc or musl", () => {
    expect(candidates.length).toBeGreaterThan(0);
    expect(candidates.some((c) => headerMismatches(header, c).length === 0)).toBe(true);
  });

  test("does not pass for the other platforms", () => {
    const others = [GLIBC_X64, GLIBC_ARM64, MUSL_X64, MUSL_ARM64, MAC_ARM64, MAC_X64].filter((c) => !candidates.includes(c));
    expect(others).toHaveLength(6 - candidates.length);
    for (const other of others) expect(headerMismatches(header, other).length).toBeGreaterThan(0);
  });

  test.skipIf(!(process.platform === "linux" && process.arch === "x64"))("on x86-64 Linux: machine 62 and an x86-64 loader", () => {
    expect(header).toMatchObject({ format: "elf", machine: 62 });
    expect(header.format === "elf" && header.interpreter).toMatch(/^\/lib(64)?\/ld-(linux-x86-64\.so\.2|musl-x86_64\.so\.1)$/);
  });
});

describe("synthetic ELF", () => {
  test("each Linux target is read back and matches only itself", () => {
    const all = [GLIBC_X64, GLIBC_ARM64, MUSL_X64, MUSL_ARM64];
    for (const want of all) {
      if (want.format !== "elf") throw new Error("ELF targets only");
      const header = readExecutableHeader(elf(want.machine, want.interpreter));
      expect(header).toEqual({ format: "elf", machine: want.machine, interpreter: want.interpreter });
      for (const other of all) expect(headerMismatches(header, other).length === 0).toBe(other === want);
    }
  });

  test("wrong CPU: the line names both machines", () => {
    const header = readExecutableHeader(elf(62, "/lib/ld-linux-aarch64.so.1"));
    expect(headerMismatches(header, GLIBC_ARM64)).toEqual(["ELF e_machine 62 (x86-64), expected 183 (aarch64)"]);
  });

  test("glibc loader where musl is expected (the same CPU)", () => {
    const header = readExecutableHeader(elf(183, "/lib/ld-linux-aarch64.so.1"));
    expect(headerMismatches(header, MUSL_ARM64)).toEqual(["ELF interpreter /lib/ld-linux-aarch64.so.1, expected /lib/ld-musl-aarch64.so.1"]);
  });

  test("a static executable has no loader, which is a mismatch too", () => {
    const header = readExecutableHeader(elf(62, null));
    expect(header).toEqual({ format: "elf", machine: 62, interpreter: null });
    expect(headerMismatches(header, GLIBC_X64)).toEqual(["ELF interpreter (none: static), expected /lib64/ld-linux-x86-64.so.2"]);
  });

  test("an ELF is not a Mach-O", () => {
    expect(headerMismatches(readExecutableHeader(elf(183, "/lib/ld-linux-aarch64.so.1")), MAC_ARM64)).toEqual(["format elf, expected mach-o"]);
  });

  test("32-bit, big-endian and truncated files are refused, not misread", () => {
    expect(() => readExecutableHeader(elf(62, GLIBC_X64.interpreter, (b) => (b[4] = 1)))).toThrow("ELF class 1");
    expect(() => readExecutableHeader(elf(62, GLIBC_X64.interpreter, (b) => (b[5] = 2)))).toThrow("little-endian");
    const whole = elf(62, "/lib64/ld-linux-x86-64.so.2");
    expect(() => readExecutableHeader(whole.subarray(0, 40))).toThrow(ExecutableHeaderError);
    expect(() => readExecutableHeader(whole.subarray(0, whole.length - 5))).toThrow("PT_INTERP");
  });
});

describe("synthetic Mach-O", () => {
  test("arm64 and x86_64 are told apart", () => {
    const arm = readExecutableHeader(machO(0x0100000c));
    expect(arm).toEqual({ format: "mach-o", cpuType: 0x0100000c });
    expect(headerMismatches(arm, MAC_ARM64)).toEqual([]);
    expect(headerMismatches(arm, MAC_X64)).toEqual(["Mach-O cputype 0x0100000c (arm64), expected 0x01000007 (x86_64)"]);
    expect(headerMismatches(readExecutableHeader(machO(0x01000007)), MAC_X64)).toEqual([]);
  });

  test("a Mach-O is not a Linux executable", () => {
    expect(headerMismatches(readExecutableHeader(machO(0x01000007)), GLIBC_X64)).toEqual(["format mach-o, expected elf"]);
  });

  test("universal (fat) binaries and 32-bit Mach-O are refused", () => {
    const fat = new Uint8Array([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2]);
    expect(() => readExecutableHeader(fat)).toThrow("first bytes ca fe ba be");
    const thin32 = machO(7);
    new DataView(thin32.buffer).setUint32(0, 0xfeedface, true);
    expect(() => readExecutableHeader(thin32)).toThrow(ExecutableHeaderError);
  });
});

test("a shell script is not an executable header", () => {
  expect(() => readExecutableHeader(new TextEncoder().encode("#!/bin/sh\nexec bun src/main.ts\n"))).toThrow("not a 64-bit ELF or Mach-O");
});

test("any bytes: a header or an ExecutableHeaderError, never another error", () => {
  const valid = elf(183, "/lib/ld-musl-aarch64.so.1");
  const mangled = fc.tuple(fc.integer({ min: 0, max: valid.length - 1 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: valid.length })).map(([at, value, keep]) => {
    const bytes = valid.slice(0, keep);
    if (at < bytes.length) bytes[at] = value;
    return bytes;
  });
  fc.assert(
    fc.property(fc.oneof(fc.uint8Array({ maxLength: 300 }), mangled), (bytes) => {
      try {
        readExecutableHeader(bytes);
      } catch (err) {
        expect(err).toBeInstanceOf(ExecutableHeaderError);
      }
    }),
    { numRuns: 2000 },
  );
});
