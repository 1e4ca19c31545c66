// Which family an address written as text belongs to, answering exactly as node:net's isIP does
// (test/unit/ip-family.test.ts compares the two on hand-picked and generated inputs). Written here
// by character codes because node:net costs about half a MiB of heap in every thread that loads
// it, and the click thread and the recorder used it only for this (docs/performance.md: At rest).

import { parseIPv4 } from "./ipv4.ts";

/** 4 or 6 when `text` is an IPv4 or IPv6 address by isIP's rules (an IPv6 zone id "%eth0" allowed), else 0. */
export function ipFamily(text: string): 0 | 4 | 6 {
  if (parseIPv4(text) >= 0) return 4;
  return isIPv6(text) ? 6 : 0;
}

/**
 * Whether `text` is an IPv6 address in one of RFC 4291's text forms (section 2.2): groups of 1-4
 * hex digits joined by ":", eight of them, or fewer with one "::" standing for at least one group;
 * the last two groups may be written as a dotted quad (IPv4's rules, parseIPv4). After it, an
 * optional zone id (RFC 4007 section 11): "%" and one or more of the characters isIP takes there,
 * letters, digits, "-", "." and ":".
 */
export function isIPv6(text: string): boolean {
  const zone = text.indexOf("%");
  if (zone >= 0 && !isZoneId(text, zone + 1)) return false;
  const end = zone >= 0 ? zone : text.length;
  let i = 0;
  let groups = 0;
  let gap = false; // a "::" was read
  if (text.charCodeAt(0) === 58) {
    // a leading ":" is only the start of a leading "::"
    if (text.charCodeAt(1) !== 58) return false;
    gap = true;
    i = 2;
    if (i === end) return true; // "::" alone, the unspecified address
  }
  for (;;) {
    let j = i;
    while (j < end && isHexDigit(text.charCodeAt(j))) j++;
    if (j === i) return false; // an empty group: ":::", a trailing single ":", a stray character
    if (j < end && text.charCodeAt(j) === 46) {
      // "." : this group starts the dotted quad, which must end the address
      if (parseIPv4(text.slice(i, end)) < 0) return false;
      groups += 2;
      break;
    }
    if (j - i > 4) return false;
    groups++;
    if (j === end) break;
    if (text.charCodeAt(j) !== 58) return false;
    if (text.charCodeAt(j + 1) === 58) {
      if (gap) return false; // a second "::" would leave the gaps' sizes open
      gap = true;
      i = j + 2;
      if (i === end) break; // a trailing "::"
    } else {
      i = j + 1;
    }
  }
  return gap ? groups <= 7 : groups === 8;
}

function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

// A zone id from `start` to the end: at least one character, each a letter, digit, "-", "." or ":".
function isZoneId(text: string, start: number): boolean {
  if (start >= text.length) return false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const ok = (c >= 48 && c <= 58) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 46;
    if (!ok) return false;
  }
  return true;
}
