// The options of GET /<alias>/qr, read from its query (docs/sharing.md: QR codes by URL). Every
// parameter is checked and a name the path does not take is refused, never ignored: a typo must
// not print a poster with the default where the owner asked for something else.

import type { ErrorField } from "../errors.ts";
import { contrastRatio, hexOf, luminance, MIN_CONTRAST, parseHex, type Rgb } from "./colour.ts";
import type { QrLevel } from "./matrix.ts";

export type QrFormat = "png" | "svg";

/** What to draw, every option given or defaulted; `level` already raised for a logo. */
export type QrOptions = { format: QrFormat; size: number; margin: number; level: QrLevel; fg: Rgb; bg: Rgb; logo: boolean };

/** Why a query is refused: the parameter it concerns (none for an unknown one) and what to do. */
export type QrProblem = { field: ErrorField | null; message: string };

export const QR_SIZE = { min: 64, max: 2048, default: 600 } as const;
export const QR_MARGIN = { min: 0, max: 16, default: 2 } as const;
export const QR_DEFAULTS = { format: "png", level: "M", fg: "000000", bg: "ffffff" } as const;

/** `domain` picks the link's domain (src/http/stats-link.ts); the rest are the drawing's. */
const KNOWN = new Set(["format", "size", "margin", "level", "fg", "bg", "logo", "domain"]);
const LEVELS: readonly QrLevel[] = ["L", "M", "Q", "H"];

/** The options a query asks for; `logoSet`: whether --qr-logo is set (the logo's default and whether it can be asked for). */
export function parseQrOptions(query: URLSearchParams, logoSet: boolean): QrOptions | QrProblem {
  for (const name of new Set(query.keys())) {
    if (!KNOWN.has(name)) return { field: null, message: `unknown parameter "${name.slice(0, 40)}": a QR code takes ${[...KNOWN].join(", ")}` };
    if (query.getAll(name).length > 1) return { field: name as ErrorField, message: `${name} is given more than once` };
  }
  const format = query.get("format") ?? QR_DEFAULTS.format;
  if (format !== "png" && format !== "svg") return { field: "format", message: "format must be png or svg" };
  const size = whole(query.get("size"), QR_SIZE);
  if (size === null) return { field: "size", message: `size must be a whole number of pixels from ${QR_SIZE.min} to ${QR_SIZE.max}` };
  const margin = whole(query.get("margin"), QR_MARGIN);
  if (margin === null) return { field: "margin", message: `margin must be a whole number of modules from ${QR_MARGIN.min} to ${QR_MARGIN.max}` };
  const asked = (query.get("level") ?? QR_DEFAULTS.level).toUpperCase() as QrLevel;
  if (!LEVELS.includes(asked)) return { field: "level", message: "level must be L, M, Q or H" };
  const logo = logoWanted(query.get("logo"), logoSet);
  if (typeof logo !== "boolean") return logo;
  const colours = coloursOf(query.get("fg") ?? QR_DEFAULTS.fg, query.get("bg") ?? QR_DEFAULTS.bg);
  if (!Array.isArray(colours)) return colours;
  const [fg, bg] = colours;
  // The logo hides modules: at least Q's 25 % recovery keeps the code readable (research: Dub does the same).
  const level = logo && (asked === "L" || asked === "M") ? "Q" : asked;
  return { format, size, margin, level, fg, bg, logo };
}

function whole(text: string | null, bounds: { min: number; max: number; default: number }): number | null {
  if (text === null) return bounds.default;
  if (!/^\d{1,5}$/.test(text)) return null;
  const n = Number(text);
  return n >= bounds.min && n <= bounds.max ? n : null;
}

function logoWanted(text: string | null, logoSet: boolean): boolean | QrProblem {
  if (text === null) return logoSet;
  if (text !== "1" && text !== "0") return { field: "logo", message: "logo must be 1 or 0" };
  if (text === "1" && !logoSet) return { field: "logo", message: "this service has no QR logo (--qr-logo): leave logo out or give logo=0" };
  return text === "1";
}

function coloursOf(fgText: string, bgText: string): [Rgb, Rgb] | QrProblem {
  const fg = parseHex(fgText);
  if (fg === null) return { field: "fg", message: "fg must be a colour as rrggbb or rgb hex" };
  const bg = parseHex(bgText);
  if (bg === null) return { field: "bg", message: "bg must be a colour as rrggbb or rgb hex" };
  if (luminance(fg) > luminance(bg)) return { field: "fg", message: "fg must be darker than bg: many scanners read no light-on-dark code" };
  const ratio = contrastRatio(fg, bg);
  if (ratio < MIN_CONTRAST) {
    return { field: "fg", message: `fg ${hexOf(fg)} on bg ${hexOf(bg)} has a contrast of ${ratio.toFixed(2)}:1; at least ${MIN_CONTRAST}:1 is needed to scan` };
  }
  return [fg, bg];
}

/** The options in one spelling, for the ETag: equal drawings, equal text. */
export function optionsKey(o: QrOptions): string {
  return `${o.format} ${o.size} ${o.margin} ${o.level} ${hexOf(o.fg)} ${hexOf(o.bg)} ${o.logo ? 1 : 0}`;
}
