// Random strings for ids and secrets: crypto randomness, every symbol equally likely.

export type RandomBytes = (n: number) => Uint8Array;

export const cryptoRandomBytes: RandomBytes = (n) => crypto.getRandomValues(new Uint8Array(n));

/** `length` symbols of `alphabet`; rejection sampling keeps every symbol equally likely (no modulo bias). */
export function randomString(alphabet: string, length: number, randomBytes: RandomBytes = cryptoRandomBytes): string {
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= limit) continue;
      out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}
