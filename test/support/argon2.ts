// argon2id PHC strings with chosen parameters (node:crypto's argon2, which Bun has), for hashes
// this build would not write: an older version's, another tool's, or one planted in a database.
// `forged` makes the string alone, for parameters no test should ever compute (2 GiB).

import { argon2Sync, randomBytes } from "node:crypto";

export type Argon2Params = { m: number; t: number; p: number; saltBytes?: number; hashBytes?: number };

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64").replace(/=+$/, "");

/** A real argon2id hash of `password` with these parameters: Bun.password.verify opens it. */
export function argon2id(password: string, { m, t, p, saltBytes = 16, hashBytes = 32 }: Argon2Params): string {
  const nonce = randomBytes(saltBytes);
  const tag = argon2Sync("argon2id", { message: password, nonce, parallelism: p, tagLength: hashBytes, memory: m, passes: t });
  return `$argon2id$v=19$m=${m},t=${t},p=${p}$${b64(nonce)}$${b64(tag)}`;
}

/** A well-formed argon2id string with these parameters and no password behind it (never computed). */
export function forged({ m, t, p, saltBytes = 16, hashBytes = 32 }: Argon2Params): string {
  return `$argon2id$v=19$m=${m},t=${t},p=${p}$${b64(new Uint8Array(saltBytes).fill(7))}$${b64(new Uint8Array(hashBytes).fill(9))}`;
}
