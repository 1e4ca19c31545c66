// IPv6 text as its eight 16-bit groups, and back (RFC 5952). The text is checked once (isIPv6,
// ip-family.ts), and validIPv6Groups reads text already accepted.

import { isIPv6 } from "./ip-family.ts";

/** The eight 16-bit groups of a valid IPv6 address (embedded dotted quad allowed), or null. */
export function ipv6Groups(a: string): number[] | null {
  if (a.includes("%") || !isIPv6(a)) return null;
  return validIPv6Groups(a);
}

/**
 * The groups of text isIPv6 has already accepted as IPv6 without a zone id (null if it is not one
 * after all), read by character codes: a new visitor's address is read once, without splitting.
 */
export function validIPv6Groups(a: string): number[] | null {
  const head: number[] = [];
  const tail: number[] = [];
  let side = head;
  let value = 0;
  let digits = 0;
  const length = a.length;
  for (let i = 0; i < length; i++) {
    const c = a.charCodeAt(i);
    if (c === 58) {
      // ":" ends a group; "::" switches to the groups after the gap
      if (digits > 0) side.push(value);
      else if (i > 0 && a.charCodeAt(i - 1) === 58) {
        if (side === tail) return null;
        side = tail;
      }
      value = 0;
      digits = 0;
    } else if (c === 46) {
      // an embedded dotted quad ends the address: its four octets are the last two groups
      const start = a.lastIndexOf(":") + 1;
      const quad = a.slice(start).split(".").map(Number);
      if (quad.length !== 4 || quad.some((o) => !(o >= 0 && o <= 255))) return null;
      side.push(quad[0]! * 256 + quad[1]!, quad[2]! * 256 + quad[3]!);
      digits = 0;
      break;
    } else {
      const hex = c <= 57 ? c - 48 : (c | 32) - 87;
      if (hex < 0 || hex > 15 || (c > 57 && (c | 32) < 97)) return null;
      value = value * 16 + hex;
      if (++digits > 4) return null;
    }
  }
  if (digits > 0) side.push(value);
  const zeros = 8 - head.length - tail.length;
  if (side === head ? zeros !== 0 : zeros < 0) return null;
  for (let i = 0; i < zeros; i++) head.push(0);
  for (const group of tail) head.push(group);
  return head;
}

/** RFC 5952: compress the longest (first on tie) run of two or more zero groups. */
export function formatIPv6(g: number[]): string {
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = (xs: number[]) => xs.map((x) => x.toString(16)).join(":");
  return best < 0 ? hex(g) : `${hex(g.slice(0, best))}::${hex(g.slice(best + bestLen))}`;
}
