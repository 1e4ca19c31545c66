// QR codes of short URLs drawn in the browser, for the home page's result card only: an SVG (shown,
// and offered as a download through a blob URL) and a 1024 px PNG data URL. The new link's code is
// drawn here because under --stats-access key whoever made it may not read GET /<alias>/qr; the
// dashboard and the stats page show the server's own (qr-panel.ts), with its options.
import { toDataURL, toString as toSvgString } from "qrcode";
import { t } from "./common.ts";

export type QrTargets = { img: HTMLImageElement; png: HTMLAnchorElement; svg: HTMLAnchorElement };

const OPTIONS = { margin: 2, errorCorrectionLevel: "M" } as const;

/** Draws the QR code of `url` into the targets; downloads are named after the link id. */
export class QrCode {
  private blobUrl: string | null = null;

  constructor(private readonly targets: QrTargets) {}

  async show(url: string, id: string): Promise<void> {
    const { img, png, svg } = this.targets;
    const markup = await toSvgString(url, { type: "svg", ...OPTIONS });
    this.release();
    this.blobUrl = URL.createObjectURL(new Blob([markup], { type: "image/svg+xml" }));
    img.src = this.blobUrl;
    img.alt = t("qr_alt", { url });
    svg.href = this.blobUrl;
    svg.download = `qr-${id}.svg`;
    png.href = await toDataURL(url, { type: "image/png", width: 1024, ...OPTIONS });
    png.download = `qr-${id}.png`;
  }

  /** Frees the SVG's blob URL (the image keeps showing until the next show). */
  release(): void {
    if (this.blobUrl !== null) URL.revokeObjectURL(this.blobUrl);
    this.blobUrl = null;
  }
}
