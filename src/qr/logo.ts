// The QR logo (--qr-logo; docs/sharing.md: QR codes by URL): a PNG read once at start, refused
// there with a clear message when it is missing, not a PNG or too big, so that no request finds out.

import { readFileSync } from "node:fs";
import { PNG } from "pngjs";
import { shrunk, type Rgba } from "./pixels.ts";

/** The largest logo file taken: it is embedded in every SVG answer as a data: URL. */
export const QR_LOGO_MAX_BYTES = 256 * 1024;
/** Kept at most this wide and high: the box it is drawn in is a fifth of at most 2048 pixels. */
const KEPT_SIDE = 512;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The file as given (for SVG), its pixels (for PNG), and a hash of it (for the ETag). */
export type QrLogo = { png: Uint8Array; pixels: Rgba; hash: string };

export class QrLogoError extends Error {}

/** The logo at `path`, or null without one; throws QrLogoError saying what is wrong with the file. */
export function readQrLogo(path: string | null): QrLogo | null {
  if (path === null) return null;
  let png: Uint8Array;
  try {
    png = readFileSync(path);
  } catch (err) {
    throw new QrLogoError(`--qr-logo ${path}: cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"})`);
  }
  return qrLogoOf(png, `--qr-logo ${path}`);
}

/** A logo from a file's bytes; `named` says which file in a refusal. */
export function qrLogoOf(png: Uint8Array, named: string): QrLogo {
  if (png.length > QR_LOGO_MAX_BYTES) throw new QrLogoError(`${named}: ${png.length} bytes; a QR logo may have at most ${QR_LOGO_MAX_BYTES} (256 KB)`);
  if (png.length < 8 || PNG_SIGNATURE.some((b, i) => png[i] !== b)) throw new QrLogoError(`${named}: not a PNG file (a QR logo must be a PNG)`);
  let image;
  try {
    image = PNG.sync.read(Buffer.from(png));
  } catch (err) {
    throw new QrLogoError(`${named}: not a readable PNG (${(err as Error).message})`);
  }
  const pixels: Rgba = { width: image.width, height: image.height, data: new Uint8Array(image.data) };
  const hash = new Bun.CryptoHasher("sha256").update(png).digest("hex").slice(0, 16);
  return { png, pixels: shrunk(pixels, KEPT_SIDE), hash };
}
