// Home page: submits the create form to /api/create, shows every field's error at once next to its
// field in the page language, and on success shows the short and stats URLs with copy buttons and
// a QR code.
import { bindCopyButton, byId, lang, t } from "./common.ts";
import { fieldByCode, FormErrors, problemsOf, type ApiFailure, type ApiProblem } from "./form-errors.ts";
import { QrCode } from "./qr.ts";
import { askToSignIn, checkAccess, showRecent } from "./recent-links.ts";

import type { Created } from "../../src/api/types.ts";

type CreateOk = { success: true; data: Created };

const form = byId<HTMLFormElement>("create-form");
const urlInput = byId<HTMLInputElement>("url");
const aliasInput = byId<HTMLInputElement>("custom_url");
const submit = byId<HTMLButtonElement>("submit");
const result = byId("result");
const shortValue = byId("short-url");
const statsValue = byId("stats-url");
const qr = new QrCode({ img: byId<HTMLImageElement>("qr-img"), png: byId<HTMLAnchorElement>("qr-png"), svg: byId<HTMLAnchorElement>("qr-svg") });

type Field = "url" | "custom_url";
const errors = new FormErrors<Field>(
  {
    url: { input: urlInput, error: byId("url-error") },
    custom_url: { input: aliasInput, error: byId("custom_url-error"), hint: byId("custom_url-hint") },
  },
  byId("form-error"),
  (p: ApiProblem) => {
    if (p.field === "url" || p.field === "custom_url") return p.field;
    const guessed = fieldByCode(p.code);
    return guessed === "url" || guessed === "custom_url" ? guessed : null;
  },
);

// The host part may be cut with an ellipsis on narrow screens; the slash always shows.
byId("alias-prefix").append(Object.assign(document.createElement("span"), { className: "affix-host", textContent: location.host }), "/");

/**
 * An empty URL needs no round trip (nor a turn of the create rate limit); the alias is checked
 * with it, so both errors show at once. Anything else goes to the API, which reports every field.
 */
function localProblems(url: string, alias: string): ApiProblem[] {
  if (url) return [];
  const problems: ApiProblem[] = [{ code: "url_missing", field: "url" }];
  if (alias && !/^[A-Za-z0-9_-]{3,30}$/.test(alias)) problems.push({ code: "alias_invalid", field: "custom_url" });
  return problems;
}

async function onSubmit(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  errors.clear();
  const url = urlInput.value.trim();
  const alias = aliasInput.value.trim();
  const local = localProblems(url, alias);
  if (local.length > 0) return void errors.show(local);

  const body = new FormData();
  body.set("url", url);
  body.set("custom_url", alias);
  submit.disabled = true;
  submit.textContent = t("submitting");
  try {
    // Accept-Language = the page language, so the API's statsUrl points at this language.
    const res = await fetch("/api/create", { method: "POST", body, headers: { "Accept-Language": lang } });
    const json = (await res.json().catch(() => ({ success: false }))) as CreateOk | ApiFailure;
    if (!json.success) return void errors.show(problemsOf(json));
    const { shortUrl, statsUrl } = json.data;
    const id = decodeURIComponent(new URL(shortUrl).pathname.slice(1));
    shortValue.textContent = shortUrl;
    statsValue.textContent = statsUrl;
    byId<HTMLAnchorElement>("stats-link").href = statsUrl;
    result.hidden = false;
    await qr.show(shortUrl, id);
    byId("result-title").focus();
    if (signedIn) void showRecent();
  } catch {
    errors.show([{ code: "network" }]);
  } finally {
    submit.disabled = false;
    submit.textContent = t("submit");
  }
}

let signedIn = false;
form.addEventListener("submit", (e) => void onSubmit(e));
void checkAccess().then((access) => {
  signedIn = access.signedIn;
  if (!access.mayCreate) askToSignIn(form);
  if (access.signedIn) void showRecent();
});
for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-copy]")) {
  const target = byId(button.dataset.copy ?? "");
  bindCopyButton(button, () => target.textContent ?? "");
}
