// SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed pseudo-random function made for short
// inputs, here the visitor key of a click (src/visits/visitor-id.ts). It runs on 32-bit halves of
// its 64-bit words, as JavaScript's integers allow, and reads strings as their bytes (Latin-1, or
// UTF-16LE when a character needs it) without encoding them first. Checked against the reference
// implementation's test vectors through test/support/siphash-reference.ts (test/unit/siphash.test.ts).

/** A 128-bit key as four 32-bit words: k0 = (k0hi, k0lo), k1 = (k1hi, k1lo), each little-endian from the key bytes. */
export type SipKey = readonly [k0lo: number, k0hi: number, k1lo: number, k1hi: number];

/** The key from 16 bytes (more are ignored). */
export function sipKey(bytes: Uint8Array): SipKey {
  const word = (at: number) => (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
  return [word(0), word(4), word(8), word(12)];
}

/**
 * SipHash-2-4 of a string, as 52 bits (the high 20 and the low 32 bits of the result): exactly
 * sipHashBytes over its Latin-1 bytes when every code unit is below 256 (the visitor key's input:
 * an id, an address and a digest; eight characters a word), else over its UTF-16LE bytes (four a
 * word), without making the bytes. The state lives in local variables of this one function (what
 * JavaScriptCore keeps in registers); test/support/siphash-reference.ts (the reference's form,
 * simpler to read) is the oracle it is tested against.
 */
export function sipHash52(key: SipKey, text: string): number {
  return sipHashText(key, text, false);
}

function sipHashText(key: SipKey, text: string, wide: boolean): number {
  let v0l = key[0] ^ 0x70736575, v0h = key[1] ^ 0x736f6d65;
  let v1l = key[2] ^ 0x6e646f6d, v1h = key[3] ^ 0x646f7261;
  let v2l = key[0] ^ 0x6e657261, v2h = key[1] ^ 0x6c796765;
  let v3l = key[2] ^ 0x79746573, v3h = key[3] ^ 0x74656462;
  const n = text.length;
  const perWord = wide ? 4 : 8;
  const whole = n - (n % perWord);
  const byteLength = wide ? n * 2 : n;
  let ml = 0, mh = 0, lo = 0, h = 0, l = 0, c = 0;
  // Every whole word, then the last one (the rest and the length), each compressed with 2 rounds;
  // then, as one more pass (i past the text), the finalization's 4 rounds.
  for (let i = 0; i <= whole + perWord; i += perWord) {
    const finalizing = i > whole;
    if (finalizing) {
      ml = mh = 0;
      v2l ^= 0xff;
    } else if (wide) {
      if (i < whole) {
        ml = text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16);
        mh = text.charCodeAt(i + 2) | (text.charCodeAt(i + 3) << 16);
      } else {
        ml = whole < n ? text.charCodeAt(whole) : 0;
        if (whole + 1 < n) ml |= text.charCodeAt(whole + 1) << 16;
        mh = (whole + 2 < n ? text.charCodeAt(whole + 2) : 0) | ((byteLength & 0xff) << 24);
      }
    } else if (i < whole) {
      const c0 = text.charCodeAt(i), c1 = text.charCodeAt(i + 1), c2 = text.charCodeAt(i + 2), c3 = text.charCodeAt(i + 3);
      const c4 = text.charCodeAt(i + 4), c5 = text.charCodeAt(i + 5), c6 = text.charCodeAt(i + 6), c7 = text.charCodeAt(i + 7);
      if ((c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7) > 0xff) return sipHashText(key, text, true); // not Latin-1: the whole text as UTF-16
      ml = c0 | (c1 << 8) | (c2 << 16) | (c3 << 24);
      mh = c4 | (c5 << 8) | (c6 << 16) | (c7 << 24);
    } else {
      ml = 0;
      mh = (byteLength & 0xff) << 24;
      for (let j = i; j < n; j++) {
        c = text.charCodeAt(j);
        if (c > 0xff) return sipHashText(key, text, true);
        if (j - i < 4) ml |= c << ((j - i) * 8);
        else mh |= c << ((j - i - 4) * 8);
      }
    }
    v3l ^= ml; v3h ^= mh;
    for (let r = finalizing ? 4 : 2; r > 0; r--) {
      lo = (v0l + v1l) | 0; v0h = (v0h + v1h + ((lo >>> 0) < (v0l >>> 0) ? 1 : 0)) | 0; v0l = lo;
      h = v1h; l = v1l; v1h = (h << 13) | (l >>> 19); v1l = (l << 13) | (h >>> 19); v1h ^= v0h; v1l ^= v0l;
      h = v0h; v0h = v0l; v0l = h;
      lo = (v2l + v3l) | 0; v2h = (v2h + v3h + ((lo >>> 0) < (v2l >>> 0) ? 1 : 0)) | 0; v2l = lo;
      h = v3h; l = v3l; v3h = (h << 16) | (l >>> 16); v3l = (l << 16) | (h >>> 16); v3h ^= v2h; v3l ^= v2l;
      lo = (v0l + v3l) | 0; v0h = (v0h + v3h + ((lo >>> 0) < (v0l >>> 0) ? 1 : 0)) | 0; v0l = lo;
      h = v3h; l = v3l; v3h = (h << 21) | (l >>> 11); v3l = (l << 21) | (h >>> 11); v3h ^= v0h; v3l ^= v0l;
      lo = (v2l + v1l) | 0; v2h = (v2h + v1h + ((lo >>> 0) < (v2l >>> 0) ? 1 : 0)) | 0; v2l = lo;
      h = v1h; l = v1l; v1h = (h << 17) | (l >>> 15); v1l = (l << 17) | (h >>> 15); v1h ^= v2h; v1l ^= v2l;
      h = v2h; v2h = v2l; v2l = h;
    }
    v0l ^= ml; v0h ^= mh;
  }
  return ((v0h ^ v1h ^ v2h ^ v3h) & 0xfffff) * 0x100000000 + ((v0l ^ v1l ^ v2l ^ v3l) >>> 0);
}
