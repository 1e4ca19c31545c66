// Writing a tar archive whose bytes depend only on its entries: no clock, no user names, no
// atime/ctime, no file system order. Our own writer rather than GNU tar, whose output changes
// with its version and flags (and which macOS does not ship). POSIX ustar, with a pax record
// only for a path that does not fit (none of the image's does today).

export type EntryType = "file" | "dir" | "symlink" | "hardlink";

/** One file system object: path without a leading "./" or "/", nor a trailing "/". */
export type TarEntry = {
  path: string;
  type: EntryType;
  /** Permission bits, setuid/setgid/sticky included (0o1777 for /tmp). */
  mode: number;
  uid: number;
  gid: number;
  /** The content of a file. */
  data?: Uint8Array;
  /** Where a symlink points (as written), or the path a hardlink repeats. */
  link?: string;
};

/** Path order, byte by byte (not by UTF-16 unit, as a plain string sort would be): the layer's order. */
export function byPath(a: TarEntry, b: TarEntry): number {
  return Buffer.compare(Buffer.from(a.path), Buffer.from(b.path));
}

const BLOCK = 512;
const TYPE_FLAG: Record<EntryType, string> = { file: "0", hardlink: "1", symlink: "2", dir: "5" };
const encoder = new TextEncoder();

/** The archive of entries in the order given, every one stamped with mtime (seconds). */
export function writeTar(entries: readonly TarEntry[], mtime: number): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const entry of entries) {
    const name = entry.type === "dir" ? `${entry.path}/` : entry.path;
    const data = entry.type === "file" ? (entry.data ?? new Uint8Array(0)) : new Uint8Array(0);
    const split = splitName(name);
    const link = entry.link ?? "";
    const pax: [string, string][] = [];
    if (split === null) pax.push(["path", name]);
    if (encoder.encode(link).length > 100) pax.push(["linkpath", link]);
    if (pax.length > 0) {
      // Named after the entry, as GNU tar names them, so that a reader without pax support
      // still writes the data somewhere recognisable.
      const records = encoder.encode(pax.map(([k, v]) => paxRecord(k, v)).join(""));
      parts.push(header({ name: `PaxHeaders/${basename(name).slice(0, 80)}`, prefix: "", mode: 0o644, uid: 0, gid: 0, size: records.length, mtime, type: "x", link: "" }));
      parts.push(records, padding(records.length));
    }
    const { prefix, rest } = split ?? { prefix: "", rest: basename(name).slice(0, 100) };
    parts.push(header({ name: rest, prefix, mode: entry.mode, uid: entry.uid, gid: entry.gid, size: data.length, mtime, type: TYPE_FLAG[entry.type], link: link.slice(0, 100) }));
    if (data.length > 0) parts.push(data, padding(data.length));
  }
  parts.push(new Uint8Array(2 * BLOCK)); // end of archive
  return concat(parts);
}

type Header = { name: string; prefix: string; mode: number; uid: number; gid: number; size: number; mtime: number; type: string; link: string };

function header(h: Header): Uint8Array {
  const block = new Uint8Array(BLOCK);
  put(block, 0, 100, h.name);
  octal(block, 100, 8, h.mode & 0o7777);
  octal(block, 108, 8, h.uid);
  octal(block, 116, 8, h.gid);
  octal(block, 124, 12, h.size);
  octal(block, 136, 12, h.mtime);
  block.fill(0x20, 148, 156); // the checksum counts its own field as spaces
  put(block, 156, 1, h.type);
  put(block, 157, 100, h.link);
  put(block, 257, 8, "ustar\u000000");
  // uname and gname stay empty: numeric owners only, as --numeric-owner writes them.
  put(block, 345, 155, h.prefix);
  let sum = 0;
  for (const byte of block) sum += byte;
  put(block, 148, 8, `${sum.toString(8).padStart(6, "0")}\u0000 `);
  return block;
}

/** ustar's name (100 bytes) and prefix (155 bytes), split at a "/"; null when no split fits. */
function splitName(name: string): { prefix: string; rest: string } | null {
  if (encoder.encode(name).length <= 100) return { prefix: "", rest: name };
  const body = name.endsWith("/") ? name.slice(0, -1) : name;
  for (let i = body.indexOf("/"); i !== -1; i = body.indexOf("/", i + 1)) {
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (encoder.encode(prefix).length <= 155 && encoder.encode(rest).length <= 100) return { prefix, rest };
  }
  return null;
}

/** "<length> key=value\n", where length counts the whole record, its own digits included. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bodyLength = encoder.encode(body).length;
  let length = bodyLength + 1;
  while (bodyLength + String(length).length !== length) length = bodyLength + String(length).length;
  return `${length}${body}`;
}

function put(block: Uint8Array, offset: number, size: number, text: string): void {
  const bytes = encoder.encode(text);
  if (bytes.length > size) throw new Error(`tar header field of ${size} bytes cannot hold ${JSON.stringify(text)}`);
  block.set(bytes, offset);
}

function octal(block: Uint8Array, offset: number, size: number, value: number): void {
  const digits = value.toString(8).padStart(size - 1, "0");
  if (digits.length > size - 1) throw new Error(`tar header: ${value} does not fit ${size - 1} octal digits`);
  put(block, offset, size, `${digits}\u0000`);
}

function padding(length: number): Uint8Array {
  return new Uint8Array((BLOCK - (length % BLOCK)) % BLOCK);
}

function basename(name: string): string {
  const body = name.endsWith("/") ? name.slice(0, -1) : name;
  return body.slice(body.lastIndexOf("/") + 1);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
