// Generated link ids: 7 crypto-random characters from an alphabet without look-alikes.

// No 0/O/o, 1/l/I: ids get read aloud and typed from paper. 56 symbols ^ 7 ≈ 1.7e12 ids.
export const ID_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz";
export const ID_LENGTH = 7;

export type RandomBytes = (n: number) => Uint8Array;

export const cryptoRandomBytes: RandomBytes = (n) => crypto.getRandomValues(new Uint8Array(n));

/** A new random id; rejection sampling keeps every symbol equally likely (no modulo bias). */
export function generateId(randomBytes: RandomBytes = cryptoRandomBytes): string {
  const limit = 256 - (256 % ID_ALPHABET.length);
  let id = "";
  while (id.length < ID_LENGTH) {
    for (const byte of randomBytes(ID_LENGTH * 2)) {
      if (byte >= limit) continue;
      id += ID_ALPHABET[byte % ID_ALPHABET.length];
      if (id.length === ID_LENGTH) break;
    }
  }
  return id;
}
