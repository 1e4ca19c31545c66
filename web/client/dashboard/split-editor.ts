// A split (A/B test): 2 to 5 URLs, each with a whole weight; a visitor gets one by weight and keeps
// it for the day. Used for the link's own destination and for a rule's. Each row shows its share
// of the traffic as the weights stand, so "3 and 1" reads as 75 % and 25 %.
import type { Variant } from "../../../src/links/rules.ts";
import { el, lang, t } from "../common.ts";
import { addButton, clearError, errorLine, input, showError } from "./editor-parts.ts";
import { iconButton } from "./rows.ts";

// The server's limits (src/links/rules.ts), so the buttons stop where it would refuse.
const MIN_VARIANTS = 2;
const MAX_VARIANTS = 5;
const MAX_WEIGHT = 1000;

const percent = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 });

type Row = { item: HTMLLIElement; url: HTMLInputElement; weight: HTMLInputElement; share: HTMLElement; remove: HTMLButtonElement };

export class SplitEditor {
  readonly element = el("div", "split");
  private readonly list = el("ol", "variant-list");
  private readonly add = addButton(t("variant_add"));
  private readonly error = errorLine();
  private rows: Row[] = [];

  constructor(private readonly onChange: () => void) {
    const head = el("div", "variant-head");
    head.setAttribute("aria-hidden", "true"); // each input carries its own name
    head.append(el("span", "", t("variant_col_url")), el("span", "", t("variant_col_weight")), el("span", "", t("variant_col_share")));
    this.add.addEventListener("click", () => {
      this.append({ url: "", weight: 1 }).url.focus();
      this.changed();
    });
    this.element.append(head, this.list, this.error, this.add);
  }

  /** Shows these variants; fewer than two are made up to two with empty rows. */
  fill(variants: readonly Variant[]): void {
    this.rows = [];
    this.list.replaceChildren();
    for (const v of variants) this.append(v);
    while (this.rows.length < MIN_VARIANTS) this.append({ url: "", weight: 1 });
    this.changed(false);
  }

  /** The variants as the API takes them (a weight that is not a number is sent as 0: the check says so first). */
  read(): Variant[] {
    return this.rows.map((r) => ({ url: r.url.value.trim(), weight: r.weight.value === "" ? 0 : Number(r.weight.value) }));
  }

  /** What the dialog can tell without the server: an empty URL, a weight out of 1–1000. */
  check(): { variant: number; text: string; field: HTMLElement } | null {
    for (const [i, r] of this.rows.entries()) {
      if (r.url.value.trim() === "") return { variant: i + 1, text: t("err_rule_url_missing"), field: r.url };
      const w = Number(r.weight.value);
      if (r.weight.value === "" || !Number.isInteger(w) || w < 1 || w > MAX_WEIGHT) return { variant: i + 1, text: t("err_weight_invalid"), field: r.weight };
    }
    return null;
  }

  /** Shows a problem of variant `n` (1-based; none: of the split as a whole); returns what to focus. */
  showProblem(n: number | undefined, text: string, field?: HTMLElement): HTMLElement {
    const target = field ?? (n === undefined ? this.rows[0]?.url : this.rows[n - 1]?.url) ?? this.add;
    showError(this.error, target, text);
    return target;
  }

  clearProblem(): void {
    clearError(this.error, this.element);
  }

  focus(): void {
    this.rows[0]?.url.focus();
  }

  private append(v: Variant): Row {
    const item = el("li", "variant");
    const url = input("url", "variant-url", "https://");
    url.value = v.url;
    const weight = input("number", "variant-weight");
    weight.min = "1";
    weight.max = String(MAX_WEIGHT);
    weight.step = "1";
    weight.inputMode = "numeric";
    weight.value = String(v.weight);
    const share = el("span", "variant-share");
    const row: Row = { item, url, weight, share, remove: iconButton("close", "", "remove-variant") };
    row.remove.addEventListener("click", () => this.removeRow(row));
    for (const field of [url, weight]) field.addEventListener("input", () => this.changed());
    item.append(url, weight, share, row.remove);
    this.list.append(item);
    this.rows.push(row);
    return row;
  }

  private removeRow(row: Row): void {
    const at = this.rows.indexOf(row);
    this.rows.splice(at, 1);
    row.item.remove();
    // Focus stays in the list: on the row that took this one's place, else the one before.
    (this.rows[at] ?? this.rows[at - 1])?.url.focus();
    this.changed();
  }

  /** Numbers the rows' names, updates the shares and which buttons apply, and tells the owner. */
  private changed(notify = true): void {
    const weights = this.rows.map((r) => Number(r.weight.value));
    const total = weights.every((w) => Number.isFinite(w) && w > 0) ? weights.reduce((a, w) => a + w, 0) : 0;
    this.rows.forEach((r, i) => {
      const n = i + 1;
      r.url.setAttribute("aria-label", t("variant_url", { n }));
      r.weight.setAttribute("aria-label", t("variant_weight", { n }));
      r.remove.setAttribute("aria-label", t("variant_remove", { n }));
      r.remove.title = t("variant_remove", { n });
      r.remove.disabled = this.rows.length <= MIN_VARIANTS;
      r.share.textContent = total > 0 ? percent.format(weights[i]! / total) : "–";
    });
    this.add.hidden = this.rows.length >= MAX_VARIANTS;
    if (notify) this.onChange();
  }
}
