// Reading a tar stream into entries: a .deb's data (`dpkg-deb --fsys-tarfile`, GNU format), and
// the image's own layers in the tests. Read rather than extracted to disk so that modes and owners
// come from the archive itself, not from who runs the build or their umask.

import type { EntryType, TarEntry } from "./tar.ts";

const BLOCK = 512;
const decoder = new TextDecoder();
const TYPES: Record<string, EntryType> = { "0": "file", "\u0000": "file", "7": "file", "1": "hardlink", "2": "symlink", "5": "dir" };

/** Every entry of the archive, with paths normalised (no "./", no trailing "/"; the root left out). */
export function readTar(archive: Uint8Array): TarEntry[] {
  const entries: TarEntry[] = [];
  let longName: string | null = null;
  let longLink: string | null = null;
  let pax: Record<string, string> = {};
  for (let at = 0; at + BLOCK <= archive.length; ) {
    const block = archive.subarray(at, at + BLOCK);
    if (block.every((b) => b === 0)) break; // end of archive
    const size = number(block.subarray(124, 136));
    const flag = String.fromCharCode(block[156]!);
    const data = archive.subarray(at + BLOCK, at + BLOCK + size);
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (flag === "L") { longName = cString(data); continue; } // GNU: the next entry's name
    if (flag === "K") { longLink = cString(data); continue; } // GNU: the next entry's link target
    if (flag === "x") { pax = paxRecords(data); continue; }
    if (flag === "g") continue; // global pax header: nothing the image keeps
    const type = TYPES[flag];
    const rawName = pax.path ?? longName ?? fullName(block);
    const rawLink = pax.linkpath ?? longLink ?? cString(block.subarray(157, 257));
    longName = longLink = null;
    pax = {};
    if (type === undefined) throw new Error(`tar: ${rawName} has type ${JSON.stringify(flag)}, which an image has no use for`);
    const path = normalise(rawName);
    if (path === "") continue;
    const entry: TarEntry = { path, type, mode: number(block.subarray(100, 108)) & 0o7777, uid: number(block.subarray(108, 116)), gid: number(block.subarray(116, 124)) };
    if (type === "file") entry.data = data;
    if (type === "symlink") entry.link = rawLink;
    if (type === "hardlink") entry.link = normalise(rawLink);
    entries.push(entry);
  }
  return entries;
}

function normalise(name: string): string {
  return name.replace(/^(\.\/|\/)+/, "").replace(/\/+$/, "").replace(/^\.$/, "");
}

function fullName(block: Uint8Array): string {
  const name = cString(block.subarray(0, 100));
  // Only POSIX ustar has a prefix field; GNU's "ustar  " keeps other things in those bytes.
  const posix = decoder.decode(block.subarray(257, 263)) === "ustar\u0000";
  const prefix = posix ? cString(block.subarray(345, 500)) : "";
  return prefix ? `${prefix}/${name}` : name;
}

function cString(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return decoder.decode(end === -1 ? bytes : bytes.subarray(0, end));
}

/** Octal text, or GNU's base-256 (high bit set) for values octal cannot hold. */
function number(field: Uint8Array): number {
  if ((field[0]! & 0x80) !== 0) {
    let value = field[0]! & 0x7f;
    for (const byte of field.subarray(1)) value = value * 256 + byte;
    return value;
  }
  const text = cString(field).trim();
  return text === "" ? 0 : parseInt(text, 8);
}

function paxRecords(data: Uint8Array): Record<string, string> {
  const records: Record<string, string> = {};
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space === -1) break;
    const length = Number(decoder.decode(data.subarray(at, space)));
    if (!Number.isInteger(length) || length <= 0) break;
    const record = decoder.decode(data.subarray(space + 1, at + length - 1)); // without the "\n"
    const eq = record.indexOf("=");
    records[record.slice(0, eq)] = record.slice(eq + 1);
    at += length;
  }
  return records;
}
