// The overview's card of visits to no link, for admins (docs/statistics.md: Visits to no link):
// one GET /api/orphan-visits (the last 30 days): the three types with people and bots apart, and
// the most visited paths drawn as the top links are. Its Export menu's items are plain downloads of
// GET /api/orphan-visits/export; the menu is placed and driven as every menu of the dashboard.
import { byId, el, formatNumber, t } from "../common.ts";
import { call } from "./api.ts";
import { bindMenu } from "./menu.ts";

type Counts = { total: number; humans: number; bots: number };
type OrphanSummary = {
  counts: Counts;
  byType: Record<"base_url" | "invalid_short_url" | "regular_404", Counts>;
  topPaths: (Counts & { type: string; path: string })[];
};

export class OrphansCard {
  private readonly card = byId("orphans-card");
  private admin = false;

  constructor() {
    bindMenu(byId("orphans-export-menu"));
  }

  /** Only an admin's overview has the card (the API refuses anyone else). */
  setAdmin(admin: boolean): void {
    this.admin = admin;
    if (!admin) this.card.hidden = true;
  }

  async load(): Promise<void> {
    if (!this.admin) return;
    const res = await call<OrphanSummary>("GET", "/api/orphan-visits");
    if (!res.ok) return;
    const o = res.data;
    for (const type of ["base_url", "invalid_short_url", "regular_404"] as const) {
      const c = o.byType[type];
      byId(`orphans-${type}`).textContent = formatNumber(c.total);
      byId(`orphans-${type}-split`).textContent = t("orphans_humans_bots", { humans: formatNumber(c.humans), bots: formatNumber(c.bots) });
    }
    const max = Math.max(1, ...o.topPaths.map((p) => p.total));
    byId("orphans-paths").replaceChildren(
      ...o.topPaths.map((p) => {
        const li = el("li", "bar top-item");
        li.style.setProperty("--share", `${(p.total / max) * 100}%`);
        const name = el("span", "top-name");
        name.append(el("span", "top-id", p.path), el("span", "top-dest", t(`orphans_${p.type}` as "orphans_regular_404")));
        li.append(name, el("span", "bar-count", formatNumber(p.total)));
        return li;
      }),
    );
    byId("orphans-empty").hidden = o.topPaths.length > 0;
    this.card.hidden = false;
  }
}
