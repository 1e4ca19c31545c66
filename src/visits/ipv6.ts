// IPv6 text as its eight 16-bit groups, and back (RFC 5952). isIP, a regular expression, is the
// costly part: it runs once per address, and validIPv6Groups reads text it has already accepted.

import { isIP } from "node:net";

/** The eight 16-bit groups of a valid IPv6 address (embedded dotted quad allowed), or null. */
export function ipv6Groups(a: string): number[] | null {
  if (isIP(a) !== 6 || a.includes("%")) return null;
  return validIPv6Groups(a);
}

/** The groups of text isIP has already accepted as IPv6 without a zone id (null if it is not one after all). */
export function validIPv6Groups(a: string): number[] | null {
  let s = a.toLowerCase();
  const lastColon = s.lastIndexOf(":");
  const tail = s.slice(lastColon + 1);
  if (tail.includes(".")) {
    const o = tail.split(".").map(Number) as [number, number, number, number];
    s = `${s.slice(0, lastColon + 1)}${((o[0] << 8) | o[1]).toString(16)}:${((o[2] << 8) | o[3]).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const words = (h: string | undefined) => (h ? h.split(":").map((x) => parseInt(x, 16)) : []);
  const head = words(halves[0]);
  const rest = words(halves[1]);
  const zeros = halves.length === 2 ? 8 - head.length - rest.length : 0;
  const groups = [...head, ...new Array<number>(Math.max(zeros, 0)).fill(0), ...rest];
  return groups.length === 8 && groups.every((x) => x >= 0 && x <= 0xffff) ? groups : null;
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
