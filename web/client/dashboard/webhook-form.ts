// Adding a webhook, inside the webhooks dialog: its URL, the events it wants, and optionally one
// link or one tag. The answer carries the signing secret, which the API never gives again: it shows
// with a copy button until the dialog closes, and is then gone from the page.
import { bindCopyButton, byId } from "../common.ts";
import { fieldByCode, FormErrors, problemsOf, type ApiProblem } from "../form-errors.ts";
import { call } from "./api.ts";
import { webhookPath, type CreatedWebhook } from "./webhook-api.ts";

type Field = "url" | "events" | "linkId" | "tag";
const FIELDS: readonly string[] = ["url", "events", "linkId", "tag"] satisfies Field[];

export class WebhookForm {
  private readonly form = byId<HTMLFormElement>("webhook-form");
  private readonly addButton = byId<HTMLButtonElement>("webhook-add");
  private readonly submit = byId<HTMLButtonElement>("wf-submit");
  private readonly secretBox = byId("webhook-secret");
  private readonly secret = byId("webhook-secret-value");
  private readonly errors: FormErrors<Field>;

  constructor(private readonly onCreated: () => Promise<void>) {
    const part = (id: string, input = byId(id)) => ({ input, error: byId(`${id}-error`) });
    this.errors = new FormErrors<Field>(
      { url: { ...part("wf-url"), hint: byId("wf-url-hint") }, events: part("wf-events", this.checkboxes()[0]!), linkId: part("wf-link"), tag: part("wf-tag") },
      byId("wf-error"),
      (p) => this.fieldOf(p),
    );
    this.addButton.addEventListener("click", () => this.show());
    byId("wf-cancel").addEventListener("click", () => this.hide(true));
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.create();
    });
    bindCopyButton(byId<HTMLButtonElement>("webhook-secret-copy"), () => this.secret.textContent ?? "");
  }

  /** Back to the dialog's first look: no form, and no secret left in the page. */
  reset(): void {
    this.hide(false);
    this.secret.textContent = "";
    this.secretBox.hidden = true;
  }

  private checkboxes(): HTMLInputElement[] {
    return [...this.form.querySelectorAll<HTMLInputElement>('input[name="event"]')];
  }

  private show(): void {
    this.form.reset();
    this.errors.clear();
    this.secretBox.hidden = true;
    this.form.hidden = false;
    this.addButton.hidden = true;
    byId("wf-url").focus();
  }

  private hide(focus: boolean): void {
    this.form.hidden = true;
    this.addButton.hidden = false;
    if (focus) this.addButton.focus();
  }

  private fieldOf(problem: ApiProblem): Field | null {
    if (problem.field !== undefined && FIELDS.includes(problem.field)) return problem.field as Field;
    return fieldByCode(problem.code) === "url" ? "url" : null;
  }

  private async create(): Promise<void> {
    this.errors.clear();
    const text = (id: string) => byId<HTMLInputElement>(id).value.trim();
    const body: Record<string, unknown> = { url: text("wf-url"), events: this.checkboxes().filter((c) => c.checked).map((c) => c.value) };
    // Empty means every link: left out rather than sent as "".
    if (text("wf-link") !== "") body.linkId = text("wf-link");
    if (text("wf-tag") !== "") body.tag = text("wf-tag");
    this.submit.disabled = true;
    try {
      const res = await call<CreatedWebhook>("POST", webhookPath(), { json: body });
      if (!res.ok) {
        // The link field's one problem is an id that names no link (mistyped, or deleted): said as
        // for a link that does not exist, not as the API's generic bad_request.
        this.errors.show(problemsOf(res.body).map((p) => (p.field === "linkId" ? { ...p, code: "not_found" } : p)));
        return;
      }
      this.hide(false);
      this.secret.textContent = res.data.secret;
      this.secretBox.hidden = false;
      await this.onCreated();
      byId("webhook-secret-title").focus();
    } finally {
      this.submit.disabled = false;
    }
  }
}
