// The "Clients" dialog (docs/web-ui.md: Clients), server-rendered and filled by
// dashboard/clients.ts: the ShareX uploader to download and the bookmarklet to drag to the
// bookmarks bar, both made for the address the dashboard is reached at, and neither holding a key.
import type { Language } from "../../src/lang.ts";
import { iconMarkup } from "../client/icons.ts";
import { dialogHead, withCommand } from "./dashboard-dialogs.ts";
import { t } from "./pages.ts";

export function clientsDialog(lang: Language): string {
  return `<dialog id="clients-dialog" class="dialog" aria-labelledby="clients-dialog-title">
<div class="dialog-body">
${dialogHead(lang, "clients-dialog", t(lang, "clients_title"))}
<p class="dialog-text">${withCommand(lang, "clients_text", "shortener key create NAME --scope create")}</p>
<section class="client-part" aria-labelledby="clients-sharex-title">
<h3 id="clients-sharex-title">${t(lang, "clients_sharex_title")}</h3>
<p class="hint" id="clients-sharex-hint">${t(lang, "clients_sharex_hint")}</p>
<a class="btn" id="clients-sharex" href="#" download aria-describedby="clients-sharex-hint">${iconMarkup("download")}${t(lang, "clients_sharex_download")}</a>
</section>
<section class="client-part" aria-labelledby="clients-bookmarklet-title">
<h3 id="clients-bookmarklet-title">${t(lang, "clients_bookmarklet_title")}</h3>
<p class="hint" id="clients-bookmarklet-hint">${t(lang, "clients_bookmarklet_hint")}</p>
<a class="btn bookmarklet" id="clients-bookmarklet" href="#" draggable="true" aria-describedby="clients-bookmarklet-hint">${iconMarkup("plus")}${t(lang, "clients_bookmarklet_label")}</a>
</section>
<p class="hint">${withCommand(lang, "clients_more", "docs/clients.md")}</p>
<footer class="dialog-actions"><button type="button" class="btn" data-close>${t(lang, "close")}</button></footer>
</div>
</dialog>`;
}
