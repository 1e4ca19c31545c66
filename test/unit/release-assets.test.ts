// scripts/release-assets.ts and the check docs/install.md gives users: a throwaway key signs a release
// folder's SHA256SUMS, `ssh-keygen -Y verify` (docs/install.md's own command) accepts it, and refuses a
// changed list, another namespace's signature and another signer. Offline; ssh-keygen is Debian's.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SIGNER_IDENTITY, SIGNING_NAMESPACE, verifyCommand } from "../../scripts/lib/release-signing.ts";
import { VERSION } from "../support/release.ts";

const ROOT = resolve(import.meta.dir, "../..");

function run(cmd: string[], options: { cwd?: string; env?: Record<string, string>; stdin?: Uint8Array } = {}) {
  const r = Bun.spawnSync(cmd, { cwd: options.cwd, env: { PATH: process.env.PATH ?? "", ...options.env }, stdin: options.stdin, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

const assets = (args: string[], env: Record<string, string> = {}) => run([process.execPath, join(ROOT, "scripts/release-assets.ts"), ...args], { env });

describe("release assets: SHA256SUMS and its signature", () => {
  let dir: string;
  let key: string;
  let allowed: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "release-assets-"));
    key = join(dir, "key");
    expect(run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", SIGNER_IDENTITY, "-f", key]).code).toBe(0);
    // The line a maintainer commits as deploy/release/allowed_signers (docs/releasing.md).
    allowed = join(dir, "allowed_signers");
    writeFileSync(allowed, `${SIGNER_IDENTITY} namespaces="${SIGNING_NAMESPACE}" ${readFileSync(`${key}.pub`, "utf8").trim()}\n`);
    for (const [folder, name, content] of [["bin", `shortener-${VERSION}-linux-x64`, "elf"], ["bin", "SHA256SUMS", "old list"], ["deb", `shortener_${VERSION}-1_amd64.deb`, "deb"]] as const) {
      mkdirSync(join(dir, folder), { recursive: true });
      writeFileSync(join(dir, folder, name), content);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const verify = (folder: string, list = readFileSync(join(folder, "SHA256SUMS"))) => run(verifyCommand(allowed), { cwd: folder, stdin: list });

  test("every file of every folder, one list sha256sum -c accepts, and a signature docs/install.md's command accepts", () => {
    const out = join(dir, "upload");
    const r = assets(["--out", out, "--tag", `v${VERSION}`, "--sign-key", key, "--allowed-signers", allowed, join(dir, "bin"), join(dir, "deb")]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const lines = readFileSync(join(out, "SHA256SUMS"), "utf8").trim().split("\n");
    // The folders' own lists are replaced, not shipped.
    expect(lines.map((l) => l.split("  ")[1])).toEqual([`shortener-${VERSION}-linux-x64`, `shortener_${VERSION}-1_amd64.deb`]);
    expect(run(["sha256sum", "-c", "SHA256SUMS"], { cwd: out }).code).toBe(0);
    const ok = verify(out);
    expect(ok.out + ok.err).toContain(`Good "${SIGNING_NAMESPACE}" signature for ${SIGNER_IDENTITY}`);
    expect(ok.code).toBe(0);
    // The key's text never reaches the output.
    expect(r.out).not.toContain(readFileSync(key, "utf8").split("\n")[1]!.slice(0, 20));
  });

  test("a changed list fails the check", () => {
    const out = join(dir, "upload");
    const changed = Buffer.from(readFileSync(join(out, "SHA256SUMS"), "utf8").replace(/^./, (c) => (c === "0" ? "1" : "0")));
    expect(verify(out, changed).code).not.toBe(0);
  });

  test("a signature made for another purpose with the same key fails the check (the namespace)", () => {
    const out = join(dir, "other-namespace");
    mkdirSync(out);
    writeFileSync(join(out, "SHA256SUMS"), readFileSync(join(dir, "upload", "SHA256SUMS")));
    expect(run(["ssh-keygen", "-q", "-Y", "sign", "-f", key, "-n", "file", join(out, "SHA256SUMS")]).code).toBe(0);
    expect(verify(out).code).not.toBe(0);
  });

  test("the key may come as text in RELEASE_SIGNING_KEY (the workflow's secret); no copy of it is left, whether signing works or fails", () => {
    const tmp = join(dir, "tmp");
    mkdirSync(tmp);
    const ok = assets(["--out", join(dir, "from-env"), "--require-signature", "--allowed-signers", allowed, join(dir, "bin")], { RELEASE_SIGNING_KEY: readFileSync(key, "utf8"), TMPDIR: tmp });
    expect(ok.code).toBe(0);
    expect(verify(join(dir, "from-env")).code).toBe(0);
    const broken = assets(["--out", join(dir, "from-env-broken"), "--require-signature", "--allowed-signers", allowed, join(dir, "bin")], { RELEASE_SIGNING_KEY: "-----BEGIN OPENSSH PRIVATE KEY-----\nnot a key\n-----END OPENSSH PRIVATE KEY-----", TMPDIR: tmp });
    expect(broken.code).toBe(1);
    expect(broken.err).toContain("ssh-keygen -Y sign failed");
    expect(broken.err).not.toContain("not a key");
    expect(readdirSync(tmp)).toEqual([]);
  });

  test("a key whose public half is not the published one, or no published one: the release fails rather than ship a signature nobody can check", () => {
    const other = join(dir, "other-key");
    expect(run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "someone@else", "-f", other]).code).toBe(0);
    const wrong = assets(["--out", join(dir, "x-wrong"), "--sign-key", other, "--allowed-signers", allowed, join(dir, "bin")]);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain("does not verify");
    const none = assets(["--out", join(dir, "x-none"), "--sign-key", key, "--allowed-signers", join(dir, "no-such-file"), join(dir, "bin")]);
    expect(none.code).toBe(1);
    expect(none.err).toContain("commit the key's public half first");
  });

  test("refusals: a tag that is not the version, no key under --require-signature, a name in two folders", () => {
    const wrongTag = assets(["--out", join(dir, "x1"), "--tag", "v9.9.9", join(dir, "bin")]);
    expect(wrongTag.code).toBe(1);
    expect(wrongTag.err).toContain(`expected v${VERSION}`);
    const unsigned = assets(["--out", join(dir, "x2"), "--require-signature", join(dir, "bin")]);
    expect(unsigned.code).toBe(1);
    expect(unsigned.err).toContain("RELEASE_SIGNING_KEY");
    expect(existsSync(join(dir, "x2", "SHA256SUMS.sig"))).toBe(false);
    const twice = assets(["--out", join(dir, "x3"), join(dir, "bin"), join(dir, "bin")]);
    expect(twice.code).toBe(1);
    expect(twice.err).toContain("in two of the folders");
  });

  test("the verify command docs/install.md gives is the one checked here", () => {
    const install = readFileSync(join(ROOT, "docs/install.md"), "utf8");
    const command = `${verifyCommand("allowed_signers").join(" ")} < SHA256SUMS`;
    // A boolean, not toContain: a failure should print the command, not the whole page.
    expect({ command, inInstall: install.includes(command) }).toEqual({ command, inInstall: true });
  });
});

describe("release notes: the CHANGELOG entry of the tag's version", () => {
  const changelog = "# Changelog\n\n## Unreleased\n\n- next\n\n## [1.2.0] - 2026-12-01\n\n### Added\n- webhooks\n\n## 1.1.0 - 2026-11-01\n\n- first\n\n## 1.0.0\n";
  test("the entry between its heading and the next, in either heading style", async () => {
    const { changelogEntry } = await import("../../scripts/release-notes.ts");
    expect(changelogEntry(changelog, "1.2.0")).toBe("### Added\n- webhooks");
    expect(changelogEntry(changelog, "1.1.0")).toBe("- first");
    // 1.2 must not match 1.2.0's heading, nor an empty entry count as notes.
    expect(changelogEntry(changelog, "1.2")).toBeNull();
    expect(changelogEntry(changelog, "1.0.0")).toBeNull();
  });
  test("a tag that is not the version fails", () => {
    const wrong = run([process.execPath, join(ROOT, "scripts/release-notes.ts"), "v99.0.0"]);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain(`expected v${VERSION}`);
  });

  test("the tag of package.json's version prints that version's CHANGELOG entry", async () => {
    const { changelogEntry } = await import("../../scripts/release-notes.ts");
    const entry = changelogEntry(readFileSync(join(ROOT, "CHANGELOG.md"), "utf8"), VERSION);
    const r = run([process.execPath, join(ROOT, "scripts/release-notes.ts"), `v${VERSION}`]);
    // Between a version bump and its entry, the script must refuse; otherwise print the entry.
    expect({ code: r.code, out: r.out.trim() }).toEqual(entry === null ? { code: 1, out: "" } : { code: 0, out: entry });
  });
});
