// The link dialog's redirect rules: an ordered list of rule cards (rule-card.ts) that can be added,
// moved up and down, and deleted; the first rule whose conditions all hold wins, so order matters.
// Focus stays on the control used (a move keeps it on its button, a delete hands it to the
// neighbour), and a polite status line says what happened for those who cannot see it.
import type { Rule } from "../../../src/links/rules.ts";
import { byId, t } from "../common.ts";
import { RuleCard } from "./rule-card.ts";
import { withPlace, type PlacedProblem } from "./rule-problems.ts";

// The server's limit (src/links/rules.ts).
const MAX_RULES = 20;

export class RulesEditor {
  private readonly list = byId<HTMLOListElement>("lf-rules");
  private readonly add = byId<HTMLButtonElement>("lf-rule-add");
  private readonly status = byId("lf-rules-status");
  private readonly error = byId("lf-rules-error");
  private cards: RuleCard[] = [];

  constructor() {
    this.add.addEventListener("click", () => {
      const card = this.append({ conditions: [{ type: "device", value: "mobile" }], url: "" });
      this.renumber();
      card.focus();
    });
  }

  fill(rules: readonly Rule[]): void {
    this.cards = [];
    this.list.replaceChildren();
    for (const rule of rules) this.append(rule);
    this.renumber();
    this.clearProblems();
  }

  read(): Rule[] {
    return this.cards.map((c) => c.read());
  }

  /** Shows the first problem the dialog finds itself; returns the control to focus, or null when none. */
  check(): HTMLElement | null {
    for (const [i, card] of this.cards.entries()) {
      const problem = card.check(i + 1);
      if (problem) return this.showProblem({ ...problem, text: withPlace(problem, problem.text) }, problem.field);
    }
    return null;
  }

  /** Shows a problem beside the rule it names (or above the list when it names none). */
  showProblem(p: PlacedProblem, field?: HTMLElement): HTMLElement {
    const card = p.rule === undefined ? undefined : this.cards[p.rule - 1];
    if (card) return card.showProblem(p, field);
    this.error.textContent = p.text;
    this.error.hidden = false;
    return this.cards[0]?.element.querySelector("select") ?? this.add;
  }

  clearProblems(): void {
    for (const card of this.cards) card.clearProblem();
    this.error.hidden = true;
    this.error.textContent = "";
  }

  private append(rule: Rule): RuleCard {
    const card = new RuleCard(rule, {
      changed: () => this.renumber(),
      move: (c, by) => this.move(c, by),
      remove: (c) => this.remove(c),
    });
    this.cards.push(card);
    this.list.append(card.element);
    return card;
  }

  private move(card: RuleCard, by: -1 | 1): void {
    const from = this.cards.indexOf(card);
    const to = from + by;
    const other = this.cards[to];
    if (!other) return;
    // The neighbour moves, not this card: moving the card would take focus off its button.
    if (by === -1) card.element.after(other.element);
    else card.element.before(other.element);
    this.cards[from] = other;
    this.cards[to] = card;
    this.renumber();
    const pressed = by === -1 ? card.up : card.down;
    // At the top (or bottom) the button just used is disabled: the other move keeps the focus.
    if (pressed.disabled) (by === -1 ? card.down : card.up).focus();
    this.say(t("rule_moved", { n: to + 1 }));
  }

  private remove(card: RuleCard): void {
    const at = this.cards.indexOf(card);
    this.cards.splice(at, 1);
    card.element.remove();
    this.renumber();
    const next = this.cards[at] ?? this.cards[at - 1];
    if (next) next.remove.focus();
    else this.add.focus();
    this.say(t("rule_deleted", { n: at + 1 }));
  }

  private renumber(): void {
    this.cards.forEach((card, i) => card.number(i + 1, this.cards.length));
    this.add.hidden = this.cards.length >= MAX_RULES;
  }

  private say(text: string): void {
    this.status.textContent = text;
  }
}
