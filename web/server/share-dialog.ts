// A link's share links in a dialog (docs/statistics.md: Sharing statistics): the list (label, made,
// expires, last used, revoke), and the form that makes one, whose URL is shown once with a copy
// button. web/client/dashboard/share-dialog.ts fills and wires it.
import type { Language } from "../../src/lang.ts";
import { iconMarkup } from "../client/icons.ts";
import { dialogHead, inputField } from "./dashboard-dialogs.ts";
import { t } from "./pages.ts";

export function shareDialog(lang: Language): string {
  const th = (key: Parameters<typeof t>[1], cls = "") => `<th scope="col"${cls ? ` class="${cls}"` : ""}>${t(lang, key)}</th>`;
  return `<dialog id="share-dialog" class="dialog dialog-wide" aria-labelledby="share-dialog-title">
<div class="dialog-body">
${dialogHead(lang, "share-dialog", "")}
<p class="hint share-lead">${t(lang, "share.lead")}</p>
<form id="share-form" class="share-form" novalidate>
<div class="field-row">
${inputField(lang, "share-label", "share.label", "share.label_hint", 'name="label" type="text" maxlength="100" autocomplete="off"')}
${inputField(lang, "share-expires", "share.expires", "share.expires_hint", 'name="expires_at" type="datetime-local"')}
</div>
<p class="form-error" id="share-error" role="alert" hidden></p>
<p><button type="submit" class="btn btn-primary" id="share-submit">${iconMarkup("plus")}${t(lang, "share.make")}</button></p>
</form>
<section class="share-made" id="share-made" hidden aria-labelledby="share-made-title">
<h3 id="share-made-title">${t(lang, "share.made_title")}</h3>
<p class="hint">${t(lang, "share.made_once")}</p>
<dl class="copy-list"><div class="copy-item"><dt id="share-url-label">${t(lang, "share.url")}</dt><dd><span class="copy-value" id="share-url"></span><button type="button" class="btn btn-small" id="share-copy" aria-describedby="share-url-label">${iconMarkup("copy")}${t(lang, "copy")}</button></dd></div></dl>
</section>
<h3 id="share-list-title">${t(lang, "share.list_title")}</h3>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="share-list-title"><table class="table" id="share-table"><thead><tr>${th("share.label")}${th("share.created")}${th("share.expires")}${th("share.last_used")}<th scope="col"><span class="sr-only">${t(lang, "col_actions")}</span></th></tr></thead><tbody></tbody></table></div>
<p class="empty" id="share-empty" hidden>${t(lang, "share.none")}</p>
<footer class="dialog-actions"><button type="button" class="btn" data-close>${t(lang, "close")}</button></footer>
</div>
</dialog>`;
}
