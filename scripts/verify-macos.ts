// bun scripts/verify-macos.ts FILE...: checks each macOS executable's code signature offline
// (scripts/lib/codesign-verify.ts) and prints one line per file, "FILE: ok (...)" or
// "FILE: BAD (...): problems"; exits 1 if any is bad or unreadable. `npm run release` makes the
// same check in-process; the release workflow's Mac runs this (scripts/macos-resign.sh) beside
// `codesign --verify --strict`, which is the final word.

import { readFileSync } from "node:fs";
import { describeVerification, verifyCodeSignature } from "./lib/codesign-verify.ts";

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: bun scripts/verify-macos.ts FILE...");
  process.exit(2);
}
let bad = 0;
for (const file of files) {
  let line: string;
  try {
    const verification = verifyCodeSignature(readFileSync(file));
    if (!verification.ok) bad++;
    line = describeVerification(verification);
  } catch (err) {
    bad++;
    line = `BAD: ${err instanceof Error ? err.message : String(err)}`;
  }
  console.log(`${file}: ${line}`);
}
process.exit(bad > 0 ? 1 : 0);
