// A link's QR code in a dialog, drawn by the same module as the home page's (PNG and SVG downloads).
import { byId, t } from "../common.ts";
import { QrCode } from "../qr.ts";
import type { Link } from "./api.ts";
import { openDialog } from "./dialogs.ts";

const dialog = byId<HTMLDialogElement>("qr-dialog");
const qr = new QrCode({ img: byId<HTMLImageElement>("qrd-img"), png: byId<HTMLAnchorElement>("qrd-png"), svg: byId<HTMLAnchorElement>("qrd-svg") });

export async function showQr(link: Link, returnTo?: () => HTMLElement | null): Promise<void> {
  byId("qr-dialog-title").textContent = t("qr_dialog_title", { id: link.id });
  byId("qrd-url").textContent = link.shortUrl;
  await qr.show(link.shortUrl, link.id);
  openDialog(dialog, returnTo);
}
