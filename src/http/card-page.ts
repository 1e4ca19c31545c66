// STUB (#40 frame): a link's preview card as a small HTML page for link-preview agents.
// Part A builds the page; until then agents get nothing but the card's title.

import type { Card } from "../links/card.ts";
import type { RequestClick } from "./click.ts";
import type { RedirectDeps } from "./redirect.ts";

export function cardAnswer(card: Card, _click: RequestClick, _deps: RedirectDeps): Response {
  return new Response(card.title ?? "", { headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
