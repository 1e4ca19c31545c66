// How a release's SHA256SUMS is signed and checked: an SSH signature (`ssh-keygen -Y`), because
// every Linux and macOS machine already has ssh-keygen to check it, nothing is fetched to do so,
// and the whole round trip runs offline here in a test. The namespace keeps a signature made for
// a release from being accepted for anything else signed with the same key, and the reverse.

import { join } from "node:path";

export const SIGNING_NAMESPACE = "shortener-release";
export const SIGNER_IDENTITY = "release@shortener";
export const SUMS_FILE = "SHA256SUMS";
export const SIGNATURE_FILE = "SHA256SUMS.sig";
/** The public half, as ssh-keygen's allowed-signers line; committed by the maintainer who made the key (docs/releasing.md). */
export const ALLOWED_SIGNERS = "deploy/release/allowed_signers";

/** One line of SHA256SUMS. Two spaces between hash and name: the format sha256sum and shasum -a 256 both check. */
export function sumsLine(name: string, bytes: Uint8Array): string {
  return `${new Bun.CryptoHasher("sha256").update(bytes).digest("hex")}  ${name}\n`;
}

/** Signs dir/SHA256SUMS with an OpenSSH private key file; writes dir/SHA256SUMS.sig. */
export function signSums(dir: string, keyFile: string): void {
  const run = Bun.spawnSync(["ssh-keygen", "-q", "-Y", "sign", "-f", keyFile, "-n", SIGNING_NAMESPACE, join(dir, SUMS_FILE)], { stdout: "pipe", stderr: "pipe" });
  // ssh-keygen's message, never the key: it names the file, not its content.
  if (run.exitCode !== 0) throw new Error(`ssh-keygen -Y sign failed: ${run.stderr.toString().trim()}`);
}

/** What docs/install.md tells users to run, from the folder holding the downloads. */
export function verifyCommand(allowedSigners: string): string[] {
  return ["ssh-keygen", "-Y", "verify", "-f", allowedSigners, "-I", SIGNER_IDENTITY, "-n", SIGNING_NAMESPACE, "-s", SIGNATURE_FILE];
}
