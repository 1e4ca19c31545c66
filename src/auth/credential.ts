// An admin key handed over by systemd (LoadCredential=admin-key:/etc/shortener/admin-key): read
// once at start from $CREDENTIALS_DIRECTORY, kept only as its hash, never stored in the database.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { hashSecret, looksLikeKey } from "./keys.ts";

export const CREDENTIAL_NAME = "admin-key";
/** PostgreSQL's password, for a --db URL without one (LoadCredential=db-password:/etc/shortener/db-password). */
export const DB_PASSWORD_CREDENTIAL = "db-password";
/** The owner id of links created with the credential (no api_keys row has id 0). */
export const CREDENTIAL_KEY_ID = 0;
/** The credential's name where a key's would be (who is signed in, a link's owner). */
export const CREDENTIAL_PRINCIPAL_NAME = "credential:admin-key";
/**
 * Short secrets could be guessed: a credential must be a generated key (`shortener key generate`:
 * sk_ and 32 random letters and digits) or at least this long. Past the failed-attempt limit only
 * the generated format is looked at (src/http/auth.ts), so that is the form to use.
 */
export const MIN_CREDENTIAL_LENGTH = 32;

export class CredentialError extends Error {}

/** The credential's hash, null when there is none; throws CredentialError for an unusable file. */
export function readAdminCredential(credentialsDirectory: string | undefined): Uint8Array | null {
  if (!credentialsDirectory) return null;
  const path = join(credentialsDirectory, CREDENTIAL_NAME);
  if (!existsSync(path)) return null;
  const secret = readFileSync(path, "utf8").trim();
  if (/\s/.test(secret) || !(looksLikeKey(secret) || secret.length >= MIN_CREDENTIAL_LENGTH)) {
    throw new CredentialError(`credential ${CREDENTIAL_NAME}: must be the output of \`shortener key generate\`, or one line of at least ${MIN_CREDENTIAL_LENGTH} characters without spaces`);
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

/** The OpenID client secret's credential file (LoadCredential=oidc-client-secret:…). */
export const OIDC_SECRET_CREDENTIAL = "oidc-client-secret";

/**
 * The OpenID client's secret: the systemd credential, else SHORTENER_OIDC_CLIENT_SECRET; null for
 * a public client. Never a flag (a flag shows in `ps`), never logged.
 */
export function readOidcClientSecret(credentialsDirectory: string | undefined, env: Record<string, string | undefined>): string | null {
  const path = credentialsDirectory ? join(credentialsDirectory, OIDC_SECRET_CREDENTIAL) : null;
  if (path !== null && existsSync(path)) {
    const secret = readFileSync(path, "utf8").trim();
    if (secret === "") throw new CredentialError(`credential ${OIDC_SECRET_CREDENTIAL}: the file is empty`);
    return secret;
  }
  return env.SHORTENER_OIDC_CLIENT_SECRET?.trim() || null;
}
