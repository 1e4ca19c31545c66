// A QR code as PNG (docs/sharing.md: QR codes by URL): RGB pixels drawn a module row at a time
// (each row of pixels copied `scale` times), the logo laid over its cleared box, encoded by pngjs.

import { PNG } from "pngjs";
import type { Rgb } from "./colour.ts";
import { darkRuns, type QrLayout } from "./layout.ts";
import type { QrLogo } from "./logo.ts";
import { composite, fitted } from "./pixels.ts";

/** zlib's default: level 9 costs much more time for a few percent on these flat pictures. */
const DEFLATE_LEVEL = 6;

export function qrPng(layout: QrLayout, fg: Rgb, bg: Rgb, logo: QrLogo | null): Uint8Array {
  const { side, scale } = layout;
  const pixels = side * scale;
  const rowBytes = pixels * 3;
  const rgb = new Uint8Array(pixels * rowBytes);
  const light = new Uint8Array(rowBytes);
  for (let i = 0; i < rowBytes; i += 3) light.set(bg, i);
  const runs = [...darkRuns(layout)];
  let next = 0;
  for (let y = 0; y < side; y++) {
    const row = light.slice();
    while (next < runs.length && runs[next]!.y === y) {
      const run = runs[next++]!;
      for (let x = run.x * scale; x < (run.x + run.length) * scale; x++) row.set(fg, x * 3);
    }
    for (let line = 0; line < scale; line++) rgb.set(row, (y * scale + line) * rowBytes);
  }
  if (logo !== null && layout.logoBox !== null) {
    const { at, span } = layout.logoBox;
    const { image, dx, dy } = fitted(logo.pixels, span * scale);
    composite(rgb, pixels, image, at * scale + dx, at * scale + dy);
  }
  return PNG.sync.write({ width: pixels, height: pixels, data: Buffer.from(rgb.buffer) }, { colorType: 2, inputColorType: 2, inputHasAlpha: false, deflateLevel: DEFLATE_LEVEL, filterType: 2 });
}
