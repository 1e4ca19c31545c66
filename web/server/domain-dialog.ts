// The domains dialog (admins; docs/web-ui.md: Several domains), server-rendered and filled by
// dashboard/domains.ts: the list with each domain's links, the form that adds or changes one, and
// the panel that removes one whose links must first move to another domain.
import type { Language } from "../../src/lang.ts";
import { iconMarkup } from "../client/icons.ts";
import { checkField, dialogHead, inputField } from "./dashboard-dialogs.ts";
import { t } from "./pages.ts";

const URL_ATTRS = 'type="url" inputmode="url" maxlength="2048" spellcheck="false" autocomplete="off" placeholder="https://"';

export function domainsDialog(lang: Language): string {
  const robots = (["", "links", "none", "all"] as const).map((v) => `<option value="${v}">${t(lang, v === "" ? "domain_robots_instance" : `domain_robots_${v}`)}</option>`).join("");
  return `<dialog id="domains-dialog" class="dialog dialog-wide" aria-labelledby="domains-dialog-title">
<div class="dialog-body">
${dialogHead(lang, "domains-dialog", t(lang, "domains_title"))}
<p class="dialog-text">${t(lang, "domains_text")}</p>
<p class="form-error" id="domains-error" role="alert" hidden></p>
<form id="domain-form" class="domain-form" hidden novalidate aria-labelledby="domain-form-title">
<h3 id="domain-form-title" tabindex="-1"></h3>
${inputField(lang, "df-name", "domain_name", "domain_name_hint", 'name="name" type="text" required maxlength="253" autocomplete="off" autocapitalize="none" spellcheck="false" placeholder="s.example.org"')}
${checkField(lang, "df-https", "domain_https", "domain_https_hint")}
${inputField(lang, "df-root", "domain_root", "domain_root_hint", `name="rootRedirect" ${URL_ATTRS}`)}
${inputField(lang, "df-not-found", "domain_not_found", "domain_not_found_hint", `name="notFoundRedirect" ${URL_ATTRS}`)}
${inputField(lang, "df-fallback", "domain_fallback", "domain_fallback_hint", `name="fallbackRedirect" ${URL_ATTRS}`)}
<div class="field">
<label for="df-robots">${t(lang, "domain_robots")}</label>
<select id="df-robots" name="robots" aria-describedby="df-robots-error">${robots}</select>
<p class="field-error" id="df-robots-error" hidden></p>
</div>
<p class="form-error" id="df-error" role="alert" hidden></p>
<div class="dialog-actions"><button type="button" class="btn" id="df-cancel">${t(lang, "cancel")}</button><button type="submit" class="btn btn-primary" id="df-submit"></button></div>
</form>
<ul class="domain-list" id="domain-list" aria-labelledby="domains-dialog-title"></ul>
<p class="empty" id="domains-empty" hidden>${t(lang, "domains_empty")}</p>
<footer class="dialog-actions"><button type="button" class="btn" data-close>${t(lang, "close")}</button><button type="button" class="btn btn-primary" id="domain-add">${iconMarkup("plus")}${t(lang, "domain_add")}</button></footer>
</div>
</dialog>`;
}
