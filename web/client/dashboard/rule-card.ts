// One rule in the editor: a group named "Rule n" with its summary in words ("If device is Mobile →
// https://m.example.com"), buttons to move it up or down and to delete it, its conditions (1 to 5,
// all must hold), and where it sends visitors: one URL, or a split among several.
import type { Condition, Rule } from "../../../src/links/rules.ts";
import { el, lang, t, uniqueId } from "../common.ts";
import { ConditionRow } from "./condition-row.ts";
import { addButton, clearError, errorLine, input, showError } from "./editor-parts.ts";
import type { PlacedProblem } from "./rule-problems.ts";
import { iconButton } from "./rows.ts";
import { SplitEditor } from "./split-editor.ts";

// The server's limit (src/links/rules.ts).
const MAX_CONDITIONS = 5;

const listFormat = new Intl.ListFormat(lang, { type: "conjunction" });

/** What a card asks of the editor that holds it. */
export type CardHooks = { changed: () => void; move: (card: RuleCard, by: -1 | 1) => void; remove: (card: RuleCard) => void };

export class RuleCard {
  readonly element = el("li", "rule");
  readonly up = iconButton("up", "", "rule-up");
  readonly down = iconButton("down", "", "rule-down");
  readonly remove = iconButton("trash", "", "rule-delete");
  private readonly title = el("h4", "rule-title");
  private readonly summaryLine = el("p", "rule-summary");
  private readonly conditionList = el("ol", "condition-list");
  private readonly addCondition = addButton(t("condition_add"));
  private readonly destination = el("fieldset", "rule-destination");
  private readonly toOne: HTMLInputElement;
  private readonly toSplit: HTMLInputElement;
  private readonly url = input("url", "rule-url", "https://");
  private readonly split: SplitEditor;
  private readonly error = errorLine();
  private conditions: ConditionRow[] = [];

  constructor(rule: Rule, private readonly hooks: CardHooks) {
    const changed = () => this.changed();
    this.split = new SplitEditor(changed);
    this.title.id = uniqueId("rule-title");
    const group = el("div", "rule-body");
    group.setAttribute("role", "group");
    group.setAttribute("aria-labelledby", this.title.id);

    const tools = el("div", "rule-tools");
    tools.append(this.up, this.down, this.remove);
    const head = el("div", "rule-head");
    head.append(this.title, tools);
    this.up.addEventListener("click", () => hooks.move(this, -1));
    this.down.addEventListener("click", () => hooks.move(this, 1));
    this.remove.addEventListener("click", () => hooks.remove(this));

    const conditionsLabel = el("p", "rule-label", t("rule_conditions"));
    conditionsLabel.id = uniqueId("rule-conditions");
    this.conditionList.setAttribute("aria-labelledby", conditionsLabel.id);
    for (const c of rule.conditions) this.appendCondition(c);
    this.addCondition.addEventListener("click", () => {
      this.appendCondition({ type: "device", value: "mobile" }).focus();
      this.changed();
    });

    [this.toOne, this.toSplit] = this.destinationChoice();
    this.url.value = rule.url ?? "";
    this.url.setAttribute("aria-label", t("rule_url"));
    this.url.addEventListener("input", changed);
    this.split.fill(rule.variants ?? []);
    this.toSplit.checked = rule.variants !== undefined;
    this.toOne.checked = !this.toSplit.checked;
    this.destination.append(this.url, this.split.element);

    group.append(head, this.summaryLine, conditionsLabel, this.conditionList, this.addCondition, this.destination, this.error);
    this.element.append(group);
    this.showDestination();
  }

  /** The One URL / Split choice, as the stats page's segmented control. */
  private destinationChoice(): [HTMLInputElement, HTMLInputElement] {
    const legend = el("legend", "rule-label", t("rule_destination"));
    const choice = el("div", "segmented");
    const name = uniqueId("rule-to");
    const radio = (label: string) => {
      const wrap = el("label", "seg");
      const box = el("input");
      box.type = "radio";
      box.name = name;
      box.addEventListener("change", () => this.switchDestination());
      wrap.append(box, el("span", "", label));
      choice.append(wrap);
      return box;
    };
    const pair: [HTMLInputElement, HTMLInputElement] = [radio(t("destination_one")), radio(t("destination_split"))];
    this.destination.append(legend, choice);
    return pair;
  }

