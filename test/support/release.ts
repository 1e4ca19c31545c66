// What the suites that check release files share: the version they expect, the --version line a
// release build prints, where each file and each cached Bun runtime lies, and how a linux-arm64
// executable runs on this machine.

import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { RELEASE_TARGETS } from "../../scripts/lib/release-targets.ts";
import { CACHE_DIR, installedBunVersion } from "../../scripts/lib/target-bun.ts";

const ROOT = resolve(import.meta.dir, "../..");

export const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/** A regex's source for `shortener <VERSION> (<commit>[-dirty], built <date>)`, without anchors. */
export const VERSION_LINE = `shortener ${VERSION.replaceAll(".", "\\.")} \\([0-9a-f]{7,}(-dirty)?, built \\d{4}-\\d{2}-\\d{2}\\)`;

/** The release file for a platform ("linux-x64", "darwin-arm64", ...) in a release folder. */
export const releaseFile = (dir: string, platform: string) => join(dir, `shortener-${VERSION}-${platform}`);

export const DARWIN_TARGETS = RELEASE_TARGETS.filter((t) => t.header.format === "mach-o");

export const BUN_VERSION = installedBunVersion(ROOT);
/** Where `npm run release` caches a target's Bun runtime (scripts/lib/target-bun.ts); it may be absent. */
export const cachedBun = (npmPackage: string) => join(ROOT, CACHE_DIR, BUN_VERSION, npmPackage.replace("/", "+"), "bun");

/**
 * The command prefix that runs a linux-arm64 executable here: none on arm64, else Debian's
 * qemu-user-static with the arm64 glibc and libstdc++ of libc6-arm64-cross and
 * libstdc++6-arm64-cross as the guest's root for the loader and libraries.
 */
export const ARM64_RUN = process.arch === "arm64" ? [] : ["qemu-aarch64-static", "-L", "/usr/aarch64-linux-gnu"];
