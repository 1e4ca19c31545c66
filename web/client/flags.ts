// Country flags as images: one SVG per country from the bundled flag set (flag-icons, MIT; NOTICE.md),
// served by this service and loaded only for the countries a page shows. Never emoji: a system
// without an emoji font shows empty boxes, and Windows shows letter pairs.

/** Where the flags are: the page names the prefix a lower-case code and ".svg" follow (scripts/build-web.ts). */
const prefix = document.querySelector<HTMLMetaElement>('meta[name="flags"]')?.content ?? "";

/**
 * The flag of an ISO 3166-1 alpha-2 code, decoration beside the country's name (empty alt); a
 * blank of the same size for "Unknown" or a code the set lacks, so the names stay aligned.
 */
export function flagElement(code: string): HTMLElement {
  const blank = document.createElement("span");
  blank.className = "flag";
  blank.setAttribute("aria-hidden", "true");
  if (!/^[A-Z]{2}$/.test(code) || prefix === "") return blank;
  const img = document.createElement("img");
  img.className = "flag";
  img.alt = "";
  img.width = 20;
  img.height = 15;
  img.loading = "lazy";
  img.decoding = "async";
  img.src = `${prefix}${code.toLowerCase()}.svg`;
  img.addEventListener("error", () => img.replaceWith(blank), { once: true });
  return img;
}
