// A QR code's colours: `rrggbb` or `rgb` hex, and whether a pair can be scanned (docs/sharing.md: QR
// codes by URL). WCAG 2's contrast ratio, at least 4.5:1 (the text minimum of SC 1.4.3), and dark
// modules on a light background only: many scanners read no inverted code.

export type Rgb = readonly [number, number, number];

/** WCAG's minimum contrast for normal text, which a scanner's camera needs no less than. */
export const MIN_CONTRAST = 4.5;

/** `rrggbb` or `rgb` (a leading "#" allowed), or null. */
export function parseHex(text: string): Rgb | null {
  const hex = text.startsWith("#") ? text.slice(1) : text;
  if (!/^(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(hex)) return null;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex;
  return [parseInt(full.slice(0, 2), 16), parseInt(full.slice(2, 4), 16), parseInt(full.slice(4, 6), 16)];
}

/** `rrggbb`, lower case: the one spelling a colour has in an ETag and an SVG. */
export function hexOf(rgb: Rgb): string {
  return rgb.map((c) => c.toString(16).padStart(2, "0")).join("");
}

/** WCAG 2 relative luminance (https://www.w3.org/TR/WCAG21/#dfn-relative-luminance). */
export function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio), 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}
