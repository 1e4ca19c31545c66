// The systemd credential admin-key: read once from $CREDENTIALS_DIRECTORY, kept as its hash, and
// refused at start when it could be guessed.

import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CredentialError, readAdminCredential } from "../../src/auth/credential.ts";
import { generateKey, hashSecret } from "../../src/auth/keys.ts";

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function withCredential(content: string): Uint8Array | null {
  dir = mkdtempSync(join(tmpdir(), "shortener-cred-"));
  writeFileSync(join(dir, "admin-key"), content);
  return readAdminCredential(dir);
}

test("a generated key is accepted, surrounding whitespace aside; the answer is its hash", () => {
  const key = generateKey();
  expect(withCredential(`${key}\n`)).toEqual(hashSecret(key));
});

test("any other secret of at least 32 characters is accepted", () => {
  const secret = "correct-horse-battery-staple-2026";
  expect(secret.length).toBeGreaterThanOrEqual(32);
  expect(withCredential(secret)).toEqual(hashSecret(secret));
});

test.each([
  ["24 times a (guessable)", "a".repeat(24)],
  ["31 characters", "x".repeat(31)],
  ["a key cut short", generateKey().slice(0, 20)],
  ["two words", `${"a".repeat(20)} ${"b".repeat(20)}`],
  ["empty", "\n"],
])("%s is refused", (_, content) => {
  expect(() => withCredential(content)).toThrow(CredentialError);
});

test("no directory, or no file in it: no credential", () => {
  expect(readAdminCredential(undefined)).toBeNull();
  dir = mkdtempSync(join(tmpdir(), "shortener-cred-"));
  expect(readAdminCredential(dir)).toBeNull();
});
