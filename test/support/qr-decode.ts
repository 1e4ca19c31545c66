// Reading QR codes back in tests: a PNG through pngjs, our own SVG by rasterising its one <path>
// (src/qr/svg.ts draws rectangles `M x yhWv1h-Wz` in a viewBox of modules), both decoded by jsqr.

import jsQR from "jsqr";
import { PNG } from "pngjs";

export type Decoded = { text: string | null; width: number; height: number; rgba: Uint8Array };

export function decodePng(png: Uint8Array): Decoded {
  const image = PNG.sync.read(Buffer.from(png));
  const rgba = new Uint8Array(image.data);
  return { text: decodeRgba(rgba, image.width, image.height), width: image.width, height: image.height, rgba };
}

export function decodeRgba(rgba: Uint8Array, width: number, height: number): string | null {
  const found = jsQR(new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.length), width, height, { inversionAttempts: "dontInvert" });
  return found === null ? null : found.data;
}

/** Our SVG drawn at `scale` pixels per module: the background rect, then the path's rectangles (an <image> is left out). */
export function decodeSvg(svg: string, scale = 4): Decoded {
  const side = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const bg = hexRgb(/<rect [^>]*fill="#([0-9a-f]{6})"/.exec(svg)?.[1]);
  const fg = hexRgb(/<path fill="#([0-9a-f]{6})"/.exec(svg)?.[1]);
  const d = /<path [^>]*d="([^"]*)"/.exec(svg)?.[1] ?? "";
  const px = side * scale;
  const rgba = new Uint8Array(px * px * 4);
  const paint = (x0: number, y0: number, w: number, h: number, c: number[]) => {
    for (let y = y0 * scale; y < (y0 + h) * scale; y++) for (let x = x0 * scale; x < (x0 + w) * scale; x++) rgba.set([c[0]!, c[1]!, c[2]!, 255], (y * px + x) * 4);
  };
  paint(0, 0, side, side, bg);
  for (const m of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) paint(Number(m[1]), Number(m[2]), Number(m[3]), 1, fg);
  // Every command must have been a rectangle of ours: anything else would be drawn wrong here.
  if (d.replace(/M(\d+) (\d+)h(\d+)v1h-\3z/g, "") !== "") throw new Error(`unexpected path data: ${d.slice(0, 80)}`);
  return { text: decodeRgba(rgba, px, px), width: px, height: px, rgba };
}

function hexRgb(hex: string | undefined): number[] {
  if (hex === undefined) throw new Error("no colour in the SVG");
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

/** The colour of pixel (x, y) as rrggbb. */
export function pixelAt(d: Decoded, x: number, y: number): string {
  const i = (y * d.width + x) * 4;
  return [...d.rgba.slice(i, i + 3)].map((c) => c.toString(16).padStart(2, "0")).join("");
}

/** A small PNG made here: a `side`-pixel square of one colour with a transparent corner (a logo fixture). */
export function logoPng(side: number, rgb: [number, number, number]): Uint8Array {
  const data = Buffer.alloc(side * side * 4);
  for (let i = 0; i < side * side; i++) data.set([...rgb, i % side < side / 4 && i < side * (side / 4) ? 0 : 255], i * 4);
  return PNG.sync.write({ width: side, height: side, data });
}
