// The release version, taken from package.json at build time so the binary knows it without the file,
// and what the build adds: the commit and the date, so a running binary can be traced to its source.
import pkg from "../package.json" with { type: "json" };

export const VERSION: string = pkg.version;

// Replaced by string literals through `bun build --define` (scripts/lib/compile.ts). Run from source
// they are not defined at all, hence the typeof checks rather than plain reads.
declare const SHORTENER_BUILD_COMMIT: string | undefined;
declare const SHORTENER_BUILD_DATE: string | undefined;

export type BuildStamp = { commit: string; date: string };

export const BUILD: BuildStamp | null =
  typeof SHORTENER_BUILD_COMMIT === "string" && typeof SHORTENER_BUILD_DATE === "string"
    ? { commit: SHORTENER_BUILD_COMMIT, date: SHORTENER_BUILD_DATE }
    : null;

/** `shortener 0.1.0 (abc1234, built 2026-11-23)`; run from source, `shortener 0.1.0 (from source, not built)`. */
export function versionLine(version: string = VERSION, build: BuildStamp | null = BUILD): string {
  return build ? `shortener ${version} (${build.commit}, built ${build.date})` : `shortener ${version} (from source, not built)`;
}
