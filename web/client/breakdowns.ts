// Renders breakdown lists and tables from /api/stats, each count with its share of the period's
// clicks. Every visitor-supplied value (referrer host, UTM values) goes in through textContent,
// never as HTML.
import type { MessageKey } from "../i18n/index.ts";
import { el, formatNumber, lang, t } from "./common.ts";
import { displayUrl } from "./display-url.ts";
import { flagElement } from "./flags.ts";
import { REMOVED_VARIANT } from "../../src/stats/hidden-destinations.ts";

import type { NameCount, UtmCount as UtmRow } from "../../src/api/types.ts";

const regionNames = (() => {
  try {
    return new Intl.DisplayNames([lang], { type: "region" });
  } catch {
    return null;
  }
})();
const percent = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 });

/** A count's share of `total` (the period's clicks: 100%); "<0.1%" rather than a 0% that is not. */
export function shareOf(count: number, total: number): string {
  if (total <= 0) return "";
  const share = count / total;
  return share > 0 && share < 0.001 ? `<${percent.format(0.001)}` : percent.format(share);
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

export type Kind = "browser" | "os" | "device" | "country" | "referrer" | "rule" | "variant" | "fallback" | "preview";

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

/**
 * Fills an <ol class="bars"> with the top rows, each with a bar sized by its share of the list and
 * beside its count its percentage of `clicks` (the period's clicks; null: no percentages, for
 * figures that are not clicks).
 */
export function renderBars(list: HTMLElement, empty: HTMLElement, kind: Kind, rows: readonly NameCount[], clicks: number | null): void {
  const total = rows.reduce((a, r) => a + r.count, 0);
  const shown: NameCount[] = rows.filter((r) => !r.other).slice(0, SHOWN);
  const rest = total - shown.reduce((a, r) => a + r.count, 0);
  if (rest > 0) shown.push({ name: "Other", count: rest, other: true });
  const items = shown.map((row) => {
    const li = el("li", "bar");
    li.style.setProperty("--share", `${total ? (row.count / total) * 100 : 0}%`);
    const name = el("span", "bar-name");
    if (kind === "country") name.append(row.other ? flagElement("") : flagElement(row.name));
    const label = row.other ? t("other") : labelOf(kind, row.name);
    name.append(el("span", "", label));
    name.title = label;
    const figures = el("span", "bar-figures");
    figures.append(el("span", "bar-count", formatNumber(row.count)));
    if (clicks !== null) figures.append(el("span", "bar-share", shareOf(row.count, clicks)));
    li.append(name, figures);
    return li;
  });
  list.replaceChildren(...items);
  empty.hidden = items.length > 0;
}

function cell(text: string, className = ""): HTMLTableCellElement {
  return el("td", className, text);
}

/** Fills the UTM table (source / medium / campaign / clicks with their share of the period's `clicks`). */
export function renderUtm(tbody: HTMLElement, empty: HTMLElement, rows: readonly UtmRow[], clicks: number): void {
  const trs = rows.map((r) => {
    const tr = el("tr");
    // The share beside the count, as in the lists: a column of its own would not fit a half-width card.
    const count = cell(formatNumber(r.count), "num");
    count.append(el("span", "share", shareOf(r.count, clicks)));
    tr.append(cell(r.other ? t("other") : (r.source ?? "—"), "wrap-cell"), cell(r.medium ?? "—", "wrap-cell"), cell(r.campaign ?? "—", "wrap-cell"), count);
    return tr;
  });
  tbody.replaceChildren(...trs);
  empty.hidden = trs.length > 0;
}
