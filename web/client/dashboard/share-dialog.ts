// A link's share links (docs/statistics.md: Sharing statistics): listed, made (the URL shown once,
// with a copy button: only its hash is kept) and revoked, through /api/links/<id>/shares.
import { bindCopyButton, byId, lang, t } from "../common.ts";
import { messageFor } from "../form-errors.ts";
import type { Share, ShareMade } from "../../../src/api/types.ts";
import { call, linkPath, type Link } from "./api.ts";
import { openDialog } from "./dialogs.ts";
import { domainOf } from "./domain-api.ts";
import { toast } from "./toast.ts";

const dialog = byId<HTMLDialogElement>("share-dialog");
const form = byId<HTMLFormElement>("share-form");
const labelInput = byId<HTMLInputElement>("share-label");
const expiresInput = byId<HTMLInputElement>("share-expires");
const errorBox = byId("share-error");
const body = byId("share-table").querySelector("tbody")!;
const when = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
let link: Link | null = null;
let madeUrl = "";

/** `/api/links/<id>/shares[/<share>]`, with ?domain= for a link off the default domain. */
function sharesPath(of: Link, share?: number): string {
  const [path, query] = linkPath(of.id, domainOf(of)).split("?");
  return `${path}/shares${share === undefined ? "" : `/${share}`}${query === undefined ? "" : `?${query}`}`;
}

const dateText = (iso: string | null, none: string) => (iso === null ? none : when.format(new Date(iso)));

function row(share: Share): HTMLTableRowElement {
  const tr = document.createElement("tr");
  const cells = [share.label || t("share.no_label"), dateText(share.createdAt, ""), dateText(share.expiresAt, t("share.never")), dateText(share.lastUsedAt, t("share.not_used"))];
  for (const text of cells) tr.insertCell().textContent = text;
  const revoke = document.createElement("button");
  revoke.type = "button";
  revoke.className = "btn btn-small btn-danger";
  revoke.textContent = t("share.revoke");
  revoke.setAttribute("aria-label", t("share.revoke_named", { label: share.label || t("share.no_label") }));
  revoke.addEventListener("click", () => void revokeShare(share));
  tr.insertCell().append(revoke);
  return tr;
}

async function load(): Promise<void> {
  if (link === null) return;
  const res = await call<{ shares: Share[] }>("GET", sharesPath(link));
  if (!res.ok) return toast(messageFor(res.body.code, res.body.error), "error");
  body.replaceChildren(...res.data.shares.map(row));
  byId("share-empty").hidden = res.data.shares.length > 0;
}

async function revokeShare(share: Share): Promise<void> {
  if (link === null) return;
  const res = await call("DELETE", sharesPath(link, share.id));
  if (!res.ok) return toast(messageFor(res.body.code, res.body.error), "error");
  toast(t("share.revoked"));
  await load();
  labelInput.focus();
}

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  if (link === null) return;
  const expiresAt = expiresInput.value === "" ? null : new Date(expiresInput.value).toISOString();
  const res = await call<ShareMade>("POST", sharesPath(link), { json: { label: labelInput.value, expiresAt } });
  errorBox.hidden = res.ok;
  if (!res.ok) {
    errorBox.textContent = messageFor(res.body.code, res.body.error);
    return;
  }
  form.reset();
  madeUrl = res.data.url;
  byId("share-url").textContent = madeUrl;
  byId("share-made").hidden = false;
  await load();
  byId("share-copy").focus();
});
bindCopyButton(byId<HTMLButtonElement>("share-copy"), () => madeUrl);

export function showShares(of: Link, returnTo?: () => HTMLElement | null): void {
  link = of;
  madeUrl = "";
  form.reset();
  errorBox.hidden = true;
  byId("share-made").hidden = true;
  byId("share-dialog-title").textContent = t("share.title", { id: of.id });
  body.replaceChildren();
  byId("share-empty").hidden = true;
  openDialog(dialog, returnTo);
  void load();
}
