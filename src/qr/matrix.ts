// The QR symbol's modules for a text (docs/sharing.md: QR codes by URL), from `qrcode`, the library
// the browser's QR codes use too (web/client/qr.ts): the same text gives the same symbol everywhere.

import { create } from "qrcode";

export type QrLevel = "L" | "M" | "Q" | "H";

/** A square of modules: `dark[y * size + x]` is 1 for a dark module. */
export type QrMatrix = { size: number; dark: Uint8Array };

export function qrMatrix(text: string, level: QrLevel): QrMatrix {
  const { modules } = create(text, { errorCorrectionLevel: level });
  // BitMatrix.data holds one byte per module, 1 for dark (lib/core/bit-matrix.js).
  return { size: modules.size, dark: Uint8Array.from(modules.data) };
}
