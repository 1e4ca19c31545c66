// The link dialog's "Preview card" section (docs/sharing.md: Preview cards): the card's title,
// description and image address, and a preview kept up to date as the owner types. The preview
// follows the server's rule (src/links/card.ts cardOf): no card when none of the three is set; the
// title defaults to the link's title, except on a password-protected link. The image is never loaded
// (CSP img-src 'self', and an owner's image host need not learn who edits the link): its address and
// a placeholder stand in for it. All text is set as text: a hostile title stays words.
// Creating sends what was set (snake_case); editing sends only what changed (camelCase), null clears.
import { byId } from "../common.ts";
import type { Link } from "./api.ts";

export type CardField = "cardTitle" | "cardDescription" | "cardImage";

/** The API's names (create: snake_case, PATCH: camelCase) of the card's fields. */
export const CARD_FIELDS: Record<string, CardField> = {
  card_title: "cardTitle", cardTitle: "cardTitle",
  card_description: "cardDescription", cardDescription: "cardDescription",
  card_image: "cardImage", cardImage: "cardImage",
};

/** A link's card as the API answers it (part of the link's JSON). */
export type LinkCard = Partial<Record<CardField, string | null>>;

/** What the preview needs from the rest of the dialog. */
export type CardContext = { linkTitle: string; site: string; passwordProtected: boolean };

type Values = Record<CardField, string>;

export class CardEditor {
  private readonly details = byId<HTMLDetailsElement>("lf-card");
  private readonly inputs: Record<CardField, HTMLInputElement> = {
    cardTitle: byId<HTMLInputElement>("lf-card-title"),
    cardDescription: byId<HTMLInputElement>("lf-card-description"),
    cardImage: byId<HTMLInputElement>("lf-card-image"),
  };
  private initial: Values = { cardTitle: "", cardDescription: "", cardImage: "" };

  constructor(private readonly context: () => CardContext) {
    for (const input of Object.values(this.inputs)) input.addEventListener("input", () => this.render());
  }

  /** Shows a link's stored card (null: a new link, none); unfolded when it has one. */
  fill(link: (Link & LinkCard) | null): void {
    this.initial = { cardTitle: link?.cardTitle ?? "", cardDescription: link?.cardDescription ?? "", cardImage: link?.cardImage ?? "" };
    for (const field of Object.keys(this.inputs) as CardField[]) this.inputs[field].value = this.initial[field];
    this.details.open = Object.values(this.initial).some((v) => v !== "");
    this.render();
  }

  private values(): Values {
    return { cardTitle: this.inputs.cardTitle.value.trim(), cardDescription: this.inputs.cardDescription.value.trim(), cardImage: this.inputs.cardImage.value.trim() };
  }

  /** Draws the card as a chat app would show it, from what is typed now. */
  render(): void {
    const { linkTitle, site, passwordProtected } = this.context();
    const fallbackTitle = passwordProtected ? "" : linkTitle.trim();
    this.inputs.cardTitle.placeholder = fallbackTitle;
    const card = this.values();
    const none = card.cardTitle === "" && card.cardDescription === "" && card.cardImage === "";
    byId("lf-card-none").hidden = !none;
    byId("lf-card-preview").hidden = none;
    byId("lf-card-site").textContent = site;
    byId("lf-card-heading").textContent = card.cardTitle || fallbackTitle;
    byId("lf-card-text").textContent = card.cardDescription;
    byId("lf-card-image-box").hidden = card.cardImage === "";
    byId("lf-card-image-url").textContent = card.cardImage;
  }

  /** The fields of a create (POST /api/create, snake_case): only what was set. */
  createFields(): Record<string, string> {
    const card = this.values();
    const body: Record<string, string> = {};
    if (card.cardTitle) body.card_title = card.cardTitle;
    if (card.cardDescription) body.card_description = card.cardDescription;
    if (card.cardImage) body.card_image = card.cardImage;
    return body;
  }

  /** The changes of an edit (PATCH, camelCase): what differs from the stored card; an emptied field is null. */
  changes(): Partial<Record<CardField, string | null>> {
    const now = this.values();
    const changes: Partial<Record<CardField, string | null>> = {};
    for (const field of Object.keys(now) as CardField[]) {
      if (now[field] !== this.initial[field]) changes[field] = now[field] || null;
    }
    return changes;
  }

  /** Unfolds the section (a problem inside it is about to be shown). */
  open(): void {
    this.details.open = true;
  }
}
