// Home page: submits the create form to /api/create, shows API errors next to their field in the
// page language, and on success shows the short and stats URLs with copy buttons and a QR code.
import { toDataURL, toString as toSvgString } from "qrcode";
import type { MessageKey } from "../i18n/index.ts";
import { bindCopyButton, byId, lang, t } from "./common.ts";

type CreateOk = { success: true; data: { shortUrl: string; statsUrl: string } };
type CreateErr = { success: false; error?: string; code?: string; field?: string };

const form = byId<HTMLFormElement>("create-form");
const urlInput = byId<HTMLInputElement>("url");
const aliasInput = byId<HTMLInputElement>("custom_url");
const submit = byId<HTMLButtonElement>("submit");
const formError = byId("form-error");
const result = byId("result");
const shortField = byId<HTMLInputElement>("short-url");
const statsField = byId<HTMLInputElement>("stats-url");
const qrPng = byId<HTMLAnchorElement>("qr-png");
const qrSvg = byId<HTMLAnchorElement>("qr-svg");
const qrImg = byId<HTMLImageElement>("qr-img");

const FIELDS = { url: urlInput, custom_url: aliasInput } as const;
type Field = keyof typeof FIELDS;

// The host part may be cut with an ellipsis on narrow screens; the slash always shows.
byId("alias-prefix").append(Object.assign(document.createElement("span"), { className: "affix-host", textContent: location.host }), "/");

function messageFor(code: string | undefined, fallback: string | undefined): string {
  const key = `err_${code ?? "unknown"}` as MessageKey;
  const translated = t(key);
  if (translated !== key) return translated;
  return fallback || t("err_unknown");
}

function clearErrors(): void {
  for (const [name, input] of Object.entries(FIELDS)) {
    input.removeAttribute("aria-invalid");
    const box = byId(`${name}-error`);
    box.hidden = true;
    box.textContent = "";
  }
  formError.hidden = true;
  formError.textContent = "";
}

function showError(field: Field | null, text: string): void {
  if (field) {
    const input = FIELDS[field];
    const box = byId(`${field}-error`);
    box.textContent = text;
    box.hidden = false;
    input.setAttribute("aria-invalid", "true");
    input.focus();
  } else {
    formError.textContent = text;
    formError.hidden = false;
  }
}

/** Which field an error concerns: the API's `field`, else guessed from the code's prefix. */
function fieldOf(err: CreateErr): Field | null {
  if (err.field === "url" || err.field === "custom_url") return err.field;
  if (err.code?.startsWith("url_")) return "url";
  if (err.code?.startsWith("alias_")) return "custom_url";
  return null;
}

let qrUrls: string[] = [];

async function showQr(shortUrl: string, id: string): Promise<void> {
  for (const u of qrUrls) URL.revokeObjectURL(u);
  const svg = await toSvgString(shortUrl, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
  const svgUrl = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  qrUrls = [svgUrl];
  qrImg.src = svgUrl;
  qrImg.alt = t("qr_alt", { url: shortUrl });
  qrSvg.href = svgUrl;
  qrSvg.download = `qr-${id}.svg`;
  qrPng.href = await toDataURL(shortUrl, { type: "image/png", width: 1024, margin: 2, errorCorrectionLevel: "M" });
  qrPng.download = `qr-${id}.png`;
}

async function onSubmit(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  clearErrors();
  const url = urlInput.value.trim();
  const alias = aliasInput.value.trim();
  if (!url) return showError("url", t("err_url_missing"));
  if (alias && !/^[A-Za-z0-9_-]{3,30}$/.test(alias)) return showError("custom_url", t("err_alias_invalid"));

  const body = new FormData();
  body.set("url", url);
  body.set("custom_url", alias);
  submit.disabled = true;
  submit.textContent = t("submitting");
  try {
    // Accept-Language = the page language, so the API's statsUrl points at this language.
    const res = await fetch("/api/create", { method: "POST", body, headers: { "Accept-Language": lang } });
    const json = (await res.json().catch(() => ({ success: false }))) as CreateOk | CreateErr;
    if (!json.success) return showError(fieldOf(json), messageFor(json.code, json.error));
    const { shortUrl, statsUrl } = json.data;
    const id = decodeURIComponent(new URL(shortUrl).pathname.slice(1));
    shortField.value = shortUrl;
    statsField.value = statsUrl;
    byId<HTMLAnchorElement>("stats-link").href = statsUrl;
    result.hidden = false;
    await showQr(shortUrl, id);
    byId("result-title").focus();
  } catch {
    showError(null, t("err_network"));
  } finally {
    submit.disabled = false;
    submit.textContent = t("submit");
  }
}

form.addEventListener("submit", (e) => void onSubmit(e));
for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-copy]")) {
  const target = byId<HTMLInputElement>(button.dataset.copy ?? "");
  bindCopyButton(button, () => target.value);
}
