// The pages above the single link (docs/statistics.md: Tags and domains, Comparing): a tag's or a
// domain's statistics in the stats page's layout (its toolbar and figures, stats-page.ts), and the
// comparison of two to four links or tags on one chart. Skeletons only: web/client/aggregate.ts
// fetches /api/stats/tag, /domain or /compare with the reader's session and fills them.
import type { Language } from "../../src/lang.ts";
import { MESSAGES, format } from "../i18n/index.ts";
import { esc } from "./html.ts";
import { layout, t, type PageAssets } from "./pages.ts";
import { figures, toolbar } from "./stats-page.ts";

export type AggregateKind = "tag" | "domain";

/** A tag's or a domain's page: `name` as the path gave it. */
export function renderAggregate(lang: Language, kind: AggregateKind, name: string, assets: PageAssets): string {
  const title = format(MESSAGES[lang][kind === "tag" ? "aggregate.tag_title" : "aggregate.domain_title"], { name });
  const body = `<section class="link-head">
<h1 id="stats-heading">${esc(title)}</h1>
<p class="hint" id="aggregate-links">${t(lang, "loading")}</p>
<p class="hint">${t(lang, "aggregate.unique_note")}</p>
<p><a href="/${lang}/compare?${kind === "tag" ? `tags=${encodeURIComponent(name)}` : ""}">${t(lang, "aggregate.compare_link")}</a></p>
</section>
<p class="form-error" id="stats-error" role="alert" hidden></p>
<div id="stats-full">
${toolbar(lang, false)}
${figures(lang)}
</div>
<noscript><p class="form-error">${t(lang, "noscript")}</p></noscript>`;
  return layout({ lang, title, page: "aggregate", id: `${kind}:${name}`, body, assets, pathFor: (l) => `/${l}/stats/${kind}/${encodeURIComponent(name)}` });
}

/** The comparison: what to compare (links or tags, two to four names), one chart, a table of figures. */
export function renderCompare(lang: Language, assets: PageAssets): string {
  const th = (key: Parameters<typeof t>[1]) => `<th scope="col">${t(lang, key)}</th>`;
  const body = `<section class="link-head"><h1>${t(lang, "aggregate.compare_title")}</h1>
<p class="hint">${t(lang, "aggregate.compare_lead")}</p></section>
<form class="card compare-form" id="compare-form">
<fieldset class="compare-kind"><legend>${t(lang, "aggregate.compare_kind")}</legend>
<div class="segmented">
<label class="seg"><input type="radio" name="kind" value="ids" checked><span>${t(lang, "aggregate.compare_links")}</span></label>
<label class="seg"><input type="radio" name="kind" value="tags"><span>${t(lang, "aggregate.compare_tags")}</span></label>
</div>
</fieldset>
<div class="field">
<label for="compare-names">${t(lang, "aggregate.compare_names")}</label>
<input id="compare-names" name="names" type="text" required autocomplete="off" aria-describedby="compare-names-hint">
<p class="hint" id="compare-names-hint">${t(lang, "aggregate.compare_names_hint")}</p>
</div>
<div class="compare-actions">
<label class="switch"><input type="checkbox" id="exclude-bots" role="switch"><span class="switch-track" aria-hidden="true"></span><span>${t(lang, "exclude_bots")}</span></label>
<button type="submit" class="btn btn-primary">${t(lang, "aggregate.compare_show")}</button>
</div>
</form>
<p class="form-error" id="stats-error" role="alert" hidden></p>
<section class="card chart-card" id="compare-card" aria-labelledby="compare-chart-title" hidden>
<h2 id="compare-chart-title">${t(lang, "chart_title")}</h2>
<div id="compare-chart" class="chart" role="img" aria-labelledby="compare-chart-title" aria-describedby="compare-table-title"></div>
<h3 id="compare-table-title">${t(lang, "aggregate.compare_table")}</h3>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="compare-table-title"><table class="table" id="compare-table"><thead><tr>
${th("aggregate.compare_name")}${th("kpi_total")}${th("kpi_unique")}${th("kpi_human")}${th("kpi_bots")}
</tr></thead><tbody></tbody></table></div>
</section>
<noscript><p class="form-error">${t(lang, "noscript")}</p></noscript>`;
  return layout({ lang, title: MESSAGES[lang]["aggregate.compare_title"], page: "aggregate", id: "compare", body, assets, pathFor: (l) => `/${l}/compare` });
}
