// The stats page's heading: the link's title when it has one, with "Statistics for /<id>" under
// it; else that line alone (docs/web-ui.md: Web UI). A title is the owner's text but may come from
// a fetched page: it is set as text, never as markup.
import { byId } from "./common.ts";

const heading = byId("stats-heading");
const subtitle = byId("stats-for");
/** what the server wrote: "Statistics for /<id>", in the page's language */
const plain = heading.textContent ?? "";
const pageTitle = document.title;

export function showHeading(title: string | null): void {
  heading.textContent = title ?? plain;
  subtitle.textContent = title === null ? "" : plain;
  subtitle.hidden = title === null;
  document.title = title === null ? pageTitle : `${title} · ${pageTitle}`;
}
