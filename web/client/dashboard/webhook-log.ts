// One webhook's deliveries of the last 7 days, newest first, 50 at a time ("Load more" goes on from
// the last one shown). Redeliver queues the same message again as a new delivery, which then
// heads the list.
import { byId, el, formatNumber, t } from "../common.ts";
import { failureText } from "../form-errors.ts";
import { call } from "./api.ts";
import { openDialog } from "./dialogs.ts";
import { dateTime, timeElement } from "./format.ts";
import { toast } from "./toast.ts";
import { deliveriesPath, eventKey, redeliverPath, stateClass, type Delivery, type DeliveryPage, type Webhook } from "./webhook-api.ts";

export class WebhookLog {
  private readonly dialog = byId<HTMLDialogElement>("webhook-log-dialog");
  private readonly rows = byId<HTMLTableSectionElement>("webhook-log-rows");
  private readonly more = byId<HTMLButtonElement>("webhook-log-more");
  private readonly error = byId("webhook-log-error");
  private webhook: Webhook | null = null;
  private nextBefore: number | null = null;

  /** Something was redelivered while open: the list's pending counts are stale. */
  private redelivered = false;

  /** `onClosed`: after the dialog closed (focus is back on its opener), and whether something was redelivered. */
  constructor(onClosed: (redelivered: boolean) => void) {
    // The list is read again only once focus is back on the opener, which it can then keep.
    this.dialog.addEventListener("close", () => onClosed(this.redelivered));
    this.more.addEventListener("click", () => void this.load(false));
    this.rows.addEventListener("click", (e) => {
      const button = (e.target as Element).closest<HTMLButtonElement>('[data-action="redeliver"]');
      const id = Number(button?.closest("tr")?.dataset.id);
      if (button && Number.isInteger(id)) void this.redeliver(id, button);
    });
  }

  open(webhook: Webhook): void {
    this.webhook = webhook;
    byId("webhook-log-url").textContent = webhook.url;
    this.rows.replaceChildren();
    byId("webhook-log-empty").hidden = true;
    this.more.hidden = true;
    this.redelivered = false;
    openDialog(this.dialog);
    void this.load(true);
  }

  private async load(first: boolean): Promise<void> {
    const webhook = this.webhook;
    if (!webhook) return;
    this.error.hidden = true;
    this.more.disabled = true;
    const res = await call<DeliveryPage>("GET", deliveriesPath(webhook.id, first ? null : this.nextBefore));
    this.more.disabled = false;
    if (webhook !== this.webhook) return; // another webhook's log was opened meanwhile
    if (!res.ok) {
      this.error.textContent = failureText(res.body);
      this.error.hidden = false;
      return;
    }
    const rows = res.data.deliveries.map((d) => this.row(d));
    if (first) this.rows.replaceChildren(...rows);
    else this.rows.append(...rows);
    this.nextBefore = res.data.nextBefore;
    this.more.hidden = this.nextBefore === null;
    byId("webhook-log-empty").hidden = this.rows.rows.length > 0;
  }

  private row(d: Delivery): HTMLTableRowElement {
    const tr = el("tr");
    tr.dataset.id = String(d.id);
    tr.dataset.state = d.state;
    const time = el("td");
    time.append(timeElement(d.createdAt, dateTime(d.createdAt)));
    const type = el("td");
    type.append(el("span", "", t(eventKey(d.type))), el("code", "delivery-type", d.type));
    const state = el("td");
    // Pending after a failed attempt: failing, with its next try below and the reason in its own column.
    const failing = d.state === "pending" && d.attempts > 0;
    tr.dataset.failing = String(failing);
    state.append(el("span", stateClass(failing ? "failed" : d.state), failing ? t("delivery_failing") : t(`delivery_${d.state}`)));
    if (d.state === "pending" && d.nextAttemptAt) state.append(el("span", "status-note", t("delivery_next", { time: dateTime(d.nextAttemptAt) })));
    const action = el("td", "col-actions");
    const button = el("button", "btn btn-small", t("redeliver"));
    button.type = "button";
    button.dataset.action = "redeliver";
    action.append(button);
    tr.append(
      time,
      type,
      state,
      el("td", "num", formatNumber(d.attempts)),
      el("td", "num", d.responseCode === null ? "—" : String(d.responseCode)),
      el("td", "wrap-cell", d.error ?? "—"),
      action,
    );
    return tr;
  }

  private async redeliver(deliveryId: number, button: HTMLButtonElement): Promise<void> {
    const webhook = this.webhook;
    if (!webhook) return;
    button.disabled = true;
    const res = await call<Delivery>("POST", redeliverPath(webhook.id, deliveryId));
    button.disabled = false;
    if (!res.ok) return toast(failureText(res.body), "error");
    if (webhook === this.webhook) {
      this.rows.prepend(this.row(res.data));
      byId("webhook-log-empty").hidden = true;
    }
    toast(t("toast_redelivered"));
    this.redelivered = true;
  }
}
