// "Export visits" (docs/statistics.md: Exporting visits): a button and its menu of formats, each a
// download of GET /api/visits/export. On a link's stats page (`link`) it starts hidden and
// web/client/visit-export.ts shows it to whoever may manage the link, with the page's range and bots
// filter; on the dashboard (`all`) it downloads every visit the signed-in user sees.
import type { Language } from "../../src/lang.ts";
import { iconMarkup } from "../client/icons.ts";
import { t } from "./pages.ts";

export function visitExportMenu(lang: Language, of: "link" | "all"): string {
  const id = of === "link" ? "visit-export" : "visits-export";
  const item = (format: "csv" | "jsonl") =>
    `<a role="menuitem" id="${id}-${format}" href="/api/visits/export?format=${format}" download>${t(lang, of === "link" ? `export.visits_${format}` : `export.all_visits_${format}`)}</a>`;
  return `<div class="visit-export" id="${id}"${of === "link" ? " hidden" : ""}>
<button type="button" class="btn${of === "link" ? " btn-small" : ""}" id="${id}-open" popovertarget="${id}-menu" aria-haspopup="menu">${iconMarkup("download")}${t(lang, "export.visits")}</button>
<div id="${id}-menu" class="menu" popover role="menu" aria-label="${t(lang, "export.visits")}">
${item("csv")}
${item("jsonl")}
</div>
</div>`;
}
