// The platforms a release ships: for each, Bun's --target name, the npm package holding that
// platform's bun executable, and the header its executables must have.

import type { ExpectedHeader } from "./executable-header.ts";

export type ReleaseTarget = {
  /** The file name's suffix: shortener-<version>-<name>. */
  name: string;
  bunTarget: string;
  npmPackage: string;
  header: ExpectedHeader;
  /** Whether to add --bytecode; see BYTECODE_VERIFIED. */
  bytecode: boolean;
};

const ELF_X64 = 62;
const ELF_AARCH64 = 183;
const MACH_X86_64 = 0x01000007;
const MACH_ARM64 = 0x0100000c;

// --bytecode precompiles the bundle with the building machine's Bun, not the target's. Bun has had
// reports of cross-built bytecode crashing at start (Bun issues 18416, another OS; 24144, musl).
// The cross-built linux-arm64 binary does use it (under qemu here: --version ~0.8 s with it, ~1.2 s
// without) and CI runs it, like the linux-x64 one; the musl and macOS builds cannot be run here or
// in CI, so they go without: a slower start (~95 vs ~200 ms measured on x64) beats an untested crash.
const BYTECODE_VERIFIED = new Set(["linux-x64", "linux-arm64"]);

const targets: Omit<ReleaseTarget, "bytecode">[] = [
  { name: "linux-x64", bunTarget: "bun-linux-x64", npmPackage: "@oven/bun-linux-x64", header: { format: "elf", machine: ELF_X64, interpreter: "/lib64/ld-linux-x86-64.so.2" } },
  { name: "linux-arm64", bunTarget: "bun-linux-arm64", npmPackage: "@oven/bun-linux-aarch64", header: { format: "elf", machine: ELF_AARCH64, interpreter: "/lib/ld-linux-aarch64.so.1" } },
  { name: "linux-x64-musl", bunTarget: "bun-linux-x64-musl", npmPackage: "@oven/bun-linux-x64-musl", header: { format: "elf", machine: ELF_X64, interpreter: "/lib/ld-musl-x86_64.so.1" } },
  { name: "linux-arm64-musl", bunTarget: "bun-linux-arm64-musl", npmPackage: "@oven/bun-linux-aarch64-musl", header: { format: "elf", machine: ELF_AARCH64, interpreter: "/lib/ld-musl-aarch64.so.1" } },
  { name: "darwin-arm64", bunTarget: "bun-darwin-arm64", npmPackage: "@oven/bun-darwin-aarch64", header: { format: "mach-o", cpuType: MACH_ARM64 } },
  { name: "darwin-x64", bunTarget: "bun-darwin-x64", npmPackage: "@oven/bun-darwin-x64", header: { format: "mach-o", cpuType: MACH_X86_64 } },
];

export const RELEASE_TARGETS: readonly ReleaseTarget[] = targets.map((t) => ({ ...t, bytecode: BYTECODE_VERIFIED.has(t.name) }));
