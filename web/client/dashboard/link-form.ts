// The create and edit dialog: every field of a link (destination, title, alias when creating, expiry,
// click limit, tags, its preview card: card-preview.ts, and its behaviour: behaviour-fields.ts), and with several domains the domain
// it is made on (chosen when creating, shown when editing: a link does not move between domains).
// Creating posts to /api/create (the link belongs to the signed-in key); editing sends only what
// changed (PATCH), so an untouched past expiry is not sent back as an error.
import { byId, t } from "../common.ts";
import { fieldByCode, FormErrors, problemsOf, type ApiProblem } from "../form-errors.ts";
import { call, linkPath, type Link } from "./api.ts";
import { BEHAVIOUR_FIELDS, BehaviourFields, isEditorProblem, type BehaviourField } from "./behaviour-fields.ts";
import { CARD_FIELDS, CardEditor, type CardField } from "./card-preview.ts";
import { openDialog } from "./dialogs.ts";
import { fromLocalInput, timeZone, toLocalInput } from "./format.ts";
import { domainChoices, domainOf, keyOf, linkKey, severalDomains } from "./domain-api.ts";

type Field = "url" | "title" | "alias" | "domain" | "expires" | "max" | "tags" | CardField | BehaviourField;
/** `key`: the link's key in the page (domain-api.ts), `id` its alias. */
export type Saved = { kind: "created" | "saved"; id: string; key: string };

const API_FIELDS: Record<string, Field> = {
  url: "url",
  title: "title",
  custom_url: "alias",
  domain: "domain",
  expires_at: "expires",
  expiresAt: "expires",
  max_clicks: "max",
  maxClicks: "max",
  tags: "tags",
  ...CARD_FIELDS,
  ...BEHAVIOUR_FIELDS,
};

const BEHAVIOUR: ReadonlySet<Field | null> = new Set(Object.values(BEHAVIOUR_FIELDS));
const CARD: ReadonlySet<Field | null> = new Set(Object.values(CARD_FIELDS));

function tagList(text: string): string[] {
  return text.split(",").map((tag) => tag.trim()).filter((tag) => tag !== "");
}

export class LinkForm {
  private readonly dialog = byId<HTMLDialogElement>("link-dialog");
  private readonly form = byId<HTMLFormElement>("link-form");
  private readonly title = byId("link-dialog-title");
  private readonly submit = byId<HTMLButtonElement>("lf-submit");
  private readonly url = byId<HTMLInputElement>("lf-url");
  private readonly linkTitle = byId<HTMLInputElement>("lf-title");
  private readonly alias = byId<HTMLInputElement>("lf-alias");
  private readonly expires = byId<HTMLInputElement>("lf-expires");
  private readonly max = byId<HTMLInputElement>("lf-max");
  private readonly tags = byId<HTMLInputElement>("lf-tags");
  private readonly domain = byId<HTMLSelectElement>("lf-domain");
  private readonly aliasHost = Object.assign(document.createElement("span"), { className: "affix-host", textContent: location.host });
  private readonly errors: FormErrors<Field>;
  private readonly behaviour = new BehaviourFields(() => this.url.value);
  // The card's preview site is the short URL's host: the link's own when editing, the chosen domain's when creating.
  private readonly card = new CardEditor(() => ({
    linkTitle: this.linkTitle.value,
    site: this.editing ? new URL(this.editing.shortUrl).host : this.domain.value || location.host,
    passwordProtected: this.behaviour.passwordProtected(),
  }));
  private editing: Link | null = null;
  private initial = { url: "", title: "", expires: "", max: "", tags: "" };

