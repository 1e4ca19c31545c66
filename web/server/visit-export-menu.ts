// "Export visits" (docs/statistics.md: Exporting visits): a button and its menu of formats, each a
// download of GET /api/visits/export. On a link's stats page (`link`) it starts hidden and
// web/client/visit-export.ts shows it to whoever may manage the link, with the page's range and bots
// filter; on the admin's card of visits to no link (`orphans`, web/server/orphans-card.ts) every kept
// visit to no link, from GET /api/orphan-visits/export (docs/statistics.md: Visits to no link). On the
// dashboard every visit the signed-in user sees is two items of its one Export menu (allVisitsItems),
// so that the toolbar keeps a single export button.
import type { Language } from "../../src/lang.ts";
import { iconMarkup } from "../client/icons.ts";
import { t } from "./pages.ts";

/** The dashboard Export menu's visits part: a separator from the links' items, then CSV and JSON lines. */
export function allVisitsItems(lang: Language): string {
  const item = (format: "csv" | "jsonl") => `<a role="menuitem" id="visits-export-${format}" href="/api/visits/export?format=${format}" download>${t(lang, `export.all_visits_${format}`)}</a>`;
  return `<div role="separator" class="menu-separator"></div>
${item("csv")}
${item("jsonl")}`;
}

export function visitExportMenu(lang: Language, of: "link" | "orphans"): string {
  const id = of === "link" ? "visit-export" : "orphans-export";
  const route = of === "orphans" ? "/api/orphan-visits/export" : "/api/visits/export";
  const label = (format: "csv" | "jsonl") => t(lang, of === "link" ? `export.visits_${format}` : `orphans_export_${format}`);
  const title = t(lang, of === "orphans" ? "orphans_export" : "export.visits");
  const item = (format: "csv" | "jsonl") => `<a role="menuitem" id="${id}-${format}" href="${route}?format=${format}" download>${label(format)}</a>`;
  return `<div class="visit-export" id="${id}"${of === "link" ? " hidden" : ""}>
<button type="button" class="btn btn-small" id="${id}-open" popovertarget="${id}-menu" aria-haspopup="menu">${iconMarkup("download")}${title}</button>
<div id="${id}-menu" class="menu" popover role="menu" aria-label="${of === "orphans" ? t(lang, "orphans_title") : title}">
${item("csv")}
${item("jsonl")}
</div>
</div>`;
}
