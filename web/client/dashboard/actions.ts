// What can be done to links: on one link from its row (copy, and the row menu: QR code, statistics,
// edit, disable or enable, delete), and on the chosen links from the bulk bar (disable, enable,
// delete; export is a plain download link). After a change the page and the overview are read
// again, and focus goes back to the row it came from (or its neighbour when the row is gone). Rows
// are known by their link's key (domain-api.ts); a link off the default domain is addressed with ?domain=.
import { byId, copyText, formatNumber, t } from "../common.ts";
import { call, linkPath, type Link } from "./api.ts";
import { confirmDelete } from "./confirm.ts";
import type { LinkForm } from "./link-form.ts";
import type { FocusTarget, LinkList } from "./list.ts";
import { bindMenu } from "./menu.ts";
import type { OverviewPanel } from "./overview.ts";
import { showQr } from "./qr-dialog.ts";
import { showShares } from "./share-dialog.ts";
import { statsPath } from "./rows.ts";
import { toast } from "./toast.ts";
import { domainOf, keyOf } from "./domain-api.ts";
import { messageFor } from "../form-errors.ts";

export class Actions {
  private readonly menu = byId("row-menu");
  /** The key of the link whose menu is open (or was last opened). */
  private current: string | null = null;

  constructor(
    private readonly list: LinkList,
    private readonly overview: OverviewPanel,
    private readonly form: LinkForm,
  ) {
    bindMenu(this.menu, {
      onOpen: (opener) => this.prepareMenu(opener.closest("tr")?.dataset.id ?? null),
      onChoose: (item) => {
        if (this.current !== null && item.dataset.action) void this.run(item.dataset.action, this.current);
      },
    });
    list.body.addEventListener("click", (e) => {
      const button = (e.target as Element).closest<HTMLElement>('[data-action="copy"]');
      const id = button?.closest("tr")?.dataset.id;
      if (id) void this.run("copy", id);
    });
    byId("bulk-disable").addEventListener("click", () => void this.bulkToggle(true));
    byId("bulk-enable").addEventListener("click", () => void this.bulkToggle(false));
    byId("bulk-delete").addEventListener("click", () => void this.bulkDelete());
  }

  /** A control in a link's row, if the row is (still) shown. */
  private control(id: string, action: string): HTMLElement | null {
    const row = [...this.list.body.rows].find((r) => r.dataset.id === id);
    return row?.querySelector<HTMLElement>(`[data-action="${action}"]`) ?? null;
  }

  private prepareMenu(id: string | null): void {
    this.current = id;
    const link = id === null ? undefined : this.list.links.get(id);
    if (!link) return;
    this.menu.querySelector<HTMLElement>('[data-action="disable"]')!.hidden = link.disabled;
    this.menu.querySelector<HTMLElement>('[data-action="enable"]')!.hidden = !link.disabled;
    this.menu.querySelector<HTMLAnchorElement>('[data-action="stats"]')!.href = statsPath(link.id, domainOf(link));
  }

  /** Reads the page and the overview again, then focuses `focus`. */
  async refresh(focus: FocusTarget): Promise<void> {
    await Promise.all([this.list.load(focus), this.overview.load()]);
  }

  private async run(action: string, key: string): Promise<void> {
    const link = this.list.links.get(key);
    if (!link) return;
    const backToMenu = () => this.control(key, "menu");
    switch (action) {
      case "copy":
        toast((await copyText(link.shortUrl)) ? t("toast_copied", { url: link.shortUrl }) : t("copy_failed"));
        break;
      case "qr":
        showQr(link, backToMenu);
        break;
      case "share":
        showShares(link, backToMenu);
        break;
      case "edit":
        this.form.openEdit(link, backToMenu);
        break;
      case "disable":
      case "enable":
        await this.toggle(link, action === "disable");
        break;
      case "delete":
        await this.remove(link);
        break;
      // "stats" is a link: the browser follows it.
    }
  }

  private async toggle(link: Link, disabled: boolean): Promise<void> {
    const res = await call<Link>("PATCH", linkPath(link.id, domainOf(link)), { json: { disabled } });
    if (!res.ok) return toast(messageFor(res.body.code, res.body.error), "error");
    toast(t(disabled ? "toast_disabled" : "toast_enabled", { id: link.id }));
    await this.refresh({ id: keyOf(link), control: "menu" });
  }

  private async remove(link: Link): Promise<void> {
    const rows = [...this.list.body.rows];
    const key = keyOf(link);
    const at = rows.findIndex((r) => r.dataset.id === key);
    const neighbour = rows[at + 1]?.dataset.id ?? rows[at - 1]?.dataset.id ?? null;
    if (!(await confirmDelete([key], () => this.control(key, "menu")))) return;
    const res = await call("DELETE", linkPath(link.id, domainOf(link)));
    if (!res.ok) return toast(messageFor(res.body.code, res.body.error), "error");
    toast(t("toast_deleted", { id: link.id }));
    await this.refresh(neighbour ? { id: neighbour, control: "menu" } : "title");
  }

  /** One request per chosen link (by key), in turn (there is no bulk route; a page is at most 50). */
  private async each(keys: readonly string[], send: (path: string) => Promise<boolean>): Promise<void> {
    let done = 0;
    let failed = 0;
    for (const key of keys) {
      const link = this.list.links.get(key);
      (link && (await send(linkPath(link.id, domainOf(link))))) ? done++ : failed++;
    }
    toast(t("toast_bulk", { done: formatNumber(done), failed: formatNumber(failed) }), failed > 0 ? "error" : "ok");
  }

  private async bulkToggle(disabled: boolean): Promise<void> {
    const ids = this.list.selection.chosen();
    if (ids.length === 0) return;
    await this.each(ids, async (path) => (await call("PATCH", path, { json: { disabled } })).ok);
    await this.refresh(null);
  }

  private async bulkDelete(): Promise<void> {
    const ids = this.list.selection.chosen();
    if (ids.length === 0) return;
    if (!(await confirmDelete(ids, () => byId("bulk-delete")))) return;
    await this.each(ids, async (path) => (await call("DELETE", path)).ok);
    await this.refresh("title");
  }
}
