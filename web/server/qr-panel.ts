// A link's QR code as the server draws it (GET /<alias>/qr, docs/sharing.md: QR codes by URL), shared
// by the dashboard's QR dialog and the stats page's empty state: the image, its options folded away,
// the image's own address to copy and a download of it. web/client/qr-panel.ts fills and wires it;
// every id starts with `prefix`.
import type { Language } from "../../src/lang.ts";
import type { MessageKey } from "../i18n/index.ts";
import { iconMarkup } from "../client/icons.ts";
import { t } from "./pages.ts";

const LEVELS = ["L", "M", "Q", "H"] as const;

function numberField(lang: Language, id: string, label: MessageKey, attrs: string): string {
  return `<div class="field"><label for="${id}">${t(lang, label)}</label><input id="${id}" type="number" step="1" inputmode="numeric" ${attrs}></div>`;
}

function colourField(lang: Language, id: string, label: MessageKey, value: string): string {
  return `<div class="field qr-colour"><label for="${id}">${t(lang, label)}</label><input id="${id}" type="color" value="${value}"></div>`;
}

/** The options, as the endpoint names them (contract decision 7): size, margin, level, fg, bg, format. */
function options(lang: Language, p: string): string {
  const levels = LEVELS.map((l) => `<option value="${l}"${l === "M" ? " selected" : ""}>${t(lang, `qr_level_${l}`)}</option>`).join("");
  return `<details class="advanced qr-options" id="${p}-options">
<summary><span class="advanced-title">${t(lang, "qr_options")}</span><span class="advanced-what">${t(lang, "qr_options_what")}</span></summary>
<div class="advanced-body qr-options-grid">
${numberField(lang, `${p}-size`, "qr_size", 'min="64" max="2048" value="600"')}
${numberField(lang, `${p}-margin`, "qr_margin", 'min="0" max="16" value="2"')}
<div class="field"><label for="${p}-level">${t(lang, "qr_level")}</label><select id="${p}-level">${levels}</select></div>
<div class="field"><label for="${p}-format">${t(lang, "qr_format")}</label><select id="${p}-format"><option value="png" selected>PNG</option><option value="svg">SVG</option></select></div>
${colourField(lang, `${p}-fg`, "qr_fg", "#000000")}
${colourField(lang, `${p}-bg`, "qr_bg", "#ffffff")}
</div>
</details>`;
}

/** The QR code's figure: `caption` (already markup) above the address and the download. */
export function qrPanel(lang: Language, p: string, caption = ""): string {
  return `<figure class="qr qr-panel">
<img id="${p}-img" width="176" height="176" alt="">
<figcaption>${caption}
<p class="field-error qr-error" id="${p}-error" role="alert" hidden></p>
${options(lang, p)}
<span class="qr-address"><span class="qr-address-label" id="${p}-url-label">${t(lang, "qr_url")}</span><code class="copy-value" id="${p}-url"></code></span>
<span class="qr-downloads"><button type="button" class="btn btn-small" id="${p}-copy" aria-describedby="${p}-url-label">${iconMarkup("copy")}${t(lang, "copy")}</button><a id="${p}-download" class="btn btn-small" href="#" download="qr.png">${iconMarkup("download")}<span id="${p}-download-label">${t(lang, "download_png")}</span></a></span>
<span class="hint qr-hint">${t(lang, "qr_url_hint")}</span>
</figcaption>
</figure>`;
}
