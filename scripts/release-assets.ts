// The files a release attaches, in one folder: every executable, .deb and other file of the given
// folders, SHA256SUMS over all of them, and SHA256SUMS.sig when a signing key is given. The release
// workflow calls it last, after the macOS executables come back re-signed, so the sums cover the
// bytes people download.
//
//   bun scripts/release-assets.ts --out dist/upload [--tag v0.1.0] [--sign-key FILE] [--allowed-signers FILE] DIR...
//
// --tag refuses a tag that is not v<package.json version>. The key may also come as the OpenSSH
// private key's text in RELEASE_SIGNING_KEY (the workflow's secret); it is written to a private
// temp file for ssh-keygen and removed, and never printed. --require-signature fails without a key.
// A signature is checked, as users check it, against deploy/release/allowed_signers (or the
// --allowed-signers file): a key that does not match the published public half fails the release.

import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ALLOWED_SIGNERS, signSums, SIGNATURE_FILE, SUMS_FILE, sumsLine, verifyCommand } from "./lib/release-signing.ts";

const root = resolve(import.meta.dir, "..");
const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;

function fail(message: string): never {
  console.error(`release-assets: ${message}`);
  process.exit(1);
}

const { values, positionals } = parseArgs({
  args: Bun.argv.slice(2),
  options: { out: { type: "string" }, tag: { type: "string" }, "sign-key": { type: "string" }, "allowed-signers": { type: "string" }, "require-signature": { type: "boolean" } },
  allowPositionals: true,
});
if (!values.out || positionals.length === 0) fail("usage: release-assets.ts --out DIR [--tag vX.Y.Z] [--sign-key FILE] [--require-signature] DIR...");
if (values.tag !== undefined && values.tag !== `v${version}`) fail(`tag ${values.tag} does not match package.json's version ${version} (expected v${version})`);

const out = resolve(values.out);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const names: string[] = [];
for (const dir of positionals) {
  if (!existsSync(dir)) fail(`${dir}: no such folder`);
  for (const name of readdirSync(dir).sort()) {
    const from = join(dir, name);
    // Each folder's own sums are replaced by the one list; hidden files are leftovers, not assets.
    if (name.startsWith(SUMS_FILE) || name.startsWith(".") || !statSync(from).isFile()) continue;
    if (names.includes(name)) fail(`${name} is in two of the folders`);
    copyFileSync(from, join(out, name));
    names.push(name);
  }
}
if (names.length === 0) fail("no files to release");
names.sort();
writeFileSync(join(out, SUMS_FILE), names.map((name) => sumsLine(name, readFileSync(join(out, name)))).join(""));

let keyFile = values["sign-key"];
if (keyFile === undefined && process.env.RELEASE_SIGNING_KEY) {
  const dir = mkdtempSync(join(tmpdir(), "release-key-"));
  // On every way out, fail()'s process.exit included (a finally block does not run then).
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  keyFile = join(dir, "key");
  writeFileSync(keyFile, process.env.RELEASE_SIGNING_KEY.trim() + "\n", { mode: 0o600 });
  chmodSync(keyFile, 0o600);
}
if (keyFile !== undefined) {
  try {
    signSums(out, keyFile);
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  // A signature nobody can check is worse than none: it must pass docs/install.md's own check against
  // the public half the repository publishes.
  const allowed = values["allowed-signers"] ?? join(root, ALLOWED_SIGNERS);
  if (!existsSync(allowed)) fail(`${allowed} is missing: commit the key's public half first (docs/releasing.md)`);
  const check = Bun.spawnSync(verifyCommand(resolve(allowed)), { cwd: out, stdin: readFileSync(join(out, SUMS_FILE)), stdout: "pipe", stderr: "pipe" });
  if (check.exitCode !== 0) fail(`the signature does not verify against ${allowed}: ${(check.stdout.toString() + check.stderr.toString()).trim()}`);
} else if (values["require-signature"]) fail("--require-signature: no --sign-key and no RELEASE_SIGNING_KEY");
console.log(`release-assets: ${names.length} files, ${SUMS_FILE}${keyFile !== undefined ? ` and ${SIGNATURE_FILE}` : " (unsigned)"} in ${basename(out)}/`);
