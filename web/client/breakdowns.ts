// Renders breakdown lists and tables from /api/stats. Every visitor-supplied value (referrer host,
// UTM values) goes in through textContent, never as HTML.
import type { MessageKey } from "../i18n/index.ts";
import { el, formatNumber, lang, t } from "./common.ts";
import { displayUrl } from "./display-url.ts";
import { REMOVED_VARIANT } from "../../src/stats/hidden-destinations.ts";

import type { NameCount, RecentVisit as Visit, UtmCount as UtmRow } from "../../src/api/types.ts";

const regionNames = (() => {
  try {
    return new Intl.DisplayNames([lang], { type: "region" });
  } catch {
    return null;
  }
})();
const timeFormat = new Intl.DateTimeFormat(lang, { dateStyle: "short", timeStyle: "medium" });

/** Flag emoji for an ISO 3166-1 alpha-2 code (regional indicator pair), "" for anything else. */
export function flagOf(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return "";
  return String.fromCodePoint(...[...code].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

/** The localized country name for an ISO code; the code itself when Intl does not know it. */
export function countryName(code: string): string {
  if (code === "Unknown" || !/^[A-Z]{2}$/.test(code)) return t("unknown");
  try {
    return regionNames?.of(code) ?? code;
  } catch {
    return code;
  }
}

export type Kind = "browser" | "os" | "device" | "country" | "referrer" | "rule" | "variant" | "fallback";

/** A rule as the stats name it ("rule 2", "default" when none matched), in the page language. */
function ruleLabel(name: string): string {
  const n = /^rule (\d+)$/.exec(name)?.[1];
  if (n !== undefined) return t("rule_title", { n });
  return name === "default" ? t("rule_default") : name;
}

/**
 * A variant as the stats name it: its URL, or for a password-protected link (to anyone but its
 * owner) its place, "variant 2", "rule 1, variant 2" or "variant (removed)" (src/stats/hidden-destinations.ts).
 */
function variantLabel(name: string): string {
  const place = /^(?:rule (\d+), )?variant (\d+)$/.exec(name);
  if (place?.[2] !== undefined) return place[1] === undefined ? t("variant_title", { n: place[2] }) : t("variant_rule_title", { rule: place[1], n: place[2] });
  return name === REMOVED_VARIANT ? t("variant_removed") : displayUrl(name);
}

/** Display label for a breakdown value: translated Unknown/Direct/device names, country names, rules. */
export function labelOf(kind: Kind, name: string): string {
  if (kind === "country") return countryName(name);
  if (kind === "rule") return ruleLabel(name);
  if (kind === "variant") return variantLabel(name);
  if (kind === "fallback") {
    // The reasons a fallback is taken are the link's states (expired, disabled).
    const key = `status_${name}` as MessageKey;
    return t(key) === key ? name : t(key);
  }
  if (name === "Unknown") return t("unknown");
  if (kind === "referrer" && name === "Direct") return t("direct");
  if (kind === "device") {
    const key = `device_${name.toLowerCase()}` as MessageKey;
    const translated = t(key);
    return translated === key ? name : translated;
  }
  return name;
}

/** The rows shown: the ten largest, and "Other" for the rest (the API's Other entry included). */
const SHOWN = 10;

/** Fills an <ol class="bars"> with the top rows, each with a bar sized by its share of the total. */
export function renderBars(list: HTMLElement, empty: HTMLElement, kind: Kind, rows: readonly NameCount[]): void {
  const total = rows.reduce((a, r) => a + r.count, 0);
  const shown: NameCount[] = rows.filter((r) => !r.other).slice(0, SHOWN);
  const rest = total - shown.reduce((a, r) => a + r.count, 0);
  if (rest > 0) shown.push({ name: "Other", count: rest, other: true });
  const items = shown.map((row) => {
    const li = el("li", "bar");
    li.style.setProperty("--share", `${total ? (row.count / total) * 100 : 0}%`);
    const name = el("span", "bar-name");
    if (kind === "country") {
      // An empty flag box for "Unknown" keeps the names aligned.
      const f = el("span", "flag", flagOf(row.name));
      f.setAttribute("aria-hidden", "true");
      name.append(f);
    }
    const label = row.other ? t("other") : labelOf(kind, row.name);
    name.append(el("span", "", label));
    name.title = label;
    li.append(name, el("span", "bar-count", formatNumber(row.count)));
    return li;
  });
  list.replaceChildren(...items);
  empty.hidden = items.length > 0;
}

function cell(text: string, className = ""): HTMLTableCellElement {
  return el("td", className, text);
}

/** Fills the UTM table (source / medium / campaign / clicks). */
export function renderUtm(tbody: HTMLElement, empty: HTMLElement, rows: readonly UtmRow[]): void {
  const trs = rows.map((r) => {
    const tr = el("tr");
    tr.append(cell(r.other ? t("other") : (r.source ?? "—"), "wrap-cell"), cell(r.medium ?? "—", "wrap-cell"), cell(r.campaign ?? "—", "wrap-cell"), cell(formatNumber(r.count), "num"));
    return tr;
  });
  tbody.replaceChildren(...trs);
  empty.hidden = trs.length > 0;
}

/** The routed columns (rule, variant) of the recent visits, each shown or not. */
type RoutedColumns = { rule: boolean; variant: boolean };

/** Which of the routed columns the recent visits need: those some visit has. */
export function routedColumns(visits: readonly Visit[]): RoutedColumns {
  return { rule: visits.some((v) => v.rule !== undefined), variant: visits.some((v) => v.variant !== undefined) };
}

/** Fills the recent visits table, newest first as the API sends them; `columns`: the routed ones shown. */
export function renderVisits(tbody: HTMLElement, empty: HTMLElement, visits: readonly Visit[], columns: RoutedColumns): void {
  const trs = visits.map((v) => {
    const tr = el("tr");
    const country = cell("");
    const flag = flagOf(v.country);
    country.textContent = flag ? `${flag} ${countryName(v.country)}` : countryName(v.country);
    const type = cell("");
    type.append(el("span", v.isBot ? "badge badge-bot" : "badge", v.isBot ? t("visitor_bot") : t("visitor_human")));
    tr.append(
      cell(timeFormat.format(new Date(v.timestamp))),
      cell(labelOf("browser", v.browser)),
      cell(labelOf("os", v.os)),
      cell(labelOf("device", v.device)),
      country,
      cell(labelOf("referrer", v.referrer), "wrap-cell ref-cell"),
      type,
    );
    if (columns.rule) tr.append(cell(v.rule === undefined ? "—" : labelOf("rule", v.rule)));
    if (columns.variant) tr.append(cell(v.variant === undefined ? "—" : labelOf("variant", v.variant), "wrap-cell ref-cell"));
    return tr;
  });
  tbody.replaceChildren(...trs);
  empty.hidden = trs.length > 0;
}
