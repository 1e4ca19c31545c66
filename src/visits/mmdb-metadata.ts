// The build date of a MaxMind DB from the end of the file alone: its metadata map sits after a
// marker in the last few kilobytes. Used for the start-up line, so that the embedded database need
// not be read (17 MB of memory) until the first click that needs a country.

const KEY = Buffer.from("build_epoch");
/** How much of the file's end holds the metadata (MaxMind allows up to 128 KiB). */
export const METADATA_TAIL_BYTES = 128 * 1024;

/** The build_epoch of the metadata in `tail` (the file's last bytes), or null when it is not there. */
export function buildEpochFromTail(tail: Uint8Array): Date | null {
  const bytes = Buffer.from(tail.buffer, tail.byteOffset, tail.byteLength);
  const at = bytes.lastIndexOf(KEY);
  // The key is a UTF-8 string of 11 bytes: control byte 0b010_01011 just before it.
  if (at < 1 || bytes[at - 1] !== 0x4b) return null;
  let i = at + KEY.length;
  const control = bytes[i++]!;
  let type = control >> 5;
  if (type === 0) type = 7 + bytes[i++]!; // an extended type: uint64 is 9, uint32 is 6
  const size = control & 0x1f;
  if ((type !== 6 && type !== 9) || size > 8 || i + size > bytes.length) return null;
  let epoch = 0;
  for (let k = 0; k < size; k++) epoch = epoch * 256 + bytes[i + k]!;
  return new Date(epoch * 1000);
}
