// Generated link ids: 7 crypto-random characters from an alphabet without look-alikes.

import { cryptoRandomBytes, randomString, type RandomBytes } from "../util/random.ts";

// No 0/O/o, 1/l/I: ids get read aloud and typed from paper. 56 symbols ^ 7 ≈ 1.7e12 ids.
export const ID_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz";
export const ID_LENGTH = 7;

/** A new random id. */
export function generateId(randomBytes: RandomBytes = cryptoRandomBytes): string {
  return randomString(ID_ALPHABET, ID_LENGTH, randomBytes);
}
