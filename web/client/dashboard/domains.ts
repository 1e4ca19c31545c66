// Domains (admins; docs/web-ui.md: Several domains): the dialog lists each one (its name, whether it
// is the default, http or https, how many links it holds, what its root, unknown aliases and ended
// links do, robots.txt), adds or changes one (domain-form.ts), makes one the default, and removes
// one: at once when it has no links, else after choosing the domain its links move to. The API's
// refusal (a clash of aliases, links left) is said in the dialog. The list is read again after every
// change, and the page's pickers and filters with it (onChanged).
import { byId, el, formatNumber, t } from "../common.ts";
import { failureText, messageFor, type ApiFailure } from "../form-errors.ts";
import { call } from "./api.ts";
import { confirmAction } from "./confirm.ts";
import { openDialog } from "./dialogs.ts";
import { domainPath, type Domain } from "./domain-api.ts";
import { DomainForm } from "./domain-form.ts";
import { toast } from "./toast.ts";
import { domainStatsLink } from "./aggregate-links.ts";

export class DomainsDialog {
  private readonly dialog = byId<HTMLDialogElement>("domains-dialog");
  private readonly list = byId("domain-list");
  private readonly error = byId("domains-error");
  private domains = new Map<string, Domain>();
  private readonly form = new DomainForm(async (domain, kind) => {
    toast(t(kind === "added" ? "toast_domain_added" : "toast_domain_changed", { name: domain.name }));
    await this.changed(domain.name, "edit");
  });

  constructor(private readonly onChanged: () => Promise<void>) {
    this.dialog.addEventListener("close", () => {
      this.form.hide(false);
      this.list.replaceChildren();
    });
    this.list.addEventListener("click", (e) => {
      const button = (e.target as Element).closest<HTMLElement>("button[data-action]");
      const domain = this.domains.get(button?.closest<HTMLElement>("li[data-name]")?.dataset.name ?? "");
      if (!button || !domain) return;
      const action = button.dataset.action;
      if (action === "edit") this.form.show(domain);
      else if (action === "default") void this.makeDefault(domain);
      else if (action === "remove") void this.remove(domain, null);
      else if (action === "move") void this.remove(domain, button.closest("li")!.querySelector<HTMLSelectElement>("select")!.value);
      else if (action === "keep") void this.load({ name: domain.name, action: "remove" });
    });
  }

  open(): void {
    this.form.hide(false);
    this.list.replaceChildren();
    byId("domains-empty").hidden = true;
    openDialog(this.dialog);
    void this.load();
  }

  /** Reads the list again, then focuses `focus` (a domain's control by its data-action). */
  private async load(focus?: { name: string; action: string }): Promise<void> {
    const res = await call<{ domains: Domain[] }>("GET", domainPath());
    if (!res.ok) return this.say(res.body);
    this.error.hidden = true;
    this.domains = new Map(res.data.domains.map((d) => [d.name, d]));
    this.list.replaceChildren(...res.data.domains.map((d) => this.item(d)));
    byId("domains-empty").hidden = this.domains.size > 0;
    if (focus) this.control(focus.name, focus.action)?.focus();
  }

  /** After a change: the list, and the page's pickers and filters. */
  private async changed(name: string | null, action: string): Promise<void> {
    await Promise.all([this.load(name === null ? undefined : { name, action }), this.onChanged()]);
    if (name === null || !this.control(name, action)) byId("domain-add").focus();
  }

  private control(name: string, action: string): HTMLElement | null {
    return [...this.list.children].find((li) => (li as HTMLElement).dataset.name === name)?.querySelector<HTMLElement>(`[data-action="${action}"]`) ?? null;
  }

  /** The API's refusal: translated, with its own words when they say more (which aliases clash, how many links). */
  private say(body: ApiFailure): void {
    const detail = body.code === "domain_clash" || body.code === "domain_has_links" ? body.error : undefined;
    this.error.textContent = detail ? `${messageFor(body.code)} ${detail}` : failureText(body);
    this.error.hidden = false;
  }

