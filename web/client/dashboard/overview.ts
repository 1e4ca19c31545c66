// The figures above the list, from one GET /api/overview: links, clicks today / 7 / 30 days (with
// the 30 days as a sparkline) and the five links with the most clicks in the last 30 days. With
// several domains, of every domain or of the one chosen above them (?domain=).
import { byId, el, formatNumber, t } from "../common.ts";
import { call, type Overview } from "./api.ts";
import { sparkline } from "./sparkline.ts";
import { displayUrl } from "../display-url.ts";
import { domainChoices, domainOf, severalDomains } from "./domain-api.ts";

export class OverviewPanel {
  private readonly topList = byId("top-links");
  private readonly topEmpty = byId("top-empty");
  private readonly domain = byId<HTMLSelectElement>("ov-domain");

  constructor(private readonly statsPath: (id: string, domain: string | null) => string) {
    this.domain.addEventListener("change", () => void this.load());
  }

  /** The domains are known: the choice shows with several, and keeps its domain while it is there. */
  setDomains(): void {
    const chosen = this.domain.value;
    const names = domainChoices().map((d) => d.name);
    const all = Object.assign(el("option", "", t("domain_all")), { value: "" });
    this.domain.replaceChildren(all, ...names.map((name) => Object.assign(el("option", "", name), { value: name })));
    this.domain.value = names.includes(chosen) ? chosen : "";
    byId("ov-domain-field").hidden = !severalDomains();
  }

  async load(): Promise<void> {
    const query = this.domain.value ? `?${new URLSearchParams({ domain: this.domain.value })}` : "";
    const res = await call<Overview>("GET", `/api/overview${query}`);
    if (!res.ok) return;
    const o = res.data;
    byId("ov-links").textContent = formatNumber(o.links);
    byId("ov-today").textContent = formatNumber(o.clicksToday);
    byId("ov-7d").textContent = formatNumber(o.clicks7d);
    byId("ov-30d").textContent = formatNumber(o.clicks30d);
    byId("ov-spark").replaceChildren(sparkline(o.daily, { width: 120, height: 28, stretch: true }));
    const max = Math.max(1, ...o.top.map((l) => l.clicks));
    this.topList.replaceChildren(
      ...o.top.map((link) => {
        const li = el("li", "bar top-item"); // drawn like the stats page's breakdown bars
        li.style.setProperty("--share", `${(link.clicks / max) * 100}%`);
        const name = el("span", "top-name");
        // Of every domain, a link off the default says which it is on.
        const off = domainOf(link);
        const a = el("a", "top-id", off !== null && !this.domain.value ? `${off}/${link.id}` : `/${link.id}`);
        a.href = this.statsPath(link.id, off);
        const dest = el("span", "top-dest", displayUrl(link.originalUrl));
        dest.title = link.originalUrl;
        name.append(a, dest);
        li.append(name, el("span", "bar-count", formatNumber(link.clicks)));
        return li;
      }),
    );
    this.topEmpty.hidden = o.top.length > 0;
  }
}
