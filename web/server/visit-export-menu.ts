// "Export visits" (docs/statistics.md: Exporting visits): a button and its menu of formats, each a
// download of GET /api/visits/export. On a link's stats page (`link`) it starts hidden and
// web/client/visit-export.ts shows it to whoever may manage the link, with the page's range and bots
// filter; on the dashboard (`all`) it downloads every visit the signed-in user sees; on the admin's
// card of visits to no link (`orphans`, web/server/orphans-card.ts) every kept visit to no link, from
// GET /api/orphan-visits/export (docs/statistics.md: Visits to no link).
import type { Language } from "../../src/lang.ts";
import { iconMarkup } from "../client/icons.ts";
import { t } from "./pages.ts";

export function visitExportMenu(lang: Language, of: "link" | "all" | "orphans"): string {
  const id = of === "link" ? "visit-export" : of === "all" ? "visits-export" : "orphans-export";
  const route = of === "orphans" ? "/api/orphan-visits/export" : "/api/visits/export";
  const label = (format: "csv" | "jsonl") => t(lang, of === "link" ? `export.visits_${format}` : of === "all" ? `export.all_visits_${format}` : `orphans_export_${format}`);
  const title = t(lang, of === "orphans" ? "orphans_export" : "export.visits");
  const item = (format: "csv" | "jsonl") => `<a role="menuitem" id="${id}-${format}" href="${route}?format=${format}" download>${label(format)}</a>`;
  return `<div class="visit-export" id="${id}"${of === "link" ? " hidden" : ""}>
<button type="button" class="btn${of === "all" ? "" : " btn-small"}" id="${id}-open" popovertarget="${id}-menu" aria-haspopup="menu">${iconMarkup("download")}${title}</button>
<div id="${id}-menu" class="menu" popover role="menu" aria-label="${of === "orphans" ? t(lang, "orphans_title") : title}">
${item("csv")}
${item("jsonl")}
</div>
</div>`;
}
