// A link's preview card (docs/sharing.md: Preview cards): the title, description and image that
// link-preview agents (chat apps and social networks drawing a card for a pasted link) are shown
// instead of the redirect. A link has a card when its owner set any of the three; the card's title
// defaults to the link's title, except on a protected link, whose title may be its destination
// page's (hidden there, as its destination is).

/** The owner's card fields, as stored (null: not set). */
export type CardFields = { cardTitle: string | null; cardDescription: string | null; cardImage: string | null };

export const NO_CARD_FIELDS: CardFields = { cardTitle: null, cardDescription: null, cardImage: null };

/** What the click path keeps of a link's card: resolved once per cache entry. `page`: its HTML, once built for `pageUrl` (card-page.ts). */
export type Card = { readonly title: string | null; readonly description: string | null; readonly image: string | null; page?: string; pageUrl?: string };

/** The stored columns a card is read from (the target row's, both engines). */
export type CardColumns = { card_title: string | null; card_description: string | null; card_image: string | null; title: string | null; password_hash: string | null };

/** The card of a link, or null when its owner set none (then previews get the redirect, as people do). */
export function cardOf(row: CardColumns): Card | null {
  if (row.card_title === null && row.card_description === null && row.card_image === null) return null;
  const title = row.card_title ?? (row.password_hash === null ? row.title : null);
  return { title, description: row.card_description, image: row.card_image };
}
