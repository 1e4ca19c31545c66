// The release table: each platform's name, Bun target, npm package and expected header must agree,
// since a slip there would build (and pass the header check for) the wrong thing consistently.

import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { RELEASE_TARGETS } from "../../scripts/lib/release-targets.ts";

const bunPackage = JSON.parse(readFileSync(resolve(import.meta.dir, "../../node_modules/bun/package.json"), "utf8")) as { version: string; optionalDependencies: Record<string, string> };

test("the six platforms the release promises, each once", () => {
  expect(RELEASE_TARGETS.map((t) => t.name).sort()).toEqual(["darwin-arm64", "darwin-x64", "linux-arm64", "linux-arm64-musl", "linux-x64", "linux-x64-musl"]);
});

test("each package is one the installed bun package lists, at its own version", () => {
  for (const t of RELEASE_TARGETS) expect(bunPackage.optionalDependencies[t.npmPackage]).toBe(bunPackage.version);
});

test("name, Bun target, package and header tell the same OS, CPU and C library", () => {
  for (const t of RELEASE_TARGETS) {
    const [os, cpu, libc = "glibc"] = t.name.split("-") as [string, string, string?];
    expect(t.bunTarget).toBe(`bun-${t.name}`);
    const npmCpu = cpu === "arm64" ? "aarch64" : "x64";
    expect(t.npmPackage).toBe(`@oven/bun-${os}-${npmCpu}${libc === "musl" ? "-musl" : ""}`);
    if (os === "darwin") {
      expect(t.header).toEqual({ format: "mach-o", cpuType: cpu === "arm64" ? 0x0100000c : 0x01000007 });
    } else {
      const loader = { glibc: { x64: "/lib64/ld-linux-x86-64.so.2", arm64: "/lib/ld-linux-aarch64.so.1" }, musl: { x64: "/lib/ld-musl-x86_64.so.1", arm64: "/lib/ld-musl-aarch64.so.1" } }[libc as "glibc" | "musl"][cpu as "x64" | "arm64"];
      expect(t.header).toEqual({ format: "elf", machine: cpu === "arm64" ? 183 : 62, interpreter: loader });
    }
  }
});

test("bytecode only for the two platforms CI runs (see release-targets.ts)", () => {
  expect(RELEASE_TARGETS.filter((t) => t.bytecode).map((t) => t.name).sort()).toEqual(["linux-arm64", "linux-x64"]);
});
