// Where a QR code's modules and logo go, in whole pixels (docs/sharing.md: QR codes by URL): a
// module is a whole number of pixels, so the picture is crisp at any size and the answer's real
// side is that number times the modules (quiet zone included), at most the size asked for.

import type { QrMatrix } from "./matrix.ts";

/** The drawing: `side` modules across (the margin on both sides included), `scale` pixels each. */
export type QrLayout = {
  matrix: QrMatrix;
  margin: number;
  /** modules across, the quiet zone included */
  side: number;
  /** pixels per module */
  scale: number;
  /** the logo's box in modules from the picture's top left, or null without a logo */
  logoBox: { at: number; span: number } | null;
};

/** The layout for `size` pixels, or null when a module would be under one pixel. */
export function layoutOf(matrix: QrMatrix, size: number, margin: number, withLogo: boolean): QrLayout | null {
  const side = matrix.size + 2 * margin;
  const scale = Math.floor(size / side);
  if (scale < 1) return null;
  const logoBox = withLogo ? logoBoxOf(matrix.size, margin) : null;
  if (logoBox !== null) matrix = cleared(matrix, logoBox.at - margin, logoBox.span);
  return { matrix, margin, side, scale, logoBox };
}

/**
 * The logo's box: at most a fifth of the symbol's side, centred on the module grid (its span has
 * the symbol's parity), so it stays clear of the finder patterns in three corners.
 */
function logoBoxOf(symbol: number, margin: number): { at: number; span: number } {
  let span = Math.floor(symbol / 5);
  if (span % 2 !== symbol % 2) span -= 1;
  return { at: margin + (symbol - span) / 2, span };
}

/** The modules under the logo made light: a scanner reads them as errors, which the level recovers. */
function cleared(matrix: QrMatrix, at: number, span: number): QrMatrix {
  const dark = matrix.dark.slice();
  for (let y = at; y < at + span; y++) dark.fill(0, y * matrix.size + at, y * matrix.size + at + span);
  return { size: matrix.size, dark };
}

/** The symbol's dark modules as horizontal runs, in picture modules (the margin added). */
export function* darkRuns(layout: QrLayout): Generator<{ x: number; y: number; length: number }> {
  const { size, dark } = layout.matrix;
  for (let y = 0; y < size; y++) {
    let x = 0;
    while (x < size) {
      if (dark[y * size + x] === 0) {
        x++;
        continue;
      }
      const start = x;
      while (x < size && dark[y * size + x] === 1) x++;
      yield { x: start + layout.margin, y: y + layout.margin, length: x - start };
    }
  }
}
