// `shortener --version`: the line it prints, and the stamp a build puts in it.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BUILD, VERSION, versionLine } from "../../src/version.ts";
import { readBuildStamp, stampDefines } from "../../scripts/lib/build-stamp.ts";

const ROOT = resolve(import.meta.dir, "../..");

describe("version line", () => {
  test("a build names its commit and date", () => {
    expect(versionLine("1.2.3", { commit: "abc1234", date: "2026-11-23" })).toBe("shortener 1.2.3 (abc1234, built 2026-11-23)");
  });

  test("run from source (as under bun test) there is no stamp, and the line says so", () => {
    expect(BUILD).toBeNull();
    expect(versionLine()).toBe(`shortener ${VERSION} (from source, not built)`);
    expect(versionLine()).toMatch(/^shortener \d+\.\d+\.\d+ /);
  });
});

describe("build stamp", () => {
  test("in this checkout: its short commit (unknown in a source tarball), and SOURCE_DATE_EPOCH sets the date", () => {
    const stamp = readBuildStamp(ROOT, { SOURCE_DATE_EPOCH: "1795392000" });
    const head = Bun.spawnSync(["git", "rev-parse", "--short=7", "HEAD"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    expect(stamp.commit).toMatch(head.exitCode === 0 ? new RegExp(`^${head.stdout.toString().trim()}(-dirty)?$`) : /^unknown$/);
    expect(stamp.date).toBe("2026-11-23");
  });

  test("the date is the clock's, in UTC, without SOURCE_DATE_EPOCH", () => {
    expect(readBuildStamp(ROOT, {}, new Date("2026-01-02T23:59:59-05:00")).date).toBe("2026-01-03");
  });

  test("outside a git checkout the commit is unknown", () => {
    const dir = mkdtempSync(join(tmpdir(), "shortener-nogit-"));
    try {
      expect(readBuildStamp(dir, {}).commit).toBe("unknown");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("defines are JS string literals for the identifiers src/version.ts reads", () => {
    expect(stampDefines({ commit: "abc1234", date: "2026-11-23" })).toEqual([
      "--define", 'SHORTENER_BUILD_COMMIT="abc1234"',
      "--define", 'SHORTENER_BUILD_DATE="2026-11-23"',
    ]);
  });
});
