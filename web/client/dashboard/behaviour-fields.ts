// The link dialog's "Behaviour" section, folded away until wanted: the redirect code (with a warning
// for the permanent ones), when the link starts to work, where it sends visitors once it no longer
// does, a password, whether search engines may follow it, a split of its own destination, and the
// redirect rules (rules-editor.ts). Creating sends what was set (snake_case); editing sends only
// what changed (camelCase), so an untouched past validFrom is not sent back as an error.
import type { Variant } from "../../../src/links/rules.ts";
import { byId, t } from "../common.ts";
import type { ApiProblem } from "../form-errors.ts";
import type { Link } from "./api.ts";
import { fromLocalInput, timeZone, toLocalInput } from "./format.ts";
import { placeOf, withPlace } from "./rule-problems.ts";
import { RulesEditor } from "./rules-editor.ts";
import { SplitEditor } from "./split-editor.ts";

export type BehaviourField = "redirect" | "validFrom" | "fallback" | "ios" | "android" | "password" | "crawlable";

/** The API's names (create: snake_case, PATCH: camelCase) of the fields this section shows. */
export const BEHAVIOUR_FIELDS: Record<string, BehaviourField> = {
  redirect_type: "redirect", redirectType: "redirect",
  valid_from: "validFrom", validFrom: "validFrom",
  fallback_url: "fallback", fallbackUrl: "fallback",
  ios_url: "ios", iosUrl: "ios",
  android_url: "android", androidUrl: "android",
  password: "password",
  crawlable: "crawlable",
};

/** Problems the editors show themselves, beside the rule or variant at fault. */
export function isEditorProblem(p: ApiProblem): boolean {
  return p.field === "rules" || p.field === "variants" || (!p.field && (p.code === "rules_invalid" || p.code === "variants_invalid"));
}

const PERMANENT = new Set(["301", "308"]);

/** The section's state as compared for an edit: what differs from it is sent. */
type Snapshot = { redirect: string; validFrom: string; fallback: string; ios: string; android: string; crawlable: boolean; rules: string; variants: string };

export class BehaviourFields {
  private readonly details = byId<HTMLDetailsElement>("lf-advanced");
  private readonly redirect = byId<HTMLSelectElement>("lf-redirect");
  private readonly warning = byId("lf-redirect-warning");
  private readonly validFrom = byId<HTMLInputElement>("lf-valid-from");
  private readonly fallback = byId<HTMLInputElement>("lf-fallback");
  // Shortcuts over the rules (docs/managing-links.md: Links into apps on phones): the API keeps each
  // as the first rule whose only condition is the system, so a saved one shows among the rules too.
  private readonly ios = byId<HTMLInputElement>("lf-ios");
  private readonly android = byId<HTMLInputElement>("lf-android");
  private readonly password = byId<HTMLInputElement>("lf-password");
  private readonly passwordSet = byId("lf-password-set");
  private readonly removePassword = byId<HTMLInputElement>("lf-password-remove");
  private readonly crawlable = byId<HTMLInputElement>("lf-crawlable");
  private readonly splitBox = byId<HTMLInputElement>("lf-split");
  private readonly split = new SplitEditor(() => undefined);
  private readonly rules = new RulesEditor();
  private initial: Snapshot = this.snapshot();

  /** `mainUrl`: the destination field's value, the first variant when a split is begun. */
  constructor(private readonly mainUrl: () => string) {
    byId("lf-valid-from-hint").textContent = t("field_valid_from_hint", { zone: timeZone });
    byId("lf-split-editor").append(this.split.element);
    this.redirect.addEventListener("change", () => this.showWarning());
    this.removePassword.addEventListener("change", () => {
      this.password.disabled = this.removePassword.checked;
      if (this.removePassword.checked) this.password.value = "";
    });
    this.splitBox.addEventListener("change", () => {
      // A split begun starts from the link's destination and one URL to try against it.
      if (this.splitBox.checked && this.split.read().every((v) => v.url === "")) this.split.fill([{ url: this.mainUrl().trim(), weight: 1 }]);
      this.showSplit();
      if (this.splitBox.checked) this.split.focus();
    });
  }

  /** Shows a link's behaviour (null: a new link's defaults); unfolded when anything is set. */
  fill(link: Link | null): void {
    this.redirect.value = String(link?.redirectType ?? 302);
    this.validFrom.value = link?.validFrom ? toLocalInput(link.validFrom) : "";
    this.fallback.value = link?.fallbackUrl ?? "";
    this.ios.value = link?.iosUrl ?? "";
    this.android.value = link?.androidUrl ?? "";
    this.crawlable.checked = link?.crawlable ?? false;
    this.password.value = "";
    this.password.disabled = false;
    this.removePassword.checked = false;
    this.passwordSet.hidden = !link?.passwordProtected;
    byId("lf-password-label").textContent = t(link?.passwordProtected ? "field_password_new" : "field_password");
    this.splitBox.checked = (link?.variants ?? null) !== null;
    this.split.fill(link?.variants ?? []);
    this.rules.fill(link?.rules ?? []);
    this.showWarning();
    this.showSplit();
    this.clearProblems();
    this.initial = this.snapshot();
    this.details.open = link !== null && (link.rules.length > 0 || link.variants !== null || link.passwordProtected || link.redirectType !== 302 || link.validFrom !== null || link.fallbackUrl !== null || link.crawlable);
  }

