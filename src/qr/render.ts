// A link's QR code, drawn (docs/sharing.md: QR codes by URL): the short URL's modules at the
// options' level, laid out in whole pixels, as PNG or SVG; and the ETag that names the drawing.

import { layoutOf } from "./layout.ts";
import type { QrLogo } from "./logo.ts";
import { qrMatrix } from "./matrix.ts";
import { optionsKey, type QrOptions } from "./options.ts";
import { qrPng } from "./png.ts";
import { qrSvg } from "./svg.ts";

/** Changed whenever the same options would draw another picture: caches must not keep the old one. */
export const QR_RENDERER_VERSION = "1";

export type QrPicture = { body: Uint8Array | string; contentType: string };

const SVG_TYPE = "image/svg+xml; charset=utf-8";

/** The picture, or "too_small" when `size` leaves a module under one pixel (a long URL at a small size). */
export function renderQr(shortUrl: string, options: QrOptions, logo: QrLogo | null): QrPicture | { tooSmall: number } {
  const drawn = options.logo ? logo : null;
  const matrix = qrMatrix(shortUrl, options.level);
  const layout = layoutOf(matrix, options.size, options.margin, drawn !== null);
  if (layout === null) return { tooSmall: matrix.size + 2 * options.margin };
  if (options.format === "svg") return { body: qrSvg(layout, options.fg, options.bg, drawn), contentType: SVG_TYPE };
  return { body: qrPng(layout, options.fg, options.bg, drawn), contentType: "image/png" };
}

/** What renderQr would answer, without drawing (a HEAD): the content type, or tooSmall. The modules only, no pixels. */
export function qrHead(shortUrl: string, options: QrOptions, logo: QrLogo | null): { contentType: string } | { tooSmall: number } {
  const matrix = qrMatrix(shortUrl, options.level);
  if (layoutOf(matrix, options.size, options.margin, options.logo && logo !== null) === null) return { tooSmall: matrix.size + 2 * options.margin };
  return { contentType: options.format === "svg" ? SVG_TYPE : "image/png" };
}

/** A strong ETag over what the picture is drawn from: the renderer, the text, the options, the logo. */
export function qrEtag(shortUrl: string, options: QrOptions, logo: QrLogo | null): string {
  const logoHash = options.logo && logo !== null ? logo.hash : "-";
  const text = `${QR_RENDERER_VERSION}\n${shortUrl}\n${optionsKey(options)}\n${logoHash}`;
  return `"qr-${new Bun.CryptoHasher("sha256").update(text).digest("hex").slice(0, 32)}"`;
}