  constructor(private readonly onSaved: (saved: Saved) => Promise<void>) {
    const part = (id: string, hint = true) => ({ input: byId(id), error: byId(`${id}-error`), hint: hint ? byId(`${id}-hint`) : undefined });
    this.errors = new FormErrors<Field>(
      {
        url: part("lf-url", false), title: part("lf-title"), alias: part("lf-alias"), domain: part("lf-domain", false), expires: part("lf-expires"), max: part("lf-max"), tags: part("lf-tags"),
        cardTitle: part("lf-card-title"), cardDescription: part("lf-card-description"), cardImage: part("lf-card-image"),
        redirect: part("lf-redirect"), validFrom: part("lf-valid-from"), fallback: part("lf-fallback"), ios: part("lf-ios"), android: part("lf-android"), password: part("lf-password"), crawlable: part("lf-crawlable"),
      },
      byId("lf-error"),
      (p) => this.fieldOf(p),
    );
    byId("lf-alias-prefix").append(this.aliasHost, "/");
    // The alias is on the chosen domain: its name before it.
    this.domain.addEventListener("change", () => (this.aliasHost.textContent = this.domain.value || location.host));
    byId("lf-expires-hint").textContent = t("field_expires_hint", { zone: timeZone });
    // The preview follows the link's title, its domain and whether a password will guard it.
    for (const id of ["lf-title", "lf-password"]) byId(id).addEventListener("input", () => this.card.render());
    for (const id of ["lf-password-remove", "lf-domain"]) byId(id).addEventListener("change", () => this.card.render());
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.save();
    });
  }

  /** The field a problem concerns: by the API's name for it (create's or PATCH's), else by its code. */
  private fieldOf(p: ApiProblem): Field | null {
    return (p.field && API_FIELDS[p.field]) || API_FIELDS[fieldByCode(p.code) ?? ""] || null;
  }

  /** `prefill`: a page's address and title handed over by the bookmarklet (prefill.ts). */
  openCreate(prefill: { url: string; title: string } | null = null): void {
    this.editing = null;
    this.title.textContent = t("dialog_new_title");
    this.submit.textContent = t("create");
    byId("lf-alias-field").hidden = false;
    this.showDomain(null);
    this.fill({ url: prefill?.url ?? "", title: prefill?.title ?? "", expires: "", max: "", tags: "" });
    this.behaviour.fill(null);
    this.card.fill(null);
    this.alias.value = "";
    openDialog(this.dialog);
  }

  openEdit(link: Link, returnTo: () => HTMLElement | null): void {
    this.editing = link;
    this.title.textContent = t("dialog_edit_title", { id: link.id });
    this.submit.textContent = t("save");
    byId("lf-alias-field").hidden = true;
    this.showDomain(link);
    this.fill({
      url: link.originalUrl,
      title: link.title ?? "",
      expires: link.expiresAt ? toLocalInput(link.expiresAt) : "",
      max: link.maxClicks === null ? "" : String(link.maxClicks),
      tags: link.tags.join(", "),
    });
    this.behaviour.fill(link);
    this.card.fill(link);
    openDialog(this.dialog, returnTo);
  }

  /**
   * The domain picker, with several domains only: the default first and chosen when creating; the
   * link's own, not to be changed, when editing.
   */
  private showDomain(link: Link | null): void {
    const choices = domainChoices();
    const names = link === null ? choices.map((d) => d.name) : [link.domain ?? ""];
    this.domain.replaceChildren(...names.map((name) => Object.assign(document.createElement("option"), { value: name, textContent: name })));
    this.domain.disabled = link !== null;
    byId("lf-domain-field").hidden = !severalDomains();
    this.aliasHost.textContent = this.domain.value || location.host;
  }

  private fill(values: typeof this.initial): void {
    this.errors.clear();
    this.initial = values;
    this.url.value = values.url;
    this.linkTitle.value = values.title;
    this.expires.value = values.expires;
    this.max.value = values.max;
    this.tags.value = values.tags;
  }

  /** What the browser already knows is wrong: an empty URL, a half-typed date, text in the number. */
  private localProblems(): ApiProblem[] {
    const problems: ApiProblem[] = [];
    if (!this.url.value.trim()) problems.push({ code: "url_missing", field: "url" });
    if (this.expires.validity.badInput) problems.push({ code: "expires_invalid", field: "expires_at" });
    if (this.max.validity.badInput) problems.push({ code: "max_clicks_invalid", field: "max_clicks" });
    return problems;
  }

  /**
   * Shows the fields' problems by their fields and, through `showEditors`, the rules' and the
   * split's beside their place; focuses the first field at fault, else the editors' control.
   * Returns whether there was any problem.
   */
  private present(problems: readonly ApiProblem[], showEditors: () => HTMLElement | null): boolean {
    // Folded away, a field at fault could not take the focus.
    if (problems.some((p) => BEHAVIOUR.has(this.fieldOf(p)))) this.behaviour.open();
    if (problems.some((p) => CARD.has(this.fieldOf(p)))) this.card.open();
    const first = this.errors.show(problems);
    this.behaviour.clearProblems();
    const inEditor = showEditors();
    if (!first) inEditor?.focus();
    return first !== null || inEditor !== null;
  }

  /** The server's problems: the editors' beside their rule or variant, the rest by their fields. */
  private showProblems(problems: readonly ApiProblem[]): void {
    const placed = problems.filter(isEditorProblem);
    this.present(problems.filter((p) => !isEditorProblem(p)), () => this.behaviour.showEditorProblems(placed));
  }

  private async save(): Promise<void> {
    if (this.present([...this.localProblems(), ...this.behaviour.localProblems()], () => this.behaviour.checkEditors())) return;
    this.submit.disabled = true;
    const label = this.submit.textContent;
    this.submit.textContent = t("saving");
    try {
      const saved = this.editing ? await this.patch(this.editing) : await this.create();
      if (!saved) return;
      this.dialog.close();
      await this.onSaved(saved);
    } finally {
      this.submit.disabled = false;
      this.submit.textContent = label;
    }
  }

  private async create(): Promise<Saved | null> {
    const body: Record<string, unknown> = { url: this.url.value.trim() };
    // The server fits the title (whitespace collapsed, trimmed: src/links/title.ts); empty: none.
    if (this.linkTitle.value.trim()) body.title = this.linkTitle.value;
    const alias = this.alias.value.trim();
    if (alias) body.custom_url = alias;
    const domain = severalDomains() ? this.domain.value : "";
    if (domain) body.domain = domain;
    if (this.expires.value) body.expires_at = fromLocalInput(this.expires.value);
    if (this.max.value) body.max_clicks = Number(this.max.value);
    if (this.tags.value.trim()) body.tags = tagList(this.tags.value);
    Object.assign(body, this.card.createFields(), this.behaviour.createFields());
    const res = await call<{ shortUrl: string }>("POST", "/api/create", { json: body });
    if (!res.ok) {
      this.showProblems(problemsOf(res.body));
      return null;
    }
    const id = decodeURIComponent(new URL(res.data.shortUrl).pathname.slice(1));
    return { kind: "created", id, key: linkKey(id, domain || null) };
  }

  private async patch(link: Link): Promise<Saved | null> {
    const changes: Record<string, unknown> = {};
    if (this.url.value.trim() !== this.initial.url) changes.url = this.url.value.trim();
    // Emptied: null clears it (docs/managing-links.md); an untouched title is not sent back.
    if (this.linkTitle.value !== this.initial.title) changes.title = this.linkTitle.value.trim() ? this.linkTitle.value : null;
    if (this.expires.value !== this.initial.expires) changes.expiresAt = this.expires.value ? fromLocalInput(this.expires.value) : null;
    if (this.max.value !== this.initial.max) changes.maxClicks = this.max.value ? Number(this.max.value) : null;
    if (tagList(this.tags.value).join(",") !== tagList(this.initial.tags).join(",")) changes.tags = tagList(this.tags.value);
    Object.assign(changes, this.card.changes(), this.behaviour.changes());
    const saved = { kind: "saved", id: link.id, key: keyOf(link) } as const;
    if (Object.keys(changes).length === 0) return saved;
    const res = await call<Link>("PATCH", linkPath(link.id, domainOf(link)), { json: changes });
    if (!res.ok) {
      this.showProblems(problemsOf(res.body));
      return null;
    }
    return saved;
  }
}
