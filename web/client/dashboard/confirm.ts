// The delete confirmation: it names the link (or lists the chosen ones), says what deleting means,
// and starts on Cancel, so Enter or Escape alone never deletes anything.
import { byId, el, formatNumber, t } from "../common.ts";
import { openDialog } from "./dialogs.ts";

const dialog = byId<HTMLDialogElement>("confirm-dialog");
const ok = byId<HTMLButtonElement>("confirm-ok");
const list = byId("confirm-ids");

/** Resolves true when the deletion of these ids is confirmed. */
export function confirmDelete(ids: readonly string[], returnTo?: () => HTMLElement | null): Promise<boolean> {
  const one = ids.length === 1;
  const count = formatNumber(ids.length);
  byId("confirm-dialog-title").textContent = one ? t("delete_title", { id: ids[0]! }) : t("delete_many_title", { count });
  byId("confirm-text").textContent = one ? t("delete_text") : t("delete_many_text");
  ok.textContent = one ? t("delete_confirm", { id: ids[0]! }) : t("delete_many_confirm", { count });
  list.replaceChildren(...(one ? [] : ids.map((id) => el("li", "", `/${id}`))));
  list.hidden = one;
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
