// Adding or changing a domain, inside the domains dialog: its name (a change of name is a rename: its
// links' short URLs move with it), https, its root, not-found and fallback redirects, and robots.txt.
// A change sends only what changed (PATCH /api/domains/:name); empty redirects are the instance's.
import { byId, t } from "../common.ts";
import { fieldByCode, FormErrors, problemsOf, type ApiProblem } from "../form-errors.ts";
import { call } from "./api.ts";
import { domainPath, type Domain } from "./domain-api.ts";

type Field = "name" | "rootRedirect" | "notFoundRedirect" | "fallbackRedirect" | "robots";
const FIELDS: readonly string[] = ["name", "rootRedirect", "notFoundRedirect", "fallbackRedirect", "robots"] satisfies Field[];
type Values = { name: string; https: boolean; rootRedirect: string | null; notFoundRedirect: string | null; fallbackRedirect: string | null; robots: Domain["robots"] };

export class DomainForm {
  private readonly form = byId<HTMLFormElement>("domain-form");
  private readonly addButton = byId<HTMLButtonElement>("domain-add");
  private readonly submit = byId<HTMLButtonElement>("df-submit");
  private readonly name = byId<HTMLInputElement>("df-name");
  private readonly https = byId<HTMLInputElement>("df-https");
  private readonly root = byId<HTMLInputElement>("df-root");
  private readonly notFound = byId<HTMLInputElement>("df-not-found");
  private readonly fallback = byId<HTMLInputElement>("df-fallback");
  private readonly robots = byId<HTMLSelectElement>("df-robots");
  private readonly errors: FormErrors<Field>;
  /** the domain being changed; null: a new one */
  private editing: Domain | null = null;

  constructor(private readonly onSaved: (saved: Domain, kind: "added" | "changed") => Promise<void>) {
    const part = (id: string) => ({ input: byId(id), error: byId(`${id}-error`) });
    this.errors = new FormErrors<Field>(
      { name: { ...part("df-name"), hint: byId("df-name-hint") }, rootRedirect: part("df-root"), notFoundRedirect: part("df-not-found"), fallbackRedirect: part("df-fallback"), robots: part("df-robots") },
      byId("df-error"),
      (p) => this.fieldOf(p),
    );
    this.addButton.addEventListener("click", () => this.show(null));
    byId("df-cancel").addEventListener("click", () => this.hide(true));
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.save();
    });
  }

  /** Opens the form: empty to add a domain, or filled with `domain`'s settings to change it. */
  show(domain: Domain | null): void {
    this.editing = domain;
    this.errors.clear();
    byId("domain-form-title").textContent = domain === null ? t("domain_form_add") : t("domain_form_change", { name: domain.name });
    this.submit.textContent = domain === null ? t("domain_add_submit") : t("save");
    this.fill(domain ?? { name: "", https: true, rootRedirect: null, notFoundRedirect: null, fallbackRedirect: null, robots: null });
    this.form.hidden = false;
    this.addButton.hidden = true;
    this.name.focus();
  }

  hide(focus: boolean): void {
    this.form.hidden = true;
    this.addButton.hidden = false;
    this.editing = null;
    if (focus) this.addButton.focus();
  }

  private fill(v: Values): void {
    this.name.value = v.name;
    this.https.checked = v.https;
    this.root.value = v.rootRedirect ?? "";
    this.notFound.value = v.notFoundRedirect ?? "";
    this.fallback.value = v.fallbackRedirect ?? "";
    this.robots.value = v.robots ?? "";
  }

  private values(): Values {
    const url = (input: HTMLInputElement) => input.value.trim() || null;
    const robots = this.robots.value;
    return {
      name: this.name.value.trim(),
      https: this.https.checked,
      rootRedirect: url(this.root),
      notFoundRedirect: url(this.notFound),
      fallbackRedirect: url(this.fallback),
      robots: robots === "links" || robots === "none" || robots === "all" ? robots : null,
    };
  }

  private fieldOf(problem: ApiProblem): Field | null {
    if (problem.field !== undefined && FIELDS.includes(problem.field)) return problem.field as Field;
    return problem.code?.startsWith("domain_") || fieldByCode(problem.code) === "url" ? "name" : null;
  }

  private async save(): Promise<void> {
    const values = this.values();
    if (values.name === "") return void this.errors.show([{ code: "domain_invalid", field: "name" }]);
    const editing = this.editing;
    // A change sends what changed; a new domain leaves out what is the instance's anyway.
    const body: Partial<Values> = {};
    for (const [key, value] of Object.entries(values) as [keyof Values, Values[keyof Values]][]) {
      const before = editing === null ? (key === "https" ? true : key === "name" ? "" : null) : editing[key];
      if (value !== before) Object.assign(body, { [key]: value });
    }
    if (editing !== null && Object.keys(body).length === 0) return this.hide(true);
    this.submit.disabled = true;
    try {
      const res = editing === null ? await call<{ domain: Domain }>("POST", domainPath(), { json: body }) : await call<{ domain: Domain }>("PATCH", domainPath(editing.name), { json: body });
      if (!res.ok) return void this.errors.show(problemsOf(res.body));
      this.hide(false);
      await this.onSaved(res.data.domain, editing === null ? "added" : "changed");
    } finally {
      this.submit.disabled = false;
    }
  }
}
