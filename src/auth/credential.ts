// An admin key handed over by systemd (LoadCredential=admin-key:/etc/shortener/admin-key): read
// once at start from $CREDENTIALS_DIRECTORY, kept only as its hash, never stored in the database.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { hashSecret } from "./keys.ts";

export const CREDENTIAL_NAME = "admin-key";
/** PostgreSQL's password, for a --db URL without one (LoadCredential=db-password:/etc/shortener/db-password). */
export const DB_PASSWORD_CREDENTIAL = "db-password";
/** The owner id of links created with the credential (no api_keys row has id 0). */
export const CREDENTIAL_KEY_ID = 0;
/** Short secrets could be guessed; a credential must be at least this long. */
export const MIN_CREDENTIAL_LENGTH = 24;

export class CredentialError extends Error {}

/** The credential's hash, null when there is none; throws CredentialError for an unusable file. */
export function readAdminCredential(credentialsDirectory: string | undefined): Uint8Array | null {
  if (!credentialsDirectory) return null;
  const path = join(credentialsDirectory, CREDENTIAL_NAME);
  if (!existsSync(path)) return null;
  const secret = readFileSync(path, "utf8").trim();
  if (secret.length < MIN_CREDENTIAL_LENGTH || /\s/.test(secret)) {
    throw new CredentialError(`credential ${CREDENTIAL_NAME}: must be one line of at least ${MIN_CREDENTIAL_LENGTH} characters without spaces (e.g. the output of \`shortener key generate\`)`);
  }
  return hashSecret(secret);
}

/** The database password systemd hands over, or null; the file's one line, without its newline. */
export function readDatabasePassword(credentialsDirectory: string | undefined): string | null {
  if (!credentialsDirectory) return null;
  const path = join(credentialsDirectory, DB_PASSWORD_CREDENTIAL);
  if (!existsSync(path)) return null;
  const password = readFileSync(path, "utf8").replace(/\r?\n$/, "");
  if (password === "") throw new CredentialError(`credential ${DB_PASSWORD_CREDENTIAL}: the file is empty`);
  return password;
}
