// Choosing several links on the current page: a box per row, one for the whole page (checked,
// unchecked or mixed), and the bar of bulk actions that shows while anything is chosen.
import { byId, formatNumber, t } from "../common.ts";
import { exportPath } from "./api.ts";

export class Selection {
  private readonly ids = new Set<string>();
  private pageIds: string[] = [];
  private readonly pageBox = byId<HTMLInputElement>("select-page");
  private readonly bar = byId("bulk");
  private readonly count = byId("bulk-count");
  private readonly exportLink = byId<HTMLAnchorElement>("bulk-export");

  constructor(private readonly body: HTMLElement) {
    body.addEventListener("change", (e) => {
      const box = e.target as HTMLInputElement;
      if (!box.classList.contains("row-select")) return;
      this.set(box.value, box.checked);
    });
    this.pageBox.addEventListener("change", () => {
      for (const id of this.pageIds) this.set(id, this.pageBox.checked, false);
      this.sync();
    });
    byId("bulk-clear").addEventListener("click", () => {
      this.clear();
      this.pageBox.focus();
    });
  }

  /** The chosen ids, in page order. */
  chosen(): string[] {
    return this.pageIds.filter((id) => this.ids.has(id));
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** A new page is shown: keep only choices that are on it. */
  setPage(ids: readonly string[]): void {
    this.pageIds = [...ids];
    for (const id of [...this.ids]) if (!ids.includes(id)) this.ids.delete(id);
    this.sync();
  }

  clear(): void {
    this.ids.clear();
    this.sync();
  }

  private set(id: string, on: boolean, sync = true): void {
    if (on) this.ids.add(id);
    else this.ids.delete(id);
    if (sync) this.sync();
  }

  private sync(): void {
    for (const box of this.body.querySelectorAll<HTMLInputElement>(".row-select")) {
      box.checked = this.ids.has(box.value);
      box.closest("tr")?.classList.toggle("is-selected", box.checked);
    }
    const n = this.chosen().length;
    this.pageBox.checked = n > 0 && n === this.pageIds.length;
    this.pageBox.indeterminate = n > 0 && n < this.pageIds.length;
    this.pageBox.disabled = this.pageIds.length === 0;
    this.bar.hidden = n === 0;
    this.count.textContent = t("selected_count", { count: formatNumber(n) });
    this.exportLink.href = exportPath("csv", this.chosen());
  }
}
