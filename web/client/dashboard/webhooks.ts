// Webhooks (admins): the dialog lists each one (its URL, events, which links, on or off, how its
// last delivery went and, when it fails, why; how many wait), adds one (webhook-form.ts), turns one on or off, deletes one
// after the confirmation, and opens its delivery log (webhook-log.ts). The list is read again after
// every change, so what it shows is what the server keeps (a webhook it turned off says why).
import { byId, el, formatNumber, t, uniqueId } from "../common.ts";
import { failureText } from "../form-errors.ts";
import { call } from "./api.ts";
import { confirmAction } from "./confirm.ts";
import { openDialog } from "./dialogs.ts";
import { relativeTime, timeElement } from "./format.ts";
import { toast } from "./toast.ts";
import { disabledKey, eventKey, stateClass, webhookPath, type Webhook } from "./webhook-api.ts";
import { WebhookForm } from "./webhook-form.ts";
import { WebhookLog } from "./webhook-log.ts";

export class WebhooksDialog {
  private readonly dialog = byId<HTMLDialogElement>("webhooks-dialog");
  private readonly list = byId("webhook-list");
  private readonly error = byId("webhooks-error");
  private readonly form = new WebhookForm(async () => {
    toast(t("toast_webhook_created"));
    await this.load();
  });
  private readonly log = new WebhookLog((redelivered) => {
    if (redelivered) void this.load();
  });
  private webhooks = new Map<number, Webhook>();

  constructor() {
    // Closed (or signed out): the secret goes, and the list is read afresh next time.
    this.dialog.addEventListener("close", () => {
      this.form.reset();
      this.list.replaceChildren();
    });
    this.list.addEventListener("click", (e) => {
      const button = (e.target as Element).closest<HTMLElement>("button[data-action]");
      const webhook = this.webhookOf(button);
      if (!button || !webhook) return;
      if (button.dataset.action === "log") this.log.open(webhook);
      else if (button.dataset.action === "delete") void this.remove(webhook);
    });
    this.list.addEventListener("change", (e) => {
      const input = e.target as HTMLInputElement;
      const webhook = this.webhookOf(input);
      if (input.dataset.action === "toggle" && webhook) void this.toggle(webhook, input);
    });
  }

  open(): void {
    this.form.reset();
    this.list.replaceChildren();
    byId("webhooks-empty").hidden = true;
    openDialog(this.dialog);
    void this.load();
  }

  private webhookOf(control: Element | null): Webhook | undefined {
    return this.webhooks.get(Number(control?.closest<HTMLElement>("li[data-id]")?.dataset.id));
  }

  /** Reads the list again; focus stays on the control that had it (by webhook and data-action), or goes to `focus`. */
  private async load(focus = this.focused()): Promise<void> {
    const res = await call<{ webhooks: Webhook[] }>("GET", webhookPath());
    this.error.hidden = res.ok;
    if (!res.ok) {
      this.error.textContent = failureText(res.body);
      return;
    }
    this.webhooks = new Map(res.data.webhooks.map((w) => [w.id, w]));
    this.list.replaceChildren(...res.data.webhooks.map((w) => this.item(w)));
    byId("webhooks-empty").hidden = this.webhooks.size > 0;
    if (focus) this.control(focus.id, focus.action)?.focus();
  }

  /** The list's control that has focus, as its webhook and data-action. */
  private focused(): { id: number; action: string } | undefined {
    const active = document.activeElement as HTMLElement | null;
    const id = Number(active?.closest<HTMLElement>("li[data-id]")?.dataset.id);
    return active && this.list.contains(active) && active.dataset.action ? { id, action: active.dataset.action } : undefined;
  }

  /** A webhook's control by its data-action, if its item is (still) shown. */
  private control(id: number, action: string): HTMLElement | null {
    return this.list.querySelector<HTMLElement>(`li[data-id="${id}"] [data-action="${action}"]`);
  }