  private item(d: Domain): HTMLLIElement {
    const li = el("li", "webhook domain");
    li.dataset.name = d.name;
    const head = el("div", "webhook-head");
    const name = el("span", "webhook-url break", d.name);
    head.append(name);
    if (d.isDefault) head.append(el("span", "badge badge-default", t("domain_default")));
    const meta = el("p", "webhook-meta");
    meta.append(el("span", "", d.https ? "https://" : "http://"));
    if (d.links !== null) meta.append(el("span", "domain-links", t("domain_links", { count: formatNumber(d.links) })));
    meta.append(el("span", "", `${t("domain_robots")}: ${t(d.robots === null ? "domain_robots_instance" : `domain_robots_${d.robots}`)}`));
    if (d.creators !== null) meta.append(el("span", "", t("domain_restricted")));
    li.append(head, meta);
    const redirects = (
      [
        ["domain_root", d.rootRedirect],
        ["domain_not_found", d.notFoundRedirect],
        ["domain_fallback", d.fallbackRedirect],
      ] as const
    ).filter(([, url]) => url !== null);
    if (redirects.length > 0) {
      const list = el("ul", "domain-redirects");
      list.append(...redirects.map(([key, url]) => el("li", "break", `${t(key)}: ${url}`)));
      li.append(list);
    }
    const actions = el("div", "webhook-actions");
    actions.append(domainStatsLink(d.name));
    actions.append(this.button("edit", t("domain_change"), "btn btn-small", d.name));
    if (!d.isDefault) actions.append(this.button("default", t("domain_make_default"), "btn btn-small", d.name));
    actions.append(this.button("remove", t("domain_remove"), "btn btn-small btn-danger-quiet", d.name));
    li.append(actions);
    return li;
  }

  private button(action: string, text: string, className: string, name: string): HTMLButtonElement {
    const button = el("button", className, text);
    button.type = "button";
    button.dataset.action = action;
    button.setAttribute("aria-label", `${text}: ${name}`);
    return button;
  }

  private async makeDefault(d: Domain): Promise<void> {
    const res = await call<{ domain: Domain }>("PATCH", domainPath(d.name), { json: { isDefault: true } });
    if (!res.ok) return this.say(res.body);
    toast(t("toast_domain_default", { name: d.name }));
    await this.changed(d.name, "edit");
  }

  /** Removes a domain: `moveTo` null asks first (and, with links, where they go); else moves them there and removes it. */
  private async remove(d: Domain, moveTo: string | null): Promise<void> {
    if (moveTo === null && (d.links ?? 0) > 0) return this.askWhereTo(d);
    if (moveTo === null) {
      const ok = await confirmAction({ title: t("domain_remove_title", { name: d.name }), text: t("domain_remove_text"), confirm: t("domain_remove"), list: [d.name] }, () => this.control(d.name, "remove"));
      if (!ok) return;
    }
    const query = moveTo === null ? "" : `?${new URLSearchParams({ moveLinksTo: moveTo })}`;
    const res = await call("DELETE", `${domainPath(d.name)}${query}`);
    if (!res.ok) return this.say(res.body);
    toast(t("toast_domain_removed", { name: d.name }));
    await this.changed(null, "edit");
  }

  /** A domain with links: where its links go, in its own card, before anything is removed. */
  private askWhereTo(d: Domain): void {
    const li = this.control(d.name, "remove")?.closest("li");
    if (!li) return;
    li.querySelector(".domain-move")?.remove();
    const panel = el("div", "domain-move");
    const select = el("select");
    select.id = `domain-move-${[...this.domains.keys()].indexOf(d.name)}`;
    const label = el("label", "", t("domain_move_links", { count: formatNumber(d.links ?? 0) }));
    label.htmlFor = select.id;
    const others = [...this.domains.values()].filter((o) => o.name !== d.name);
    select.append(...others.map((o) => Object.assign(el("option", "", o.name), { value: o.name })));
    const actions = el("div", "webhook-actions");
    const move = this.button("move", t("domain_move_remove"), "btn btn-small btn-danger", d.name);
    move.disabled = others.length === 0;
    actions.append(move, this.button("keep", t("cancel"), "btn btn-small", d.name));
    panel.append(label, select, el("p", "hint", t("domain_move_hint")), actions);
    li.append(panel);
    select.focus();
  }
}
