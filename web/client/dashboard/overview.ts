// The figures above the list, from one GET /api/overview: links, clicks today / 7 / 30 days (with
// the 30 days as a sparkline) and the five links with the most clicks in the last 30 days.
import { byId, el, formatNumber } from "../common.ts";
import { call, type Overview } from "./api.ts";
import { sparkline } from "./sparkline.ts";
import { displayUrl } from "../display-url.ts";

export class OverviewPanel {
  private readonly topList = byId("top-links");
  private readonly topEmpty = byId("top-empty");

  constructor(private readonly statsPath: (id: string) => string) {}

  async load(): Promise<void> {
    const res = await call<Overview>("GET", "/api/overview");
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
        const a = el("a", "top-id", `/${link.id}`);
        a.href = this.statsPath(link.id);
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
