// npm run release: one executable per platform in dist/release/, shortener-<version>-<platform>,
// and SHA256SUMS for `sha256sum -c`. Offline once the target Buns are cached (.cache/bun-targets/,
// filled from npm); compiled exactly as `npm run build` compiles (scripts/lib/compile.ts).
// Bun embeds whatever executable it is given, so each output's header is checked against its target.

import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { IDENTIFIER, signAdHoc } from "./lib/codesign-adhoc.ts";
import { describeVerification, verifyCodeSignature } from "./lib/codesign-verify.ts";
import { compileService, prepareBuild } from "./lib/compile.ts";
import { HEADER_BYTES, headerMismatches, readExecutableHeader } from "./lib/executable-header.ts";
import { RELEASE_TARGETS } from "./lib/release-targets.ts";
import { SUMS_FILE, sumsLine } from "./lib/release-signing.ts";
import { installedBunVersion, targetBun } from "./lib/target-bun.ts";

const root = resolve(import.meta.dir, "..");
const outDir = join(root, "dist/release");
const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
const bunVersion = installedBunVersion(root);

function fail(message: string): never {
  // Nothing half-made stays behind to be uploaded by mistake.
  rmSync(outDir, { recursive: true, force: true });
  console.error(`release FAILED: ${message}`);
  process.exit(1);
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
/** What check() finds wrong, or the error it threw as the one problem. */
function problemsOf(check: () => string[]): string[] {
  try {
    return check();
  } catch (err) {
    return [message(err)];
  }
}

const started = performance.now();
// Whole folder anew: a file left from an earlier version or target must not ship beside this one.
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const stamp = await prepareBuild(root);
console.log(`release ${version} (${stamp.commit}, ${stamp.date}) with Bun ${bunVersion}`);

// Each output is read once: its header check, its signature and its SHA256SUMS line come from
// those bytes. fail() needs no cleanup of a staging folder: it lies inside outDir.
const built: { file: string; seconds: number; bytecode: boolean; size: number; sum: string }[] = [];
for (const target of RELEASE_TARGETS) {
  const file = `shortener-${version}-${target.name}`;
  let executable: string;
  try {
    executable = targetBun(root, target.npmPackage, bunVersion, target.header);
  } catch (err) {
    fail(`${target.name}: ${message(err)}`);
  }
  const t0 = performance.now();
  // Compiled alone in a folder of its own: bun build also writes .map files beside the output
  // (the source map is embedded in the executable too), and only the executable ships.
  const staging = mkdtempSync(join(outDir, ".staging-"));
  const outfile = join(staging, "shortener");
  try {
    await compileService(root, { outfile, stamp, cross: { bunTarget: target.bunTarget, executable }, bytecode: target.bytecode });
  } catch (err) {
    fail(`${file}: bun build failed: ${message(err)}`);
  }
  let bytes: Uint8Array = new Uint8Array();
  const problems = problemsOf(() => {
    bytes = readFileSync(outfile);
    return headerMismatches(readExecutableHeader(bytes.subarray(0, HEADER_BYTES)), target.header);
  });
  if (problems.length > 0) fail(`${file} is not a ${target.name} executable: ${problems.join("; ")}`);
  // macOS: Bun leaves darwin-x64 with Bun's own signature, which no longer matches the file, and
  // macOS kills it at launch (issue #26). Both darwin files are signed ad hoc again, alike, and
  // checked as macOS will check them; one that does not pass is not shipped.
  if (target.header.format === "mach-o") {
    let signature = "";
    const unsigned = problemsOf(() => {
      bytes = signAdHoc(bytes, IDENTIFIER);
      writeFileSync(outfile, bytes);
      const verification = verifyCodeSignature(bytes);
      signature = describeVerification(verification);
      return verification.problems;
    });
    if (unsigned.length > 0) fail(`${file}: its ad-hoc code signature does not verify: ${unsigned.join("; ")}`);
    console.log(`  ${file}: signed ad hoc, ${signature}`);
  }
  renameSync(outfile, join(outDir, file));
  rmSync(staging, { recursive: true, force: true });
  built.push({ file, seconds: (performance.now() - t0) / 1000, bytecode: target.bytecode, size: bytes.length, sum: sumsLine(file, bytes) });
}

writeFileSync(join(outDir, SUMS_FILE), built.map(({ sum }) => sum).join(""));

for (const { file, seconds, bytecode, size } of built) {
  const mib = size / 1024 / 1024;
  console.log(`  ${file.padEnd(36)} ${mib.toFixed(1).padStart(6)} MiB  ${seconds.toFixed(1).padStart(5)} s  header ok${bytecode ? "" : "  (no bytecode)"}`);
}
console.log(`release: ${built.length} executables and SHA256SUMS in dist/release/ (${((performance.now() - started) / 1000).toFixed(1)} s)`);
