// Hosts that name the machine a visitor's own client runs on, or no machine at all: a link to them
// sends each visitor to their own computer (or back into this service, where one browser visit
// counted 20 clicks). Private LAN ranges are not among them: homelabs link to their own services.

/** localhost, loopback (127/8, ::1), unspecified (0/8, ::) and link-local (169.254/16, fe80::/10), as the WHATWG parser writes hosts. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host.startsWith("[")) return isLocalIpv6(host.slice(1, -1));
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  return v4 !== null && isLocalIpv4(Number(v4[1]), Number(v4[2]));
}

function isLocalIpv4(a: number, b: number): boolean {
  return a === 127 || a === 0 || (a === 169 && b === 254);
}

function isLocalIpv6(address: string): boolean {
  const groups = expand(address);
  if (groups === null) return false;
  if ((groups[0]! & 0xffc0) === 0xfe80) return true; // link-local
  const upperZero = groups.slice(0, 5).every((g) => g === 0);
  // ::, ::1, and IPv4 inside IPv6 (::ffff:a.b.c.d mapped, ::a.b.c.d compatible): judged as the IPv4 address
  if (upperZero && (groups[5] === 0xffff || groups[5] === 0)) {
    if (groups[5] === 0 && groups[6] === 0) return groups[7]! <= 1;
    return isLocalIpv4(groups[6]! >> 8, groups[6]! & 0xff);
  }
  return false;
}

/** The eight 16-bit groups of an IPv6 address in hex notation (as the URL parser serializes it). */
function expand(address: string): number[] | null {
  const [head, tail] = address.split("::") as [string, string | undefined];
  const parse = (part: string | undefined) => (part === undefined || part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const front = parse(head);
  const back = parse(tail);
  const missing = 8 - front.length - back.length;
  if (missing < 0 || (tail === undefined && missing !== 0) || [...front, ...back].some((g) => !Number.isInteger(g))) return null;
  return [...front, ...Array(missing).fill(0), ...back];
}
