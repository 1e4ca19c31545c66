// The delete confirmation: it names the link (or lists the chosen ones, or names the webhook), says
// what deleting means, and starts on Cancel, so Enter or Escape alone never deletes anything.
import { byId, el, formatNumber, t } from "../common.ts";
import { openDialog } from "./dialogs.ts";

const dialog = byId<HTMLDialogElement>("confirm-dialog");
const ok = byId<HTMLButtonElement>("confirm-ok");
const list = byId("confirm-ids");

/** Resolves true when the deletion of these ids is confirmed. */
export function confirmDelete(ids: readonly string[], returnTo?: () => HTMLElement | null): Promise<boolean> {
  const one = ids.length === 1;
  const count = formatNumber(ids.length);
  return confirmAction(
    {
      title: one ? t("delete_title", { id: ids[0]! }) : t("delete_many_title", { count }),
      text: one ? t("delete_text") : t("delete_many_text"),
      confirm: one ? t("delete_confirm", { id: ids[0]! }) : t("delete_many_confirm", { count }),
      list: one ? [] : ids.map((id) => `/${id}`),
    },
    returnTo,
  );
}

/** What the dialog asks: its title, what it means, the button that does it, and what it concerns. */
export type Confirmation = { title: string; text: string; confirm: string; list?: readonly string[] };

/** Resolves true when the action is confirmed (the links' deletion, a webhook's). */
export function confirmAction(c: Confirmation, returnTo?: () => HTMLElement | null): Promise<boolean> {
  byId("confirm-dialog-title").textContent = c.title;
  byId("confirm-text").textContent = c.text;
  ok.textContent = c.confirm;
  const items = c.list ?? [];
  list.replaceChildren(...items.map((item) => el("li", "", item)));
  list.hidden = items.length === 0;
  return new Promise((resolve) => {
    let confirmed = false;
    const onOk = () => {
      confirmed = true;
      dialog.close();
    };
    ok.addEventListener("click", onOk, { once: true });
    dialog.addEventListener(
      "close",
      () => {
        ok.removeEventListener("click", onOk);
        resolve(confirmed);
      },
      { once: true },
    );
    openDialog(dialog, returnTo);
  });
}
