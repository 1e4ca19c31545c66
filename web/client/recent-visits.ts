// The recent visits: the first RECENT_FIRST rows, then "show more" for the rest the API returned. On a
// phone each row is a card (web/styles/stats.css), each value under its column's name (data-label).
// Visitor-supplied values (referrers) go in as text, never as HTML.
import { countryName, labelOf } from "./breakdowns.ts";
import { byId, el, formatNumber, lang, t } from "./common.ts";
import { flagElement } from "./flags.ts";
import type { RecentVisit as Visit } from "../../src/api/types.ts";

/** Rows shown before "show more": ten fit a desktop screen with the chart above them. */
export const RECENT_FIRST = 10;

const timeFormat = new Intl.DateTimeFormat(lang, { dateStyle: "short", timeStyle: "medium" });

/** The routed columns (rule, variant) of the recent visits, each shown or not. */
type RoutedColumns = { rule: boolean; variant: boolean };

/** Which of the routed columns the recent visits need: those some visit has. */
function routedColumns(visits: readonly Visit[]): RoutedColumns {
  return { rule: visits.some((v) => v.rule !== undefined), variant: visits.some((v) => v.variant !== undefined) };
}

/** The column names, in order, for the cards' labels: read from the table's own header. */
function columnNames(table: HTMLTableElement): string[] {
  return [...table.querySelectorAll("thead th")].filter((th) => !(th as HTMLElement).hidden).map((th) => th.textContent ?? "");
}

function row(v: Visit, columns: RoutedColumns, names: readonly string[]): HTMLTableRowElement {
  const tr = el("tr");
  const country = el("td");
  country.append(flagElement(v.country), el("span", "", countryName(v.country)));
  const type = el("td");
  type.append(el("span", v.isBot ? "badge badge-bot" : "badge", v.isBot ? t("visitor_bot") : t("visitor_human")));
  const cells = [
    el("td", "", timeFormat.format(new Date(v.timestamp))),
    el("td", "", labelOf("browser", v.browser)),
    el("td", "", labelOf("os", v.os)),
    el("td", "", labelOf("device", v.device)),
    country,
    el("td", "wrap-cell ref-cell", labelOf("referrer", v.referrer)),
    type,
  ];
  if (columns.rule) cells.push(el("td", "", v.rule === undefined ? "—" : labelOf("rule", v.rule)));
  if (columns.variant) cells.push(el("td", "wrap-cell ref-cell", v.variant === undefined ? "—" : labelOf("variant", v.variant)));
  cells.forEach((cell, i) => (cell.dataset.label = names[i] ?? ""));
  tr.append(...cells);
  return tr;
}

/** The recent visits table; show() replaces its visits, keeping "show more" opened once it was. */
export class RecentVisits {
  private visits: readonly Visit[] = [];
  private expanded = false;
  private readonly table = byId<HTMLTableElement>("recent-table");
  private readonly more = byId<HTMLButtonElement>("recent-more");

  constructor() {
    this.more.addEventListener("click", () => {
      this.expanded = true;
      this.render();
      // Focus goes on to the first row that was not there before (the button is gone).
      this.table.querySelectorAll<HTMLElement>("tbody tr")[RECENT_FIRST]?.focus();
    });
  }

  show(visits: readonly Visit[]): void {
    this.visits = visits;
    this.render();
  }

  private render(): void {
    const columns = routedColumns(this.visits);
    byId("col-rule").hidden = !columns.rule;
    byId("col-variant").hidden = !columns.variant;
    const names = columnNames(this.table);
    const shown = this.expanded ? this.visits : this.visits.slice(0, RECENT_FIRST);
    const rows = shown.map((v) => row(v, columns, names));
    rows.forEach((r) => (r.tabIndex = -1));
    this.table.querySelector("tbody")!.replaceChildren(...rows);
    byId("recent-empty").hidden = rows.length > 0;
    const rest = this.visits.length - shown.length;
    this.more.hidden = rest === 0;
    this.more.textContent = t("recent_more", { count: formatNumber(rest) });
  }
}
