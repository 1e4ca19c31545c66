// A QR code as SVG (docs/sharing.md: QR codes by URL): one <path> of the dark modules, a run of
// them in a row drawn as one rectangle, in a viewBox of modules; the logo as a data: <image> over
// its cleared box. Nothing in it comes from the request but numbers and hex colours.

import { hexOf, type Rgb } from "./colour.ts";
import { darkRuns, type QrLayout } from "./layout.ts";
import type { QrLogo } from "./logo.ts";

export function qrSvg(layout: QrLayout, fg: Rgb, bg: Rgb, logo: QrLogo | null): string {
  const { side, scale } = layout;
  const pixels = side * scale;
  let d = "";
  for (const run of darkRuns(layout)) d += `M${run.x} ${run.y}h${run.length}v1h-${run.length}z`;
  let image = "";
  if (logo !== null && layout.logoBox !== null) {
    const { at, span } = layout.logoBox;
    const href = `data:image/png;base64,${Buffer.from(logo.png).toString("base64")}`;
    image = `<image x="${at}" y="${at}" width="${span}" height="${span}" preserveAspectRatio="xMidYMid meet" href="${href}"/>`;
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${pixels}" height="${pixels}" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges">` +
    `<rect width="${side}" height="${side}" fill="#${hexOf(bg)}"/>` +
    `<path fill="#${hexOf(fg)}" d="${d}"/>${image}</svg>\n`
  );
}
