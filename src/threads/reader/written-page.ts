// A page of raw visits written as text on the reader thread, where its rows were read (docs/performance.md:
// Downloading a link's visits): a page is 5,000 visits, ~2 MB of JSON, and writing it cost the click
// thread most of what a download takes from it. The click thread then only sends the text; the
// format is the surface's (the Shlink Visit is defined once, in shlink-visit-json.ts, pure).

import { pageText } from "../../http/compat/shlink/shlink-visit-json.ts";
import type { VisitPage, VisitPageWriting } from "../../stats/visit-pages.ts";

const UTF8 = new TextEncoder();

/** The page as asked: written (its rows left out), or as read when nothing is asked or it cannot be written here. */
export function writtenPage(page: VisitPage, writing: VisitPageWriting | null): VisitPage {
  if (writing === null) return page;
  const text = pageText(page.visits, page.links, writing.shlink.bases);
  if (text === null) return page;
  // As bytes: encoding 2 MB is then the reader's work too, and the click thread sends them as they are.
  return { total: page.total, visits: [], links: [], written: { bytes: UTF8.encode(text), count: page.visits.length } };
}
