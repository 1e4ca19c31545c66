// A QR code as PNG (docs/sharing.md: QR codes by URL), encoded here rather than by pngjs's writer:
// a module is `scale` identical pixel rows, and PNG's "Up" filter makes every repeat a row of
// zeros, which deflate takes in no time. pngjs's writer packs and filters each pixel in JavaScript:
// about 3x the time at 600 and at 2048 pixels (measured side by side, alternating), on the main thread.

import { deflateSync } from "node:zlib";
import type { Rgb } from "./colour.ts";
import { darkRuns, type QrLayout } from "./layout.ts";
import type { QrLogo } from "./logo.ts";
import { compositeRow, fitted, type Rgba } from "./pixels.ts";

const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const FILTER_NONE = 0;
const FILTER_UP = 2;

export function qrPng(layout: QrLayout, fg: Rgb, bg: Rgb, logo: QrLogo | null): Uint8Array {
  const { side, scale } = layout;
  const pixels = side * scale;
  const rowBytes = pixels * 3;
  const stride = rowBytes + 1;
  // Scanlines, each its filter byte first; zero-filled, so an Up-filtered repeat is already written.
  const raw = new Uint8Array(pixels * stride);
  const overlay = logoOverlay(layout, logo);
  const light = new Uint8Array(rowBytes);
  for (let i = 0; i < rowBytes; i += 3) light.set(bg, i);
  const runs = [...darkRuns(layout)];
  let next = 0;
  let previousPlain = false;
  for (let y = 0; y < side; y++) {
    const row = light.slice();
    while (next < runs.length && runs[next]!.y === y) {
      const run = runs[next++]!;
      for (let x = run.x * scale; x < (run.x + run.length) * scale; x++) row.set(fg, x * 3);
    }
    for (let line = 0; line < scale; line++) {
      const py = y * scale + line;
      const under = overlay !== null && py >= overlay.top && py < overlay.top + overlay.image.height;
      // The same pixels as the scanline above: Up, all zeros.
      if (line > 0 && !under && previousPlain) {
        raw[py * stride] = FILTER_UP;
        continue;
      }
      raw[py * stride] = FILTER_NONE;
      raw.set(row, py * stride + 1);
      if (under) compositeRow(raw.subarray(py * stride + 1, (py + 1) * stride), overlay.image, overlay.left, py - overlay.top);
      previousPlain = !under;
    }
  }
  return pngFile(pixels, deflateSync(raw, { level: 6 }));
}

/** The logo fitted into its box, and where its pixels start; null without one. */
function logoOverlay(layout: QrLayout, logo: QrLogo | null): { image: Rgba; left: number; top: number } | null {
  if (logo === null || layout.logoBox === null) return null;
  const { at, span } = layout.logoBox;
  const { image, dx, dy } = fitted(logo.pixels, span * layout.scale);
  return { image, left: at * layout.scale + dx, top: at * layout.scale + dy };
}

/** A PNG of a `side`-pixel square, 8-bit RGB, from its compressed scanlines (PNG spec §5, §11.2). */
function pngFile(side: number, idat: Uint8Array): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, side);
  view.setUint32(4, side);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type 2 (RGB), deflate, adaptive filters, no interlace
  return Buffer.concat([SIGNATURE, chunk("IHDR", header), chunk("IDAT", idat), chunk("IEND", new Uint8Array(0))]);
}

/** length, type, data, CRC-32 of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, Bun.hash.crc32(out.subarray(4, 8 + data.length)));
  return out;
}
