// RGBA pixel work for the QR logo: fitting it into a box by averaging (a logo drawn much smaller
// than its file must not alias into noise), and laying it over the code's background.

export type Rgba = { width: number; height: number; data: Uint8Array };

/** The image at most `side` pixels wide and high, its aspect kept. */
export function shrunk(image: Rgba, side: number): Rgba {
  const factor = Math.min(1, side / Math.max(image.width, image.height));
  if (factor === 1) return image;
  return resized(image, Math.max(1, Math.round(image.width * factor)), Math.max(1, Math.round(image.height * factor)));
}

/** The image fitted into a `box`-pixel square (aspect kept, centred): its size and the offset inside the box. */
export function fitted(image: Rgba, box: number): { image: Rgba; dx: number; dy: number } {
  const factor = box / Math.max(image.width, image.height);
  const width = Math.max(1, Math.round(image.width * factor));
  const height = Math.max(1, Math.round(image.height * factor));
  return { image: resized(image, width, height), dx: Math.floor((box - width) / 2), dy: Math.floor((box - height) / 2) };
}

/** Area-averaged resize with premultiplied alpha (edges of a transparent logo keep their colour). */
export function resized(image: Rgba, width: number, height: number): Rgba {
  const out = new Uint8Array(width * height * 4);
  const sw = image.width;
  const sh = image.height;
  const src = image.data;
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor((y * sh) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * sh) / height));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor((x * sw) / width);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * sw) / width));
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = y0; sy < y1; sy++) {
        for (let sx = x0; sx < x1; sx++) {
          const i = (sy * sw + sx) * 4;
          const alpha = src[i + 3]!;
          r += src[i]! * alpha;
          g += src[i + 1]! * alpha;
          b += src[i + 2]! * alpha;
          a += alpha;
        }
      }
      const o = (y * width + x) * 4;
      const n = (x1 - x0) * (y1 - y0);
      if (a > 0) {
        out[o] = Math.round(r / a);
        out[o + 1] = Math.round(g / a);
        out[o + 2] = Math.round(b / a);
      }
      out[o + 3] = Math.round(a / n);
    }
  }
  return { width, height, data: out };
}

/** Row `imageRow` of `image` laid over one RGB scanline `rgb` from pixel `left`, its alpha blending with what is there. */
export function compositeRow(rgb: Uint8Array, image: Rgba, left: number, imageRow: number): void {
  for (let x = 0; x < image.width; x++) {
    const i = (imageRow * image.width + x) * 4;
    const alpha = image.data[i + 3]! / 255;
    if (alpha === 0) continue;
    const o = (left + x) * 3;
    for (let c = 0; c < 3; c++) rgb[o + c] = Math.round(image.data[i + c]! * alpha + rgb[o + c]! * (1 - alpha));
  }
}
