// SipHash-2-4 as the reference implementation (https://github.com/veorq/SipHash) writes it, over
// bytes, with its state in module variables: simple to read, and the oracle that the fast string
// form in src/util/siphash.ts is tested against (test/unit/siphash.test.ts), itself checked
// against the reference test vectors.

import type { SipKey } from "../../src/util/siphash.ts";

// The state v0..v3, each as (hi, lo), kept in module variables: no allocation per call.
let v0h = 0, v0l = 0, v1h = 0, v1l = 0, v2h = 0, v2l = 0, v3h = 0, v3l = 0;

function init(k: SipKey): void {
  v0l = (k[0] ^ 0x70736575) >>> 0; v0h = (k[1] ^ 0x736f6d65) >>> 0; // "somepseu"
  v1l = (k[2] ^ 0x6e646f6d) >>> 0; v1h = (k[3] ^ 0x646f7261) >>> 0; // "dorandom"
  v2l = (k[0] ^ 0x6e657261) >>> 0; v2h = (k[1] ^ 0x6c796765) >>> 0; // "lygenera"
  v3l = (k[2] ^ 0x79746573) >>> 0; v3h = (k[3] ^ 0x74656462) >>> 0; // "tedbytes"
}

function round(): void {
  // v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32)
  let lo = (v0l + v1l) >>> 0;
  v0h = (v0h + v1h + (lo < v0l ? 1 : 0)) >>> 0;
  v0l = lo;
  let h = v1h, l = v1l;
  v1h = ((h << 13) | (l >>> 19)) >>> 0; v1l = ((l << 13) | (h >>> 19)) >>> 0;
  v1h = (v1h ^ v0h) >>> 0; v1l = (v1l ^ v0l) >>> 0;
  h = v0h; v0h = v0l; v0l = h;
  // v2 += v3; v3 = rotl(v3, 16); v3 ^= v2
  lo = (v2l + v3l) >>> 0;
  v2h = (v2h + v3h + (lo < v2l ? 1 : 0)) >>> 0;
  v2l = lo;
  h = v3h; l = v3l;
  v3h = ((h << 16) | (l >>> 16)) >>> 0; v3l = ((l << 16) | (h >>> 16)) >>> 0;
  v3h = (v3h ^ v2h) >>> 0; v3l = (v3l ^ v2l) >>> 0;
  // v0 += v3; v3 = rotl(v3, 21); v3 ^= v0
  lo = (v0l + v3l) >>> 0;
  v0h = (v0h + v3h + (lo < v0l ? 1 : 0)) >>> 0;
  v0l = lo;
  h = v3h; l = v3l;
  v3h = ((h << 21) | (l >>> 11)) >>> 0; v3l = ((l << 21) | (h >>> 11)) >>> 0;
  v3h = (v3h ^ v0h) >>> 0; v3l = (v3l ^ v0l) >>> 0;
  // v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32)
  lo = (v2l + v1l) >>> 0;
  v2h = (v2h + v1h + (lo < v2l ? 1 : 0)) >>> 0;
  v2l = lo;
  h = v1h; l = v1l;
  v1h = ((h << 17) | (l >>> 15)) >>> 0; v1l = ((l << 17) | (h >>> 15)) >>> 0;
  v1h = (v1h ^ v2h) >>> 0; v1l = (v1l ^ v2l) >>> 0;
  h = v2h; v2h = v2l; v2l = h;
}

function compress(hi: number, lo: number): void {
  v3h = (v3h ^ hi) >>> 0; v3l = (v3l ^ lo) >>> 0;
  round();
  round();
  v0h = (v0h ^ hi) >>> 0; v0l = (v0l ^ lo) >>> 0;
}

/** SipHash-2-4 of bytes; the 64-bit result as [hi, lo] 32-bit words (for the test vectors). */
export function sipHashBytes(key: SipKey, bytes: Uint8Array): [hi: number, lo: number] {
  init(key);
  const whole = bytes.length & ~7;
  for (let i = 0; i < whole; i += 8) {
    const lo = (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)) >>> 0;
    const hi = (bytes[i + 4]! | (bytes[i + 5]! << 8) | (bytes[i + 6]! << 16) | (bytes[i + 7]! << 24)) >>> 0;
    compress(hi, lo);
  }
  let lo = 0;
  let hi = 0;
  for (let i = whole; i < bytes.length; i++) {
    const shift = (i - whole) * 8;
    if (shift < 32) lo |= bytes[i]! << shift;
    else hi |= bytes[i]! << (shift - 32);
  }
  compress(((bytes.length & 0xff) << 24 | hi) >>> 0, lo >>> 0);
  v2l = (v2l ^ 0xff) >>> 0;
  round(); round(); round(); round();
  return [(v0h ^ v1h ^ v2h ^ v3h) >>> 0, (v0l ^ v1l ^ v2l ^ v3l) >>> 0];
}
