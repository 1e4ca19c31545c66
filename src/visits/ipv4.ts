// IPv4 text as a number, read by character codes: the recorder parses one address a click, and for
// a new visitor every time (node's isIP is a regular expression, then a second parse to match a
// range). The rules are exactly isIP's for IPv4: four decimal octets 0-255 joined by dots, no
// leading zeros, no sign, no spaces, nothing before or after (test/unit/ipv4.test.ts checks
// this against isIP on generated inputs).

/** The address as an unsigned 32-bit number, or -1 when `text` is not an IPv4 address by isIP's rules. */
export function parseIPv4(text: string): number {
  const length = text.length;
  if (length < 7 || length > 15) return -1;
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      // "."
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots++;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && octet === 0) return -1; // a leading zero: "01", "00"
      octet = octet * 10 + (c - 48);
      if (octet > 255) return -1;
      digits++;
    } else {
      return -1;
    }
  }
  if (digits === 0 || dots !== 3) return -1;
  return value * 256 + octet;
}

/** Dotted text of an unsigned 32-bit address. */
export function formatIPv4(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}

/** The last index whose start is at most `value` in ascending `starts` (starts[0] is 0, so always found), searched from `low` to `high`. */
export function rangeIndex(starts: Uint32Array, value: number, low = 0, high = starts.length - 1): number {
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (starts[middle]! <= value) low = middle;
    else high = middle - 1;
  }
  return low;
}