  private item(w: Webhook): HTMLLIElement {
    const li = el("li", "webhook");
    li.dataset.id = String(w.id);
    li.dataset.enabled = String(w.enabled);
    li.dataset.status = w.status;
    const url = el("span", "webhook-url break", w.url);
    url.id = uniqueId("webhook-url");
    const head = el("div", "webhook-head");
    head.append(url, this.toggleSwitch(w, url.id));
    const events = el("ul", "webhook-events");
    events.setAttribute("aria-label", t("webhook_events"));
    events.append(...w.events.map((type) => el("li", "badge", t(eventKey(type)))));
    const meta = el("p", "webhook-meta");
    meta.append(el("span", "", w.linkId !== null ? t("webhook_only_link", { id: w.linkId }) : w.tag !== null ? t("webhook_only_tag", { tag: w.tag }) : t("webhook_all_links")));
    meta.append(this.lastDelivery(w));
    const pending = el("span", "webhook-pending", t("webhook_pending", { count: formatNumber(w.pending) }));
    pending.dataset.pending = String(w.pending);
    meta.append(pending);
    li.append(head, events, meta);
    const note = this.statusNote(w);
    if (note) li.append(note);
    const actions = el("div", "webhook-actions");
    actions.append(this.button("log", t("webhook_deliveries"), "btn btn-small"), this.button("delete", t("action_delete"), "btn btn-small btn-danger-quiet"));
    li.append(actions);
    return li;
  }

  private toggleSwitch(w: Webhook, urlId: string): HTMLLabelElement {
    const label = el("label", "switch");
    const input = el("input");
    input.type = "checkbox";
    input.setAttribute("role", "switch");
    input.checked = w.enabled;
    input.dataset.action = "toggle";
    input.setAttribute("aria-describedby", urlId); // which webhook: its URL
    const track = el("span", "switch-track");
    track.setAttribute("aria-hidden", "true");
    label.append(input, track, el("span", "", t("webhook_enabled")));
    return label;
  }

  private lastDelivery(w: Webhook): HTMLElement {
    const span = el("span", "webhook-last");
    const last = w.lastDelivery;
    if (last === null) {
      span.textContent = t("webhook_never");
      return span;
    }
    span.dataset.state = last.state;
    const when = timeElement(last.at, relativeTime(last.at));
    const code = last.responseCode === null ? "" : ` ${last.responseCode}`;
    // A delivery waiting for its next try after a failed one is not merely pending: the webhook fails.
    const failing = w.status === "failing";
    const pill = el("span", stateClass(failing ? "failed" : last.state), `${failing ? t("delivery_failing") : t(`delivery_${last.state}`)}${code}`);
    span.append(`${t("webhook_last")}: `, pill, " ", when);
    return span;
  }

  /** Why a webhook fails (its last attempt's reason, as the receiver or the connection gave it) or why it was turned off. */
  private statusNote(w: Webhook): HTMLElement | null {
    if (w.status === "disabled") {
      const text = w.disabledCause !== null ? t(disabledKey(w.disabledCause)) : w.disabledReason ? t("webhook_disabled_reason", { reason: w.disabledReason }) : null;
      return text === null ? null : el("p", "status-note webhook-reason", text);
    }
    const last = w.lastDelivery;
    if (w.status !== "failing" || last === null) return null;
    const reason = last.responseCode !== null ? t("webhook_answered", { code: last.responseCode }) : (last.error ?? "");
    return el("p", "status-note webhook-problem", t("webhook_failing_reason", { reason }));
  }

  private button(action: string, text: string, className: string): HTMLButtonElement {
    const button = el("button", className, text);
    button.type = "button";
    button.dataset.action = action;
    return button;
  }

  private async toggle(w: Webhook, input: HTMLInputElement): Promise<void> {
    const enabled = input.checked;
    input.disabled = true;
    const res = await call<Webhook>("PATCH", webhookPath(w.id), { json: { enabled } });
    input.disabled = false;
    if (!res.ok) {
      input.checked = !enabled;
      return toast(failureText(res.body), "error");
    }
    toast(t(enabled ? "toast_webhook_enabled" : "toast_webhook_disabled"));
    await this.load({ id: w.id, action: "toggle" });
  }

  private async remove(w: Webhook): Promise<void> {
    const confirmed = await confirmAction({ title: t("webhook_delete_title"), text: t("webhook_delete_text"), confirm: t("webhook_delete_confirm"), list: [w.url] });
    if (!confirmed) return;
    const res = await call<{ id: number; deleted: true }>("DELETE", webhookPath(w.id));
    if (!res.ok) return toast(failureText(res.body), "error");
    toast(t("toast_webhook_deleted"));
    await this.load();
    // Its row is gone: on to adding one (or the open form's first field).
    const add = byId("webhook-add");
    (add.hidden ? byId("wf-url") : add).focus();
  }
}
