// The list of links: search, tag, status and (several domains) domain filters, sort, cursor pages
// (Previous keeps the cursors it came through), the rows, and the empty states. The filters live in
// the address (?q=&tag=&status=&domain=&sort=), so a reload or a shared link keeps them.
import { byId, el, formatNumber, t } from "../common.ts";
import { call, listPath, type Link, type LinkPage } from "./api.ts";
import { renderRow } from "./rows.ts";
import { domainChoices, keyOf, severalDomains } from "./domain-api.ts";
import { Selection } from "./selection.ts";
import { showTagStats } from "./aggregate-links.ts";

export const PAGE_SIZE = 50;
const SORTS = ["createdAt:desc", "createdAt:asc", "totalClicks:desc", "totalClicks:asc", "lastClickAt:desc"];
const STATUSES = ["", "active", "disabled", "expired", "blocked"];

/** What to focus once the rows are drawn: a control in a link's row, or the list's title. */
export type FocusTarget = { id: string; control: string } | "title" | "next" | "prev" | null;

export class LinkList {
  readonly links = new Map<string, Link>();
  readonly body = byId<HTMLTableSectionElement>("links-body");
  readonly selection = new Selection(this.body);
  private readonly form = byId<HTMLFormElement>("filters");
  private readonly q = byId<HTMLInputElement>("f-q");
  private readonly tag = byId<HTMLInputElement>("f-tag");
  private readonly owner = byId<HTMLInputElement>("f-owner");
  /** an admin sees everyone's links: who owns each, and the owner filter */
  private admin = false;
  private readonly owners = new Set<string>();
  private readonly status = byId<HTMLSelectElement>("f-status");
  private readonly domain = byId<HTMLSelectElement>("f-domain");
  /** the domain asked for in the address, until the domains are known (setDomains) */
  private domainAsked: string;
  private readonly sort = byId<HTMLSelectElement>("f-sort");
  private readonly clearButton = byId<HTMLButtonElement>("f-clear");
  private readonly prev = byId<HTMLButtonElement>("page-prev");
  private readonly next = byId<HTMLButtonElement>("page-next");
  private readonly tags = new Set<string>();
  /** cursors[i] opens page i (page 0 has none) */
  private cursors: (string | null)[] = [null];
  private nextCursor: string | null = null;
  private controller: AbortController | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    const params = new URLSearchParams(location.search);
    this.q.value = params.get("q") ?? "";
    this.tag.value = params.get("tag") ?? "";
    this.owner.value = params.get("owner") ?? "";
    this.domainAsked = params.get("domain") ?? "";
    this.status.value = STATUSES.includes(params.get("status") ?? "") ? (params.get("status") ?? "") : "";
    this.sort.value = SORTS.includes(params.get("sort") ?? "") ? params.get("sort")! : SORTS[0]!;

    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.filtersChanged(0);
    });
    // Typing searches after a pause; Enter searches at once.
    this.q.addEventListener("input", () => this.filtersChanged(300));
    this.tag.addEventListener("input", () => this.filtersChanged(300));
    this.owner.addEventListener("input", () => this.filtersChanged(300));
    this.status.addEventListener("change", () => this.filtersChanged(0));
    this.domain.addEventListener("change", () => this.filtersChanged(0));
    this.sort.addEventListener("change", () => this.filtersChanged(0));
    this.clearButton.addEventListener("click", () => {
      this.q.value = "";
      this.tag.value = "";
      this.owner.value = "";
      this.status.value = "";
      this.domain.value = "";
      this.filtersChanged(0);
      this.q.focus();
    });
    this.prev.addEventListener("click", () => void this.turn(-1));
    this.next.addEventListener("click", () => void this.turn(1));
    // A tag in a row, its owner in an admin's list, or its domain, filters by it.
    this.body.addEventListener("click", (e) => {
      const chip = (e.target as Element).closest<HTMLElement>("button.tag, button.owner, button.domain-chip");
      const data = chip?.dataset;
      const [field, value] = data?.tag ? [this.tag, data.tag] : data?.owner ? [this.owner, data.owner] : data?.domain ? [this.domain, data.domain] : [null, ""];
      if (field === null) return;
      field.value = value;
      this.filtersChanged(0);
      field.focus();
    });
  }

  private get page(): number {
    return this.cursors.length - 1;
  }

  private filtersChanged(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.cursors = [null];
      this.remember();
      void this.load();
    }, delay);
  }

  /** The filters into the address bar (no new history entry). */
  private remember(): void {
    const params = new URLSearchParams(location.search);
    params.delete("next");
    const set = (name: string, value: string, fallback = "") => (value && value !== fallback ? params.set(name, value) : params.delete(name));
    set("q", this.q.value.trim());
    set("tag", this.tag.value.trim());
    set("owner", this.admin ? this.owner.value.trim() : "");
    set("status", this.status.value);
    set("domain", this.domain.value);
    set("sort", this.sort.value, SORTS[0]);
    const query = params.toString();
    history.replaceState(null, "", query ? `?${query}` : location.pathname);
  }

  private async turn(step: 1 | -1): Promise<void> {
    if (step === 1 && this.nextCursor) this.cursors.push(this.nextCursor);
    else if (step === -1 && this.cursors.length > 1) this.cursors.pop();
    else return;
    await this.load(step === 1 ? "next" : "prev");
  }

  /** Back to the first page (after a create or an import: the new links are there). */
  async first(focus: FocusTarget = null): Promise<void> {
    this.cursors = [null];
    await this.load(focus);
  }

  /** Fetches the current page again and draws it; a newer load cancels an older one. */
  async load(focus: FocusTarget = null): Promise<void> {
    this.controller?.abort();
    const mine = (this.controller = new AbortController());
    showTagStats(byId<HTMLAnchorElement>("f-tag-stats"), this.tag.value.trim());
    const [sort, order] = this.sort.value.split(":") as [string, string];
    const status = byId("list-status");
    status.textContent = t("loading");
    let res;
    try {
      res = await call<LinkPage>(
        "GET",
        listPath({ q: this.q.value.trim(), tag: this.tag.value.trim(), owner: this.admin ? this.owner.value.trim() : "", domain: this.domain.value, status: this.status.value, sort, order, cursor: this.cursors[this.page] ?? null, limit: PAGE_SIZE }),
        undefined,
        mine.signal,
      );
    } catch {
      return; // aborted by a newer load
    }
    if (!res.ok) {
      // A tag that is not a valid tag finds nothing; anything else is said in the status line.
      status.textContent = res.body.field === "tag" ? "" : t("err_unknown");
      if (res.body.field === "tag") this.draw({ links: [], nextCursor: null }, focus);
      return;
    }
    // A later page emptied meanwhile (its last links deleted): show the page before it.
    if (res.data.links.length === 0 && this.page > 0) {
      this.cursors.pop();
      return this.load(focus === "next" || focus === "prev" ? "prev" : focus);
    }
    this.draw(res.data, focus);
  }

  private draw(page: LinkPage, focus: FocusTarget): void {
    this.links.clear();
    for (const link of page.links) {
      this.links.set(keyOf(link), link);
      for (const tag of link.tags) this.tags.add(tag);
      if (link.owner !== null) this.owners.add(link.owner);
    }
    this.nextCursor = page.nextCursor;
    const columns = { owner: this.admin, domain: severalDomains() };
    this.body.replaceChildren(...page.links.map((link) => renderRow(link, this.selection.has(keyOf(link)), columns)));
    this.selection.setPage(page.links.map(keyOf));

    const filtered = Boolean(this.q.value.trim() || this.tag.value.trim() || this.status.value || this.domain.value || (this.admin && this.owner.value.trim()));
    this.clearButton.hidden = !filtered;
    const none = page.links.length === 0;
    byId("links-wrap").hidden = none;
    byId("list-empty").hidden = !(none && !filtered);
    byId("list-nomatch").hidden = !(none && filtered);
    const from = this.page * PAGE_SIZE + 1;
    byId("list-status").textContent = none ? "" : t("showing", { from: formatNumber(from), to: formatNumber(from + page.links.length - 1) });
    byId("page-label").textContent = t("page_label", { page: formatNumber(this.page + 1) });
    this.prev.disabled = this.page === 0;
    this.next.disabled = page.nextCursor === null;
    byId("pager").hidden = this.page === 0 && page.nextCursor === null;
    this.markSort();
    byId("tag-options").replaceChildren(...[...this.tags].sort().map((tag) => Object.assign(el("option"), { value: tag })));
    byId("owner-options").replaceChildren(...[...this.owners].sort().map((owner) => Object.assign(el("option"), { value: owner })));
    this.focus(focus);
  }

  /** Whose list this is: an admin's shows every link's owner and filters by owner. */
  setAdmin(admin: boolean): void {
    this.admin = admin;
    byId("f-owner-field").hidden = !admin;
  }

  /**
   * The domains are known (after sign-in, and after a change in the domains dialog): with several,
   * the domain filter and column show; the filter keeps its choice while that domain is there.
   */
  setDomains(): void {
    const several = severalDomains();
    const chosen = this.domain.value || this.domainAsked;
    const names = domainChoices().map((d) => d.name);
    const all = Object.assign(el("option", "", t("domain_all")), { value: "" });
    this.domain.replaceChildren(all, ...names.map((name) => Object.assign(el("option", "", name), { value: name })));
    this.domain.value = several && names.includes(chosen) ? chosen : "";
    this.domainAsked = "";
    byId("f-domain-field").hidden = !several;
    byId("col-domain-head").hidden = !several;
  }

  /** Forgets every link (signed out). */
  clear(): void {
    this.controller?.abort();
    this.links.clear();
    this.tags.clear();
    this.owners.clear();
    this.body.replaceChildren();
    this.selection.setPage([]);
    byId("tag-options").replaceChildren();
    byId("owner-options").replaceChildren();
  }

  /** aria-sort on the column the list is sorted by. */
  private markSort(): void {
    const [sort, order] = this.sort.value.split(":");
    for (const th of document.querySelectorAll<HTMLElement>("#links-table th[data-sort]")) {
      if (th.dataset.sort === sort) th.setAttribute("aria-sort", order === "asc" ? "ascending" : "descending");
      else th.removeAttribute("aria-sort");
    }
  }

  private focus(target: FocusTarget): void {
    if (target === null) return;
    // Paging keeps focus on the button pressed; on the first or last page, on the other one.
    if (target === "next" || target === "prev") {
      const [pressed, other] = target === "next" ? [this.next, this.prev] : [this.prev, this.next];
      return (pressed.disabled ? other : pressed).focus();
    }
    if (target !== "title") {
      const row = [...this.body.rows].find((r) => r.dataset.id === target.id);
      const control = row?.querySelector<HTMLElement>(`[data-action="${target.control}"]`);
      if (control) return control.focus();
    }
    byId("list-title").focus();
  }
}
