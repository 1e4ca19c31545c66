// The history of the sources that keep counts (Kutt, Bitly): a request per link, written a few
// dozen links to a transaction, each with its own cursor.

import type { HistoryPage, ImportedLinks, SourceCounts, SourceLink } from "../source.ts";

/** What one link adds: its counts (none when it has nothing new) and where its cursor now stands; null: skip it. */
export type LinkCounts = { counts: SourceCounts | null; cursor: [scope: string, cursor: string] } | null;

export async function* countsInPages(links: ImportedLinks, perPage: number, each: (key: string, entry: { link: SourceLink; id: string }) => Promise<LinkCounts>): AsyncGenerator<HistoryPage> {
  let page: { cursors: [string, string][]; counts: SourceCounts[] } = { cursors: [], counts: [] };
  for (const [key, entry] of links) {
    const got = await each(key, entry);
    if (got === null) continue;
    if (got.counts !== null) page.counts.push(got.counts);
    page.cursors.push(got.cursor);
    if (page.cursors.length >= perPage) {
      yield page;
      page = { cursors: [], counts: [] };
    }
  }
  if (page.cursors.length > 0) yield page;
}
