// The overview's card of visits to no link (docs/statistics.md: Visits to no link), for admins:
// hidden until web/client/dashboard/orphans-card.ts has read GET /api/orphan-visits. Its Export menu
// downloads every kept visit to no link (not only the card's 30 days), as the overview's own
// "Export visits" downloads every visit.
import type { Language } from "../../src/lang.ts";
import { t } from "./pages.ts";
import { visitExportMenu } from "./visit-export-menu.ts";

export function orphansCard(lang: Language): string {
  const type = (id: string, key: Parameters<typeof t>[1]) =>
    `<div class="orphans-type"><dt>${t(lang, key)}</dt><dd><span class="orphans-count" id="orphans-${id}">–</span><span class="orphans-split" id="orphans-${id}-split"></span></dd></div>`;
  return `<section class="card top orphans" id="orphans-card" aria-labelledby="orphans-title" hidden>
<div class="card-head orphans-head"><h3 id="orphans-title">${t(lang, "orphans_title")}</h3>${visitExportMenu(lang, "orphans")}</div>
<p class="orphans-intro">${t(lang, "orphans_intro")}</p>
<dl class="orphans-types">
${type("base_url", "orphans_base_url")}
${type("invalid_short_url", "orphans_invalid_short_url")}
${type("regular_404", "orphans_regular_404")}
</dl>
<h4 class="orphans-top-title" id="orphans-top-title">${t(lang, "orphans_top")}</h4>
<ol class="top-list" id="orphans-paths" aria-labelledby="orphans-top-title"></ol>
<p class="empty" id="orphans-empty" hidden>${t(lang, "orphans_empty")}</p>
</section>`;
}
