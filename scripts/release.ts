// npm run release: one executable per platform in dist/release/, shortener-<version>-<platform>,
// and SHA256SUMS for `sha256sum -c`. Offline once the target Buns are cached (.cache/bun-targets/,
// filled from npm); compiled exactly as `npm run build` compiles (scripts/lib/compile.ts).
// Bun embeds whatever executable it is given, so each output's header is checked against its target.

import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { IDENTIFIER, signAdHoc } from "./lib/codesign-adhoc.ts";
import { describeVerification, verifyCodeSignature } from "./lib/codesign-verify.ts";
import { compileService, prepareBuild } from "./lib/compile.ts";
import { headerMismatches, readExecutableHeaderFile } from "./lib/executable-header.ts";
import { RELEASE_TARGETS } from "./lib/release-targets.ts";
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

const started = performance.now();
// Whole folder anew: a file left from an earlier version or target must not ship beside this one.
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const stamp = await prepareBuild(root);
console.log(`release ${version} (${stamp.commit}, ${stamp.date}) with Bun ${bunVersion}`);

const built: { file: string; seconds: number; bytecode: boolean }[] = [];
for (const target of RELEASE_TARGETS) {
  const file = `shortener-${version}-${target.name}`;
  let executable: string;
  try {
    executable = targetBun(root, target.npmPackage, bunVersion, target.header);
  } catch (err) {
    fail(`${target.name}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const t0 = performance.now();
  // Compiled alone in a folder of its own: bun build also writes .map files beside the output
  // (the source map is embedded in the executable too), and only the executable ships.
  const staging = mkdtempSync(join(outDir, ".staging-"));
  const outfile = join(staging, "shortener");
  try {
    await compileService(root, { outfile, stamp, cross: { bunTarget: target.bunTarget, executable }, bytecode: target.bytecode });
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    fail(`${file}: bun build failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  let problems: string[];
  try {
    problems = headerMismatches(readExecutableHeaderFile(outfile), target.header);
  } catch (err) {
    problems = [err instanceof Error ? err.message : String(err)];
  }
  if (problems.length > 0) {
    rmSync(staging, { recursive: true, force: true });
    fail(`${file} is not a ${target.name} executable: ${problems.join("; ")}`);
  }
  // macOS: Bun leaves darwin-x64 with Bun's own signature, which no longer matches the file, and
  // macOS kills it at launch (issue #26). Both darwin files are signed ad hoc again, alike, and
  // checked as macOS will check them; one that does not pass is not shipped.
  if (target.header.format === "mach-o") {
    let signature = "";
    try {
      writeFileSync(outfile, signAdHoc(readFileSync(outfile), IDENTIFIER));
      const verification = verifyCodeSignature(readFileSync(outfile));
      problems = verification.problems;
      signature = describeVerification(verification);
    } catch (err) {
      problems = [err instanceof Error ? err.message : String(err)];
    }
    if (problems.length > 0) {
      rmSync(staging, { recursive: true, force: true });
      fail(`${file}: its ad-hoc code signature does not verify: ${problems.join("; ")}`);
    }
    console.log(`  ${file}: signed ad hoc, ${signature}`);
  }
  renameSync(outfile, join(outDir, file));
  rmSync(staging, { recursive: true, force: true });
  built.push({ file, seconds: (performance.now() - t0) / 1000, bytecode: target.bytecode });
}

// Two spaces between hash and name: the format sha256sum and shasum -a 256 both check.
const sums = built.map(({ file }) => `${new Bun.CryptoHasher("sha256").update(readFileSync(join(outDir, file))).digest("hex")}  ${file}\n`);
writeFileSync(join(outDir, "SHA256SUMS"), sums.join(""));

for (const { file, seconds, bytecode } of built) {
  const mib = statSync(join(outDir, file)).size / 1024 / 1024;
  console.log(`  ${file.padEnd(36)} ${mib.toFixed(1).padStart(6)} MiB  ${seconds.toFixed(1).padStart(5)} s  header ok${bytecode ? "" : "  (no bytecode)"}`);
}
console.log(`release: ${built.length} executables and SHA256SUMS in dist/release/ (${((performance.now() - started) / 1000).toFixed(1)} s)`);