  /** Switching keeps what was typed: one URL becomes the split's first, the split's first the one URL. */
  private switchDestination(): void {
    if (this.toSplit.checked) {
      const [first, ...rest] = this.split.read();
      if (!first?.url && this.url.value.trim()) this.split.fill([{ url: this.url.value.trim(), weight: first?.weight || 1 }, ...rest]);
    } else if (!this.url.value.trim()) {
      this.url.value = this.split.read()[0]?.url ?? "";
    }
    this.showDestination();
    this.changed();
  }

  private showDestination(): void {
    this.url.hidden = this.toSplit.checked;
    this.split.element.hidden = !this.toSplit.checked;
  }

  private appendCondition(c: Condition): ConditionRow {
    const row = new ConditionRow(c, () => this.changed());
    row.remove.addEventListener("click", () => {
      const at = this.conditions.indexOf(row);
      this.conditions.splice(at, 1);
      row.element.remove();
      (this.conditions[at] ?? this.conditions[at - 1])?.focus();
      this.changed();
    });
    this.conditions.push(row);
    this.conditionList.append(row.element);
    return row;
  }

  private changed(): void {
    this.hooks.changed();
  }

  /** The rule as the API takes it. */
  read(): Rule {
    const conditions = this.conditions.map((c) => c.read());
    return this.toSplit.checked ? { conditions, variants: this.split.read() } : { conditions, url: this.url.value.trim() };
  }

  /** The first problem the dialog can tell without the server, placed in this rule (`n`: its number). */
  check(n: number): (PlacedProblem & { field: HTMLElement }) | null {
    for (const [i, c] of this.conditions.entries()) {
      const problem = c.check();
      if (problem) return { rule: n, condition: i + 1, ...problem };
    }
    if (this.toSplit.checked) {
      const problem = this.split.check();
      return problem ? { rule: n, ...problem } : null;
    }
    if (this.url.value.trim() === "") return { rule: n, text: t("err_rule_url_missing"), field: this.url };
    return null;
  }

  /** Shows a problem of this rule beside it; returns the control to focus. */
  showProblem(p: PlacedProblem, field?: HTMLElement): HTMLElement {
    // Not about a condition, in a rule that splits: about its variants.
    if (this.toSplit.checked && p.condition === undefined) return this.split.showProblem(p.variant, p.text, field);
    const target = field ?? (p.condition !== undefined ? this.conditions[p.condition - 1]?.firstField : undefined) ?? this.url;
    // Said where the fault is: under the conditions for a condition, else under the destination.
    if (p.condition !== undefined) this.addCondition.before(this.error);
    else this.destination.after(this.error);
    showError(this.error, target, p.text);
    return target;
  }

  clearProblem(): void {
    clearError(this.error, this.element);
    this.split.clearProblem();
  }

  /** Names the card and its controls after its place (Rule n) and sets which moves apply. */
  number(n: number, count: number): void {
    this.title.textContent = t("rule_title", { n });
    const label = (button: HTMLButtonElement, text: string) => {
      button.setAttribute("aria-label", text);
      button.title = text;
    };
    label(this.up, t("rule_move_up", { n }));
    label(this.down, t("rule_move_down", { n }));
    label(this.remove, t("rule_delete", { n }));
    this.up.disabled = n === 1;
    this.down.disabled = n === count;
    this.conditions.forEach((c, i) => c.number(i + 1, this.conditions.length > 1));
    this.addCondition.hidden = this.conditions.length >= MAX_CONDITIONS;
    this.summaryLine.textContent = this.summary();
  }

  /** "If device is Mobile and ?v=2 → https://m.example.com" */
  summary(): string {
    const conditions = listFormat.format(this.conditions.map((c) => c.summary()));
    const rule = this.read();
    const destination = rule.variants ? t("summary_split", { count: rule.variants.length }) : rule.url || "…";
    return t("rule_summary", { conditions, destination });
  }

  focus(): void {
    this.conditions[0]?.focus();
  }
}
