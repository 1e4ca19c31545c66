// The release's notes: the CHANGELOG.md entry of the tag's version, without its heading.
//   bun scripts/release-notes.ts v1.2.3 > notes.md
// Fails when the tag is not v<package.json version>, or the entry is missing or empty: a release is
// not published without saying what changed.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";

export function changelogEntry(changelog: string, version: string): string | null {
  const lines = changelog.split("\n");
  // "## 1.2.3 - 2026-12-01" or "## [1.2.3] - 2026-12-01", as Keep a Changelog writes it.
  const start = lines.findIndex((line) => new RegExp(`^## \\[?${version.replaceAll(".", "\\.")}\\]?(\\s|$)`).test(line));
  if (start === -1) return null;
  const end = lines.findIndex((line, i) => i > start && line.startsWith("## "));
  const body = lines.slice(start + 1, end === -1 ? undefined : end).join("\n").trim();
  return body === "" ? null : body;
}

if (import.meta.main) {
  const tag = Bun.argv[2] ?? "";
  const version = (JSON.parse(readFileSync(resolve(import.meta.dir, "../package.json"), "utf8")) as { version: string }).version;
  // The release workflow's first step: a wrong tag or a missing entry stops it before anything is built.
  if (tag !== `v${version}`) {
    console.error(`release-notes: tag ${tag || "(none)"} does not match package.json's version ${version} (expected v${version})`);
    process.exit(1);
  }
  const entry = changelogEntry(readFileSync(resolve(import.meta.dir, "../CHANGELOG.md"), "utf8"), version);
  if (entry === null) {
    console.error(`release-notes: CHANGELOG.md has no entry for ${version || "(no tag given)"}: move "Unreleased" under "## ${version} - <date>" first`);
    process.exit(1);
  }
  console.log(entry);
}
