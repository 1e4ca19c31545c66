// What a link does beyond sending everyone to one URL, as its row in the list says it: a badge each
// for a password, redirect rules, a split, a redirect code other than 302, a start still to come
// and an expiry, and a destination line that says when the URL shown is not where everyone goes
// (docs/web-ui.md: Web UI). Each badge says it in words, never by colour alone; its title says
// what it means. Everything from the link is set as text, never as markup.
import { el, lang, t } from "../common.ts";
import { displayUrl } from "../display-url.ts";
import { iconElement } from "../icons.ts";
import type { Link } from "./api.ts";
import { dateTime, fullDate } from "./format.ts";

export type BadgeKind = "password" | "rules" | "split" | "redirect" | "starts" | "expires";

const PERMANENT = new Set([301, 308]);
const percent = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 });

function badge(kind: BadgeKind, text: string, title: string, warn = false): HTMLLIElement {
  const item = el("li", warn ? `badge badge-${kind} badge-warn` : `badge badge-${kind}`);
  item.dataset.badge = kind;
  item.title = title;
  if (kind === "password") item.append(iconElement("lock"));
  item.append(el("span", "", text));
  return item;
}

/** The badges of a link: how it sends visitors on, then when it works; none for a plain link. */
export function linkBadges(link: Link, now = Date.now()): HTMLLIElement[] {
  const out: HTMLLIElement[] = [];
  if (link.passwordProtected) out.push(badge("password", t("badge_password"), t("badge_password_title")));
  if (link.rules.length > 0) out.push(badge("rules", t("badge_rules", { count: link.rules.length }), t("badge_rules_title")));
  if (link.variants !== null) out.push(badge("split", t("badge_split"), t("badge_split_title")));
  if (link.redirectType !== 302) {
    const permanent = PERMANENT.has(link.redirectType);
    const title = t(permanent ? "badge_redirect_permanent_title" : "badge_redirect_temporary_title", { code: link.redirectType });
    out.push(badge("redirect", t("badge_redirect", { code: link.redirectType }), title, permanent));
  }
  if (link.validFrom !== null && Date.parse(link.validFrom) > now) {
    out.push(badge("starts", t("badge_starts", { date: dateTime(link.validFrom) }), t("badge_starts_title", { date: fullDate(link.validFrom) })));
  }
  if (link.expiresAt !== null) {
    const past = Date.parse(link.expiresAt) <= now;
    const [text, title] = past ? (["badge_expired", "badge_expired_title"] as const) : (["badge_expires", "badge_expires_title"] as const);
    out.push(badge("expires", t(text, { date: dateTime(link.expiresAt) }), t(title, { date: fullDate(link.expiresAt) })));
  }
  return out;
}

/** The list of badges under a link's destination (its name says whose), or null for a plain link. */
export function badgeList(link: Link): HTMLUListElement | null {
  const items = linkBadges(link);
  if (items.length === 0) return null;
  const list = el("ul", "badges");
  list.setAttribute("aria-label", t("badges_label", { id: link.id }));
  list.append(...items);
  return list;
}

/** A split's URLs with their shares of the traffic: "https://a… 25 % · https://b… 75 %". */
function splitText(variants: NonNullable<Link["variants"]>, show: (url: string) => string): string {
  const total = variants.reduce((sum, v) => sum + v.weight, 0);
  return variants.map((v) => `${show(v.url)} ${percent.format(v.weight / total)}`).join(" · ");
}

/**
 * Where the link sends people: its URL (a link when http(s)), or its split's URLs with their shares,
 * since a split replaces the URL; after "If no rule matches:" when rules decide first. The text is
 * cut by CSS and whole in the title, the accessible name and on keyboard focus.
 */
export function destinationLine(link: Link): HTMLElement {
  const split = link.variants;
  const safe = split === null && /^https?:\/\//i.test(link.originalUrl);
  const dest = safe ? el("a", "dest") : el("span", "dest");
  dest.textContent = split === null ? displayUrl(link.originalUrl) : splitText(split, displayUrl);
  dest.title = split === null ? link.originalUrl : splitText(split, (url) => url);
  if (dest instanceof HTMLAnchorElement) {
    dest.href = link.originalUrl;
    dest.target = "_blank";
    dest.rel = "noopener noreferrer";
  } else {
    dest.tabIndex = 0;
  }
  if (link.rules.length === 0) return dest;
  const line = el("div", "dest-line");
  line.append(el("span", "dest-lead", t("dest_if_no_rule")), dest);
  return line;
}
