// A link's preview card fields as a request gives them (docs/sharing.md: Preview cards): a create's
// form or JSON, a PATCH, an import row. One parser, so every surface bounds and tidies them alike.
// The text is stored as the owner wrote it (tidied, never HTML-escaped): the card page escapes it
// where it writes it (src/http/card-page.ts).

import type { CardFields } from "./card.ts";
// One line of text, tidied as a link's title is.
import { tidy } from "./title.ts";
import type { UrlChecker } from "./rules.ts";
import type { ErrorField, FieldProblem } from "../errors.ts";

/** Code points at most: what a chat app's card shows and more (docs/sharing.md: Preview cards). */
export const MAX_CARD_TITLE_LENGTH = 200;
export const MAX_CARD_DESCRIPTION_LENGTH = 500;

/** The name each card field goes by in one request (snake in a form or CSV, camel in JSON). */
export type CardNames = Record<keyof CardFields, ErrorField>;
export const SNAKE_CARD_NAMES: CardNames = { cardTitle: "card_title", cardDescription: "card_description", cardImage: "card_image" };
export const CAMEL_CARD_NAMES: CardNames = { cardTitle: "cardTitle", cardDescription: "cardDescription", cardImage: "cardImage" };


/**
 * The card fields a record names: absent ones left out (a PATCH keeps them), null or "" as none (a
 * PATCH clears), text tidied and refused when too long (not cut: the owner sees why). The image is
 * checked by `checkImageUrl`, the destination rules with no app scheme allowed (an image is fetched
 * over http(s) by every preview agent). Every problem is `card_invalid` naming the field.
 */
export function parseCard(record: Record<string, unknown>, names: CardNames, checkImageUrl: UrlChecker, problems: FieldProblem[]): Partial<CardFields> {
  const out: Partial<CardFields> = {};
  const say = (field: ErrorField, error: string) => problems.push({ code: "card_invalid", field, error });
  const text = (key: "cardTitle" | "cardDescription", max: number): void => {
    const raw = record[names[key]];
    if (raw === undefined) return;
    const tidied = typeof raw === "string" ? tidy(raw) : null;
    if (raw !== null && typeof raw !== "string") say(names[key], `${names[key]} must be text`);
    else if (tidied !== null && [...tidied].length > max) say(names[key], `${names[key]} is longer than ${max} characters`);
    else out[key] = tidied;
  };
  text("cardTitle", MAX_CARD_TITLE_LENGTH);
  text("cardDescription", MAX_CARD_DESCRIPTION_LENGTH);
  const image = record[names.cardImage];
  if (image === null || (typeof image === "string" && image.trim() === "")) out.cardImage = null;
  else if (image !== undefined) {
    if (typeof image !== "string") say(names.cardImage, `${names.cardImage} must be an http(s) URL`);
    else {
      const checked = checkImageUrl(image);
      if (checked.ok) out.cardImage = checked.url;
      else say(names.cardImage, `${names.cardImage}: ${checked.error.replace(/^url /, "the image URL ")}`);
    }
  }
  return out;
}

/** Whether the image URL is http(s): what fitCard asks before a checker that may let app schemes through. */
const HTTP_URL = /^\s*https?:\/\//i;

/**
 * A card from elsewhere (another shortener's CSV, through src/imports): the text tidied and cut to
 * its bound rather than refused, the image kept only when it is http(s) and `checkImageUrl` takes
 * it; `cut` and `imageRefused` say what changed, for the import's report.
 */
export function fitCard(card: Partial<Record<keyof CardFields, unknown>>, checkImageUrl: (url: string) => { ok: true; url: string } | { ok: false }): { card: CardFields; cut: boolean; imageRefused: boolean } {
  let cut = false;
  const fit = (raw: unknown, max: number): string | null => {
    const tidied = typeof raw === "string" ? tidy(raw) : null;
    if (tidied === null) return null;
    const points = [...tidied];
    if (points.length <= max) return tidied;
    cut = true;
    return points.slice(0, max).join("").trimEnd();
  };
  const title = fit(card.cardTitle, MAX_CARD_TITLE_LENGTH);
  const description = fit(card.cardDescription, MAX_CARD_DESCRIPTION_LENGTH);
  const raw = typeof card.cardImage === "string" && card.cardImage.trim() !== "" ? card.cardImage : null;
  const checked = raw !== null && HTTP_URL.test(raw) ? checkImageUrl(raw) : null;
  const image = checked?.ok === true ? checked.url : null;
  return { card: { cardTitle: title, cardDescription: description, cardImage: image }, cut, imageRefused: raw !== null && image === null };
}
