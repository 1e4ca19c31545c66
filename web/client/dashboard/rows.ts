// One table row per link. Everything that comes from a link (id, destination, tags) is set as
// text; the destination (badges.ts) is a link only when it is http(s), so no stored string can
// become script.
import { el, formatNumber, lang, t } from "../common.ts";
import { iconElement, type IconName } from "../icons.ts";
import type { Link } from "./api.ts";
import { badgeList, destinationLine } from "./badges.ts";
import { relativeTime, shortDate, timeElement } from "./format.ts";
import { sparkline } from "./sparkline.ts";
import { domainOf, domainQuery, keyOf } from "./domain-api.ts";

/** A link's statistics page, on the main domain: `?domain=` names a link that is not on the default (docs/web-ui.md: Several domains). */
export const statsPath = (id: string, domain: string | null = null) => `/${lang}/stats/${encodeURIComponent(id)}${domainQuery(domain)}`;

/** An icon-only button; its name is the label (also shown as a tooltip). */
export function iconButton(icon: IconName, label: string, action: string): HTMLButtonElement {
  const button = el("button", "icon-btn");
  button.type = "button";
  button.dataset.action = action;
  button.setAttribute("aria-label", label);
  button.title = label;
  button.append(iconElement(icon));
  return button;
}

function cell(className: string, label?: string): HTMLTableCellElement {
  const td = el("td", className);
  if (label) td.dataset.label = label;
  return td;
}

/** How a row is drawn: `owner`, an admin's list, where links are everyone's (who owns each, a button
 * that filters by them); `domain`, an instance of several domains (each link's, a button that filters by it). */
export type RowColumns = { owner: boolean; domain: boolean };

export function renderRow(link: Link, selected: boolean, columns: RowColumns): HTMLTableRowElement {
  const tr = el("tr");
  // Rows are told apart by their key: the same alias may be on two domains (domain-api.ts).
  tr.dataset.id = keyOf(link);
  tr.classList.toggle("is-selected", selected);

  const select = cell("col-select");
  const box = el("input", "row-select");
  box.type = "checkbox";
  box.checked = selected;
  box.value = keyOf(link);
  box.setAttribute("aria-label", t("select_link", { id: link.id }));
  select.append(box);

  const main = cell("col-link");
  // The title first, as people know the link by it; the short URL and the destination stay under it.
  if (link.title !== null) {
    const title = el("span", "link-title", link.title);
    title.title = link.title;
    main.append(title);
  }
  const line = el("div", "link-line");
  const id = el("a", "link-id", `/${link.id}`);
  id.href = statsPath(link.id, domainOf(link));
  id.title = link.shortUrl;
  line.append(id, iconButton("copy", t("copy_short", { id: link.id }), "copy"));
  main.append(line, destinationLine(link));
  const badges = badgeList(link);
  if (badges) main.append(badges);
  if (columns.owner) main.append(ownerLine(link));

  const tags = cell("col-tags");
  if (link.tags.length > 0) {
    const list = el("span", "tags");
    for (const tag of link.tags) {
      const chip = el("button", "tag", tag);
      chip.type = "button";
      chip.dataset.tag = tag;
      chip.setAttribute("aria-label", t("filter_tag", { tag }));
      list.append(chip);
    }
    tags.append(list);
  }

  const created = cell("col-created", t("col_created"));
  created.append(timeElement(link.createdAt, shortDate(link.createdAt)));

  const clicks = cell("col-clicks num", t("col_clicks"));
  clicks.append(el("span", "clicks-total", formatNumber(link.totalClicks)), el("span", "clicks-human", t("human_clicks", { count: formatNumber(link.humanClicks) })));

  const daily = cell("col-daily");
  daily.append(sparkline(link.daily ?? []));

  const last = cell("col-last", t("col_last_click"));
  if (link.lastClickAt) last.append(timeElement(link.lastClickAt, relativeTime(link.lastClickAt)));
  else last.append(el("span", "muted", t("never")));

  const status = cell("col-status");
  status.append(el("span", `status status-${link.status}`, t(`status_${link.status}`)));
  // The expiry is a badge beside the destination (badges.ts); the click limit stays with the status.
  if (link.maxClicks !== null) status.append(el("span", "status-note", t("click_limit", { max: formatNumber(link.maxClicks) })));

  const actions = cell("col-actions");
  const menu = iconButton("more", t("actions_for", { id: link.id }), "menu");
  menu.setAttribute("popovertarget", "row-menu");
  menu.setAttribute("aria-haspopup", "menu");
  menu.setAttribute("aria-expanded", "false");
  actions.append(menu);

  tr.append(select, main);
  if (columns.domain) tr.append(domainCell(link));
  tr.append(tags, created, clicks, daily, last, status, actions);
  return tr;
}

/**
 * Who owns a link (an admin's list): a button that filters the list by them. A link made on the
 * public form without a key has no owner; it says so in those words, as "public" read like a
 * visibility setting.
 */
function ownerLine(link: Link): HTMLElement {
  if (link.owner === null) {
    const none = el("span", "owner owner-none", t("owner_none"));
    none.title = t("owner_none_title");
    return none;
  }
  const owner = el("button", "owner", link.owner);
  owner.type = "button";
  owner.dataset.owner = link.owner;
  owner.title = `${t("col_owner")}: ${link.owner}`;
  return owner;
}

/** The link's domain (several domains): a button that filters the list by it. */
function domainCell(link: Link): HTMLTableCellElement {
  const td = cell("col-domain", t("col_domain"));
  const name = link.domain;
  if (name === null) return td;
  const chip = el("button", "domain-chip", name);
  chip.type = "button";
  chip.dataset.domain = name;
  chip.setAttribute("aria-label", t("filter_domain", { domain: name }));
  td.append(chip);
  return td;
}