  private showWarning(): void {
    // A live region that is always there: setting its text is what gets announced.
    this.warning.textContent = PERMANENT.has(this.redirect.value) ? t("redirect_warning") : "";
  }

  private showSplit(): void {
    this.split.element.hidden = !this.splitBox.checked;
  }

  private variants(): Variant[] | null {
    return this.splitBox.checked ? this.split.read() : null;
  }

  private snapshot(): Snapshot {
    return {
      redirect: this.redirect.value,
      validFrom: this.validFrom.value,
      fallback: this.fallback.value.trim(),
      ios: this.ios.value.trim(),
      android: this.android.value.trim(),
      crawlable: this.crawlable.checked,
      rules: JSON.stringify(this.rules.read()),
      variants: JSON.stringify(this.variants()),
    };
  }

  /** The fields of a create (POST /api/create, snake_case): only what differs from the defaults. */
  createFields(): Record<string, unknown> {
    const body: Record<string, unknown> = {};
    const rules = this.rules.read();
    if (rules.length > 0) body.rules = rules;
    const variants = this.variants();
    if (variants) body.variants = variants;
    if (this.redirect.value !== "302") body.redirect_type = Number(this.redirect.value);
    if (this.validFrom.value) body.valid_from = fromLocalInput(this.validFrom.value);
    if (this.fallback.value.trim()) body.fallback_url = this.fallback.value.trim();
    if (this.ios.value.trim()) body.ios_url = this.ios.value.trim();
    if (this.android.value.trim()) body.android_url = this.android.value.trim();
    if (this.password.value) body.password = this.password.value;
    if (this.crawlable.checked) body.crawlable = true;
    return body;
  }

  /** The changes of an edit (PATCH, camelCase): what differs from the link as shown; null clears. */
  changes(): Record<string, unknown> {
    const now = this.snapshot();
    const was = this.initial;
    const changes: Record<string, unknown> = {};
    if (now.rules !== was.rules) {
      const rules = this.rules.read();
      changes.rules = rules.length > 0 ? rules : null;
    }
    if (now.variants !== was.variants) changes.variants = this.variants();
    if (now.redirect !== was.redirect) changes.redirectType = Number(now.redirect);
    if (now.validFrom !== was.validFrom) changes.validFrom = now.validFrom ? fromLocalInput(now.validFrom) : null;
    if (now.fallback !== was.fallback) changes.fallbackUrl = now.fallback || null;
    if (now.ios !== was.ios) changes.iosUrl = now.ios || null;
    if (now.android !== was.android) changes.androidUrl = now.android || null;
    if (now.crawlable !== was.crawlable) changes.crawlable = now.crawlable;
    if (this.removePassword.checked) changes.password = null;
    else if (this.password.value) changes.password = this.password.value;
    return changes;
  }

  /** Problems of the plain fields the browser already knows (a half-typed date). */
  localProblems(): ApiProblem[] {
    return this.validFrom.validity.badInput ? [{ code: "valid_from_invalid", field: "valid_from" }] : [];
  }

  /** Shows the first problem each editor finds itself; returns the control to focus, or null when none. */
  checkEditors(): HTMLElement | null {
    const split = this.splitBox.checked ? this.split.check() : null;
    const own = split ? this.split.showProblem(split.variant, withPlace({ variant: split.variant }, split.text), split.field) : null;
    const rule = this.rules.check();
    const first = own ?? rule;
    if (first) this.details.open = true;
    return first;
  }

  /** Shows the server's problems with rules and the split beside their place; returns what to focus. */
  showEditorProblems(problems: readonly ApiProblem[]): HTMLElement | null {
    let first: HTMLElement | null = null;
    for (const problem of problems) {
      const placed = placeOf(problem);
      const target = problem.field === "variants" && this.splitBox.checked ? this.split.showProblem(placed.variant, placed.text) : this.rules.showProblem(placed);
      first ??= target;
    }
    if (first) this.details.open = true;
    return first;
  }

  clearProblems(): void {
    this.split.clearProblem();
    this.rules.clearProblems();
  }

  /** Whether the link will be password-protected once saved: a new password typed, or the stored one kept. */
  passwordProtected(): boolean {
    return this.password.value !== "" || (!this.passwordSet.hidden && !this.removePassword.checked);
  }

  /** Unfolds the section (a problem inside it is about to be shown). */
  open(): void {
    this.details.open = true;
  }
}
