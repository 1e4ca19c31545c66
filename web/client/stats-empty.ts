// Whether the link redirects now (the status in the page head), and the one empty state a link
// without a single visit gets instead of an empty chart and empty lists: its short URL to copy,
// its QR code as the server draws it (qr-panel.ts: options and the image's address to copy) and
// whether it is active.
import type { MessageKey } from "../i18n/index.ts";
import type { StatsAnswer } from "../../src/api/types.ts";
import { bindCopyButton, byId, t } from "./common.ts";
import { QrPanel } from "./qr-panel.ts";

type Status = StatsAnswer["link"]["status"];

/** The badge's look per status: active reads as good news, the rest as a warning. */
function showStatus(badge: HTMLElement, status: Status): void {
  badge.textContent = t(`status_${status}` as MessageKey);
  badge.className = status === "active" ? "badge badge-active" : "badge badge-inactive";
  badge.dataset.status = status;
}

export class EmptyState {
  private readonly section = byId("stats-empty");
  private drawn = false;

  /** `domain`: the link's domain when the page was opened with ?domain= (else ""). */
  constructor(private readonly shortUrl: string, private readonly id: string, private readonly domain: string) {
    byId("empty-short-url").textContent = shortUrl;
    bindCopyButton(byId<HTMLButtonElement>("empty-copy"), () => shortUrl);
  }

  /** The status in the head, always; and the empty state or the figures, whichever the link needs. */
  show(link: StatsAnswer["link"], empty: boolean): void {
    showStatus(byId("link-status"), link.status);
    this.section.hidden = !empty;
    byId("stats-full").hidden = empty;
    // The short URL is in the empty state then: once is enough.
    byId("short-url-item").hidden = empty;
    if (!empty) return;
    showStatus(byId("empty-status"), link.status);
    byId("empty-lead-active").hidden = link.status !== "active";
    byId("empty-lead-inactive").hidden = link.status === "active";
    if (!this.drawn) this.drawQr();
  }

  /** The image is asked for once the empty state shows: a page with visits never loads it. */
  private drawQr(): void {
    this.drawn = true;
    // A share link's page has none (web/server/stats-page.ts emptyState).
    if (document.getElementById("empty-qr-img") === null) return;
    new QrPanel("empty-qr").show(this.id, this.domain || null, this.shortUrl);
  }
}
