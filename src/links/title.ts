// A link's title (docs/link-titles.md: Link titles): the owner's words for what the link leads to,
// or the destination page's own, shown in the list and on the statistics page and searched; the
// click path reads it only as a card's title fallback (card.ts cardOf). One shape for every way a title arrives: a request, an import, a fetch.

import type { ErrorField, FieldProblem } from "../errors.ts";

/** Code points at most: room for any page's title, and for a row that stays small. */
export const MAX_TITLE_LENGTH = 500;

// C0 and C1 controls and the Unicode line and paragraph separators: a title is one line of text.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** Whitespace collapsed to single spaces, controls dropped, trimmed; null when nothing is left. Not cut (a card's text too: card-fields.ts). */
export function tidy(text: string): string | null {
  const tidied = text.replace(/\s+/g, " ").replace(CONTROLS, "").trim();
  return tidied === "" ? null : tidied;
}

/** A title from elsewhere (an import, a fetched page): tidied and cut to MAX_TITLE_LENGTH code points. */
export function fitTitle(text: string): string | null {
  const tidied = tidy(text);
  if (tidied === null) return null;
  const points = [...tidied];
  return points.length <= MAX_TITLE_LENGTH ? tidied : points.slice(0, MAX_TITLE_LENGTH).join("").trimEnd();
}

/**
 * A title a request gives: undefined when absent, null when null or empty (a PATCH clears it), else
 * the tidied text. A title longer than MAX_TITLE_LENGTH is refused, not cut: the person sees why.
 */
export function parseTitle(value: unknown, field: ErrorField, problems: FieldProblem[]): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value !== "string") {
    problems.push({ code: "title_invalid", field, error: `${field} must be text` });
    return undefined;
  }
  const tidied = tidy(value);
  if (tidied !== null && [...tidied].length > MAX_TITLE_LENGTH) {
    problems.push({ code: "title_invalid", field, error: `${field} is longer than ${MAX_TITLE_LENGTH} characters` });
    return undefined;
  }
  return tidied;
}
