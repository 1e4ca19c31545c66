// The click path for people on a link with a preview card (issue #40, docs/sharing.md: Preview
// cards): a card costs people nothing but the preview-agent check on the User-Agent. Measured as
// two sets of links on one process of a binary, clicked with people's agents only (load.lua's
// "-people" modes): plain links ("people") and links with a card ("card people"). A compared
// binary gets a process of its own the same way, so "card people" of the binary under test can be
// read against "<label> people" of the binary before #40, which cannot hold a card (it refuses
// cardTitle: its card set is skipped, and the report says why).

import { createLinks } from "./clicks-api.ts";

/** The target names: "<label> people" / "<label> card people"; the binary under test has no label. */
export const PEOPLE = "people";
export const CARD_PEOPLE = "card people";
export const peopleName = (label: string, card: boolean): string => `${label === "" ? "" : label + " "}${card ? CARD_PEOPLE : PEOPLE}`;
export const isPeopleTarget = (name: string): boolean => name === PEOPLE || name.endsWith(" " + PEOPLE);

export type PeopleSet = { name: string; ids: string[] };
/** The link sets of one binary's people process, and why its card set is missing (null: it is not). */
export type PeopleLinks = { sets: PeopleSet[]; cardsRefused: string | null };

/** Creates `n` plain links and, when the binary takes a card through the API, `n` with a card. */
export async function peopleLinks(base: string, label: string, n: number): Promise<PeopleLinks> {
  const plain = { name: peopleName(label, false), ids: await createLinks(base, n, `people-${label}`) };
  const cards = await createCardLinks(base, n, `card-${label}`);
  if ("refused" in cards) return { sets: [plain], cardsRefused: cards.refused };
  return { sets: [plain, { name: peopleName(label, true), ids: cards.ids }], cardsRefused: null };
}

/**
 * Links with a card (title and description, docs/api.md's JSON fields) through POST /api/create. A
 * binary from before #40 answers the first with 400 (an unknown field is refused, never ignored):
 * then `refused` holds its answer.
 */
export async function createCardLinks(base: string, n: number, tag: string): Promise<{ ids: string[] } | { refused: string }> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const link = {
      url: `https://example.com/${tag}/${i}?from=bench`,
      cardTitle: `Launch week, day ${i + 1}: what we shipped`,
      cardDescription: "Five new features, two fixes and a preview of what comes next.",
    };
    const res = await fetch(`${base}/api/create`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(link) });
    const body = (await res.json()) as { data?: { shortUrl: string }; error?: string };
    if (res.status !== 201 || !body.data) {
      if (i === 0) return { refused: `${res.status} ${(body.error ?? JSON.stringify(body)).slice(0, 100)}` };
      throw new Error(`create with a card failed after ${i} links: ${res.status} ${JSON.stringify(body)}`);
    }
    ids.push(body.data.shortUrl.slice(body.data.shortUrl.lastIndexOf("/") + 1));
  }
  return { ids };
}
