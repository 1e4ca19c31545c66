// A link's QR code drawn by the server (GET /<alias>/qr; docs/sharing.md: QR codes by URL): the
// options of web/server/qr-panel.ts make the image's address, which is shown to copy (a poster
// template or a print shop can fetch it), offered as the download, and is the image shown. The
// image comes from this page's own origin (CSP img-src 'self'): a link on another domain is picked
// with ?domain=, as the stats page's address does. A refused option (a contrast too low, a size out
// of bounds) is the server's 400: its message is shown in place of the image.
import { bindCopyButton, byId, t } from "./common.ts";

/** The endpoint's defaults (contract decision 7): an option at its default stays out of the address. */
export const QR_DEFAULTS = { format: "png", size: "600", margin: "2", level: "M", fg: "000000", bg: "ffffff" } as const;
export type QrOptions = { -readonly [K in keyof typeof QR_DEFAULTS]: string };

/** The path of a link's QR code on this origin: `domain` names a link that is not on the default domain. */
export function qrPath(id: string, domain: string | null, options: QrOptions): string {
  const params = new URLSearchParams();
  if (domain) params.set("domain", domain);
  for (const name of Object.keys(QR_DEFAULTS) as (keyof QrOptions)[]) {
    if (options[name] !== QR_DEFAULTS[name]) params.set(name, options[name]);
  }
  const query = params.toString();
  return `/${encodeURIComponent(id)}/qr${query ? `?${query}` : ""}`;
}

/** Waits this long after the last keystroke or colour drag before asking for a new image. */
const SETTLE_MS = 300;

export class QrPanel {
  private readonly img: HTMLImageElement;
  private readonly address: HTMLElement;
  private readonly download: HTMLAnchorElement;
  private readonly error: HTMLElement;
  private readonly inputs: Record<keyof QrOptions, HTMLInputElement | HTMLSelectElement>;
  private link: { id: string; domain: string | null } | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `p`: the ids' prefix the server markup was made with. */
  constructor(private readonly p: string) {
    this.img = byId<HTMLImageElement>(`${p}-img`);
    this.address = byId(`${p}-url`);
    this.download = byId<HTMLAnchorElement>(`${p}-download`);
    this.error = byId(`${p}-error`);
    this.inputs = { format: byId(`${p}-format`), size: byId(`${p}-size`), margin: byId(`${p}-margin`), level: byId(`${p}-level`), fg: byId(`${p}-fg`), bg: byId(`${p}-bg`) };
    for (const input of Object.values(this.inputs)) {
      input.addEventListener("input", () => this.settle());
      input.addEventListener("change", () => this.render());
    }
    bindCopyButton(byId<HTMLButtonElement>(`${p}-copy`), () => this.address.textContent ?? "");
    this.img.addEventListener("load", () => (this.img.hidden = false));
    this.img.addEventListener("error", () => void this.explain(this.img.getAttribute("src") ?? ""));
  }

  /** Shows the QR code of a link (alias and, off the default domain, its domain). */
  show(id: string, domain: string | null, shortUrl: string): void {
    this.link = { id, domain };
    this.img.alt = t("qr_alt", { url: shortUrl });
    this.render();
  }

  /** The options as set: a number left empty is its default; a colour without its "#". */
  private options(): QrOptions {
    const value = (name: keyof QrOptions) => this.inputs[name].value.trim() || QR_DEFAULTS[name];
    const colour = (name: "fg" | "bg") => value(name).replace(/^#/, "").toLowerCase();
    return { format: value("format"), size: value("size"), margin: value("margin"), level: value("level"), fg: colour("fg"), bg: colour("bg") };
  }

  private settle(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.render(), SETTLE_MS);
  }

  private render(): void {
    clearTimeout(this.timer);
    if (this.link === null) return;
    const options = this.options();
    const path = qrPath(this.link.id, this.link.domain, options);
    this.address.textContent = `${location.origin}${path}`;
    this.download.href = path;
    this.download.download = `qr-${this.link.id}.${options.format}`;
    byId(`${this.p}-download-label`).textContent = t(options.format === "svg" ? "download_svg" : "download_png");
    if (this.img.getAttribute("src") === path) return;
    this.error.hidden = true;
    this.img.src = path;
  }

  /** The image failed: the server's own words for why (its JSON error), unless the options moved on meanwhile. */
  private async explain(path: string): Promise<void> {
    const answer = await fetch(path, { credentials: "same-origin", headers: { Accept: "application/json" } }).catch(() => null);
    const body = (await answer?.json().catch(() => null)) as { error?: unknown } | null;
    if (this.img.getAttribute("src") !== path) return;
    this.img.hidden = true;
    this.error.textContent = typeof body?.error === "string" && body.error ? body.error : t("qr_failed");
    this.error.hidden = false;
  }
}
