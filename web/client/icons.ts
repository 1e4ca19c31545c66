// Line icons (24×24, stroked with currentColor) for buttons: path data only, so the server-rendered
// pages and the client scripts draw the same shapes. Icons are decoration: the button says what it does.

export const ICONS = {
  plus: ["M12 5v14", "M5 12h14"],
  upload: ["M12 15V4", "M7 9l5-5 5 5", "M5 20h14"],
  download: ["M12 4v11", "M7 10l5 5 5-5", "M5 20h14"],
  copy: ["M9 9h10a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H9a1 1 0 0 1-1-1V10a1 1 0 0 1 1-1z", "M16 9V5a1 1 0 0 0-1-1H5a1 1 0 0 0-1 1v10a1 1 0 0 0 1 1h3"],
  more: ["M5 12h.01", "M12 12h.01", "M19 12h.01"],
  qr: ["M4 4h6v6H4z", "M14 4h6v6h-6z", "M4 14h6v6H4z", "M14 14h2", "M19 14h1v2", "M14 18v2h2", "M18 18h2v2h-2z"],
  chart: ["M5 20v-8", "M12 20V5", "M19 20v-5"],
  edit: ["M4 20h4L19 9l-4-4L4 16z", "M13.5 6.5l4 4"],
  pause: ["M9 6v12", "M15 6v12"],
  play: ["M8 5.5v13l10-6.5z"],
  trash: ["M4 7h16", "M10 11v6", "M14 11v6", "M6 7l1 13h10l1-13", "M9 7V4h6v3"],
  search: ["M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14z", "M20 20l-4-4"],
  eye: ["M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z", "M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z"],
  close: ["M6 6l12 12", "M18 6L6 18"],
  signout: ["M14 4h5v16h-5", "M9 8l-4 4 4 4", "M5 12h11"],
  left: ["M15 6l-6 6 6 6"],
  right: ["M9 6l6 6-6 6"],
  up: ["M6 15l6-6 6 6"],
  down: ["M6 9l6 6 6-6"],
  key: ["M8 15a4 4 0 1 0 0-8 4 4 0 0 0 0 8z", "M12 11h9", "M18 11v3", "M21 11v2"],
  webhook: ["M13 3L5 14h6l-1 7 8-11h-6z"],
  lock: ["M6 11h12v9H6z", "M9 11V8a3 3 0 0 1 6 0v3"],
  globe: ["M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z", "M3 12h18", "M12 3c2.5 2.5 3.5 5.5 3.5 9s-1 6.5-3.5 9c-2.5-2.5-3.5-5.5-3.5-9s1-6.5 3.5-9z"],
} as const;

export type IconName = keyof typeof ICONS;

const SVG_NS = "http://www.w3.org/2000/svg";

/** The icon as an SVG element (client side). */
export function iconElement(name: IconName): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "icon");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const d of ICONS[name]) {
    const path = document.createElementNS(SVG_NS, "path");
    path.setAttribute("d", d);
    svg.append(path);
  }
  return svg;
}

/** The icon as markup (server side); path data are constants above, never data. */
export function iconMarkup(name: IconName): string {
  return `<svg viewBox="0 0 24 24" class="icon" aria-hidden="true" focusable="false">${ICONS[name].map((d) => `<path d="${d}"/>`).join("")}</svg>`;
}
